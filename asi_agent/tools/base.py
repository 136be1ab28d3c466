"""What every tool is made of: an arguments model, one async function, and a registry entry."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from asi_agent.tools.journal import Journal

Risk = Literal["read", "write", "execute", "network"]

__all__ = ["FileStamp", "Risk", "ToolArgs", "ToolContext", "ToolFunction", "ToolSpec"]


class ToolArgs(BaseModel):
    """Base of every tool's arguments model: unknown parameters are errors the model can fix."""

    model_config = ConfigDict(extra="forbid")


@dataclass(frozen=True, slots=True)
class FileStamp:
    """What a file looked like when the model last read or wrote it."""

    mtime_ns: int
    size: int
    sha256: str


@dataclass(slots=True)
class ToolContext:
    """Everything a tool may use: the project, the journal, and what the model has seen this session."""

    root: Path
    journal: Journal
    session_id: str = ""
    read_max_bytes: int = 256_000
    stamps: dict[Path, FileStamp] = field(default_factory=dict)
    last_location: tuple[Path, int] | None = None

    @property
    def state_dir(self) -> Path:
        """The project's `.asi/` folder."""
        return self.root / ".asi"


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
