"""Hooks in Claude Code's format through the real CLI: blocking, decisions, results, timeouts, trust."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from asi_cli import asi
from ext_cli import call, run

DONE = "Finished.\nAGENT_STATUS: DONE"


def hook_script(folder: Path, name: str, body: str) -> str:
    """A Python hook script in `folder`; the command line that runs it."""
    path = folder / f"{name}.py"
    path.write_text("import json, sys\npayload = json.load(sys.stdin)\n" + body)
    return f"{sys.executable} {path}"


def user_hooks(project: Path, event: str, command: str, matcher: str = "", **extra: Any) -> None:
    settings = {
        "hooks": {event: [{"matcher": matcher, "hooks": [{"type": "command", "command": command, **extra}]}]}
    }
    (project / ".user-config" / "settings.json").write_text(json.dumps(settings))


def tool_outputs(project: Path, session_id: str) -> list[str]:
    path = project / ".asi" / "sessions" / f"{session_id}.jsonl"
    found = [json.loads(line) for line in path.read_text().splitlines()]
    return [
        r["message"]["content"]
        for r in found
        if r.get("type") == "message" and r["message"]["role"] == "tool"
    ]


def test_pre_tool_use_exit_2_blocks_and_the_model_sees_stderr(project: Path, tmp_path: Path) -> None:
    command = hook_script(tmp_path, "guard", "print('NO-NEW-FILES-HERE', file=sys.stderr)\nsys.exit(2)\n")
    user_hooks(project, "PreToolUse", command, "Write")
    result, stderr = run(
        project, "make a file", [call("create_file", path="a.txt", content="x"), DONE], "--yes"
    )
    assert not (project / "a.txt").exists()
    [output] = tool_outputs(project, result["session_id"])
    assert "NO-NEW-FILES-HERE" in output, stderr


@pytest.mark.parametrize(
    ("decision", "approval", "created"),
    [("deny", "--yes", False), ("ask", "--yes", False), ("allow", "--approval=ask", True)],
)
def test_permission_decision_is_honoured(
    project: Path, tmp_path: Path, decision: str, approval: str, created: bool
) -> None:
    said = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": decision,
                                   "permissionDecisionReason": f"REASON-{decision}"}}  # fmt: skip
    command = hook_script(tmp_path, "decide", f"print(json.dumps({said!r}))\n")
    user_hooks(project, "PreToolUse", command, "create_file")
    result, stderr = run(
        project, "make a file", [call("create_file", path="a.txt", content="x"), DONE], approval
    )
    assert (project / "a.txt").exists() is created, stderr
    if not created:
        [output] = tool_outputs(project, result["session_id"])
        assert "permission denied" in output and (decision == "ask" or "REASON-deny" in output), output


def test_post_tool_use_gets_the_tool_response(project: Path, tmp_path: Path) -> None:
    (project / "data.txt").write_text("CONTENT-MARKER\n")
    seen = tmp_path / "seen.json"
    command = hook_script(
        tmp_path,
        "post",
        f"open({str(seen)!r}, 'w').write(json.dumps(payload))\n"
        "print(json.dumps({'hookSpecificOutput': {'additionalContext': 'CONTEXT-MARKER'}}))\n",
    )
    user_hooks(project, "PostToolUse", command, "Read")
    result, _ = run(project, "read it", [call("read_file", path="data.txt"), DONE], "--yes")
    payload = json.loads(seen.read_text())
    assert payload["hook_event_name"] == "PostToolUse" and payload["tool_name"] == "read_file"
    assert payload["tool_input"]["path"] == "data.txt" and payload["session_id"] == result["session_id"]
    assert "CONTENT-MARKER" in payload["tool_response"]["output"] and payload["tool_response"]["success"]
    assert Path(payload["transcript_path"]).is_file() and payload["cwd"] == str(project.resolve())
    assert "CONTEXT-MARKER" in tool_outputs(project, result["session_id"])[0]


def test_a_hook_that_hangs_is_stopped_at_its_timeout(project: Path, tmp_path: Path) -> None:
    command = hook_script(tmp_path, "slow", "import time\ntime.sleep(60)\n")
    user_hooks(project, "PreToolUse", command, "", timeout=1)
    started = time.monotonic()
    result, stderr = run(project, "list", [call("list_directory", path="."), DONE], "--yes")
    assert time.monotonic() - started < 30
    assert "timed out after 1 s" in stderr
    assert result["tool_calls"] == [{"name": "list_directory", "ok": True, "error": None}]


def test_untrusted_folder_hooks_are_not_run(project: Path, tmp_path: Path) -> None:
    marker = tmp_path / "HOOK-RAN"
    touch = [{"type": "command", "command": f"touch {marker}"}]
    events = {"UserPromptSubmit": [{"hooks": touch}], "PreToolUse": [{"matcher": "*", "hooks": touch}]}
    settings = {"hooks": events}
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    result, stderr = run(project, "list", [call("list_directory", path="."), DONE], "--yes")
    assert result["status"] == "DONE", stderr
    assert not marker.exists()
    assert ".claude/settings.json: hooks" in stderr
    listed = asi("hooks", cwd=project)
    assert listed.returncode == 0 and "no hooks" in listed.stdout and ".claude/settings.json" in listed.stderr


def test_hooks_command_lists_the_active_hooks(project: Path) -> None:
    user_hooks(project, "PostToolUse", "echo hi", "Edit", timeout=5)
    listed = asi("hooks", cwd=project)
    assert listed.returncode == 0, listed.stderr
    assert "PostToolUse" in listed.stdout and "Edit" in listed.stdout and "echo hi" in listed.stdout
