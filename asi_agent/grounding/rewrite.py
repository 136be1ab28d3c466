"""What each kind of edit does to one file's text: a rename, a replacement, a setting, a version, an import,
a docstring, a function, a return, a removal (the rules `grounding.derive` plans with).

Each transform takes the `Edit`, the file's path (its kind decides spelling: `True` or `true`) and its text,
and returns the new text, or None when the edit does not fit the file.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from asi_agent.grounding.clauses import key_words, name_words
from asi_agent.grounding.request import Edit
from asi_agent.grounding.settings import DEFAULT, KEY_LINE, set_setting, typed_value

__all__ = ["CODE", "DATA", "MODEL_TEXT", "TRANSFORMS", "block_end", "hint_words"]

MODEL_TEXT = "\x00"
"""Where a planned text holds words the request does not state: the model writes them (`grounding.derive`)."""

CODE = (".py", ".js", ".ts", ".tsx", ".jsx", ".go", ".rs", ".java", ".rb", ".php", ".c", ".h", ".cpp")
"""Source files: what a rename reaches, where a described text is looked for."""
DATA = (".toml", ".json", ".yaml", ".yml", ".cfg", ".ini", ".env")
"""Settings files: a setting lives here rather than in code or documents."""


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


def hint_words(edit: Edit) -> list[str]:
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
        setting = set_setting(Edit("set", new=edit.new, target=edit.old), rel, text)
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
        default = re.compile(DEFAULT.format(key=re.escape(names[-1]))).search(text)
        if default is not None and re.search(r"default|默认", edit.old, re.IGNORECASE):
            value = typed_value(edit.new, default["value"], rel)
            return text[: default.start("value")] + value + text[default.end("value") :]
        return set_setting(Edit("set", new=edit.new, target=names[-1]), rel, text)
    if re.search(r"[=:]", edit.old) or not key_words(edit.old):
        return None  # text to replace, not a setting's name
    setting = set_setting(Edit("set", new=edit.new, target=edit.old), rel, text)
    return setting if setting is not None else _described_literal(edit, rel, text)


_LITERAL_TEXT = re.compile(r"""(?P<q>["'])(?P<body>[^"'\n]*\s[^"'\n]*)(?P=q)""")
_VAGUE_WORDS = frozenset({"text", "message", "string", "page", "label", "title", "the", "shown", "says"})


def _described_literal(edit: Edit, rel: str, text: str) -> str | None:
    """ "the welcome text on the home page should say "Happy planting!"": the one string literal of a code
    file whose line holds most of the description's words (its variable, its key, its own words)."""
    if not rel.endswith(CODE) or " " not in edit.old.strip():
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
        hints = set(hint_words(edit))
        marked = [i for i, line in enumerate(lines) if pattern.search(line) and hints & set(name_words(line))]
        if not marked:
            return text if _bare(edit.old) else pattern.sub(lambda _: edit.new, text)
    for i in marked:
        lines[i] = pattern.sub(lambda _: edit.new, lines[i])
    return "\n".join(lines)


def _assign(edit: Edit, rel: str, text: str) -> str | None:
    """`add LONG_BREAK = 15`: the setting set when it is there, else a new line after the file's last
    module-level assignment (or its imports)."""
    if (changed := set_setting(Edit("set", new=edit.new, target=edit.target), rel, text)) is not None:
        return changed
    lines = text.split("\n")
    if rel.endswith((".py", ".toml", ".ini", ".cfg", ".env", ".properties")):
        assigns = [i for i, line in enumerate(lines) if re.match(r"[A-Za-z_][\w.]*\s*=(?!=)", line)]
        at = assigns[-1] + 1 if assigns else _after_imports(lines)
        lines[at:at] = [f"{edit.target} = {edit.new}"]
        return "\n".join(lines)
    return None


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
            words = edit.new.strip().strip('"').strip("'") or MODEL_TEXT  # the model writes what is not given
            words = words if words.endswith((".", "!", "?", MODEL_TEXT)) else words + "."
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
    key = re.compile(KEY_LINE.format(key=re.escape(edit.old)), re.IGNORECASE)
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


TRANSFORMS: dict[str, Callable[[Edit, str, str], str | None]] = {
    "rename": _rename,
    "replace": _replace,
    "set": set_setting,
    "version": _version,
    "import": _import,
    "docstring": _docstring,
    "function": _function,
    "returns": _returns,
    "assign": _assign,
    "remove": _remove,
}
