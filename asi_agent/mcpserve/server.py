"""`asi-agent mcp serve`: the ASI tools of one project folder, served to any MCP client.

The client plays the model: each `tools/call` is prepared, gated and executed exactly as a call of the
model would be in `asi-agent run` — the same registry, the same policy and approval mode, the same
journal (so `asi-agent undo` reverts what a client changed) and the same sandbox. Where the policy asks,
the question goes to the client's person through MCP elicitation when the client supports it; otherwise
the call is refused, as a run without a terminal refuses it. The project's instruction files are
offered as resources.

When the selection may name them (`--tools all`, or a list naming `server__tool`), the MCP servers the
agent itself would use here are started as `asi-agent run` starts them (a project's only in a trusted
folder, `.mcp.json`'s only once approved), and their tools are offered under the agent's names for
them, each call gated like any other; a server that fails to start is left out with a warning.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Awaitable, Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from asi_agent.agent import Agent
from asi_agent.assembly import assemble_agent, attach_servers
from asi_agent.backends.scripted import ScriptedBackend
from asi_agent.calls import new_call_id
from asi_agent.config import AsiConfig
from asi_agent.events import Answer, ApprovalRequested, DecisionMade
from asi_agent.exceptions import ModelFixableError
from asi_agent.mcpserve.progress import forwarded_progress
from asi_agent.mcpserve.tools import annotations_for, chosen_specs, missing_tools, wants_servers
from asi_agent.messages import ToolCall
from asi_agent.plugins.mcp import MCP_KEY, McpHub
from asi_agent.prompts import instruction_files
from asi_agent.toolrun import Outcome, Prepared
from asi_agent.tools.base import ToolSpec
from asi_agent.wire import ResultKind, tool_text

if TYPE_CHECKING:
    from mcp.server.lowlevel import Server

__all__ = ["APPROVAL_SCHEMA", "AsiToolServer"]

log = logging.getLogger("asi_agent.mcpserve")

APPROVAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "answer": {
            "type": "string",
            "enum": ["yes", "always", "no"],
            "description": "yes: run it once; always: run calls of this tool unasked from now on; no: refuse",
        }
    },
    "required": ["answer"],
}
"""What an approval asks the client's person (MCP elicitation, form mode)."""


class AsiToolServer:
    """The served project: its agent's runner and gate, the offered tools, the MCP handlers."""

    def __init__(self, root: Path, config: AsiConfig, tools: str | Collection[str]) -> None:
        # No model takes part: the client decides. The scripted backend with no replies stands in for it.
        self.agent: Agent = assemble_agent(
            root, config, ScriptedBackend([]), interactive=True, warn=log.warning
        )
        self.root = root
        self.tools = tools
        self.sessions: weakref.WeakSet[Any] = weakref.WeakSet()
        """The clients' sessions heard from: told when a proxied server's tools change."""
        missing_tools(self.agent.runner.registry, tools)  # a name no MCP tool can have: said before any start

    async def attach(self) -> list[str]:
        """Start the MCP servers the agent would use here, when the selection may name their tools; the
        problems to warn about (a server that failed, a listed tool no server offers)."""
        if not wants_servers(self.agent.runner.registry, self.tools):
            return []
        problems = await attach_servers(self.agent)
        hub = self.agent.runner.ctx.state.get(MCP_KEY)
        if isinstance(hub, McpHub):
            self._announce_changes(hub)
        missing = missing_tools(self.agent.runner.registry, self.tools)
        return [*problems, *(f"--tools: no MCP server here offers {name}; not served" for name in missing)]

    @property
    def follows_servers(self) -> bool:
        """Whether MCP servers were started, whose tool lists may change while serving."""
        return isinstance(self.agent.runner.ctx.state.get(MCP_KEY), McpHub)

    def _announce_changes(self, hub: McpHub) -> None:
        """After the registry followed a server's changed tools, tell the clients their list changed."""
        for connection in hub.connections.values():
            relist = connection.tools_changed
            if relist is None:
                continue

            async def changed(relist: Callable[[], Awaitable[None]] = relist) -> None:
                await relist()
                for session in list(self.sessions):
                    try:
                        await session.send_tool_list_changed()
                    except (
                        Exception
                    ) as exc:  # a client gone away: it lists the tools again when it comes back
                        log.warning("tools/list_changed not sent: %s", exc)

            connection.tools_changed = changed

    @property
    def specs(self) -> dict[str, ToolSpec]:
        """The tools offered now, by name (with `all`, an MCP server's changed tool list shows at once)."""
        return {spec.name: spec for spec in chosen_specs(self.agent.runner.registry, self.tools)}

    def build(self) -> Server[Any]:
        """The MCP server (low level: the schemas go out exactly as the registry publishes them)."""
        instructions = (
            f"The ASI tools of the project folder {self.root}. Every call goes through asi-agent's "
            "permission policy, its change journal (`asi-agent undo` reverts edits) and its sandbox."
        )
        hub = self.agent.runner.ctx.state.get(MCP_KEY)
        if isinstance(hub, McpHub) and (said := hub.instructions()):  # the proxied servers' own word
            instructions = f"{instructions}\n\n{said}"
        return _server_class(announces=self.follows_servers)(
            "asi-agent",
            version=_version(),
            instructions=instructions,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_list_resources=self._list_resources,
            on_read_resource=self._read_resource,
        )

    async def aclose(self) -> None:
        """End the session's tool resources."""
        await self.agent.runner.ctx.aclose()

    # -- handlers -----------------------------------------------------------------------------------

    async def _list_tools(self, ctx: Any, params: Any) -> Any:
        import mcp_types as types  # noqa: PLC0415

        self.sessions.add(ctx.session)
        registry = self.agent.runner.registry
        sandbox = self.agent.runner.ctx.sandbox
        network = sandbox is None or sandbox.network
        tools = []
        offered = self.specs
        for schema in registry.schemas():
            function = schema["function"]
            spec = offered.get(function["name"])
            if spec is None:
                continue
            tools.append(
                types.Tool(
                    name=spec.name,
                    description=function["description"],
                    input_schema=function["parameters"],
                    annotations=types.ToolAnnotations.model_validate(annotations_for(spec, network=network)),
                )
            )
        return types.ListToolsResult(tools=tools)

    async def _call_tool(self, ctx: Any, params: Any) -> Any:
        import mcp_types as types  # noqa: PLC0415

        self.sessions.add(ctx.session)
        async with forwarded_progress(ctx.session, ctx.meta):
            kind, text = await self.call(params.name, dict(params.arguments or {}), ctx.session)
        return types.CallToolResult(
            content=[types.TextContent(text=tool_text(kind, text))],
            is_error=kind != "ok",
        )

    async def call(self, name: str, arguments: dict[str, Any], session: Any) -> tuple[ResultKind, str]:
        """Prepare, gate and run one call; (how it ended, its text)."""
        runner, gate = self.agent.runner, self.agent.gate
        if name not in self.specs:
            return "error", f"unknown tool {name!r}; tools/list names the tools this server offers"
        try:
            prepared = runner.prepare(ToolCall(new_call_id(), name, arguments))
        except ModelFixableError as exc:
            return "error", str(exc)
        asks = _can_elicit(session)
        gate.config = _with_interactive(gate.config, asks)
        gate.new_run()  # a client repeats calls at will: the loop's repetition check is the model's
        async for item in gate.check(prepared):
            if isinstance(item, ApprovalRequested):
                item.answer.set_result(await _ask(session, item))
            elif isinstance(item, DecisionMade):
                log.info("%s: %s (%s)", item.call.name, item.action, item.reason)
            elif isinstance(item, Outcome):
                return item.result, item.output
            elif isinstance(item, Prepared):
                outcome = await runner.execute(item)
                if outcome.changed_files:
                    gate.changed_files()
                return outcome.result, outcome.output
        return "error", "the call was neither run nor refused"  # the gate always yields one; kept for mypy

    async def _list_resources(self, ctx: Any, params: Any) -> Any:
        import mcp_types as types  # noqa: PLC0415

        resources = [
            types.Resource(
                uri=path.as_uri(), name=item.name, mime_type="text/markdown", description=_about(item.name)
            )
            for item, path in self._instructions()
        ]
        return types.ListResourcesResult(resources=resources)

    async def _read_resource(self, ctx: Any, params: Any) -> Any:
        import mcp_types as types  # noqa: PLC0415
        from mcp.shared.exceptions import MCPError  # noqa: PLC0415

        for item, path in self._instructions():
            if path.as_uri() == str(params.uri):
                contents = types.TextResourceContents(
                    uri=str(params.uri), text=item.text, mime_type="text/markdown"
                )
                return types.ReadResourceResult(contents=[contents])
        raise MCPError(code=types.INVALID_PARAMS, message=f"no such resource: {params.uri}")

    def _instructions(self) -> list[tuple[Any, Path]]:
        """The project's instruction files (AGENTS.md and the like) with their paths."""
        found = []
        for item in instruction_files(self.root):
            path = (self.root / item.name).resolve()
            if path.is_file():
                found.append((item, path))
        return found


def _about(name: str) -> str:
    return f"the project's instruction file {name}"


def _can_elicit(session: Any) -> bool:
    capabilities = getattr(session, "client_capabilities", None)
    return capabilities is not None and capabilities.elicitation is not None


def _with_interactive(config: Any, interactive: bool) -> Any:
    from dataclasses import replace  # noqa: PLC0415

    return config if config.interactive == interactive else replace(config, interactive=interactive)


async def _ask(session: Any, request: ApprovalRequested) -> Answer:
    """The client's person's answer to one approval: yes, always or no (declined, cancelled, failed: no)."""
    call = request.call
    lines = [f"asi-agent asks before running {call.name} ({request.risk}): {request.reason}"]
    if request.preview:
        lines.append(request.preview)
    try:
        result = await session.elicit_form("\n".join(lines), APPROVAL_SCHEMA)
    except Exception as exc:  # the client could not ask after all: a refusal, never a hang
        log.warning("elicitation failed: %s", exc)
        return "no"
    if result.action != "accept" or not result.content:
        return "no"
    answer = result.content.get("answer")
    return "yes" if answer == "yes" else "always" if answer == "always" else "no"


def _server_class(*, announces: bool) -> type[Server[Any]]:
    """The low-level MCP server class, whose initialization options (over stdio and HTTP alike) declare
    `tools.listChanged` when `announces`: the proxied servers' tool lists may change while serving."""
    from mcp.server.lowlevel import NotificationOptions, Server  # noqa: PLC0415 - heavy, only here

    class AnnouncingServer(Server[Any]):
        def create_initialization_options(
            self,
            notification_options: NotificationOptions | None = None,
            experimental_capabilities: dict[str, dict[str, Any]] | None = None,
            extensions: dict[str, dict[str, Any]] | None = None,
        ) -> Any:
            options = notification_options or NotificationOptions(tools_changed=announces)
            return super().create_initialization_options(options, experimental_capabilities, extensions)

    return AnnouncingServer


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    try:
        return version("asi-agent")
    except PackageNotFoundError:
        return "0"
