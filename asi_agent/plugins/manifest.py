"""The `moss-tools.json` manifest: its pydantic models, and reading it one tool at a time.

A manifest that is missing is fine (no plugins). Broken JSON is one problem naming the file, line and
column. Every tool and MCP server is checked on its own, so one bad entry never hides the good ones:
each problem names the manifest, the tool (or server) and the field. A tool's parameters must be a
valid JSON Schema whose `$ref` all resolve: they are inlined, so the schema offered is self-contained.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from asi_agent.plugins.problems import MANIFEST_NAME, PluginProblem
from asi_agent.plugins.schemas import inline_refs
from asi_agent.tools.base import Risk

__all__ = [
    "MANIFEST_NAME",
    "CommandRun",
    "HttpRun",
    "Manifest",
    "ManifestContents",
    "McpServerDef",
    "PluginProblem",
    "PluginToolDef",
    "PythonRun",
    "check_tool",
    "read_manifest",
    "render_manifest_schema",
]

TOOL_NAME = r"^[A-Za-z][A-Za-z0-9_-]{0,63}$"
"""What every model API accepts as a function name."""
SERVER_NAME = r"^[A-Za-z][A-Za-z0-9_-]{0,31}$"


class _Strict(BaseModel):
    # Field docstrings become the `description`s of the published schema.
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class CommandRun(_Strict):
    """Run a program: the arguments as JSON on stdin, its stdout is the result."""

    type: Literal["command"]
    """The runner kind."""
    command: list[str] | str = Field(min_length=1)
    """argv list, or a string split like a shell would (no shell runs). In every item `{python}` is the
    Python running asi-agent, `{project_root}` the project, `{plugin_dir}` the manifest's folder."""
    timeout: float = Field(60.0, gt=0)
    """Seconds before the whole process group is killed."""
    env: dict[str, str] = Field(default_factory=dict)
    """Extra environment variables."""
    network: bool = False
    """Whether it needs the network: the sandbox its process runs in closes it otherwise."""
    writable: list[str] = Field(default_factory=list)
    """Folders outside the project it writes (`~` allowed); the sandbox lets only these, the project, the
    temp folder and build caches be written."""


class PythonRun(_Strict):
    """Call a function written with `asi_agent.sdk`, in a child process inside the sandbox (each call)."""

    type: Literal["python"]
    """The runner kind."""
    entry: str = Field(pattern=r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
    """`module:function`; the module is looked up in the manifest folder's `plugins/`, then the folder."""
    timeout: float = Field(60.0, gt=0)
    """Seconds before the call's process is stopped."""
    network: bool = False
    """Whether it needs the network: the sandbox its process runs in closes it otherwise."""
    writable: list[str] = Field(default_factory=list)
    """Folders outside the project it writes (`~` allowed); the sandbox lets only these, the project, the
    temp folder and build caches be written."""


class HttpRun(_Strict):
    """POST the arguments as JSON to a URL; the response body is the result."""

    type: Literal["http"]
    """The runner kind."""
    url: str = Field(pattern=r"^https?://\S+$")
    """The endpoint receiving the arguments."""
    timeout: float = Field(60.0, gt=0)
    """Seconds to wait for the response."""
    headers: dict[str, str] = Field(default_factory=dict)
    """Extra request headers."""


Run = Annotated[CommandRun | PythonRun | HttpRun, Field(discriminator="type")]


class PluginToolDef(_Strict):
    """One tool of the manifest."""

    name: str = Field(pattern=TOOL_NAME)
    """Function name shown to the model: letters, digits, `_` and `-`, starting with a letter."""
    description: str = Field(min_length=1)
    """What the tool does, for the model."""
    parameters: dict[str, Any]
    """A JSON-Schema object schema (`"type": "object"`) of the arguments."""
    risk: Risk = "execute"
    """The permission class, as for built-in tools. A `python` tool is at least `execute` (it runs code)
    and an `http` tool is `network`, whatever is written here."""
    run: Run
    """How the tool runs."""

    def effective_risk(self) -> Risk:
        """The class the policy uses: `risk`, raised to `execute` for python code and to `network` for
        an HTTP endpoint (a manifest cannot make either run unasked, or in plan mode, by calling it read)."""
        if self.run.type == "http":
            return "network"
        if self.run.type == "python" and self.risk in ("read", "write"):
            return "execute"
        return self.risk


class McpServerDef(_Strict):
    """An MCP server, in Claude Code's `.mcp.json` format: started over stdio (`command`) or reached over
    streamable HTTP or SSE (`url`); every tool it lists becomes `<server>__<tool>`. `${VAR}` and
    `${VAR:-default}` in `command`, `args`, `env`, `url` and `headers` are replaced from the environment."""

    type: Literal["stdio", "http", "sse"] | None = None
    """The transport; by default stdio with a `command`, streamable HTTP with a `url`."""
    command: str | None = Field(None, min_length=1)
    """The program (stdio); `{python}`, `{project_root}` and `{plugin_dir}` are replaced as for command
    runs."""
    args: list[str] = Field(default_factory=list)
    """Its arguments (placeholders replaced likewise)."""
    env: dict[str, str] = Field(default_factory=dict)
    """Extra environment variables (stdio)."""
    url: str | None = Field(None, pattern=r"^https?://")
    """The server's address (http, sse)."""
    headers: dict[str, str] = Field(default_factory=dict)
    """HTTP headers sent with every request (http, sse), e.g. an `Authorization` with `${TOKEN}`."""
    risk: Risk = "execute"
    """The permission class of all of this server's tools; when not set, each tool's class comes from
    its annotations (`readOnlyHint` read, `openWorldHint` network, destructive ones ask in every mode but
    yolo)."""
    timeout: float = Field(60.0, gt=0)
    """Seconds to start the server, and for each call."""
    network: bool = False
    """Whether it needs the network: the sandbox its process runs in closes it otherwise."""
    writable: list[str] = Field(default_factory=list)
    """Folders outside the project it writes (`~` allowed); the sandbox lets only these, the project, the
    temp folder and build caches be written."""

    @model_validator(mode="after")
    def _one_transport(self) -> McpServerDef:
        """stdio needs a command; http and sse need a url."""
        if self.type is None and not self.command and not self.url:
            raise ValueError("a server needs a `command` (stdio) or a `url` (http, sse)")
        if self.transport == "stdio" and not self.command:
            raise ValueError("a stdio server needs a `command` (or give a `url` for a remote one)")
        if self.transport != "stdio" and not self.url:
            raise ValueError(f"a {self.transport} server needs a `url`")
        return self

    @property
    def transport(self) -> Literal["stdio", "http", "sse"]:
        """The transport in force: `type`, else stdio with a command, else streamable HTTP."""
        return self.type or ("stdio" if self.command else "http")


class Manifest(_Strict):
    """A whole `moss-tools.json` (used for the published JSON Schema)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, use_attribute_docstrings=True)

    schema_: str | None = Field(None, alias="$schema")
    """Where editors find this schema, e.g. "plugins/moss-tools.schema.json"."""
    version: Literal[1] = 1
    """The manifest format version."""
    tools: list[PluginToolDef] = Field(default_factory=list)
    """Tools run as a command, a Python SDK function, or an HTTP endpoint."""
    mcpServers: dict[str, McpServerDef] = Field(default_factory=dict)
    """MCP servers (stdio) by name; their tools are listed and called through MCP."""


class _Shell(_Strict):
    """The top level only, so that each entry can be checked on its own."""

    schema_: str | None = Field(None, alias="$schema")
    version: Literal[1] = 1
    tools: list[Any] = Field(default_factory=list)
    mcpServers: dict[str, Any] = Field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ManifestContents:
    """The valid entries of one manifest and what was wrong with the others."""

    path: Path
    source: str
    tools: list[PluginToolDef] = field(default_factory=list)
    servers: dict[str, McpServerDef] = field(default_factory=dict)
    problems: list[PluginProblem] = field(default_factory=list)


def read_manifest(path: Path, source: str, *, shown: str, taken: Collection[str] = ()) -> ManifestContents:
    """Read one manifest (`shown` names it in problems); `taken` are names already in use."""
    contents = ManifestContents(path, source)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return contents
    except (OSError, UnicodeDecodeError) as exc:
        contents.problems.append(PluginProblem(shown, f"cannot read the file: {exc}"))
        return contents
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        message = f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        contents.problems.append(PluginProblem(f"{shown}:{exc.lineno}:{exc.colno}", message))
        return contents
    try:
        shell = _Shell.model_validate(data)
    except ValidationError as exc:
        for error in exc.errors():
            where = _location(error["loc"])
            contents.problems.append(PluginProblem(shown, error["msg"], field=where or None))
        return contents
    names = set(taken)
    for index, raw in enumerate(shell.tools):
        checked = check_tool(raw, manifest=shown, taken=names, index=index)
        if isinstance(checked, PluginToolDef):
            names.add(checked.name)
            contents.tools.append(checked)
        else:
            contents.problems.extend(checked)
    _read_servers(shell.mcpServers, shown, contents)
    return contents


def render_manifest_schema() -> str:
    """The published JSON Schema of `moss-tools.json` (`plugins/moss-tools.schema.json`)."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **Manifest.model_json_schema(by_alias=True),
        "title": "moss-tools.json",
    }
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def check_tool(
    raw: object, *, manifest: str, taken: Collection[str], index: int = 0
) -> PluginToolDef | list[PluginProblem]:
    """Validate one tool definition exactly as the loader does; the problems name tool and field."""
    label = raw.get("name") if isinstance(raw, Mapping) else None
    tool = label if isinstance(label, str) and label else f"#{index + 1}"
    try:
        definition = PluginToolDef.model_validate(raw)
    except ValidationError as exc:
        return [
            PluginProblem(manifest, _message(error), tool=tool, field=_location(error["loc"]) or None)
            for error in exc.errors()
        ]
    problems = [
        PluginProblem(manifest, text, tool=tool, field=where) for where, text in _schema_problems(definition)
    ]
    if not problems:
        # Offered self-contained: servers reject (or silently mangle) `$ref`.
        inlined, where, reason = inline_refs(definition.parameters)
        if inlined is None:
            problems.append(PluginProblem(manifest, reason, tool=tool, field=where))
        else:
            definition = definition.model_copy(update={"parameters": inlined})
    if definition.name in taken:
        problems.append(
            PluginProblem(
                manifest,
                "this name is already used by a built-in tool or another plugin; choose another name",
                tool=tool,
                field="name",
            )
        )
    return problems or definition


def _read_servers(servers: Mapping[str, Any], manifest: str, contents: ManifestContents) -> None:
    """Check each `mcpServers` entry on its own."""
    for name, raw in servers.items():
        if not re.match(SERVER_NAME, name):
            contents.problems.append(
                PluginProblem(
                    manifest,
                    "an MCP server name must start with a letter and hold only letters, digits, _ and -",
                    tool=name,
                    field="mcpServers",
                )
            )
            continue
        try:
            contents.servers[name] = McpServerDef.model_validate(raw)
        except ValidationError as exc:
            for error in exc.errors():
                where = ".".join(["mcpServers", name, *(str(p) for p in error["loc"])])
                contents.problems.append(PluginProblem(manifest, _message(error), tool=name, field=where))


def _schema_problems(definition: PluginToolDef) -> list[tuple[str, str]]:
    """Why `parameters` is not a JSON-Schema object schema, as (field, reason) pairs."""
    import jsonschema  # type: ignore[import-untyped]  # noqa: PLC0415 - slow to import, needed only here

    schema = definition.parameters
    validator = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        where = ".".join(["parameters", *(str(part) for part in exc.path)])
        return [(where, f"not a valid JSON Schema: {exc.message}")]
    if schema.get("type") != "object":
        return [("parameters.type", 'the parameters must be a JSON-Schema object schema: "type": "object"')]
    if not isinstance(schema.get("properties", {}), dict):
        return [("parameters.properties", "must be an object mapping parameter names to schemas")]
    return []


def _location(loc: tuple[int | str, ...]) -> str:
    """A pydantic error location as a dotted field name, without the union tag (`run.command`)."""
    parts = [str(part) for part in loc]
    if len(parts) >= 2 and parts[0] == "run" and parts[1] in ("command", "python", "http"):
        del parts[1]
    return ".".join(parts)


def _message(error: Mapping[str, Any]) -> str:
    """A pydantic message reworded where it would not tell the author what to write."""
    if error["type"] == "missing":
        return "this field is required"
    if error["type"] == "extra_forbidden":
        return "unknown field; remove it"
    if error["type"] == "union_tag_invalid":
        return 'run.type must be "command", "python" or "http"'
    if error["type"] == "union_tag_not_found":
        return 'run needs a "type": "command", "python" or "http"'
    return str(error["msg"])
