"""What the model-driven tools (generate_tests, fix_tests, refactor) share: asking the model, reading its
reply tolerantly, applying its search/replace edits, and querying the code index (syntax checks are in
`tools/files/syntax.py`, shared with the edit guard).

Small local models run these tools, so replies are read leniently: a code fence with or without a
language (or none at all), search/replace markers with a few more or fewer characters and stray spaces.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from asi_agent.exceptions import PermissionDeniedError, ToolError
from asi_agent.tools.args import ReplaceTextArgs
from asi_agent.tools.base import ModelAccess, ToolContext
from asi_agent.tools.code.sessionindex import open_index
from asi_agent.tools.files.edit import replace_text

__all__ = [
    "AppliedEdit",
    "SearchReplace",
    "apply_edit",
    "extract_code_block",
    "index_query",
    "parse_search_replace",
    "require_model",
]

_T = TypeVar("_T")
_OPEN_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w+#.-]*)[^\n]*$")
_SEARCH = re.compile(r"^\s*<{4,10}\s*SEARCH\b.*$", re.IGNORECASE)
_DIVIDER = re.compile(r"^\s*={4,10}\s*$")
_REPLACE = re.compile(r"^\s*>{4,10}\s*REPLACE\b.*$", re.IGNORECASE)
_PATH_LABEL = re.compile(r"^(?:#+\s*)?(?:file(?:name)?|path)\s*:\s*", re.IGNORECASE)


def require_model(ctx: ToolContext, tool: str) -> ModelAccess:
    """The session's model, or a ToolError saying that `tool` needs one."""
    if ctx.model is None:
        raise ToolError(
            f"{tool} needs a model to write code, and this session has none; "
            "do the work with read_file and the edit tools instead"
        )
    return ctx.model


def extract_code_block(reply: str, language: str | None = None) -> str | None:
    """The code of a reply: the fenced block in `language` if any, else the longest fenced block.

    An unclosed fence runs to the end of the reply; a reply without any fence is taken whole.
    None when there is no code at all.
    """
    blocks = _fenced_blocks(reply)
    if not blocks:
        text = reply.strip("\n")
        return text + "\n" if text.strip() else None
    wanted = [code for lang, code in blocks if language and lang.lower() in _language_tags(language)]
    code = wanted[0] if wanted else max((code for _, code in blocks), key=len)
    return code if code.strip() else None


def _fenced_blocks(reply: str) -> list[tuple[str, str]]:
    """(language tag, code) of every fenced block, in order."""
    lines = reply.splitlines()
    blocks: list[tuple[str, str]] = []
    index = 0
    while index < len(lines):
        opening = _OPEN_FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        fence, lang = opening.group(1), opening.group(2)
        end = index + 1
        while end < len(lines) and not _closes(lines[end], fence):
            end += 1
        body = lines[index + 1 : end]
        blocks.append((lang, "\n".join(body) + "\n" if body else ""))
        index = end + 1
    return blocks


def _closes(line: str, fence: str) -> bool:
    """A closing fence: the same character, at least as many, nothing else on the line."""
    stripped = line.strip()
    return len(stripped) >= len(fence) and set(stripped) == {fence[0]}


def _language_tags(language: str) -> set[str]:
    """Fence tags that mean `language`."""
    aliases = {"python": {"python", "py", "python3"}, "javascript": {"javascript", "js", "jsx", "mjs"}}
    aliases |= {"typescript": {"typescript", "ts", "tsx"}, "go": {"go", "golang"}}
    return aliases.get(language, {language})


@dataclass(frozen=True, slots=True)
class SearchReplace:
    """One edit proposed by the model: replace `search` with `replace` in `path` (None: not named).

    `problem` says why a malformed block cannot be applied (None for a well-formed one).
    """

    path: str | None
    search: str
    replace: str
    problem: str | None = None


def parse_search_replace(reply: str) -> list[SearchReplace]:
    """Every `path / <<<<<<< SEARCH / ======= / >>>>>>> REPLACE` block of a reply, in order.

    The path is the last line before the block that looks like one (fence lines and labels such as
    `File:` are skipped). A block cut off by the end of the reply (a truncated reply) still counts;
    one interrupted by the next SEARCH marker, or without a divider, is kept with its `problem`.
    """
    edits: list[SearchReplace] = []
    path: str | None = None
    lines = reply.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if _SEARCH.match(line):
            search, replace, index, problem = _read_block(lines, index + 1)
            edits.append(SearchReplace(path, search, replace, problem))
            continue
        candidate = _path_of(line)
        if candidate is not None:
            path = candidate
        index += 1
    return edits


def _read_block(lines: list[str], index: int) -> tuple[str, str, int, str | None]:
    """The SEARCH and REPLACE texts starting at `index`, the index after the block, and its problem."""
    parts: list[list[str]] = [[]]
    closed = False
    while index < len(lines) and not _SEARCH.match(lines[index]):
        line = lines[index]
        index += 1
        if len(parts) == 1 and _DIVIDER.match(line):
            parts.append([])
        elif _REPLACE.match(line):
            closed = True
            break
        else:
            parts[-1].append(line)
    problem = None
    if len(parts) == 1:
        problem = "the block has no ======= line between its SEARCH and REPLACE parts"
    elif not closed and index < len(lines):
        problem = "the block has no >>>>>>> REPLACE line before the next block"
    replace = parts[-1] if len(parts) == 2 else []
    while not closed and replace and (not replace[-1].strip() or _OPEN_FENCE.match(replace[-1])):
        replace.pop()  # the fence or blank lines that close a truncated reply are not code
    return "\n".join(parts[0]), "\n".join(replace), index, problem


def _path_of(line: str) -> str | None:
    """The file path a line names, or None when it does not look like a path."""
    text = _PATH_LABEL.sub("", line.strip()).strip("`*'\" :")
    if not text or _OPEN_FENCE.match(line) or " " in text or len(text) > 300:
        return None
    return text if "/" in text or re.search(r"\.\w{1,6}$", text) else None


@dataclass(frozen=True, slots=True)
class AppliedEdit:
    """What became of one edit: applied (with replace_text's summary and diff) or skipped (why)."""

    edit: SearchReplace
    applied: bool
    detail: str


async def apply_edit(ctx: ToolContext, edit: SearchReplace) -> AppliedEdit:
    """Apply one edit exactly as replace_text does (unique exact match, else whitespace-tolerant)."""
    if edit.problem is not None:
        return AppliedEdit(edit, False, edit.problem)
    if edit.path is None:
        return AppliedEdit(edit, False, "no file path was given on the line before the SEARCH marker")
    if not edit.search.strip():
        return AppliedEdit(edit, False, f"{edit.path}: the SEARCH part is empty")
    try:
        detail = await replace_text(
            ReplaceTextArgs(path=edit.path, oldText=edit.search, newText=edit.replace), ctx
        )
    except (ToolError, PermissionDeniedError) as exc:
        return AppliedEdit(edit, False, str(exc))
    return AppliedEdit(edit, True, detail)


async def index_query(ctx: ToolContext, function: Callable[[sqlite3.Connection], _T]) -> _T:
    """Run a read-only question on the session's code index (brought up to date first)."""
    index = await open_index(ctx)

    def locked() -> _T:
        with index.lock:
            return function(index.conn)

    return await asyncio.to_thread(locked)
