"""The run's hook events through the real CLI: UserPromptSubmit, SessionStart, Stop, SubagentStop, and a
trusted project's hooks running inside the sandbox."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from asi_cli import asi, model_free_env
from ext_cli import call, run, user_messages

DONE = "Finished.\nAGENT_STATUS: DONE"


def settings(folder: Path, hooks: dict[str, str], name: str = "settings.json") -> None:
    """A settings file with one command per event."""
    body = {event: [{"hooks": [{"type": "command", "command": command}]}] for event, command in hooks.items()}
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps({"hooks": body}))


def script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text("import json, sys\npayload = json.load(sys.stdin)\n" + body)
    return f"{sys.executable} {path}"


def test_prompt_hooks_add_context_or_block(project: Path, tmp_path: Path) -> None:
    start = script(tmp_path, "start", "print('SESSION-CONTEXT')\n")
    prompt = script(tmp_path, "prompt", "print('PROMPT-CONTEXT for ' + payload['prompt'])\n")
    settings(project / ".user-config", {"SessionStart": start, "UserPromptSubmit": prompt})
    result, stderr = run(project, "what is here?", [DONE])
    assert result["status"] == "DONE", stderr
    assert user_messages(project, result["session_id"]) == [
        "what is here?\n\nSESSION-CONTEXT\n\nPROMPT-CONTEXT for what is here?"
    ]

    block = script(
        tmp_path, "block", "print('no prompts about ' + payload['prompt'], file=sys.stderr)\nsys.exit(2)\n"
    )
    settings(project / ".user-config", {"UserPromptSubmit": block})
    result, _ = run(project, "secrets", [])  # the model is never asked: the script has no reply for it
    assert result["status"] == "STOP" and "no prompts about secrets" in result["result"]
    assert result["turns"] == 0


def test_stop_hook_sends_the_agent_on_once(project: Path, tmp_path: Path) -> None:
    log = tmp_path / "stops.jsonl"
    stop = script(
        tmp_path,
        "stop",
        f"open({str(log)!r}, 'a').write(json.dumps(payload) + '\\n')\n"
        "if not payload['stop_hook_active']:\n"
        "    print(json.dumps({'decision': 'block', 'reason': 'RUN-THE-TESTS-FIRST'}))\n",
    )
    settings(project / ".user-config", {"Stop": stop})
    result, stderr = run(project, "finish", ["First ending.\nAGENT_STATUS: DONE", DONE])
    assert result["status"] == "DONE" and result["result"] == "Finished.", stderr
    assert user_messages(project, result["session_id"]) == ["finish", "RUN-THE-TESTS-FIRST"]
    seen = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(p["hook_event_name"], p["stop_hook_active"]) for p in seen] == [("Stop", False), ("Stop", True)]


def test_subagent_stop_fires_for_the_child(project: Path, tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    record = script(
        tmp_path, "record", f"open({str(log)!r}, 'a').write(payload['hook_event_name'] + '\\n')\n"
    )
    settings(project / ".user-config", {"SubagentStop": record, "Stop": record, "SessionEnd": record})
    replies = [call("task", description="look", prompt="Look around"), "Nothing.\nAGENT_STATUS: DONE", DONE]
    result, stderr = run(project, "look around", replies)
    assert result["status"] == "DONE", stderr
    assert log.read_text().split() == ["SubagentStop", "Stop", "SessionEnd"]


def test_trusted_project_hooks_run_inside_the_sandbox(project: Path, tmp_path: Path) -> None:
    (project / ".asi").mkdir()
    touch = "touch hook-ran.txt; touch .asi/hook-escaped.txt"
    settings(project / ".claude", {"PreToolUse": touch})
    script_file = tmp_path / "model.json"
    script_file.write_text(json.dumps({"replies": [call("list_directory", path="."), DONE]}))
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(project / ".user-config")
    done = subprocess.run(
        [sys.executable, "-m", "asi_agent", "run", "--provider", "scripted", "--model", str(script_file),
         "--trust", "--output-format", "json", "list"],
        cwd=project, capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["status"] == "DONE" and result["sandbox"] == "bubblewrap", done.stderr
    assert (project / "hook-ran.txt").exists()  # it ran, in the project it may write
    assert not (project / ".asi" / "hook-escaped.txt").exists()  # the runtime's state is read-only to it
    listed = asi("hooks", "--trust", cwd=project)
    assert "sandbox" in listed.stdout and ".claude/settings.json" in listed.stdout
