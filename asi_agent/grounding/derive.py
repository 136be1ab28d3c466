"""From the edits a request states to the calls that make them: a plan of steps, worked out on the files.

Each `Edit` of `grounding.request` becomes the new text of every file it means — a rename in every file
that uses the name, a replacement in the file the request names (or the one file that holds the old
text), a setting's line, each version line, an import, a docstring below its `def`, a function at the
end, a removed line, a new file — and each changed file becomes one `replace_lines` / `insert_line` /
`delete_lines` / `create_file` call over the lines that differ. The edits are worked out one after the
other on the text the previous ones leave, so the line numbers of the plan hold when it runs in order.
An edit that no file fits adds no step; the plan is then shorter than the request, and the run's checks
decide whether what is left was done.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from asi_agent.grounding.project import ProjectView
from asi_agent.grounding.request import Edit, key_words, name_words

__all__ = ["DECLARED", "PlannedCall", "block_end", "plan_calls"]

_MAX_FILES = 2000  # files whose text is looked at; a bigger project is planned on its first ones
_MAX_BYTES = 200_000
_CODE = (".py", ".js", ".ts", ".tsx", ".jsx", ".go", ".rs", ".java", ".rb", ".php", ".c", ".h", ".cpp")
_DATA = (".toml", ".json", ".yaml", ".yml", ".cfg", ".ini", ".env")
_TEXT = (
    *_CODE,
    ".toml",
    ".json",
    ".yaml",
    ".yml",
    ".cfg",
    ".ini",
    ".txt",
    ".md",
    ".rst",
    ".html",
    ".css",
    ".env",
)


@dataclass(frozen=True, slots=True)
class PlannedCall:
    """One step of the plan: a tool call with every argument decided."""

    name: str
    arguments: dict[str, Any]
    after: str | None = None
    """The text of the file once the step is made (a step whose file already reads so is done)."""


@dataclass
class _Files:
    """The project's text files as the plan leaves them (edits are worked out one after the other)."""

    view: ProjectView
    task: str = ""
    texts: dict[str, str | None] = field(default_factory=dict)
    original: dict[str, str | None] = field(default_factory=dict)

    def text(self, rel: str) -> str | None:
        if rel not in self.texts:
            value = self.view.small_text(rel, _MAX_BYTES) if rel in self.view.files else None
            self.texts[rel] = self.original[rel] = value
        return self.texts[rel]

    def all(self) -> list[tuple[str, str]]:
        rels = [f for f in self.view.files[:_MAX_FILES] if f.endswith(_TEXT)]
        return [(rel, text) for rel in rels if (text := self.text(rel)) is not None]


def plan_calls(edits: Sequence[Edit], view: ProjectView, task: str) -> list[PlannedCall]:
    """The calls that make `edits` in the project, in order; empty when no file fits any of them."""
    files = _Files(view, task)
    named = view.mentioned_files(task)
    touched: list[str] = []
    values: list[tuple[str, str]] = []  # (old, new) of the values changed so far, for "… too"
    for edit in edits:
        if edit.kind == "also":
            changes = _also(edit, files, values)
        else:
            changes = _apply(edit, files, named)
            values += [pair for rel, new in changes if (pair := _value_change(files.text(rel), new))]
        for rel, new in changes:
            files.texts[rel] = new
            if rel not in touched:
                touched.append(rel)
    calls: list[PlannedCall] = []
    for rel in touched:
        before, after = files.original.get(rel), files.texts[rel]
        if after is not None and before != after:
            calls.extend(_calls_for(rel, before, after))
    return calls


def _value_change(before: str | None, after: str) -> tuple[str, str] | None:
    """The value one changed line holds before and after (quotes left out), if one line changed."""
    if before is None:
        return None
    old_lines, new_lines = before.split("\n"), after.split("\n")
    changed = [(a, b) for a, b in zip(old_lines, new_lines, strict=False) if a != b]
    if len(changed) != 1 or len(old_lines) != len(new_lines):
        return None
    a, b = (re.split(r"\s*[=:]\s*", line, maxsplit=1)[-1].strip().strip("\"',") for line in changed[0])
    return (a, b) if a and b and a != b else None


def _also(edit: Edit, files: _Files, values: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """ "… and in the README too": the values changed so far, changed in the files this clause names."""
    stems = {w.lower() for w in re.findall(r"[A-Za-z_][\w.-]*", edit.target)}
    named = [
        rel
        for rel in files.view.files
        if PurePosixPath(rel).name.lower() in stems or PurePosixPath(rel).stem.lower() in stems
    ] + files.view.mentioned_files(edit.target)
    changes: list[tuple[str, str]] = []
    for rel in dict.fromkeys(named):
        text = files.texts.get(rel) if rel in files.texts else files.text(rel)
        if text is None:
            continue
        new = text
        for old_value, new_value in values:
            new = new.replace(old_value, new_value)
        if new != text:
            changes.append((rel, new))
    return changes


def _apply(edit: Edit, files: _Files, named: list[str]) -> list[tuple[str, str]]:
    """The files `edit` changes, with their new text."""
    if edit.kind == "create":
        return _create(edit, files)
    targets = _targets(edit, files, named)
    changed: list[tuple[str, str]] = []
    for rel in targets:
        text = files.text(rel)
        if text is None:
            continue
        new = _TRANSFORMS[edit.kind](edit, rel, text)
        if new is not None and new != text:
            changed.append((rel, new))
    return changed


def _targets(edit: Edit, files: _Files, named: list[str]) -> list[str]:
    """The files an edit is about: those the request names, else those that hold what it changes."""
    if edit.kind == "rename":  # every file that uses the name, named or not (and settings keyed by it)
        word = re.compile(rf"(?<![\w]){re.escape(edit.old)}(?!\w)")
        key = re.compile(rf"""^\s*["']?{re.escape(edit.old)}["']?\s*[=:]""", re.MULTILINE)
        told = (
            set(named)
            | set(files.view.mentioned_files(edit.context))
            | set(_loosely_named(files.view, files.task))
        )
        return [
            rel
            for rel, text in files.all()
            if (rel.endswith(_CODE) and word.search(text))
            or (rel.endswith(_DATA) and key.search(text))
            or (rel in told and word.search(text))
        ]
    if named:
        return named[:3]
    holders: list[str] = []
    settings: list[str] = []  # for a replacement: the files where it is a setting's new value
    for rel, text in files.all():
        if _TRANSFORMS[edit.kind](edit, rel, text) not in (None, text):
            holders.append(rel)
            if edit.kind in ("replace", "remove") and _key_line(edit.old, text, fuzzy=False) is not None:
                settings.append(rel)
    if len(settings) == 1:
        return settings
    if edit.kind == "version":
        return holders[:4]  # "bump the version in both places"
    if len(holders) > 1:  # "get rid of the "round" easing": the file whose path the request's words name
        hinted = [rel for rel in holders if set(_hint_words(edit)) & set(name_words(rel))]
        holders = hinted if len(hinted) == 1 else holders
    if len(holders) > 1 and edit.kind in ("set", "assign", "remove"):  # a setting lives in settings, not docs
        for kind in (_DATA, _CODE):
            ranked = [rel for rel in holders if rel.endswith(kind)]
            if ranked:
                holders = ranked
                break
    return holders if len(holders) == 1 else []


def _loosely_named(view: ProjectView, text: str) -> list[str]:
    """Files the text names by their stem alone ("the README", "test.js 和 README")."""
    words = {w.lower() for w in re.findall(r"[A-Za-z][\w-]{3,}", text)}
    return [rel for rel in view.files if PurePosixPath(rel).stem.lower() in words]


def _bare(old: str) -> bool:
    """A number or a token of two characters: replacing it wherever it occurs would change other things."""
    return bool(re.fullmatch(r"-?\d+(?:\.\d+)?|\S{1,2}", old))


def _named_body(edit: Edit, text: str) -> tuple[int, int] | None:
    """The lines of the one function or class the clause names by an identifier, if it names one."""
    lines = text.split("\n")
    for name in re.findall(r"[A-Za-z_]\w*", edit.context):
        if name in (edit.old, edit.new) or len(name) < 3:
            continue
        for index, line in enumerate(lines):
            if re.match(rf"\s*(?:async\s+)?(?:def|class)\s+{re.escape(name)}\b", line):
                return index, block_end(lines, index)
    return None


def block_end(lines: list[str], opener: int) -> int:
    """The index of the first line after the block `lines[opener]` opens (by indentation), or the end."""
    indent = len(lines[opener]) - len(lines[opener].lstrip())
    for index in range(opener + 1, len(lines)):
        line = lines[index]
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            return index
    return len(lines)


def _hint_words(edit: Edit) -> list[str]:
    """The clause's words that are neither verbs nor the edit's own values."""
    own = set(name_words(f"{edit.old} {edit.new} {edit.target}"))
    common = {
        "the",
        "a",
        "an",
        "to",
        "of",
        "in",
        "from",
        "and",
        "it",
        "default",
        "change",
        "make",
        "set",
        "use",
    }
    return [w for w in key_words(edit.context) if w not in own and w not in common and len(w) > 2]


# -- what each kind of edit does to one file's text ---------------------------------------------


def _rename(edit: Edit, rel: str, text: str) -> str | None:
    return re.sub(rf"(?<![\w]){re.escape(edit.old)}(?!\w)", edit.new, text)


def _replace(edit: Edit, rel: str, text: str) -> str | None:
    if re.fullmatch(r"[A-Za-z_][\w.-]*", edit.old):  # "change port to 9090": the setting so named, if any
        setting = _set(Edit("set", new=edit.new, target=edit.old), rel, text)
        if setting is not None:
            return setting
    if edit.old not in text:
        return _named_setting(edit, rel, text)
    new = _replace_where_meant(edit, text)
    module = re.match(r"([A-Za-z_]\w*)\.\w", edit.new)
    if module and rel.endswith(".py") and new != text:  # "use math.pi instead of 3.14"
        new = _import(Edit("import", target=module[1]), rel, new) or new
    constant = re.fullmatch(r"[A-Z][A-Z0-9_]+", edit.new)
    if constant and rel.endswith(".py") and not re.search(rf"^{edit.new}\s*=", text, re.MULTILINE):
        new = _assign(Edit("assign", new=edit.old, target=edit.new), rel, new) or new  # "use a constant X"
    return new


def _named_setting(edit: Edit, rel: str, text: str) -> str | None:
    """ "把 休息时长 改成 10", "ChangeStack 默认的 description": the old text names a setting, not text."""
    names = re.findall(r"[A-Za-z_]\w*", edit.old)
    if len(names) > 1 and all(re.search(rf"\b{n}\b", text) for n in names[:-1]):
        default = re.compile(_DEFAULT.format(key=re.escape(names[-1]))).search(text)
        if default is not None and re.search(r"default|默认", edit.old, re.IGNORECASE):
            value = _typed(edit.new, default["value"], rel)
            return text[: default.start("value")] + value + text[default.end("value") :]
        return _set(Edit("set", new=edit.new, target=names[-1]), rel, text)
    if re.search(r"[=:]", edit.old) or not key_words(edit.old):
        return None  # text to replace, not a setting's name
    setting = _set(Edit("set", new=edit.new, target=edit.old), rel, text)
    return setting if setting is not None else _described_literal(edit, rel, text)


_LITERAL_TEXT = re.compile(r"""(?P<q>["'])(?P<body>[^"'\n]*\s[^"'\n]*)(?P=q)""")
_VAGUE_WORDS = frozenset({"text", "message", "string", "page", "label", "title", "the", "shown", "says"})


def _described_literal(edit: Edit, rel: str, text: str) -> str | None:
    """ "the welcome text on the home page should say "Happy planting!"": the one string literal of a code
    file whose line holds most of the description's words (its variable, its key, its own words)."""
    if not rel.endswith(_CODE) or " " not in edit.old.strip():
        return None
    wanted = set(key_words(edit.old)) - _VAGUE_WORDS
    spans: list[tuple[int, int, int]] = []  # (score, start, end) of each literal's text
    offset = 0
    for line in text.split("\n"):
        for literal in _LITERAL_TEXT.finditer(line):
            if score := len(wanted & set(name_words(line))):
                spans.append((score, offset + literal.start("body"), offset + literal.end("body")))
        offset += len(line) + 1
    best = max((score for score, _, _ in spans), default=0)
    top = [(start, end) for score, start, end in spans if score == best]
    if len(top) != 1:
        return None
    start, end = top[0]
    return text[:start] + edit.new + text[end:]


def _replace_where_meant(edit: Edit, text: str) -> str:
    """Every occurrence of the old text — or, when it occurs several times, those in the function the clause
    names ("_in_out_back has 1.70158 in it"), or on the lines holding the clause's other words ("the max fps
    from 60 to 30")."""
    edge = r"(?<!\w)" if re.match(r"\w", edit.old) else ""
    end = r"(?!\w)" if re.search(r"\w$", edit.old) else ""
    pattern = re.compile(edge + re.escape(edit.old) + end)
    if _bare(edit.old) and " " in edit.new.strip():
        return text  # "every 14 days now instead of 7": a number is replaced by a number, not by a phrase
    if len(pattern.findall(text)) <= 1:
        return pattern.sub(lambda _: edit.new, text)
    lines = text.split("\n")
    body = _named_body(edit, text)
    if body is not None:
        marked = list(range(*body))
    else:
        hints = set(_hint_words(edit))
        marked = [i for i, line in enumerate(lines) if pattern.search(line) and hints & set(name_words(line))]
        if not marked:
            return text if _bare(edit.old) else pattern.sub(lambda _: edit.new, text)
    for i in marked:
        lines[i] = pattern.sub(lambda _: edit.new, lines[i])
    return "\n".join(lines)


def _assign(edit: Edit, rel: str, text: str) -> str | None:
    """`add LONG_BREAK = 15`: the setting set when it is there, else a new line after the file's last
    module-level assignment (or its imports)."""
    if (changed := _set(Edit("set", new=edit.new, target=edit.target), rel, text)) is not None:
        return changed
    lines = text.split("\n")
    if rel.endswith((".py", ".toml", ".ini", ".cfg", ".env", ".properties")):
        assigns = [i for i, line in enumerate(lines) if re.match(r"[A-Za-z_][\w.]*\s*=(?!=)", line)]
        at = assigns[-1] + 1 if assigns else _after_imports(lines)
        lines[at:at] = [f"{edit.target} = {edit.new}"]
        return "\n".join(lines)
    return None


DECLARED = r"(?:(?:export\s+)?(?:const|let|var|final|static|readonly)\s+)?"
"""A declaration keyword before a setting's name (`const MAX = 3`, `export let name = …`)."""
_KEY_LINE = (
    r"""^(?P<lead>\s*"""
    + DECLARED
    + r"""(?P<q>["']?){key}(?P=q)\s*(?::\s*[\w\[\]., |]+?\s*)?(?P<sep>=|:)\s*)"""
    r"""(?P<value>"[^"\n]*"|'[^'\n]*'|.*?)(?P<tail>\s*[,;]?(?:\s+#.*|\s*//.*)?)$"""
)


def _set(edit: Edit, rel: str, text: str) -> str | None:
    """The setting's line with the new value: the key as the request names it, or the one key whose words
    hold the request's words ("work length" → WORK_MINUTES), or a keyword default (`description="…"`)."""
    match = _flag_default(edit.target, text) if edit.target.startswith("-") else _key_line(edit.target, text)
    if match is None:
        return None
    value = _typed(edit.new, match["value"], rel)
    return text[: match.start("value")] + value + text[match.end("value") :]


_ANY_KEY = re.compile(
    r"""^\s*"""
    + DECLARED
    + r"""["']?([A-Za-z_][\w.-]*)["']?\s*(?::\s*[\w\[\]., |]+?\s*)?(?:=|:(?!:))\s*\S""",
    re.MULTILINE,
)
_DEFAULT = (
    r"""(?<![\w.])(?P<key>{key})\s*(?::\s*[\w\[\], |.]+)?\s*=\s*(?P<value>"[^"\n]*"|'[^'\n]*'|[\w.+-]+)"""
)


def _flag_default(flag: str, text: str) -> re.Match[str] | None:
    """`--level`'s default: the `default=` of the line (or call) that declares the option."""
    declared = re.search(rf"""["']{re.escape(flag)}["'][^\n]*""", text)
    if declared is None:
        return None
    return re.compile(r"""\bdefault\s*=\s*(?P<value>"[^"\n]*"|'[^'\n]*'|[\w.+-]+)""").search(
        text, declared.start(), declared.end() + 200
    )


def _key_line(key: str, text: str, *, fuzzy: bool = True) -> re.Match[str] | None:
    exact = re.compile(_KEY_LINE.format(key=re.escape(key)), re.MULTILINE | re.IGNORECASE)
    if (match := exact.search(text)) is not None and match["value"]:
        return match
    if not fuzzy:
        return None
    wanted = set(key_words(key))
    if not wanted:
        return None
    scored: dict[str, int] = {}
    for found in _ANY_KEY.finditer(text):
        have = set(name_words(found[1]))
        if score := len(wanted & have):
            scored[found[1]] = max(score, scored.get(found[1], 0))
    best = max(scored.values(), default=0)
    keys = [k for k, v in scored.items() if v == best]
    if len(keys) == 1 and (best == len(wanted) or (best >= 1 and len(wanted) <= 2)):
        match = re.compile(_KEY_LINE.format(key=re.escape(keys[0])), re.MULTILINE).search(text)
        if match is not None and match["value"]:
            return match
    if re.fullmatch(r"[A-Za-z_]\w*", key):  # a keyword argument's default
        return re.compile(_DEFAULT.format(key=re.escape(key))).search(text)
    return None


def _typed(new: str, old: str, rel: str) -> str:
    """The new value written as the old one was: quoted when it was, booleans in the file's spelling."""
    low = new.lower()
    if low in ("true", "false", "yes", "no", "on", "off"):
        truth = low in ("true", "yes", "on")
        return ("True" if truth else "False") if rel.endswith(".py") else ("true" if truth else "false")
    if new[:1] in ("'", '"'):
        return new
    if (number := re.match(r"-?\d+(?:\.\d+)?(?=\s+[^\d\s])", new)) and _LITERAL.fullmatch(old):
        new = number[0]  # "50 minutes" where the file has a number
    if old[:1] in ("'", '"') and old[-1:] == old[:1]:
        return f"{old[0]}{new}{old[0]}"
    if _LITERAL.fullmatch(new) or not rel.endswith((".py", ".toml", ".json")):
        return new
    if rel.endswith(".py") and not _LITERAL.fullmatch(old) and _is_expression(new):
        return new  # an expression where the file had one
    return f'"{new}"'  # a word where these languages need a string


def _is_expression(text: str) -> bool:
    try:
        compile(text, "<value>", "eval")
    except (SyntaxError, ValueError):
        return False
    return True


_LITERAL = re.compile(r"-?\d+(?:\.\d+)?|true|false|True|False|None|null")


_VERSION_LINE = re.compile(
    r"""^(?P<lead>\s*(?:__version__|["']?version["']?|VERSION)\s*[=:]\s*(?P<q>["']?))(?P<value>\d+(?:\.\d+){1,3}[\w.-]*)(?P=q)""",
    re.MULTILINE,
)


def _version(edit: Edit, rel: str, text: str) -> str | None:
    match = _VERSION_LINE.search(text)
    if match is None:
        return None
    new = edit.new or _next_patch(match["value"])
    return text[: match.start("value")] + new + text[match.end("value") :]


def _next_patch(version: str) -> str:
    parts = re.match(r"(\d+(?:\.\d+)*)", version)
    numbers = (parts[1] if parts else version).split(".")
    numbers[-1] = str(int(numbers[-1]) + 1)
    return ".".join(numbers)


def _import(edit: Edit, rel: str, text: str) -> str | None:
    if not rel.endswith(".py"):
        return None
    name = edit.target
    if re.search(rf"^\s*(?:import {re.escape(name)}\b|from {re.escape(name)} import)", text, re.MULTILINE):
        return None
    lines = text.split("\n")
    at = _after_imports(lines)
    lines[at:at] = [f"import {name}"] + (
        [""] if at < len(lines) and lines[at].strip() and at == _doc_end(lines) else []
    )
    return "\n".join(lines)


def _doc_end(lines: list[str]) -> int:
    """The index of the first line after a module docstring (0 when there is none)."""
    if not lines or not lines[0].lstrip().startswith(('"""', "'''")):
        return 0
    quote = lines[0].lstrip()[:3]
    if lines[0].count(quote) >= 2:
        return 1
    for index in range(1, len(lines)):
        if quote in lines[index]:
            return index + 1
    return 0


def _after_imports(lines: list[str]) -> int:
    last = -1
    for index, line in enumerate(lines):
        if re.match(r"(?:import |from \S+ import )", line):
            last = index
        elif line.strip() and not line.startswith(("#", '"""', "'''")) and last >= 0:
            break
    return last + 1 if last >= 0 else _doc_end(lines)


def _docstring(edit: Edit, rel: str, text: str) -> str | None:
    if not rel.endswith(".py"):
        return None
    lines = text.split("\n")
    owner, _, name = edit.target.rpartition(".")
    start, stop = _class_body(lines, owner) if owner else (0, len(lines))
    for index in range(start, stop):
        line = lines[index]
        if re.match(rf"\s*(?:async\s+)?(?:def|class)\s+{re.escape(name)}\b", line):
            end = index
            while end < len(lines) and not lines[end].rstrip().endswith(":"):
                end += 1
            if end + 1 >= len(lines):
                return None
            body = lines[end + 1].strip()
            if body.startswith(('"""', "'''", 'r"""')):
                return None  # it has one
            indent = line[: len(line) - len(line.lstrip())] + "    "
            words = edit.new.strip().strip('"').strip("'") or " ".join(name_words(name)).capitalize()
            words = words if words.endswith((".", "!", "?")) else words + "."
            lines[end + 1 : end + 1] = [f'{indent}"""{words}"""']
            return "\n".join(lines)
    return None


def _class_body(lines: list[str], owner: str) -> tuple[int, int]:
    """The lines of `class owner`'s body (nothing when there is no such class)."""
    for index, line in enumerate(lines):
        if re.match(rf"(\s*)class\s+{re.escape(owner)}\b", line):
            return index + 1, block_end(lines, index)
    return 0, 0


def _function(edit: Edit, rel: str, text: str) -> str | None:
    if not rel.endswith(".py") or not edit.new:
        return None
    name = edit.target.split("(")[0]
    if re.search(rf"^def {re.escape(name)}\b", text, re.MULTILINE):
        return None
    body = f"def {edit.target}:\n    return {edit.new}\n"
    return text.rstrip("\n") + "\n\n\n" + body if text.strip() else body


def _returns(edit: Edit, rel: str, text: str) -> str | None:
    """`make add return a + b`: the first `return` in the body of `def add` returns the new expression."""
    lines = text.split("\n")
    name = re.escape(edit.target.split(".")[-1])
    for index, line in enumerate(lines):
        if not re.match(rf"\s*(?:async\s+)?def\s+{name}\s*\(", line):
            continue
        for at in range(index + 1, block_end(lines, index)):
            if match := re.match(r"(\s*return\s+)(.*?)(\s*(?:#.*)?)$", lines[at]):
                lines[at] = match[1] + edit.new + match[3]
                return "\n".join(lines)
    return None


def _remove(edit: Edit, rel: str, text: str) -> str | None:
    if not edit.old:
        return None
    lines = text.split("\n")
    key = re.compile(_KEY_LINE.format(key=re.escape(edit.old)), re.IGNORECASE)
    kept = [line for line in lines if not (key.match(line) or (" " in edit.old and edit.old in line))]
    item = re.compile(rf"""(["']){re.escape(edit.old)}\1,?[ \t]*""")
    if len(kept) == len(lines) and len(item.findall(text)) == 1:  # "drop .tox from the list": the one item
        return item.sub("", text, count=1)
    if len(kept) == len(lines):
        kept = [line for line in lines if not re.search(rf"^\s*{re.escape(edit.old)}\b", line)]
    if len(kept) == len(lines):  # the one line that holds the word ("删掉那行 DEBUG 打印")
        holding = [
            i for i, line in enumerate(lines) if re.search(rf"(?<!\w){re.escape(edit.old)}(?!\w)", line)
        ]
        kept = [line for i, line in enumerate(lines) if i not in holding] if len(holding) == 1 else lines
    return "\n".join(kept) if len(kept) < len(lines) else None


def _create(edit: Edit, files: _Files) -> list[tuple[str, str]]:
    name = edit.target or ("config.toml" if "=" in edit.new else "")
    if not name or not edit.new:
        return []
    text = files.text(name)
    if text is not None:  # "add debug = true to config.toml": the file is there, set or add the line
        key, _, value = edit.new.partition("=")
        changed = _set(Edit("set", new=value.strip(), target=key.strip()), name, text) if value else None
        return [(name, changed if changed is not None else text.rstrip("\n") + "\n" + edit.new + "\n")]
    content = edit.new
    if PurePosixPath(name).suffix == ".json" and "=" in content:
        key, value = (part.strip() for part in content.split("=", 1))
        content = f'{{\n  "{key}": {value}\n}}'
    elif PurePosixPath(name).suffix == ".ini" and "=" in content and not content.startswith("["):
        content = f"[{PurePosixPath(name).stem}]\n{content}"  # pytest.ini → [pytest], tox.ini → [tox]
    elif PurePosixPath(name).suffix in (".yaml", ".yml") and "=" in content:
        key, value = (part.strip() for part in content.split("=", 1))
        content = f"{key}: {value}"
    files.texts[name] = files.original[name] = None
    return [(name, content + "\n")]


_TRANSFORMS: dict[str, Callable[[Edit, str, str], str | None]] = {
    "rename": _rename,
    "replace": _replace,
    "set": _set,
    "version": _version,
    "import": _import,
    "docstring": _docstring,
    "function": _function,
    "returns": _returns,
    "assign": _assign,
    "remove": _remove,
}


# -- from two texts to the calls ----------------------------------------------------------------


def _lines(text: str) -> list[str]:
    """A text's lines as the edit tools number them (a final newline ends the last line)."""
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def _calls_for(rel: str, before: str | None, after: str) -> list[PlannedCall]:
    """One call that turns `before` into `after`: the span of lines that differ, replaced."""
    if before is None:
        return [PlannedCall("create_file", {"path": rel, "content": after}, after)]
    old, new = _lines(before), _lines(after)
    blocks = [
        op for op in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes() if op[0] != "equal"
    ]
    if not blocks:
        return []
    start, end = blocks[0][1], blocks[-1][2]
    first, last = blocks[0][3], blocks[-1][4]
    text = "\n".join(new[first:last])
    if start == end:  # only lines added
        return [PlannedCall("insert_line", {"path": rel, "line": start + 1, "text": text}, after)]
    if first == last:  # only lines removed
        return [PlannedCall("delete_lines", {"path": rel, "startLine": start + 1, "endLine": end}, after)]
    arguments = {"path": rel, "startLine": start + 1, "endLine": end, "newText": text}
    return [PlannedCall("replace_lines", arguments, after)]
