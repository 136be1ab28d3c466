"""The arguments models of all built-in tools: the single source of their model-facing schemas.

Field names are the protocol's parameter names (spec §3.4), so they keep its camelCase.
Integers are published as JSON-Schema `number`; `Literal` choices are published as `string`
(the spec lists the choices in the description) and still validated here. Bounds (`ge`, `le`) are
not published (the spec has none) but validated, and the schemas that constrain a local model's
decoding (`asi_agent.grounding.strict`) state them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from asi_agent.tools.base import ToolArgs

__all__ = [
    "CodebaseSearchArgs",
    "CreateFileArgs",
    "DeleteFileArgs",
    "DeleteLinesArgs",
    "DiffHistoryArgs",
    "ExecuteSkillArgs",
    "FileSearchArgs",
    "FindCodeLocationArgs",
    "FixTestsArgs",
    "GenerateTestsArgs",
    "GetCursorContextArgs",
    "GetProjectStructureArgs",
    "GrepSearchArgs",
    "InsertLineArgs",
    "LintCheckArgs",
    "ListDirectoryArgs",
    "MossRegisterPluginToolArgs",
    "MossUpdateAsiUserPromptArgs",
    "ReadFileArgs",
    "ReapplyArgs",
    "RefactorArgs",
    "ReplaceLinesArgs",
    "ReplaceTextArgs",
    "RunTerminalCmdArgs",
    "RunTestsArgs",
]


class CodebaseSearchArgs(ToolArgs):
    query: str
    fileType: str | None = None
    limit: int = Field(default=10, ge=1, le=200)


class ReadFileArgs(ToolArgs):
    path: str
    startLine: int | None = Field(default=None, ge=1)
    endLine: int | None = Field(default=None, ge=1)


class ReplaceLinesArgs(ToolArgs):
    path: str
    startLine: int
    endLine: int
    newText: str


class InsertLineArgs(ToolArgs):
    path: str
    line: int
    text: str


class DeleteLinesArgs(ToolArgs):
    path: str
    startLine: int
    endLine: int


class ReplaceTextArgs(ToolArgs):
    path: str
    oldText: str
    newText: str


class ListDirectoryArgs(ToolArgs):
    path: str
    recursive: bool = False
    fileType: str | None = None
    minSize: int | None = Field(default=None, ge=0)
    maxSize: int | None = Field(default=None, ge=0)
    modifiedAfter: str | None = None
    sortBy: Literal["name", "size", "modified"] = "name"
    sortOrder: Literal["asc", "desc"] = "asc"


class GetProjectStructureArgs(ToolArgs):
    pass


class GetCursorContextArgs(ToolArgs):
    linesBefore: int = 10
    linesAfter: int = 10
    semanticContext: bool = True
    includeCallers: bool = False
    includeCallees: bool = False


class CreateFileArgs(ToolArgs):
    path: str
    content: str
    overwrite: bool = False


class RunTerminalCmdArgs(ToolArgs):
    command: str
    cwd: str | None = None
    is_background: bool | None = None


class GrepSearchArgs(ToolArgs):
    pattern: str
    fileType: str | None = None
    caseSensitive: bool = False
    limit: int = 50


class FileSearchArgs(ToolArgs):
    pattern: str
    fileType: str | None = None
    fuzzy: bool = True
    searchPath: bool = True


class DeleteFileArgs(ToolArgs):
    path: str
    permanent: bool = False


class ReapplyArgs(ToolArgs):
    index: int = 0


class DiffHistoryArgs(ToolArgs):
    path: str | None = None
    limit: int = Field(default=10, ge=1, le=200)


class LintCheckArgs(ToolArgs):
    path: str


class FindCodeLocationArgs(ToolArgs):
    path: str | None = None
    search: str
    searchType: Literal["exact", "contains", "regex", "class", "function", "variable"] = "contains"
    findReferences: bool = False
    findDefinition: bool = False
    fileType: str | None = None


class RefactorArgs(ToolArgs):
    path: str
    refactorType: Literal["performance", "readability", "structure", "error_handling", "general"] = "general"
    symbol: str | None = None
    startLine: int | None = None
    endLine: int | None = None
    analyzeImpact: bool = True
    preview: bool = False
    includeContext: bool = True


class RunTestsArgs(ToolArgs):
    testFile: str | None = None
    testPattern: str | None = None
    coverage: bool = False


class GenerateTestsArgs(ToolArgs):
    path: str
    testFramework: str | None = None
    testTypes: list[str] = Field(default=["unit", "edge", "error"])


class FixTestsArgs(ToolArgs):
    testResults: dict[str, Any] | None = None
    testFile: str | None = None
    autoRun: bool = True


class MossRegisterPluginToolArgs(ToolArgs):
    name: str
    description: str
    parameters: dict[str, Any]
    run: dict[str, Any]
    risk: Literal["read", "write", "execute", "network"] = "execute"


class MossUpdateAsiUserPromptArgs(ToolArgs):
    content: str
    mode: Literal["append", "replace"] = "append"
    scope: Literal["project", "global"] = "project"

    def outside_project(self) -> str | None:
        """The global scope writes the user-level prompt, read by every later session of every project."""
        return "the user-level USER_PROMPT.md" if self.scope == "global" else None

class ExecuteSkillArgs(ToolArgs):
    """Use a skill: returns its instructions and the list of its bundled files."""

    skill_id: str = Field(description="The skill's name, one of those listed in this tool's description.")
    parameters: dict[str, Any] | None = Field(
        default=None, description="Values taken from the request that the skill's steps need (optional)."
    )
