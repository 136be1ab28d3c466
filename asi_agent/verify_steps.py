"""Two checks of an ending read from the request and the answer (README: "How a run ends").

- `steps_done`: a request of several steps (as `grounding.request` cuts it into clauses) is done only when
  each step it named was: a change clause, an edit; "run the tests", a test run after the last edit; a
  question, an answer.
- `answer_backed`: a plain answer (nothing was to change) is verified only when what it states — code
  names, numbers, quoted text, paths — is in the results of the run's successful tool calls.
"""

from __future__ import annotations

import re

from asi_agent.events import Check

__all__ = ["answer_check", "claims", "steps_check"]

_RUN_TESTS = re.compile(
    r"\b(?:run|execute|rerun|re-run)\b.{0,20}\b(?:tests?|test suite|pytest|specs?)\b"
    r"|运行测试|跑(?:一下)?测试",
    re.IGNORECASE,
)
_CLAIM = re.compile(
    r"`([^`\n]{1,200})`"  # code, as written
    r"|\"([^\"\n]{1,200})\"|“([^”\n]{1,200})”"  # quoted text
    r"|(?<![\w.])(-?\d+(?:\.\d+)*)(?!\w|\.\w)"  # numbers and versions (a sentence's full stop aside)
    # code names (dotted, snake_case, camelCase) and paths
    r"|\b([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+|[a-z]+_[\w]+|[a-z]+[A-Z]\w*|[\w-]+/[\w./-]+)\b"
)
_MAX_SEEN = 2_000_000
_TOKEN = re.compile(r"\w+|[^\w\s]")
_WORD = re.compile(r"[A-Za-z]{3,}")
_STOP = frozenset((
    "a", "an", "the", "it", "its", "is", "are", "was", "were", "be", "this", "that", "these", "those", "and",
    "or", "of", "to", "in", "on", "for", "with", "as", "by", "at", "from", "returns", "return", "does", "do",
    "has", "have", "there", "here", "which", "what",
))  # fmt: skip
_SIGNATURE_WORDS = frozenset(
    ("def", "function", "func", "fn", "async", "self", "takes", "parameters", "arguments")
)


def steps_check(task: str, *, edited: bool, tested_after_edit: bool, answered: bool) -> Check | None:
    """Whether each step of a request of several steps was done; None for a request of one step."""
    from asi_agent.grounding.request import clauses  # noqa: PLC0415  (~80 ms: only when a run ends)

    parts = clauses(task)
    if len(parts) < 2:
        return None
    missing: list[str] = []
    for clause in parts:
        if _RUN_TESTS.search(clause.text):
            if not tested_after_edit:
                missing.append(f"{clause.text!r} (no test run after the last edit)")
        elif clause.change and not edited:
            missing.append(f"{clause.text!r} (no file changed)")
        elif not clause.change and not answered:
            missing.append(f"{clause.text!r} (no answer given)")
    if missing:
        return Check("steps_done", False, "steps not done: " + "; ".join(missing))
    return Check("steps_done", True, f"each of the {len(parts)} steps was done")


def claims(answer: str) -> list[str]:
    """What an answer states that a tool result can show: code, quoted text, numbers, names, paths."""
    found = [next(group for group in match.groups() if group) for match in _CLAIM.finditer(answer)]
    return list(dict.fromkeys(text.strip() for text in found if text.strip()))


def answer_check(answer: str, seen: str, task: str = "") -> Check:
    """Whether the run's successful tool results (`seen`) show what the answer states: every code name,
    number, quoted text and path it gives (a dotted name by its parts); an answer in plain words, at least
    half of its words, or else three tokens in a row ("a - b" of "It returns a - b"). An answer to "what
    does F do" must also state something F's body shows, not only its name and parameters."""
    backed = _answer_check(answer, seen)
    if backed.ok and (said := _only_signature(task, answer, seen)) is not None:
        return Check("answer_backed", False, said, required=False)
    return backed


def _only_signature(task: str, answer: str, seen: str) -> str | None:
    """For "what does F do": why the answer says nothing of what F does (it restates F's signature, or
    the results never showed F's definition); None when it states something else the results show."""
    from asi_agent.grounding.does import ASKS_WHAT_IT_DOES  # noqa: PLC0415  (only when a run ends)

    asked = ASKS_WHAT_IT_DOES.search(task)
    if asked is None:
        return None
    name = asked["name"] or asked["zh"]
    define = re.compile(
        rf"\b(?:def|function|func|fn)\s+{re.escape(name)}\s*\(|\b{re.escape(name)}\s*=\s*(?:function|\()"
    )
    signature = {name.lower()}
    for line in seen.splitlines():
        if define.search(line):
            signature |= {token.lower() for token in _TOKEN.findall(define.split(line, 1)[1])}
    told = re.sub(r"[\w./-]+:\d+:", " ", answer)  # a search hit's `path:line:` says where, not what
    said = [
        token
        for token in _TOKEN.findall(told)
        if token.lower() not in signature | _STOP | _SIGNATURE_WORDS and token not in "()[]{},:;.`'\""
    ]
    if any(token in seen for token in said):
        return None
    return f"the answer gives only {name}'s name and parameters, nothing its body does"


def _answer_check(answer: str, seen: str) -> Check:
    words = {word.lower() for word in _WORD.findall(seen)}
    # A number of one or two digits (a count, a line a decorator moves) backs an answer when a result
    # shows it, and is no evidence against it when none does.
    soft = [claim for claim in claims(answer) if re.fullmatch(r"-?\d{1,2}", claim)]
    stated = [claim for claim in claims(answer) if claim not in soft]
    missing = [claim for claim in stated if not _shown(claim, seen, words)]
    stated += [claim for claim in soft if claim in seen]
    if missing:
        shown = ", ".join(repr(claim) for claim in missing[:5])
        return Check("answer_backed", False, f"not in any tool result of the run: {shown}", required=False)
    if stated:
        detail = f"the tool results show {len(stated)} claim(s) of the answer"
        return Check("answer_backed", True, detail, required=False)
    said = [w for w in dict.fromkeys(w.lower() for w in _WORD.findall(answer)) if w not in _STOP]
    if said and 2 * sum(w in words for w in said) >= len(said):
        detail = "the tool results hold most of the answer's words"
        return Check("answer_backed", True, detail, required=False)
    if not said and (phrase := _shared_phrase(answer, seen)):
        return Check("answer_backed", True, f"a tool result shows {phrase!r}", required=False)
    return Check("answer_backed", False, "the answer states nothing a tool result shows", required=False)


def _shown(claim: str, seen: str, words: set[str]) -> bool:
    """A claim is shown when a result holds it, or (a dotted name, `Cart.total`) each of its parts."""
    if claim in seen:
        return True
    parts = claim.split(".")
    return len(parts) > 1 and all(re.fullmatch(r"[A-Za-z_]\w*", p) and p.lower() in words for p in parts)


def _shared_phrase(answer: str, seen: str) -> str | None:
    """The first three tokens in a row of the answer (one of them a word that is not a stop word) that
    the results hold too, spaces aside."""
    tokens = _TOKEN.findall(answer)
    flat = " ".join(_TOKEN.findall(seen))
    for start in range(len(tokens) - 2):
        window = tokens[start : start + 3]
        if all(token.lower() in _STOP or not token[0].isalnum() for token in window):
            continue
        if f" {' '.join(window)} " in f" {flat} ":
            return " ".join(window)
    return None


def kept(seen: str, output: str) -> str:
    """`seen` with one more successful result, bounded (the newest results are kept)."""
    joined = f"{seen}\n{output}"
    return joined[-_MAX_SEEN:]
