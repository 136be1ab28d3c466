"""Real coding agents nobody here wrote, pointed at `asi-agent serve` in front of a scripted upstream that
has no native tools: each finishes a read-then-edit task with its own tools. The clients are installed
from npm by `scripts/install_clients.sh` into a folder outside the repository (slow; needs the registry)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from servers.openai_server import Reply

from gateway.conftest import Gateway

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def clients_bin() -> Path:
    """The folder holding `claude` and `codex` (installed on first use)."""
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed")
    done = subprocess.run(
        [str(REPO / "scripts" / "install_clients.sh")],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    if done.returncode != 0:
        pytest.fail(f"installing the clients failed:\n{done.stderr[-2000:]}")
    return Path(done.stdout.strip().splitlines()[-1])


def _results(body: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content")) for m in body["messages"] if m["role"] == "user")


def agent_upstream(read: str, edit: Callable[[str], str]) -> Callable[[dict[str, Any]], Reply]:
    """A text-only model that reads the file, then edits it, then answers — deciding from the history
    (the client may send other requests in between: they get a short plain answer)."""

    def answer(body: dict[str, Any]) -> Reply:
        system = str(body["messages"][0].get("content")) if body["messages"] else ""
        if "[TOOL_CALL]" not in system and "<tool_call>" not in system:
            return Reply(text="ok")
        results = _results(body)
        frames = results.count("[TOOL_RESULT ")
        if frames == 0:
            return Reply(text=f"I will read it first.\n{read}")
        if frames == 1:
            return Reply(text=edit(results))
        return Reply(text="Changed hello to goodbye in a.py.\nAGENT_STATUS: DONE")

    return answer


def project(tmp_path: Path) -> Path:
    """A folder with the file to change."""
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "a.py").write_text("print('hello')\n", encoding="utf-8")
    return folder


def test_claude_code_reads_then_edits_through_the_gateway(
    gateway: Gateway, clients_bin: Path, tmp_path: Path
) -> None:
    folder = project(tmp_path)
    path = folder / "a.py"
    read = f'[TOOL_CALL]Read[ARGS]{{"file_path": "{path}"}}'
    edit = json.dumps({"file_path": str(path), "old_string": "hello", "new_string": "goodbye"})
    gateway.upstream.reply(*[agent_upstream(read, lambda _r: f"[TOOL_CALL]Edit[ARGS]{edit}")] * 40)
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE_"))}
    env |= {"HOME": str(home), "ANTHROPIC_BASE_URL": gateway.url, "ANTHROPIC_API_KEY": "unused"}
    env |= {"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1"}
    command = [
        str(clients_bin / "claude"),
        "-p",
        "In a.py, change hello to goodbye.",
        "--output-format",
        "json",
    ]
    command += ["--allowedTools", "Read", "Edit", "--model", "claude-sonnet-4-5"]
    done = subprocess.run(
        command, cwd=folder, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert path.read_text(encoding="utf-8") == "print('goodbye')\n"
    assert "Changed hello to goodbye" in json.loads(done.stdout)["result"]
    logged = gateway.entries()
    assert sum(entry.get("calls", 0) for entry in logged if entry["api"] == "anthropic") >= 2


def test_codex_exec_reads_then_edits_through_the_gateway(
    gateway: Gateway, clients_bin: Path, tmp_path: Path
) -> None:
    folder = project(tmp_path)
    subprocess.run(["git", "init", "-q"], cwd=folder, check=True)
    read = '[TOOL_CALL]exec_command[ARGS]{"cmd": "cat a.py"}'

    def edit(results: str) -> str:
        assert re.search(r"print\('hello'\)", results), results[-500:]
        # The edit goes through its command tool: this Codex offers apply_patch to custom providers' models
        # of unknown metadata only as a call it then rejects ("unsupported call").
        script = "import pathlib; p = pathlib.Path('a.py'); "
        script += "p.write_text(p.read_text().replace('hello', 'goodbye'))"
        return "[TOOL_CALL]exec_command[ARGS]" + json.dumps({"cmd": f'python3 -c "{script}"'})

    gateway.upstream.reply(*[agent_upstream(read, edit)] * 40)
    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    config = (
        'model = "test-model"\nmodel_provider = "asi"\n\n[model_providers.asi]\nname = "asi"\n'
        f'base_url = "{gateway.v1}"\nwire_api = "responses"\n'
    )
    (home / ".codex" / "config.toml").write_text(config, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODEX_"))}
    env |= {"HOME": str(home), "CODEX_HOME": str(home / ".codex"), "OPENAI_API_KEY": "unused"}
    # Its own sandbox is not what is tested here; the scripted commands only read and edit a.py in tmp.
    command = [
        str(clients_bin / "codex"),
        "exec",
        "--skip-git-repo-check",
        "--dangerously-bypass-approvals-and-sandbox",
    ]
    command += ["In a.py, change hello to goodbye."]
    done = subprocess.run(
        command, cwd=folder, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert (folder / "a.py").read_text(encoding="utf-8") == "print('goodbye')\n"
