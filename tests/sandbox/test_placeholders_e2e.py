"""Placeholders the sandbox makes for missing protected files do not outlive the run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from asi_cli import model_free_env

from asi_agent.sandbox import find_bwrap, unavailable

pytestmark = pytest.mark.skipif(
    (why := unavailable(find_bwrap())) is not None, reason=f"no sandbox on this machine: {why}"
)

SERVER = Path(__file__).resolve().parents[2] / "plugins" / "mcp_server.py"


def test_an_mcp_server_leaves_no_placeholder_in_the_project(tmp_path: Path) -> None:
    """A user's MCP server runs in the sandbox for the whole session: the empty read-only folders that
    stood in for the project's missing `moss-tools.json` and `.mcp.json` are gone when the run ends."""
    root, config = tmp_path / "project", tmp_path / "config"
    root.mkdir()
    config.mkdir()
    (root / "a.py").write_text("x = 1\n", encoding="utf-8")
    server = {"command": sys.executable, "args": [str(SERVER)]}
    manifest = {"version": 1, "tools": [], "mcpServers": {"demo": server}}
    (config / "moss-tools.json").write_text(json.dumps(manifest), encoding="utf-8")
    call = {"name": "demo__slugify", "arguments": {"text": "Hello World"}}
    script = tmp_path / "script.json"
    replies = [{"text": "", "tool_calls": [call]}, "Done.\nAGENT_STATUS: DONE"]
    script.write_text(json.dumps({"native": True, "replies": replies}), encoding="utf-8")
    env = {**model_free_env(), "ASI_CONFIG_DIR": str(config)}
    done = subprocess.run(
        [sys.executable, "-m", "asi_agent", "run", "--provider", "scripted", "--model", str(script),
         "--yes", "--output-format", "json", "slug"],
        cwd=root, env=env, capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["tool_calls"][0]["ok"], done.stderr
    assert sorted(p.name for p in root.iterdir()) == [".asi", "a.py"]
