"""The built-in tools: the 22 of spec §3.1 in its order, then the two `moss_*` tools of §3.3.

Each entry names its arguments model, its function (None while not implemented yet), its risk class
and the alternative parameter names the spec promises to accept (§3.4 descriptions).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, cast

from asi_agent.tools import args as a
from asi_agent.tools.base import Risk, ToolArgs, ToolContext, ToolFunction, ToolSpec

__all__ = ["EXTENSION_TOOLS", "PATH_ALIASES", "builtin_specs", "extension_spec"]

PATH_ALIASES: Mapping[str, str] = {"filePath": "path", "file_path": "path", "file": "path"}
"""Alternative names of `path`, accepted by every tool that has one."""

_ALIASES: Mapping[str, Mapping[str, str]] = {
    "replace_lines": dict.fromkeys(("newLines", "content", "code", "text", "replacement"), "newText"),
    "insert_line": dict.fromkeys(("content", "code", "lineText", "insertText", "value"), "text"),
    "replace_text": {
        **dict.fromkeys(("oldString", "search", "searchValue", "find"), "oldText"),
        **dict.fromkeys(("newString", "replace", "replaceValue", "replacement"), "newText"),
    },
    "create_file": dict.fromkeys(("text", "code", "body"), "content"),
    "run_terminal_cmd": {
        **dict.fromkeys(("cmd", "commandText", "text"), "command"),
        **dict.fromkeys(("workingDir", "workDir", "directory"), "cwd"),
        **dict.fromkeys(("isBackground", "background"), "is_background"),
    },
}

# (name, arguments model, risk, implementing module or None), in spec §3.1 order.
_TABLE: tuple[tuple[str, type[ToolArgs], Risk, str | None], ...] = (
    ("codebase_search", a.CodebaseSearchArgs, "read", "asi_agent.tools.code.lookup"),
    ("read_file", a.ReadFileArgs, "read", "asi_agent.tools.files.ops"),
    ("replace_lines", a.ReplaceLinesArgs, "write", "asi_agent.tools.files.edit"),
    ("insert_line", a.InsertLineArgs, "write", "asi_agent.tools.files.edit"),
    ("delete_lines", a.DeleteLinesArgs, "write", "asi_agent.tools.files.edit"),
    ("replace_text", a.ReplaceTextArgs, "write", "asi_agent.tools.files.edit"),
    ("list_directory", a.ListDirectoryArgs, "read", "asi_agent.tools.search.listing"),
    ("get_project_structure", a.GetProjectStructureArgs, "read", "asi_agent.tools.search.listing"),
    ("get_cursor_context", a.GetCursorContextArgs, "read", "asi_agent.tools.code.lookup"),
    ("create_file", a.CreateFileArgs, "write", "asi_agent.tools.files.ops"),
    ("delete_file", a.DeleteFileArgs, "write", "asi_agent.tools.files.ops"),
    ("grep_search", a.GrepSearchArgs, "read", "asi_agent.tools.search.grep"),
    ("file_search", a.FileSearchArgs, "read", "asi_agent.tools.search.grep"),
    ("find_code_location", a.FindCodeLocationArgs, "read", "asi_agent.tools.code.lookup"),
    ("run_terminal_cmd", a.RunTerminalCmdArgs, "execute", "asi_agent.tools.exec.terminal"),
    ("reapply", a.ReapplyArgs, "write", "asi_agent.tools.files.history"),
    ("diff_history", a.DiffHistoryArgs, "read", "asi_agent.tools.files.history"),
    ("lint_check", a.LintCheckArgs, "execute", "asi_agent.tools.exec.lint"),
    ("refactor", a.RefactorArgs, "write", "asi_agent.tools.quality.refactor"),
    ("run_tests", a.RunTestsArgs, "execute", "asi_agent.tools.exec.testing"),
    # These three run the project's code (the tests they write or fix, a plugin callable at once): they are
    # commands to the policy, whatever else they write.
    ("generate_tests", a.GenerateTestsArgs, "execute", "asi_agent.tools.quality.gentests"),
    ("fix_tests", a.FixTestsArgs, "execute", "asi_agent.tools.quality.fixtests"),
    ("moss_register_plugin_tool", a.MossRegisterPluginToolArgs, "execute", "asi_agent.tools.moss"),
    ("moss_update_asi_user_prompt", a.MossUpdateAsiUserPromptArgs, "write", "asi_agent.tools.moss"),
)


# Extension tools: not in the spec, registered by the session when it has a use for them (never by `tools =
# "asi"`, which offers exactly the spec's tools).
_EXTENSIONS: dict[str, tuple[type[ToolArgs], Risk, str]] = {
    "execute_skill": (a.ExecuteSkillArgs, "read", "asi_agent.skills.tool"),
}
EXTENSION_TOOLS: tuple[str, ...] = tuple(_EXTENSIONS)
"""The names of the extension tools."""


def _lazy(module: str, name: str) -> ToolFunction:
    """A tool function that imports its implementation on first call, keeping start-up light."""

    async def run(args: Any, ctx: ToolContext) -> str:
        function = cast(ToolFunction, getattr(importlib.import_module(module), name))
        return await function(args, ctx)

    run.__name__ = run.__qualname__ = name
    run.__doc__ = f"Runs `{module}.{name}`."
    return run


def _aliases(name: str, model: type[ToolArgs]) -> dict[str, str]:
    """The accepted alternative parameter names of one tool."""
    found = dict(PATH_ALIASES) if "path" in model.model_fields else {}
    found.update(_ALIASES.get(name, {}))
    return found


def builtin_specs() -> tuple[ToolSpec, ...]:
    """Every built-in tool, in spec §3.1 order followed by the two `moss_*` tools."""
    return tuple(
        ToolSpec(
            name=name,
            args=model,
            run=_lazy(module, name) if module else None,
            risk=risk,
            aliases=_aliases(name, model),
        )
        for name, model, risk, module in _TABLE
    )


def extension_spec(name: str) -> ToolSpec:
    """The registry entry of one extension tool (KeyError for an unknown name)."""
    model, risk, module = _EXTENSIONS[name]
    return ToolSpec(name=name, args=model, run=_lazy(module, name), risk=risk, aliases={}, source="extension")
