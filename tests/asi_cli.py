"""Running the real `asi-agent` command as a subprocess, with no TTY (or, for progress, only stderr on a
pseudo-terminal) and a private user config folder."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def model_free_env() -> dict[str, str]:
    """This process's environment without the model settings (`ASI_*`, `OPENAI_*`, `OLLAMA_*`) of
    whoever runs the tests."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("ASI_", "OPENAI_", "OLLAMA_"))}


def asi(*args: str, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """`asi-agent ARGS` in `cwd`, with none of the model settings of whoever runs the tests."""
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(cwd / ".user-config")
    return subprocess.run(
        [sys.executable, "-m", "asi_agent", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )


def cli_env(project: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a run in `project`: no model settings of whoever runs the tests, the user config
    folder beside the project (`../user-config`), then `extra`."""
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(project.parent / "user-config")
    return env | dict(extra or {})


def run_cli(
    *args: str,
    cwd: Path,
    stdin: str | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """`asi-agent ARGS` in `cwd` with no terminal, as CI runs it: `stdin` typed in (none: nothing to
    read), the environment `cli_env(cwd, env)`."""
    return subprocess.run(
        [sys.executable, "-m", "asi_agent", *args],
        cwd=cwd,
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True,
        text=True,
        env=cli_env(cwd, env),
        timeout=timeout,
        check=False,
    )


def write_script(folder: Path, replies: Sequence[Any]) -> Path:
    """The scripted model's script in `folder/script.json` (native tool calls): `replies` in order."""
    script = folder / "script.json"
    script.write_text(json.dumps({"native": True, "replies": list(replies)}), encoding="utf-8")
    return script


def tool_call(name: str, **arguments: Any) -> dict[str, Any]:
    """A scripted reply that makes one native tool call, `name` with `arguments`, and says nothing."""
    return {"text": "", "tool_calls": [{"name": name, "arguments": arguments}]}


def scripted_run(
    project: Path,
    replies: Sequence[Any],
    *args: str,
    env: Mapping[str, str] | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """`asi-agent run --provider scripted --model SCRIPT ARGS` in `project` with no terminal, the script
    of `replies` and the user config folder beside the project. ARGS end with the task."""
    script = write_script(project.parent, replies)
    command = ["run", "--provider", "scripted", "--model", str(script), *args]
    return run_cli(*command, cwd=project, env=env, timeout=timeout)


def last_json(stdout: str) -> dict[str, Any]:
    """The last line of `stdout` as a JSON object: the result of `--output-format json`."""
    result: dict[str, Any] = json.loads(stdout.strip().splitlines()[-1])
    return result


def run_with_terminal_stderr(
    command: Sequence[str], *, cwd: Path, env: Mapping[str, str], timeout: float = 60
) -> tuple[int, str, str]:
    """`command` with stdout a pipe and stderr a real pseudo-terminal, as `asi-agent run … > file` runs:
    its exit code, stdout and everything drawn on the terminal."""
    main, secondary = pty.openpty()
    proc = subprocess.Popen(
        list(command),
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=secondary,
    )
    os.close(secondary)
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                data = os.read(main, 4096)
            except OSError:  # the terminal's other end closed
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain)
    reader.start()
    out, _ = proc.communicate(timeout=timeout)
    reader.join(timeout=10)
    os.close(main)
    return proc.returncode, out.decode(), b"".join(chunks).decode(errors="replace")


def tool_results(root: Path, session_id: str) -> list[str]:
    """The tool results as the model received them, from the session's transcript, in order."""
    transcript = root / ".asi" / "sessions" / f"{session_id}.jsonl"
    records = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    messages = [r["message"] for r in records if r.get("type") == "message"]
    return [m["content"] for m in messages if m["role"] == "tool"]


def text_mode_run(base_url: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`asi-agent run --provider openai --base-url URL --model test-model --tool-mode text --yes ARGS` in
    `cwd`, with a user config folder beside the project."""
    command = ["run", "--provider", "openai", "--base-url", base_url]
    return run_cli(*command, "--model", "test-model", "--tool-mode", "text", "--yes", *args, cwd=cwd)
