"""What every tool is made of: an arguments model, one async function, and a registry entry."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict

from asi_agent.sandbox import KIND, Sandbox
from asi_agent.tools.paths import resolve_in_project

if TYPE_CHECKING:
    from asi_agent.tools.files.journal import Journal

Risk = Literal["read", "write", "execute", "network"]

__all__ = [
    "Cursor",
    "FileStamp",
    "ImageReader",
    "ModelAccess",
    "PluginArgs",
    "Risk",
    "ToolArgs",
    "ToolContext",
    "ToolFunction",
    "ToolSpec",
]


class ToolArgs(BaseModel):
    """Base of every tool's arguments model: unknown parameters are errors the model can fix."""

    # Validators and schemas are built on a model's first use: a run offers and calls only a few tools.
    model_config = ConfigDict(extra="forbid", defer_build=True)

    def outside_project(self) -> str | None:
        """What this call writes outside the project by its own choice (not a path the model gave, which
        the policy resolves itself), e.g. a file in the user config folder; None: nothing. Such a call
        always asks, in every mode (`policy.engine`)."""
        return None


class PluginArgs(ToolArgs):
    """The arguments of a plugin tool: checked against its JSON Schema by the registry, kept as given."""

    model_config = ConfigDict(extra="allow")


@dataclass(frozen=True, slots=True)
class FileStamp:
    """What a file looked like when the model last read or wrote it."""

    mtime_ns: int
    size: int
    sha256: str


class ModelAccess(Protocol):
    """How a tool asks the session's model a question (generate_tests, fix_tests, refactor)."""

    async def ask(self, prompt: str, *, system: str | None = None) -> str:
        """One plain-text request without tools; returns the reply text. Raises BackendError."""
        ...


@runtime_checkable
class ImageReader(Protocol):
    """A `ModelAccess` that can say whether the model reads images (the session's does)."""

    async def accepts_images(self) -> bool:
        """Whether the model reads images (`read_file` of one then returns it, not a description)."""
        ...


@dataclass(frozen=True, slots=True)
class Cursor:
    """An editor position: from the TUI, `--cursor PATH:LINE[:COL]` or `.asi/cursor.json`. 1-based."""

    path: Path
    line: int
    column: int = 1


@dataclass(slots=True)
class ToolContext:
    """Everything a tool may use: the project, the journal, and what the model has seen this session."""

    root: Path
    journal: Journal
    session_id: str = ""
    read_max_bytes: int = 256_000
    stamps: dict[Path, FileStamp] = field(default_factory=dict)
    last_location: tuple[Path, int] | None = None
    """The last place the agent read or edited (absolute path, 1-based line)."""
    cursor: Cursor | None = None
    """The editor cursor given by the UI or `--cursor`, if any."""
    model: ModelAccess | None = None
    """The session's model, for tools that ask it themselves; None when there is none."""
    dry_run: bool = False
    """Set for previews: the write path raises `ChangePlanned` instead of writing."""
    command_timeout: float = 120.0
    """Default seconds before a foreground command is stopped."""
    state: dict[str, Any] = field(default_factory=dict)
    """Per-session objects of tool families (process table, code index), keyed by the owning module's name."""
    cleanups: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    """Run by `aclose()` when the session ends (e.g. stopping background processes)."""

    allowed_dirs: tuple[Path, ...] = ()
    """Folders outside the project that the policy lets tools use (`allow_dirs`)."""
    readable_dirs: tuple[Path, ...] = ()
    """Folders outside the project that tools may read but never write (the skills' folders)."""
    edit_guard: bool = True
    """Refuse an edit that turns a file which parsed into one that does not (config `edit_guard`)."""
    guarded_edits: int = 0
    """How many changes the edit guard refused this session."""
    buffers: dict[Path, str] = field(default_factory=dict)
    """Text an editor holds for files (its unsaved buffers), read instead of the disk; the editor protocol
    fills it before a call and empties it after the call changed the file."""
    sandbox: Sandbox | None = None
    """The OS sandbox every process a tool starts runs in; None runs them as the user (`--no-sandbox`)."""
    network_for: set[str] = field(default_factory=set)
    """Commands the person let use the network this session, though the sandbox closes it."""
    sandbox_note: str = ""
    """One line saying which sandbox is in force, or why there is none (the status bar, `run`'s stderr)."""

    @property
    def sandbox_kind(self) -> str | None:
        """What contains the commands: "bubblewrap", or None."""
        return None if self.sandbox is None else KIND

    def resolve(self, raw: str, *, write: bool) -> Path:
        """A path the model wrote, resolved inside the project (or an allowed folder), or refused."""
        also = self.allowed_dirs if write else self.allowed_dirs + self.readable_dirs
        return resolve_in_project(self.root, raw, write=write, also=also)

    @property
    def state_dir(self) -> Path:
        """The project's `.asi/` folder."""
        return self.root / ".asi"

    async def aclose(self) -> None:
        """End the session's tool resources, newest first."""
        while self.cleanups:
            await self.cleanups.pop()()


ToolFunction = Callable[[Any, ToolContext], Awaitable[str]]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One registry entry. `aliases` maps an accepted alternative parameter name to the real one."""

    name: str
    args: type[ToolArgs]
    run: ToolFunction | None
    risk: Risk
    aliases: Mapping[str, str] = field(default_factory=dict)
    source: str = "builtin"
    """Where the tool comes from: "builtin", "moss-tools.json", "user:moss-tools.json", "mcp:<server>",
    or an installed plugin package's "<package> <version>"."""
    description: str = ""
    """A plugin's own description (built-ins take theirs from the locale files)."""
    parameters: Mapping[str, Any] | None = None
    """A plugin's raw JSON-Schema parameters, published and validated as given; None for built-ins."""
    destructive: bool = False
    """Every call asks (in every mode but yolo), even where a rule or an "always" answer would allow it: an
    MCP tool its server marks `destructiveHint`."""
    classify: Callable[[Any], Risk] | None = None
    """The class of one call from its arguments, where it depends on them (`task`: its agent's tools)."""
