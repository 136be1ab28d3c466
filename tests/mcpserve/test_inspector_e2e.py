"""`asi-agent mcp serve` driven by the MCP Inspector's command-line mode (npm's
`@modelcontextprotocol/inspector`, installed outside the repository by `scripts/install_mcp_inspector.py`):
list the tools, call `read_file`, call an edit, then `asi-agent undo` reverts it. Slow; in CI (`CI` set) it
runs, or fails without npm, rather than being skipped."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.asi_cli import asi, model_free_env

REPO = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("npm") is None and not os.environ.get("CI"), reason="the MCP Inspector comes from npm"
    ),
]


@pytest.fixture(scope="module")
def inspector() -> Path:
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "install_mcp_inspector.py")],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, f"installing the MCP Inspector failed: {done.stderr}"
    return Path(done.stdout.strip().splitlines()[-1])


def _inspect(inspector: Path, root: Path, *method: str) -> dict:
    env = {**model_free_env(), "ASI_CONFIG_DIR": str(root.parent / "config"), "LANG": "C.UTF-8"}
    server = [
        sys.executable,
        "-m",
        "asi_agent",
        "mcp",
        "serve",
        "--cwd",
        str(root),
        "--approval",
        "auto-edit",
    ]
    done = subprocess.run(
        [str(inspector), "--cli", *server, *method],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout[done.stdout.index("{") :])


def test_inspector_lists_reads_edits_and_undo_reverts(inspector: Path, tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "notes.txt").write_text("alpha\nbeta\n", encoding="utf-8")

    listed = _inspect(inspector, root, "--method", "tools/list")
    tools = {tool["name"]: tool for tool in listed["tools"]}
    assert len(tools) == 24
    assert tools["read_file"]["annotations"]["readOnlyHint"] is True
    published = json.loads((REPO / "tools" / "en" / "read_file.json").read_text(encoding="utf-8"))
    assert tools["read_file"]["inputSchema"] == published["function"]["parameters"]

    read = _inspect(
        inspector, root, "--method", "tools/call", "--tool-name", "read_file", "--tool-arg", "path=notes.txt"
    )
    assert read["isError"] is False and "beta" in read["content"][0]["text"]

    edit = _inspect(
        inspector,
        root,
        "--method",
        "tools/call",
        "--tool-name",
        "replace_text",
        "--tool-arg",
        "path=notes.txt",
        "oldText=beta",
        "newText=gamma",
    )
    assert edit["isError"] is False, edit
    assert (root / "notes.txt").read_text(encoding="utf-8") == "alpha\ngamma\n"

    undone = asi("undo", "--cwd", str(root), cwd=root)
    assert undone.returncode == 0, undone.stderr
    assert (root / "notes.txt").read_text(encoding="utf-8") == "alpha\nbeta\n"
