"""`asi-agent mcp serve` passes a call's progress on to the MCP client that asked for it (a progress
token in the request): a running command's elapsed seconds and output lines, before the call's result."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.asi_cli import model_free_env

mcp = pytest.importorskip("mcp")

# prints one line every 0.4 s for about 2.8 s: long enough for two reports a second apart
_SLOW = "python3 -c \"import time\nfor i in range(7):\n    print('tick', i, flush=True); time.sleep(0.4)\""


def _params(project: Path) -> Any:
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(project / ".user-config")
    argv = ["-m", "asi_agent", "mcp", "serve", "--cwd", str(project), "--yes"]
    return mcp.StdioServerParameters(command=sys.executable, args=argv, env=env, cwd=str(project))


async def _call(project: Path, name: str, arguments: dict[str, Any], *, listen: bool) -> tuple[Any, list]:
    """Call one tool; its result and the progress heard while it ran (None when the client did not ask)."""
    heard: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        heard.append((progress, total, message))

    async with (
        mcp.stdio_client(_params(project)) as (read, write),
        mcp.ClientSession(read, write) as session,
    ):
        await session.initialize()
        callback = on_progress if listen else None
        result = await session.call_tool(name, arguments, progress_callback=callback)
        return result, list(heard)  # what was heard by the time the result arrived


def test_a_running_command_reports_progress_before_its_result(tmp_path: Path) -> None:
    result, heard = asyncio.run(_call(tmp_path, "run_terminal_cmd", {"command": _SLOW}, listen=True))
    assert not result.is_error, result.content[0].text
    assert "tick 6" in result.content[0].text
    assert len(heard) >= 2, heard
    progress = [item[0] for item in heard]
    assert progress == sorted(progress) and progress[0] >= 1.0  # seconds elapsed, rising
    assert all(total is None for _, total, _ in heard)
    assert all(message and "s, " in message and "of output" in message for _, _, message in heard)
    lines = [int(message.split(", ")[1].split()[0]) for _, _, message in heard if message]
    assert lines == sorted(lines) and lines[-1] >= 2  # the output lines counted as they came


def test_a_quick_call_without_a_token_hears_nothing_and_works(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("alpha\n", encoding="utf-8")
    result, heard = asyncio.run(_call(tmp_path, "read_file", {"path": "notes.txt"}, listen=False))
    assert not result.is_error and "alpha" in result.content[0].text
    assert heard == []
