"""The Textual chat tells the `Notification` hooks what Claude Code's do: a call waiting for approval
(`permission_prompt`) and the chat waiting idle for the next message (`idle_prompt`, once a turn)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from chat_helpers import call, make_app, reply, send, until

from asi_agent.ui.tui.screens import ApprovalScreen


def recording(user_config: Path, tmp_path: Path, config: str) -> Path:
    log = tmp_path / "notifications.jsonl"
    hook = tmp_path / "record.py"
    hook.write_text(f"import sys\nopen({str(log)!r}, 'a').write(sys.stdin.read().strip() + '\\n')\n")
    entry = [{"hooks": [{"type": "command", "command": f"{sys.executable} {hook}"}]}]
    (user_config / "settings.json").write_text(json.dumps({"hooks": {"Notification": entry}}))
    (user_config / "config.toml").write_text(config)
    return log


def seen(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


async def test_an_approval_and_an_idle_wait_notify_and_typing_keeps_the_idle_one_away(
    project, user_config, tmp_path
):
    log = recording(user_config, tmp_path, "notify_idle_after = 0.4\n")
    replies = [
        reply("", call("create_file", path="note.txt", content="hi\n")),
        reply("Wrote it.\nAGENT_STATUS: DONE"),
        reply("Hello.\nAGENT_STATUS: DONE"),
    ]
    app = make_app(project, replies)  # ask mode: the write waits for a yes
    async with app.run_test() as pilot:
        await send(pilot, "write a note")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        await until(pilot, lambda: len(seen(log)) == 1)
        assert seen(log)[0]["notification_type"] == "permission_prompt"
        assert seen(log)[0]["message"] == "asi-agent needs your permission to use create_file"
        await pilot.press("y")
        await until(pilot, lambda: app.turn_worker is not None and not app.turn_worker.is_running)
        await until(pilot, lambda: len(seen(log)) == 2)
        idle = seen(log)[1]
        assert (idle["notification_type"], idle["message"]) == (
            "idle_prompt",
            "asi-agent is waiting for your input",
        )
        await asyncio.sleep(1.0)
        assert len(seen(log)) == 2, "once per wait, not every 0.4 s"

        await send(pilot, "hello")
        await until(pilot, lambda: app.turn_worker is not None and not app.turn_worker.is_running)
        await pilot.press("a")  # the person is typing: no notice while they do
        await asyncio.sleep(1.0)
        assert len(seen(log)) == 2
