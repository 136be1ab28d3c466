"""With many tools the extension tools are routed like plugins: chosen when the conversation needs them."""

from __future__ import annotations

import pytest
from pydantic import Field

from asi_agent.messages import Message
from asi_agent.routing import RoutingConfig, routed_schemas
from asi_agent.tools.base import ToolArgs, ToolContext, ToolSpec
from asi_agent.tools.registry import default_registry


class NoteArgs(ToolArgs):
    """Arguments of a filler plugin tool."""

    text: str = Field(description="Text for the tool")


async def _noop(args: NoteArgs, ctx: ToolContext) -> str:
    return args.text


def _registry():
    registry = default_registry(extensions=True, locale="en")
    topics = ["invoice", "calendar", "weather", "stock", "recipe", "lyrics", "translate", "currency"]
    for i in range(40):
        topic = topics[i % len(topics)]
        registry.register(
            ToolSpec(
                name=f"{topic}_tool_{i}",
                args=NoteArgs,
                run=_noop,
                risk="read",
                source="plugin",
                description=f"Look up {topic} data number {i}",
            )
        )
    return registry


@pytest.mark.parametrize(
    ("request_text", "wanted", "left_out"),
    [
        ("Fetch the web page https://example.org/docs and read its URL content", "web_fetch", "save_memory"),
        ("Search the web for the latest release notes of httpx", "web_search", "save_memory"),
        ("Remember this fact for later sessions: the tests run with make check", "save_memory", "web_fetch"),
    ],
)
async def test_the_extension_a_request_needs_is_routed_in(
    request_text: str, wanted: str, left_out: str
) -> None:
    config = RoutingConfig(threshold=40, top_k=3)

    schemas = await routed_schemas(_registry(), [Message("user", request_text)], locale="en", config=config)

    names = [schema["function"]["name"] for schema in schemas]
    assert wanted in names and left_out not in names
    assert "read_file" in names and "invoice_tool_0" not in names
