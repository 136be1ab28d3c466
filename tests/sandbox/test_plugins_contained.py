"""Command plugins run in the sandbox with what their manifest entry declares: a folder they may write,
the network. Through the real `asi-agent run` with the scripted model."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from asi_cli import model_free_env, tool_results

from asi_agent.sandbox import find_bwrap, unavailable

pytestmark = pytest.mark.skipif((why := unavailable(find_bwrap())) is not None, reason=f"no sandbox: {why}")

WRITER = "import sys, pathlib; pathlib.Path(sys.argv[1], 'marker').write_text('x'); print('wrote')"


def _run(tmp_path: Path, run: dict[str, Any]) -> str:
    root, outside = tmp_path / "project", tmp_path / "outside"
    root.mkdir(exist_ok=True)
    outside.mkdir(exist_ok=True)
    (outside / "marker").unlink(missing_ok=True)
    tool = {"name": "mark", "description": "write a marker", "risk": "write", "run": run,
            "parameters": {"type": "object", "properties": {}}}  # fmt: skip
    (root / "moss-tools.json").write_text(json.dumps({"version": 1, "tools": [tool]}), encoding="utf-8")
    replies = [{"text": "", "tool_calls": [{"name": "mark", "arguments": {}}]}, "Done.\nAGENT_STATUS: DONE"]
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"native": True, "replies": replies}), encoding="utf-8")
    env = model_free_env()
    env.update(ASI_CONFIG_DIR=str(tmp_path / "config"), TMPDIR=str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir(exist_ok=True)
    done = subprocess.run(
        [sys.executable, "-m", "asi_agent", "run", "--provider", "scripted", "--model", str(script), "--yes",
         "--trust", "--output-format", "json", "mark"],
        cwd=root, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return "wrote" if (outside / "marker").exists() else str(result["tool_calls"][0]["error"])


def test_a_command_plugin_writes_outside_only_where_its_manifest_entry_says(tmp_path: Path) -> None:
    command = [sys.executable, "-c", WRITER, str(tmp_path / "outside")]
    refused = _run(tmp_path, {"type": "command", "command": command})
    assert "No such file or directory" in refused  # the host's /tmp is not even seen: a private one is
    allowed = [str(tmp_path / "outside")]
    assert _run(tmp_path, {"type": "command", "command": command, "writable": allowed}) == "wrote"


def test_a_command_plugin_gets_the_filtered_environment_its_own_variables_and_limits(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    show = 'ulimit -t; echo "token=${GITHUB_TOKEN:-none} mode=$PLUGIN_MODE root=$ASI_PROJECT_ROOT"'
    run = {"type": "command", "command": ["sh", "-c", show], "env": {"PLUGIN_MODE": "on"}}
    tool = {"name": "show", "description": "show its environment", "risk": "read", "run": run,
            "parameters": {"type": "object", "properties": {}}}  # fmt: skip
    (root / "moss-tools.json").write_text(json.dumps({"version": 1, "tools": [tool]}), encoding="utf-8")
    replies = [{"text": "", "tool_calls": [{"name": "show", "arguments": {}}]}, "Done.\nAGENT_STATUS: DONE"]
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"native": True, "replies": replies}), encoding="utf-8")
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text("[sandbox.limits]\ncpu_seconds = 7\n", encoding="utf-8")
    env = model_free_env()
    env.update(ASI_CONFIG_DIR=str(tmp_path / "config"), GITHUB_TOKEN="FAKE-GITHUB-TOKEN")
    done = subprocess.run(
        [sys.executable, "-m", "asi_agent", "run", "--provider", "scripted", "--model", str(script), "--yes",
         "--trust", "--output-format", "json", "show"],
        cwd=root, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    seen = "\n".join(tool_results(root, json.loads(done.stdout.strip().splitlines()[-1])["session_id"]))
    assert seen.split()[:4] == ["7", "token=none", "mode=on", f"root={root}"], seen
