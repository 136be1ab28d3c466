"""`asi-agent --help` must stay fast: no heavy library may be imported to print it."""

import subprocess
import sys

HEAVY = ("textual", "openai", "ollama", "tree_sitter", "xllamacpp", "mcp", "httpx", "pydantic", "acp")
SERVER = ("httptools", "uvloop", "uvicorn", "starlette")
"""The gateway's HTTP server stack: loaded by `asi-agent serve` only when it serves."""


def _imported(*args: str) -> set[str]:
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "asi_agent", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    modules = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            modules.add(line.rsplit("|", 1)[1].strip().split(".")[0])
    assert "asi_agent" in modules
    return modules


def test_help_imports_no_heavy_library():
    assert not set(HEAVY + SERVER) & _imported("--help")


def test_serve_help_imports_no_server():
    assert not set(HEAVY + SERVER) & _imported("serve", "--help")


def test_run_help_imports_no_heavy_library():
    assert not set(HEAVY) & _imported("run", "--help")


def test_acp_help_imports_no_heavy_library():
    """`asi-agent acp --help` does not load the protocol's SDK."""
    assert not set(HEAVY) & _imported("acp", "--help")
