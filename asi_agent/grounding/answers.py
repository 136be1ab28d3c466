"""The answers a small model may give to a question: the few lines of a tool result that fit it best.

A question ("What port is set in config.toml?", "What does greet return?") is answered by a line, not
by the file around it. The result the answer rests on is cut into units — a file's lines, a search's
matches as `path:line: text` — and each unit is scored by the question's words it holds, each word
weighted by how rare it is among the units (a word on every line tells nothing). Two kinds of lines get
more: a `key = value` / `key: value` line whose key is a word of the question (a setting asked for),
and a line in the body of a definition the question names that holds another of its words (`return …`
inside `def greet` when asked what greet returns). The units scoring more than half of the best are the
options, best first, less those that fit only part of what another option fits (`def mul(a, b):` next to
`return a * b` for "what does mul return"); when no unit holds a word of the question, the whole result
is the one option.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from asi_agent.grounding.choices import quote_lines
from asi_agent.grounding.task import words

__all__ = ["Unit", "answer_options", "fitting_texts", "question_words", "result_units"]

_TOKEN = re.compile(r"[A-Za-z0-9]+")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_KEY = re.compile(r"""^\s*["']?([A-Za-z_][\w.-]*)["']?\s*(?:=|:(?!:))""")
_DEFINES = (  # `def name`, `function name`, … or `name = function(…)` / `name = lambda` / `name = (…) =>`
    r"\b(?:def|class|function|func|fn|sub)\s+{name}\w*\b|\b{name}\w*\s*[:=]\s*(?:function\b|lambda\b|\()"
)
_FILE_NAME = re.compile(r"(?<![\w/.-])(?:[\w-]+/)*[\w-]+\.[A-Za-z][A-Za-z0-9]{0,7}(?![\w/])")
_LOCATED = re.compile(r"^\S+:\d+(?::\d+)?\s")
_GREP_MATCH = re.compile(r"^\s+(\d+): (.*)$")
_QUESTION_WORDS = frozenset(
    str.split(
        "who whom whose how why when according use uses used there here has have had been being was were "
        "will would could"
    )
)
_SUFFIXES = ("ing", "ed", "es", "s")
_OPTION_CHARS = 1000  # a longer line (minified code) is offered as its start: still a quote, a small grammar


@dataclass(frozen=True, slots=True)
class Unit:
    """One piece of a result that may be the answer: the text offered, and its indentation in the file."""

    text: str
    indent: int


def question_words(task: str) -> list[str]:
    """The task's words that may be in the answer: a word used only inside a file name names the file."""
    return words(_FILE_NAME.sub(" ", task))


def result_units(output: str, tool: str | None) -> list[Unit]:
    """The result cut into the pieces an answer may quote (non-empty lines; search matches located)."""
    if tool == "grep_search":
        return _grep_units(output)
    lines = quote_lines(output).splitlines() if tool == "read_file" else output.splitlines()
    units = [Unit(line.strip(), len(line) - len(line.lstrip())) for line in lines if line.strip()]
    located = [u for u in units if _LOCATED.match(u.text)]
    # A lookup's title ("Symbols matching x (2):") repeats the question's words; its hits answer.
    return located if tool != "read_file" and located else units


def _grep_units(output: str) -> list[Unit]:
    units: list[Unit] = []
    path = ""
    for line in output.splitlines()[1:]:
        match = _GREP_MATCH.match(line)
        if match:
            units.append(Unit(f"{path}:{match[1]}: {match[2].strip()}", 0))
        elif line.strip() and not line.startswith("…"):
            path = line.strip()
    return units


def answer_options(
    output: str,
    tool: str | None,
    task_words: Sequence[str],
    quoted: Sequence[str],
    limit: int,
    *,
    whole: bool = False,
) -> list[str]:
    """At most `limit` units of `output` that fit the question best; the whole output if none does.

    `whole`: only units that hold every word of the question that could be in them (generic words aside,
    a definition's name counting for the lines of its body) — anything less answers another question — and
    none when no unit does.
    """
    units = result_units(output, tool)
    fits = _fits(units, _terms(task_words), quoted)
    if whole:
        needed = {t for t in _terms(task_words) if t not in _GENERIC}
        if not needed:
            return []
        keep = [needed <= fit.keys() or any(k.startswith("quote:") for k in fit) for fit in fits]
        units = [unit for unit, kept in zip(units, keep, strict=True) if kept]
        fits = [fit for fit, kept in zip(fits, keep, strict=True) if kept]
        if not units:
            return []
    scores = [sum(fit.values()) for fit in fits]
    best = max(scores, default=0.0)
    if best <= 0:
        everything = quote_lines(output) if tool == "read_file" else output
        return [everything.strip()[:3000]] if everything.strip() else []
    order = sorted(range(len(units)), key=lambda i: (-scores[i], i))
    kept = [i for i in order if 2 * scores[i] > best]
    # A line that fits only some of what another offered line fits, and nothing else, is not an answer.
    kept = [i for i in kept if not any(fits[i].keys() < fits[j].keys() for j in kept)]
    return list(dict.fromkeys(units[i].text[:_OPTION_CHARS] for i in kept))[:limit]


_GENERIC = frozenset(
    {
        "project",
        "file",
        "code",
        "value",
        "function",
        "class",
        "method",
        "setting",
        "default",
        "use",
        "defined",
        "define",
        "does",
        "set",
        "line",
        "lines",
        "name",
        "thing",
        "current",
        "currently",
        "now",
    }
)


def fitting_texts(texts: Sequence[tuple[str, str]], task_words: Sequence[str]) -> list[str]:
    """The names of the `(name, text)` pairs whose text holds the question's words, best first.

    Weighted as lines are: a word most texts hold tells little; those scoring more than half of the best.
    """
    terms = _terms(task_words)
    held = [_held(text, terms) for _, text in texts]
    weight = {t: _idf(sum(t in h for h in held), len(texts)) for t in terms}
    scores = [sum(weight[t] for t in h) for h in held]
    best = max(scores, default=0.0)
    order = sorted(range(len(texts)), key=lambda i: (-scores[i], i))
    return [texts[i][0] for i in order if best > 0 and 2 * scores[i] > best]


def _terms(task_words: Sequence[str]) -> list[str]:
    stems = (_stem(w) for w in task_words if w.lower() not in _QUESTION_WORDS)
    return list(dict.fromkeys(t for t in stems if t))


def _fits(units: Sequence[Unit], terms: Sequence[str], quoted: Sequence[str]) -> list[dict[str, float]]:
    """What in each unit fits the question, with its weight: terms, a setting's key, quoted values.

    A line inside a definition the question names, holding another of its words, holds the name too.
    """
    held = [_held(unit.text, terms) for unit in units]
    weight = {t: _idf(sum(t in h for h in held), len(units)) for t in terms}
    for index, names in _named_bodies(units, held).items():
        held[index] |= names
    fits: list[dict[str, float]] = []
    for unit, terms_held in zip(units, held, strict=True):
        fit = {t: weight[t] for t in terms_held}
        # The value asked for is on its key's line; a comment about it may share more of the question's words.
        fit.update({f"key:{t}": 2 * weight[t] for t in _key_terms(unit.text, terms)})
        fit.update({f"quote:{q}": 10.0 for q in quoted if _holds_value(unit.text, q)})
        fits.append({name: value for name, value in fit.items() if value > 0})
    return fits


def _holds_value(text: str, value: str) -> bool:
    """Whether `text` holds a quoted value; its word edges must be word edges (`port` is not in `import`)."""
    start = r"(?<!\w)" if re.match(r"\w", value) else ""
    end = r"(?!\w)" if re.search(r"\w$", value) else ""
    return re.search(start + re.escape(value) + end, text) is not None


def _stem(word: str) -> str:
    low = word.lower()
    for suffix in _SUFFIXES:
        if low.endswith(suffix) and len(low) - len(suffix) >= 3:
            return low[: -len(suffix)]
    return low


def _tokens(text: str) -> set[str]:
    """The stems of a text's words, identifiers whole and split at `_` and case changes."""
    found: set[str] = set()
    for identifier in _IDENTIFIER.findall(text):
        found.add(_stem(identifier))
        parts = re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", identifier)
        found.update(_stem(p) for p in parts)
    found.update(_stem(t) for t in _TOKEN.findall(text))
    return found


def _held(text: str, terms: Sequence[str]) -> set[str]:
    """The question's terms a text holds: the same stem, or a word that starts with it (own → owner)."""
    tokens = _tokens(text)
    return {t for t in terms if t in tokens or (len(t) >= 3 and any(k.startswith(t) for k in tokens))}


def _idf(count: int, total: int) -> float:
    """How telling a word is: high when few units hold it, near zero when most do."""
    return math.log(1 + (total - count + 0.5) / (count + 0.5)) if count else 0.0


def _key_terms(text: str, terms: Sequence[str]) -> set[str]:
    """The question's terms in the key of a setting's line (`port = 8080`, `Owner: Dana`)."""
    match = _KEY.match(text)
    return set() if match is None else _held(match[1], terms)


def _named_bodies(units: Sequence[Unit], held: Sequence[set[str]]) -> dict[int, set[str]]:
    """For lines inside a definition the question names that hold another of its words: the name."""
    names: dict[int, set[str]] = {}
    for start, unit in enumerate(units):
        for term in held[start]:
            if not re.search(_DEFINES.format(name=re.escape(term)), unit.text, re.IGNORECASE):
                continue
            for index in range(start + 1, len(units)):
                if units[index].indent <= unit.indent:
                    break  # the definition's body has ended
                if held[index] - {term}:
                    names.setdefault(index, set()).add(term)
    return names
