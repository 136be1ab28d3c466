"""Tool annotations of a third-party MCP server (`mcp-server-git` from PyPI) decide the permission class
of its tools, through the real `asi-agent run` with the scripted model: `git_status` (readOnlyHint) runs
in ask mode, `git_add` (additive write) runs in auto-edit, `git_reset` (destructiveHint) asks even there
and runs only in yolo; a `risk` the configuration sets wins over the hints."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.asi_cli import model_free_env

pytest.importorskip("mcp_server_git")
pytestmark = pytest.mark.skipif(not Path("/usr/bin/git").exists(), reason="needs git")


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True)
    return done.stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q")
    _git(
        root,
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.invalid",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "0",
    )
    (root / "new.txt").write_text("new\n", encoding="utf-8")
    return root


def _run(
    tmp_path: Path, root: Path, calls: list[dict[str, Any]], *flags: str, risk: str | None = None
) -> Any:
    """`asi-agent run` whose scripted model makes `calls`; the user's manifest declares mcp-server-git."""
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    server: dict[str, Any] = {"command": sys.executable, "args": ["-m", "mcp_server_git"]}
    if risk:
        server["risk"] = risk
    (config / "moss-tools.json").write_text(json.dumps({"version": 1, "mcpServers": {"git": server}}))
    replies = [{"text": "", "tool_calls": [call]} for call in calls] + ["Done.\nAGENT_STATUS: DONE"]
    model = tmp_path / "script.json"
    model.write_text(json.dumps({"native": True, "replies": replies}))
    env = {**model_free_env(), "ASI_CONFIG_DIR": str(config)}
    argv = ["run", "--provider", "scripted", "--model", str(model), "--output-format", "json", *flags, "go"]
    done = subprocess.run(
        [sys.executable, "-m", "asi_agent", *argv],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def _call(root: Path, name: str, **more: Any) -> dict[str, Any]:
    return {"name": f"git__{name}", "arguments": {"repo_path": str(root), **more}}


def test_read_only_runs_and_a_write_asks_in_ask_mode(tmp_path: Path, repo: Path) -> None:
    calls = [_call(repo, "git_status"), _call(repo, "git_add", files=["new.txt"])]
    result = _run(tmp_path, repo, calls)
    status, add = result["tool_calls"]
    assert status["ok"] is True, status
    assert add["ok"] is False and "permission denied" in add["error"]
    assert "new.txt" not in _git(repo, "diff", "--cached", "--name-only")


def test_additive_write_runs_in_auto_edit_but_destructive_asks(tmp_path: Path, repo: Path) -> None:
    calls = [_call(repo, "git_add", files=["new.txt"]), _call(repo, "git_reset")]
    result = _run(tmp_path, repo, calls, "--approval", "auto-edit", "--no-sandbox")
    add, reset = result["tool_calls"]
    assert add["ok"] is True, add
    assert reset["ok"] is False and "permission denied" in reset["error"]
    assert _git(repo, "diff", "--cached", "--name-only").split() == ["new.txt"]


def test_destructive_asks_even_where_a_rule_allows(tmp_path: Path, repo: Path) -> None:
    """A policy rule allowing every git tool lets git_add run in ask mode, but git_reset still asks."""
    policy = tmp_path / "allow-git.toml"
    policy.write_text(
        'name = "allow-git"\nextends = "default"\n[[rules]]\ntool = "git__*"\naction = "allow"\n'
    )
    calls = [_call(repo, "git_add", files=["new.txt"]), _call(repo, "git_reset")]
    result = _run(tmp_path, repo, calls, "--policy", str(policy), "--no-sandbox")
    add, reset = result["tool_calls"]
    assert add["ok"] is True, add
    assert reset["ok"] is False and "destructive" in reset["error"]
    assert _git(repo, "diff", "--cached", "--name-only").split() == ["new.txt"]


def test_destructive_runs_in_yolo(tmp_path: Path, repo: Path) -> None:
    calls = [_call(repo, "git_add", files=["new.txt"]), _call(repo, "git_reset")]
    result = _run(tmp_path, repo, calls, "--yes", "--no-sandbox")
    assert [c["ok"] for c in result["tool_calls"]] == [True, True], result["tool_calls"]
    assert _git(repo, "diff", "--cached", "--name-only").split() == []


def test_a_configured_risk_wins_over_the_hints(tmp_path: Path, repo: Path) -> None:
    """The person's `risk: "execute"` makes even the read-only git_status ask (no terminal: refused)."""
    result = _run(tmp_path, repo, [_call(repo, "git_status")], risk="execute")
    assert result["tool_calls"][0]["ok"] is False
