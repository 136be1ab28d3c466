"""A runaway path (a small model looping inside a string) is a tool error the model sees, never a crash."""

from __future__ import annotations

import pytest

from asi_agent.messages import ToolCall
from asi_agent.toolrun import ToolRunner
from asi_agent.tools.base import ToolContext
from asi_agent.tools.registry import default_registry

LONG_NAME = "a" * 300  # over NAME_MAX (255 bytes): the OS raises ENAMETOOLONG on stat/open
LONG_PATH = "/".join(["d" * 200] * 25)  # over PATH_MAX (4096 bytes), every part short

CALLS = [
    ("read_file", {"path": LONG_NAME}),
    ("read_file", {"path": LONG_PATH}),
    ("list_directory", {"path": LONG_NAME}),
    ("list_directory", {"path": LONG_PATH}),
    ("create_file", {"path": LONG_NAME, "content": "x"}),
    ("replace_text", {"path": LONG_NAME, "oldText": "a", "newText": "b"}),
    ("delete_file", {"path": LONG_NAME}),
    ("lint_check", {"path": LONG_NAME}),
    ("find_code_location", {"path": LONG_NAME, "search": "main"}),
    ("diff_history", {"path": LONG_NAME}),
    ("read_file", {"path": "é" * 200}),  # 400 bytes in UTF-8 though 200 characters
]


@pytest.mark.parametrize(("name", "arguments"), CALLS, ids=[f"{n}-{len(str(a))}" for n, a in CALLS])
async def test_an_over_long_path_is_a_tool_error(
    ctx: ToolContext, name: str, arguments: dict[str, str]
) -> None:
    runner = ToolRunner(default_registry(), ctx)
    outcome = await runner.execute(runner.prepare(ToolCall("c1", name, arguments)))
    assert not outcome.ok
    assert "bytes" in outcome.output, outcome.output
