"""Calling a plugin tool in a test exactly as asi-agent would, in one line.

    from asi_agent.sdk.testing import call_tool
    from word_stats.tools import word_stats

    def test_counts_words():
        assert call_tool(word_stats, {"path": "a.txt"}, files={"a.txt": "a b"}) == "a.txt: 2 words, 1 lines"

    def test_summary_asks_the_model():
        out = call_tool(word_stats, {"path": "a.txt", "summary": True}, files={"a.txt": "hi"}, model="Hi.")
        assert out.endswith("summary: Hi.")

`call_tool` checks the tool as the loader does (name, description, JSON Schema: `ToolDefinitionError`),
validates the arguments against the schema the model is shown (`ToolArgumentsError`, with the message
the model would read), and runs the tool with a real `PluginContext` on a temporary project folder
(`files` written into it) or on `root`. `ctx.ask_model` is answered by the replies of `model`, one per
question, through the same scripted backend asi-agent's own tests use; without `model` it fails as in a
session with no model. A `ToolError` the tool raises propagates, so `pytest.raises(ToolError, match=...)`
checks what the model would be told. In an `async def` test, `await acall_tool(...)`.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from asi_agent.exceptions import ToolArgumentsError, ToolError
from asi_agent.sdk import SdkTool

__all__ = ["ToolArgumentsError", "ToolDefinitionError", "ToolError", "acall_tool", "call_tool"]


class ToolDefinitionError(ValueError):
    """The tool would not load: its name, description or parameter schema fails asi-agent's checks."""


def call_tool(
    tool: SdkTool,
    arguments: Mapping[str, Any] | None = None,
    *,
    files: Mapping[str, str | bytes] | None = None,
    root: Path | str | None = None,
    model: str | Sequence[str] | None = None,
) -> str:
    """Run `tool` with `arguments` as a session would; returns the text the model would read."""
    return asyncio.run(acall_tool(tool, arguments, files=files, root=root, model=model))


async def acall_tool(
    tool: SdkTool,
    arguments: Mapping[str, Any] | None = None,
    *,
    files: Mapping[str, str | bytes] | None = None,
    root: Path | str | None = None,
    model: str | Sequence[str] | None = None,
) -> str:
    """`call_tool` for async tests."""
    if root is not None:
        return await _call(tool, arguments or {}, Path(root), files, model)
    with tempfile.TemporaryDirectory(prefix="asi-plugin-test-") as folder:
        return await _call(tool, arguments or {}, Path(folder), files, model)


async def _call(
    tool: SdkTool,
    arguments: Mapping[str, Any],
    root: Path,
    files: Mapping[str, str | bytes] | None,
    model: str | Sequence[str] | None,
) -> str:
    # The runtime's own pieces, imported here: `asi_agent.sdk` itself stays cheap to import.
    from asi_agent.backends.scripted import ScriptedBackend  # noqa: PLC0415
    from asi_agent.plugins.installed import sdk_tool_spec  # noqa: PLC0415
    from asi_agent.toolrun import BackendModel  # noqa: PLC0415
    from asi_agent.tools.base import ToolContext  # noqa: PLC0415
    from asi_agent.tools.files.journal import Journal  # noqa: PLC0415
    from asi_agent.tools.registry import ToolRegistry  # noqa: PLC0415

    if not isinstance(tool, SdkTool):
        raise TypeError(f"call_tool needs a function decorated with @tool, not {type(tool).__name__}")
    spec = sdk_tool_spec(tool, source="test", label=f"tool {tool.name}")
    if isinstance(spec, list):
        raise ToolDefinitionError("; ".join(str(problem) for problem in spec))
    registry = ToolRegistry([spec], locale="en")
    args = registry.validate(spec.name, dict(arguments))
    _write_files(root, files or {})
    ctx = ToolContext(root.resolve(), Journal(root / ".asi"))
    if model is not None:
        ctx.model = BackendModel(ScriptedBackend([model] if isinstance(model, str) else list(model)))
    assert spec.run is not None
    try:
        return await spec.run(args, ctx)
    finally:
        await ctx.aclose()


def _write_files(root: Path, files: Mapping[str, str | bytes]) -> None:
    """Write the test's files into the project folder (paths relative to it)."""
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
