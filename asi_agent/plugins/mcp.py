"""MCP servers of the manifests (`mcpServers`), reached over stdio with the `mcp` package (2.x).

A server is started when its tools are listed (at session start, or by `asi-agent tools`) and stays up
for the calls; the session stops it (`ctx.cleanups`). Each server is owned by one background task,
because the `mcp` client's anyio scopes must be entered and left in the same task. Its tools are named
`<server>__<tool>` (only letters, digits, `_` and `-`, at most 64 characters, as model APIs require).
`mcp` is imported only here, and only when a manifest has servers: it is slow to import.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import json
import logging
import re
import tempfile
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from asi_agent.events import ToolProgressSink, call_progress
from asi_agent.exceptions import ToolError
from asi_agent.plugins.mcp_annotations import classify_mcp_tool
from asi_agent.plugins.mcp_oauth import FileTokenStorage, session_provider, token_path, wants_oauth
from asi_agent.plugins.mcp_resources import resource_specs
from asi_agent.plugins.mcp_transport import expand_definition, open_transport
from asi_agent.plugins.problems import PluginProblem
from asi_agent.plugins.runners import MAX_ERROR_CHARS, MAX_OUTPUT_CHARS, install_hint
from asi_agent.plugins.schemas import inline_refs
from asi_agent.sandbox import Sandbox
from asi_agent.tools.base import PluginArgs, ToolArgs, ToolContext, ToolSpec
from asi_agent.tools.registry import ToolRegistry

if TYPE_CHECKING:
    from mcp import ClientSession

    from asi_agent.plugins.manifest import McpServerDef

__all__ = ["MCP_KEY", "McpConnection", "McpHub", "McpServerEntry", "mcp_tool_name"]

INSTRUCTIONS_BUDGET = 4000
"""Characters of the MCP servers' instructions the system prompt takes at most (shared among them)."""
MCP_KEY = "asi_agent.plugins.mcp"
"""The `ctx.state` key of the session's `McpHub`."""

log = logging.getLogger("asi_agent.plugins.mcp")


def mcp_tool_name(server: str, tool: str) -> str:
    """`<server>__<tool>` with characters model APIs refuse replaced by `_`, cut to 64."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", f"{server}__{tool}")[:64]


@dataclass(frozen=True, slots=True)
class McpServerEntry:
    """A server as a manifest declares it, with the manifest that declared it."""

    name: str
    definition: McpServerDef
    manifest: str
    plugin_dir: Path


class McpConnection:
    """One running MCP server; `start` lists its tools, `call` runs one, `aclose` stops it."""

    def __init__(self, entry: McpServerEntry, cwd: Path, sandbox: Sandbox | None = None) -> None:
        self.entry, self.cwd, self.sandbox = entry, cwd, sandbox
        self._session: ClientSession | None = None
        self._owner: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._errlog: IO[str] | None = None
        self.auth: Any = None
        """An httpx Auth for a remote server (its OAuth sign-in), or None."""
        self.instructions = ""
        """What the server says about using it (its `initialize` instructions)."""
        self.has_resources = False
        """Whether the server offers resources."""
        self.has_prompts = False
        """Whether the server offers prompts."""
        self.tools_changed: Callable[[], Coroutine[Any, Any, None]] | None = None
        """Awaited when the server says its tool list changed."""
        self._pending: set[asyncio.Task[None]] = set()

    async def start(self) -> list[Any]:
        """Start the server and list its tools (`mcp` Tool objects); raises ToolError when it cannot."""
        ready: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
        # Closed in aclose(); it keeps the server's stderr off the terminal and quotes it in errors.
        self._errlog = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")  # noqa: SIM115
        self._owner = asyncio.create_task(self._own(ready), name=f"mcp:{self.entry.name}")
        try:
            return await asyncio.wait_for(asyncio.shield(ready), self.entry.definition.timeout)
        except TimeoutError:
            await self.aclose()
            raise ToolError(
                f"MCP server {self.entry.name!r} did not answer within {self.entry.definition.timeout:g} s"
                f"{self._stderr_tail()}"
            ) from None
        except Exception as exc:  # whatever stopped the server from starting, reported with its stderr
            detail = self._stderr_tail()
            await self.aclose()
            raise ToolError(
                f"MCP server {self.entry.name!r} failed to start: {_describe(exc)}{detail}"
                f"{install_hint(_describe(exc) + detail)}"
            ) from exc

    async def call(self, tool: str, arguments: dict[str, Any]) -> str:
        """Call one of the server's tools; its error results become ToolError."""
        if self._session is None:
            raise ToolError(f"MCP server {self.entry.name!r} is not running")
        timeout = self.entry.definition.timeout
        try:
            # the notifications arrive in the session's own task: the call's sink is taken here
            sink = call_progress()
            progress = None if sink is None else functools.partial(_progress, sink)
            result = await asyncio.wait_for(
                self._session.call_tool(tool, arguments, progress_callback=progress), timeout
            )
        except TimeoutError:
            raise ToolError(f"{tool}: the MCP server gave no result within {timeout:g} s") from None
        except Exception as exc:  # a protocol error or a dead server: the model must hear it, not crash
            raise ToolError(f"{tool}: MCP call failed: {_describe(exc)}") from exc
        if self._pending:  # the tool list this call changed is current before the model's next step
            await asyncio.gather(*self._pending, return_exceptions=True)
        text = _result_text(result)
        if result.is_error:
            raise ToolError(f"{tool}: {text[:MAX_ERROR_CHARS] or 'the MCP tool reported an error'}")
        return text[:MAX_OUTPUT_CHARS]

    async def aclose(self) -> None:
        """Stop the server (closing its stdin, then terminating it) and forget the session."""
        self._stop.set()
        if self._owner is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self._owner, 10)
        self._session, self._owner = None, None
        if self._errlog is not None:
            self._errlog.close()
            self._errlog = None

    async def _own(self, ready: asyncio.Future[list[Any]]) -> None:
        """The owning task: open the transport and the session, serve until asked to stop."""
        try:
            from mcp import ClientSession  # noqa: PLC0415 - heavy
        except ImportError:  # said at once, naming the package, never as a start timeout
            ready.set_exception(ModuleNotFoundError("No module named 'mcp'"))
            return
        try:
            definition = expand_definition(self.entry.definition)
            async with (
                open_transport(
                    definition,
                    cwd=self.cwd,
                    plugin_dir=self.entry.plugin_dir,
                    sandbox=self.sandbox,
                    errlog=self._errlog,
                    auth=self.auth,
                ) as (read, write),
                ClientSession(
                    read, write, list_roots_callback=self._roots, message_handler=self._on_message
                ) as session,
            ):
                started = await session.initialize()
                self.instructions = str(started.instructions or "")
                self.has_resources = started.capabilities.resources is not None
                self.has_prompts = started.capabilities.prompts is not None
                listing = await session.list_tools()
                self._session = session
                ready.set_result(list(listing.tools))
                await self._stop.wait()
        except Exception as exc:  # reported through `ready` (start) or the log (later)
            if not ready.done():
                ready.set_exception(exc)
            else:
                log.warning("MCP server %s ended: %s", self.entry.name, _describe(exc))

    @property
    def session(self) -> ClientSession:
        """The running session; ToolError when the server is not running."""
        if self._session is None:
            raise ToolError(f"MCP server {self.entry.name!r} is not running")
        return self._session

    async def _on_message(self, message: Any) -> None:
        """Server notifications: a changed tool list is listed again (by the hub that follows it)."""
        if getattr(message, "method", None) == "notifications/tools/list_changed" and self.tools_changed:
            task = asyncio.get_running_loop().create_task(self.tools_changed())
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)

    async def _roots(self, context: Any) -> Any:
        """The client's roots: the project folder (the server may confine itself to it)."""
        import mcp_types  # noqa: PLC0415 - comes with mcp

        return mcp_types.ListRootsResult(roots=[mcp_types.Root(uri=self.cwd.as_uri(), name=self.cwd.name)])

    def _stderr_tail(self) -> str:
        if self._errlog is None or self._errlog.closed:
            return ""
        self._errlog.flush()
        self._errlog.seek(0)
        text = self._errlog.read().strip()
        return f"; its stderr ends with: {text[-MAX_ERROR_CHARS:]}" if text else ""


class McpHub:
    """The MCP servers of one session: started together, listed as ToolSpecs, stopped together."""

    def __init__(
        self,
        entries: Mapping[str, McpServerEntry],
        cwd: Path,
        sandbox: Sandbox | None = None,
        user_dir: Path | None = None,
    ) -> None:
        self.entries, self.cwd, self.sandbox = dict(entries), cwd, sandbox
        self.user_dir = user_dir
        """Where OAuth sign-ins are kept (None: remote servers get no OAuth)."""
        self.connections: dict[str, McpConnection] = {}

    def _connection(self, entry: McpServerEntry) -> McpConnection:
        connection = McpConnection(entry, self.cwd, self.sandbox)
        definition = entry.definition
        if self.user_dir is not None and definition.url and wants_oauth(definition):
            storage = FileTokenStorage(token_path(self.user_dir, entry.name), definition.url)
            connection.auth = session_provider(definition.url, storage, entry.name)
        return connection

    async def start(self, taken: set[str]) -> tuple[list[ToolSpec], list[PluginProblem]]:
        """Start every server (concurrently) and turn their tools into specs; `taken` names are refused."""
        connections = {name: self._connection(e) for name, e in self.entries.items()}
        listings = await asyncio.gather(*(c.start() for c in connections.values()), return_exceptions=True)
        specs: list[ToolSpec] = []
        problems: list[PluginProblem] = []
        for (name, connection), listing in zip(connections.items(), listings, strict=True):
            entry = self.entries[name]
            if isinstance(listing, ToolError):
                problems.append(PluginProblem(entry.manifest, str(listing), tool=name, field="mcpServers"))
                continue
            if isinstance(listing, BaseException):
                raise listing
            self.connections[name] = connection
            more, trouble = self._specs(name, connection, listing, taken)
            specs += more
            problems += trouble
        return specs, problems

    def _specs(
        self, name: str, connection: McpConnection, listing: list[Any], taken: set[str]
    ) -> tuple[list[ToolSpec], list[PluginProblem]]:
        """One server's tools (and resource tools) as specs; `taken` names are refused, new ones added."""
        entry = self.entries[name]
        specs: list[ToolSpec] = []
        problems: list[PluginProblem] = []
        for tool in listing:
            spec = _tool_spec(entry, connection, tool)
            inlined, where, reason = inline_refs(dict(spec.parameters or {}), "inputSchema")
            if inlined is None:
                problems.append(
                    PluginProblem(entry.manifest, f"{spec.name}: {reason}", tool=name, field=where)
                )
                continue
            spec = dataclasses.replace(spec, parameters=inlined)
            if spec.name in taken:
                clash = f"MCP tool {spec.name!r} clashes with another tool; rename it"
                problems.append(PluginProblem(entry.manifest, clash, tool=name, field="mcpServers"))
                continue
            taken.add(spec.name)
            specs.append(spec)
        for spec in resource_specs(name, connection):
            if spec.name not in taken:
                taken.add(spec.name)
                specs.append(spec)
        return specs, problems

    def follow(self, registry: ToolRegistry) -> None:
        """Keep `registry` in step with the servers: `tools/list_changed` lists that server's tools again."""
        for name, connection in self.connections.items():
            connection.tools_changed = functools.partial(self._relist, registry, name)

    async def _relist(self, registry: ToolRegistry, name: str) -> None:
        connection = self.connections.get(name)
        if connection is None:
            return
        try:
            listing = list((await connection.session.list_tools()).tools)
        except Exception as exc:  # a dead server: its tools stay until the session ends, failing alone
            log.warning("MCP server %s: listing its changed tools failed: %s", name, _describe(exc))
            return
        source = f"mcp:{name}"
        for spec in [spec for spec in registry.specs() if spec.source == source]:
            registry.unregister(spec.name)
        specs, problems = self._specs(name, connection, listing, set(registry.names()))
        for spec in specs:
            registry.register(spec)
        for problem in problems:
            log.warning("%s", problem)

    async def prompts(self) -> list[tuple[str, str, str]]:
        """(`server:prompt`, description, argument names) of every server's prompts, for command menus."""
        found: list[tuple[str, str, str]] = []
        for name, connection in self.connections.items():
            if not connection.has_prompts:
                continue
            try:
                listed = (await connection.session.list_prompts()).prompts
            except Exception as exc:  # a menu without this server's prompts, said in the log
                log.warning("MCP server %s: listing its prompts failed: %s", name, _describe(exc))
                continue
            for prompt in listed:
                arguments = " ".join(argument.name for argument in prompt.arguments or [])
                found.append((f"{name}:{prompt.name}", str(prompt.description or prompt.name), arguments))
        return found

    def instructions(self, budget: int = INSTRUCTIONS_BUDGET) -> str:
        """The servers' instructions for the system prompt, each cut to its share of `budget` characters."""
        said = [
            (name, c.instructions.strip()) for name, c in self.connections.items() if c.instructions.strip()
        ]
        if not said:
            return ""
        share = max(200, budget // len(said))
        parts = [f"### {name}\n{text[:share]}" + ("…" if len(text) > share else "") for name, text in said]
        return "## MCP servers\n" + "\n\n".join(parts)

    async def aclose(self) -> None:
        """Stop every server."""
        await asyncio.gather(*(c.aclose() for c in self.connections.values()))
        self.connections.clear()


def _tool_spec(entry: McpServerEntry, connection: McpConnection, tool: Any) -> ToolSpec:
    """A registry entry calling one MCP tool."""
    remote = str(tool.name)
    name = mcp_tool_name(entry.name, remote)

    async def run(args: ToolArgs, ctx: ToolContext) -> str:
        return await connection.call(remote, args.model_dump(mode="json"))

    run.__name__ = run.__qualname__ = name
    schema = dict(tool.input_schema or {})
    schema.setdefault("type", "object")
    schema.pop("title", None)  # pydantic's generated title only costs the model tokens
    definition = entry.definition
    configured = definition.risk if "risk" in definition.model_fields_set else None
    risk, destructive = classify_mcp_tool(getattr(tool, "annotations", None), configured)
    return ToolSpec(
        name=name,
        args=PluginArgs,
        run=run,
        risk=risk,
        destructive=destructive,
        source=f"mcp:{entry.name}",
        description=str(tool.description or remote),
        parameters=schema,
    )


async def _progress(
    sink: ToolProgressSink, progress: float, total: float | None, message: str | None
) -> None:
    """A server's progress notification: a `ToolProgress` of the running call, shown on its card."""
    sink(progress, total, message or "")


def _result_text(result: Any) -> str:
    """The text of a CallToolResult: its text blocks, else its structured content as JSON."""
    parts = [
        str(block.text) if getattr(block, "type", "") == "text" else f"[{block.type} content]"
        for block in result.content
    ]
    if not parts and result.structured_content is not None:
        parts.append(json.dumps(result.structured_content, ensure_ascii=False))
    return "\n".join(parts)


def _describe(exc: BaseException) -> str:
    """An exception (or the first of an exception group) as one line."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}"
