"""The local provider's start: what a run imports, the benchmark's mark of the first model request, and
token counts over the standard library's HTTP client. `slow` tests load the embedded GGUF model."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from asi_cli import model_free_env

from asi_agent.backends.local import MARKS_ENV, LocalBackend, LocalBackendConfig
from asi_agent.backends.local_tokens import LocalTokenizer

NOT_FOR_THE_LOCAL_PATH = ("httpx", "httpx2", "openai", "ollama", "git", "json_repair")
"""Libraries a local run in a folder outside git does not need before its first model request."""
RUN_OPTIONS = ("--provider", "local", "--output-format", "json", "--max-turns", "1", "--approval", "plan")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port  # closed again: nothing listens there


def test_tokenizer_without_a_server_answers_none_and_stops_asking() -> None:
    tokenizer = LocalTokenizer(f"http://127.0.0.1:{_free_port()}", "key")
    assert tokenizer.count("hello") is None
    assert tokenizer.count("hello") is None  # remembered: no second connection attempt is needed
    tokenizer.close()


def test_a_local_run_imports_no_network_client_scripted_backend_or_manifest_models() -> None:
    # The manifest's models are built only when a project or the user has a moss-tools.json; the
    # command classifier's rules when a command is to be judged.
    unwanted = (
        *NOT_FOR_THE_LOCAL_PATH,
        "asi_agent.backends.scripted",
        "asi_agent.plugins.manifest",
        "asi_agent.policy.danger",
    )
    code = (
        "import sys, asi_agent.ui.headless, asi_agent.providers, asi_agent.backends.local\n"
        f"print([m for m in {unwanted!r} if m in sys.modules])"
    )
    command = [sys.executable, "-c", code]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "[]"


@pytest.mark.slow
async def test_tokenizer_counts_with_the_models_own_tokenizer() -> None:
    backend = LocalBackend(LocalBackendConfig(threads=1))
    try:
        short = await backend.count_tokens("hello")
        longer = await backend.count_tokens("hello world, this sentence has a few more tokens in it")
        assert short is not None and longer is not None
        assert 0 < short < longer
    finally:
        await backend.aclose()


@pytest.mark.slow
def test_local_run_marks_its_model_request_and_loads_only_what_it_needs(tmp_path: Path) -> None:
    """The opt-in mark the start-up benchmark reads: the moment the model is asked, once per request."""
    project = tmp_path / "project"
    (project / ".asi").mkdir(parents=True)
    (project / "hello.py").write_text("print('hello')\n")
    (project / ".asi" / "config.toml").write_text("max_tokens = 16\n")
    marks = tmp_path / "marks"
    env = {**model_free_env(), "ASI_CONFIG_DIR": str(tmp_path / "user"), MARKS_ENV: str(marks)}
    started = time.time()
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "asi_agent", "run", *RUN_OPTIONS, "hello"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    ended = time.time()
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["status"] in ("DONE", "STOP", "MAX_TURNS"), proc.stderr[-2000:]
    lines = marks.read_text().splitlines()
    assert lines and all(line.endswith(" chat request") for line in lines)
    assert started < float(lines[0].split()[0]) < ended
    imported = {
        line.rsplit("|", 1)[1].strip().split(".")[0]
        for line in proc.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    assert "xllamacpp" in imported
    assert not imported & set(NOT_FOR_THE_LOCAL_PATH)
