"""What every part of the plugin machinery shares, without the manifest's models (costly to build)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MANIFEST_NAME", "PluginProblem"]

MANIFEST_NAME = "moss-tools.json"
"""The file name of a manifest, in the project root and in the user config folder."""


@dataclass(frozen=True, slots=True)
class PluginProblem:
    """Something wrong in a manifest: which file, which tool or server, which field, and why."""

    manifest: str
    message: str
    tool: str | None = None
    field: str | None = None

    def __str__(self) -> str:
        where = [self.manifest]
        if self.tool:
            where.append(f"tool {self.tool!r}")
        if self.field:
            where.append(f"field {self.field!r}")
        return f"{': '.join(where)}: {self.message}"
