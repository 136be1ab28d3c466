"""Settings in a file's text: the line that sets a key (named exactly, or the one key whose words hold the
request's), an option's default, and a new value written as the old one was (quoted, `True` or `true`).

`grounding.rewrite` sets, assigns and removes settings with them; `grounding.derive` finds which file
holds a setting.
"""

from __future__ import annotations

import re

from asi_agent.grounding.clauses import key_words, name_words
from asi_agent.grounding.request import Edit

__all__ = ["DECLARED", "DEFAULT", "KEY_LINE", "key_line", "set_setting", "typed_value"]

DECLARED = r"(?:(?:export\s+)?(?:const|let|var|final|static|readonly)\s+)?"
"""A declaration keyword before a setting's name (`const MAX = 3`, `export let name = …`)."""
KEY_LINE = (
    r"""^(?P<lead>\s*"""
    + DECLARED
    + r"""(?P<q>["']?){key}(?P=q)\s*(?::\s*[\w\[\]., |]+?\s*)?(?P<sep>=|:)\s*)"""
    r"""(?P<value>"[^"\n]*"|'[^'\n]*'|.*?)(?P<tail>\s*[,;]?(?:\s+#.*|\s*//.*)?)$"""
)
"""The line that sets `{key}` (a pattern to format): its `lead`, its `value` and what follows it."""


def set_setting(edit: Edit, rel: str, text: str) -> str | None:
    """The setting's line with the new value: the key as the request names it, or the one key whose words
    hold the request's words ("work length" → WORK_MINUTES), or a keyword default (`description="…"`)."""
    match = _flag_default(edit.target, text) if edit.target.startswith("-") else key_line(edit.target, text)
    if match is None:
        return None
    value = typed_value(edit.new, match["value"], rel)
    return text[: match.start("value")] + value + text[match.end("value") :]


_ANY_KEY = re.compile(
    r"""^\s*"""
    + DECLARED
    + r"""["']?([A-Za-z_][\w.-]*)["']?\s*(?::\s*[\w\[\]., |]+?\s*)?(?:=|:(?!:))\s*\S""",
    re.MULTILINE,
)
DEFAULT = (
    r"""(?<![\w.])(?P<key>{key})\s*(?::\s*[\w\[\], |.]+)?\s*=\s*(?P<value>"[^"\n]*"|'[^'\n]*'|[\w.+-]+)"""
)
"""A keyword argument's default (`{key}` to format): `key=value` in a signature or a call."""


def _flag_default(flag: str, text: str) -> re.Match[str] | None:
    """`--level`'s default: the `default=` of the line (or call) that declares the option."""
    declared = re.search(rf"""["']{re.escape(flag)}["'][^\n]*""", text)
    if declared is None:
        return None
    return re.compile(r"""\bdefault\s*=\s*(?P<value>"[^"\n]*"|'[^'\n]*'|[\w.+-]+)""").search(
        text, declared.start(), declared.end() + 200
    )


def key_line(key: str, text: str, *, fuzzy: bool = True) -> re.Match[str] | None:
    """The line that sets `key` (or, with `fuzzy`, the one key whose words hold its words), or a keyword
    argument's default of that name; None when there is none."""
    exact = re.compile(KEY_LINE.format(key=re.escape(key)), re.MULTILINE | re.IGNORECASE)
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
        match = re.compile(KEY_LINE.format(key=re.escape(keys[0])), re.MULTILINE).search(text)
        if match is not None and match["value"]:
            return match
    if re.fullmatch(r"[A-Za-z_]\w*", key):  # a keyword argument's default
        return re.compile(DEFAULT.format(key=re.escape(key))).search(text)
    return None


def typed_value(new: str, old: str, rel: str) -> str:
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
