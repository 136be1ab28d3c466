"""`PreCompact` on automatic compaction and `Notification` beyond approvals, through the real CLI: the
payloads Claude Code sends (`trigger`, `notification_type`), in the order the events happen."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from asi_cli import model_free_env
from ext_cli import call, run

DONE = "Read them all.\nAGENT_STATUS: DONE"


def recording_hooks(
    project: Path, tmp_path: Path, events: list[str], config: str = "", *, manual_only: Path | None = None
) -> Path:
    """User hooks that append each payload to a log; `config`: the user's config.toml. `manual_only`: a
    second `PreCompact` hook, matching only the `manual` trigger, logs there."""
    log = tmp_path / "hooks.jsonl"
    hook = tmp_path / "record.py"
    hook.write_text("import sys\nopen(sys.argv[1], 'a').write(sys.stdin.read().strip() + '\\n')\n")
    entry = [{"hooks": [{"type": "command", "command": f"{sys.executable} {hook} {log}"}]}]
    hooks: dict[str, Any] = dict.fromkeys(events, entry)
    if manual_only is not None:
        command = f"{sys.executable} {hook} {manual_only}"
        hooks["PreCompact"] = [
            *entry,
            {"matcher": "manual", "hooks": [{"type": "command", "command": command}]},
        ]
    (project / ".user-config" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    (project / ".user-config" / "config.toml").write_text(config)
    return log


def payloads(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def test_pre_compact_fires_with_trigger_auto_when_the_window_fills_up(project: Path, tmp_path: Path) -> None:
    manual = tmp_path / "manual.jsonl"
    log = recording_hooks(project, tmp_path, ["PreCompact"], "context_window = 7000\n", manual_only=manual)
    for number in range(1, 15):
        lines = "".join(f"line {j} of file {number}: some words here\n" for j in range(40))
        (project / f"f{number}.txt").write_text(lines)
    reads = [call("read_file", path=f"f{number}.txt") for number in range(1, 15)]
    result, stderr = run(project, "read the files one by one", [*reads, *[DONE] * 12])
    assert result["status"] == "DONE", stderr
    seen = payloads(log)
    assert seen, "the history outgrew the window, was compacted, and the hook was told"
    assert {(p["hook_event_name"], p["trigger"], p["custom_instructions"]) for p in seen} == {
        ("PreCompact", "auto", "")
    }
    transcript = project / ".asi" / "sessions" / f"{result['session_id']}.jsonl"
    compactions = [
        r for r in map(json.loads, transcript.read_text().splitlines()) if r["type"] == "compacted"
    ]
    # the hook is told before each attempt; a summary longer than what it replaces is not kept (no record)
    assert compactions and all(r["reason"] == "budget" for r in compactions)
    assert len(seen) >= len(compactions)
    assert not manual.exists(), "a matcher matches the trigger: the manual-only hook stayed quiet"


def test_a_headless_run_that_ends_unfinished_notifies_before_the_session_ends(
    project: Path, tmp_path: Path
) -> None:
    """Nobody can approve the write without a terminal: it is refused (no `permission_prompt`), and the
    run that then runs out of turns tells the hooks it needs someone (`run_ended`), before `SessionEnd`."""
    log = recording_hooks(project, tmp_path, ["Notification", "SessionEnd"])
    replies = [call("create_file", path="note.txt", content="hi\n"), call("list_directory", path=".")]
    result, stderr = run(project, "write a note", replies, "--approval", "ask", "--max-turns", "2")
    assert result["status"] == "MAX_TURNS", stderr
    seen = [(p["hook_event_name"], p.get("notification_type")) for p in payloads(log)]
    assert seen == [("Notification", "run_ended"), ("SessionEnd", None)]
    ended = payloads(log)[0]
    assert ended["status"] == "MAX_TURNS" and ended["message"].startswith("asi-agent's run ended MAX_TURNS")

    log.unlink()
    result, stderr = run(project, "list", [call("list_directory", path="."), DONE])
    assert result["status"] == "DONE", stderr
    assert [p["hook_event_name"] for p in payloads(log)] == ["SessionEnd"]  # a finished run: no notice


def test_the_plain_chat_notifies_once_when_idle_and_its_compact_is_manual(
    project: Path, tmp_path: Path
) -> None:
    log = recording_hooks(project, tmp_path, ["Notification", "PreCompact"], "notify_idle_after = 0.5\n")
    script = tmp_path / "model.json"
    replies = ["Hello.\nAGENT_STATUS: DONE", "Summary: the person said hi."]  # the second: /compact's summary
    script.write_text(json.dumps({"native": True, "replies": replies}))
    env = model_free_env() | {"ASI_CONFIG_DIR": str(project / ".user-config")}
    argv = ["chat", "--plain", "--provider", "scripted", "--model", str(script)]
    chat = subprocess.Popen(
        [sys.executable, "-m", "asi_agent", *argv], cwd=project, env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip

    def send(line: str, count: int) -> None:
        assert chat.stdin is not None
        chat.stdin.write(line)
        chat.stdin.flush()
        deadline = time.monotonic() + 60
        while len(payloads(log)) < count and time.monotonic() < deadline:
            time.sleep(0.1)

    try:
        send("hi\n", 1)
        time.sleep(1.5)  # three more idle periods: still one notice
        send("/compact\n", 2)
        send("/quit\n", 2)
        chat.wait(timeout=60)
    finally:
        chat.kill()
    idle, compact = payloads(log)
    assert idle["hook_event_name"] == "Notification" and idle["notification_type"] == "idle_prompt"
    assert idle["message"] == "asi-agent is waiting for your input"
    assert (compact["hook_event_name"], compact["trigger"]) == ("PreCompact", "manual")
