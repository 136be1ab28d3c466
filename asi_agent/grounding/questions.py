"""Questions whose answer the project's files hold exactly: a count, a setting's value, what a function
returns. The answer is worked out from the files and rests on one read of the file it comes from.

- "how many tests are there", "有几个测试", "how many exception classes are in errors.py", "how many names
  are in __all__": a number, with what was counted;
- "what's the break length?", "端口是多少", "what is the default timeout": the one setting line whose key
  holds the question's words, `path:line: text`;
- "what does format_clock return": the `return` lines of that function's body.
- "what does subtract do": what its body returns and calls (`grounding.does`).

A question none of these fits (or that fits nothing in the project) goes to the ordinary grounding.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from asi_agent.grounding.clauses import key_words, name_words
from asi_agent.grounding.derive import PlannedCall
from asi_agent.grounding.does import describe
from asi_agent.grounding.project import ProjectView
from asi_agent.grounding.rewrite import block_end
from asi_agent.grounding.settings import DECLARED

__all__ = ["Answered", "answer_question", "unquotable"]

_MAX_FILES = 300
_COUNT = re.compile(
    r"\bhow many (?P<noun>[\w ]+?)(?:\s+(?:are|is|do|does|did|have|has|in|there|defined|exist)\b|\?|$)"
    r"|(?:有|一共有|总共有)?(?:几个|多少个?)(?P<zh>[\u4e00-\u9fff\w]+?)(?:[？?。]|$)"
    r"|(?P<zh_before>[\u4e00-\u9fff\w]+?)(?:有|一共有|总共有)(?:几个|多少个?)",
    re.IGNORECASE,
)
_VALUE = re.compile(
    r"^(?:what(?:'s| is| are)|which|tell me) (?:the )?(?P<key>[\w ]+?)"
    r"(?: (?:set to|is set to|set|used|value|configured))?(?: in [\w./-]+| according to .+)?\s*\??$"
    r"|^(?:which|what) (?P<used>[\w]+) (?:does|do|is|will) (?:the )?(?P<owner>[\w ]+?) "
    r"(?:use|have|run on|listen on|listen to|connect to|read)\b"
    r"|^(?P<zh>[\w\u4e00-\u9fff ]+?)(?:设置的?是|默认是|默认值是|是)(?:多少|什么)",
    re.IGNORECASE,
)
_RETURNS = re.compile(
    r"what (?:does|do|will) (?:the )?(?:function |method )?`?(?P<name>[A-Za-z_]\w*)`?(?:\(\))? return"
    r"|`?(?P<zh>[A-Za-z_]\w*)`?(?:\(\))?\s*返回(?:什么|的是什么|啥)",
    re.IGNORECASE,
)
_NOUNS = {
    "test": r"^\s*(?:async\s+)?def\s+test\w*\s*\(|^\s*(?:it|test)\s*\(",
    "function": r"^\s*(?:async\s+)?def\s+\w+\s*\(|^\s*function\s+\w+",
    "class": r"^\s*class\s+\w+",
    "exception": r"^\s*class\s+\w+\s*\([^)]*(?:Error|Exception)[^)]*\)",
    "todo": r"\bTODO\b",
    "import": r"^\s*(?:import|from)\s+\S+",
}
_ZH_NOUNS = {
    "测试": "test",
    "函数": "function",
    "类": "class",
    "异常": "exception",
    "文件": "file",
    "行": "line",
}


@dataclass(frozen=True, slots=True)
class Answered:
    """A question's answer and the read it rests on."""

    step: PlannedCall
    answer: str


_EVALUATES = re.compile(
    r"\breturns?\b.*\bfor\b|\b[A-Za-z_]\w*\([^)]*[\w\"'][^)]*\)\s*(?:return|give|evaluate|output|print)|"
    r"\bwhat (?:is|'s) [A-Za-z_]\w*\([^)]+\)|\bresult of\b|\boutput of\b|返回.*(?:多少|什么)|结果是",
    re.IGNORECASE,
)


def unquotable(task: str) -> str | None:
    """Why a question's answer cannot be a line the model quotes from a file, or None.

    A count is not a line; what a call returns for given arguments must be worked out, not quoted; a
    question that names nothing in ASCII (no identifier, file or value) gives no word to find the line by.
    The tiny model's answer to those would be a guess, so its run ends STOP instead.
    """
    if _COUNT.search(task):
        return "it asks for a count, and no count was found in the project's files"
    if _EVALUATES.search(task):
        return "it asks for the result of running code, which cannot be read from a file"
    if re.search(r"[\u4e00-\u9fff]", task) and not re.search(
        r"[A-Za-z_]\w*_\w+|[a-z]+[A-Z]\w*|\w+\.\w+|`", task
    ):
        return "it names no identifier, file or value to find the answer by"
    return None


def answer_question(task: str, view: ProjectView) -> Answered | None:
    """The answer the files hold, when the question is one of this module's kinds; else None."""
    text = task.strip()
    for finder in (_count, _returns, _does, _where, _value):
        found = finder(text, view)
        if found is not None:
            return found
    return None


def _texts(view: ProjectView, task: str) -> list[tuple[str, str]]:
    named = view.mentioned_files(task)
    rels = named or [f for f in view.files[:_MAX_FILES] if not f.endswith((".lock", ".min.js"))]
    return [(rel, text) for rel in rels if (text := view.small_text(rel, 200_000)) is not None]


def _read(rel: str, first: int | None = None, last: int | None = None) -> PlannedCall:
    """The read an answer rests on: the lines it comes from, when it comes from a few (a big file is never
    cut around them)."""
    if first is None:
        return PlannedCall("read_file", {"path": rel})
    return PlannedCall("read_file", {"path": rel, "startLine": first, "endLine": max(first, last or first)})


# -- counts ---------------------------------------------------------------------------------------


def _count(task: str, view: ProjectView) -> Answered | None:
    matches = list(_COUNT.finditer(task))
    if not matches:
        return None
    phrase = " ".join((m["noun"] or m["zh"] or m["zh_before"] or "") for m in matches).lower()
    if after := re.search(r"(?:几个|多少个?)([\u4e00-\u9fff\w]+)", task):
        phrase = f"{after[1]} {phrase}"  # the noun after 多少个 is what is counted
    if "__all__" in task:
        return _count_all(task, view)
    noun = next((_NOUNS_BY_WORD[w] for w in _words(phrase) if w in _NOUNS_BY_WORD), None)
    if noun is None:
        return None
    if "exception" in phrase or "异常" in phrase or "error" in phrase:
        noun = "exception"
    texts = _texts(view, task)
    if noun == "test" and not view.mentioned_files(task):
        texts = [(rel, text) for rel, text in texts if _is_test_file(rel)]
    pattern = re.compile(_NOUNS[noun], re.MULTILINE)
    found = [(rel, m) for rel, text in texts for m in pattern.finditer(text)]
    if not found:
        return None
    files = list(dict.fromkeys(rel for rel, _ in found))
    names = [
        re.sub(r"^\s*(?:async\s+)?(?:def|class|function)\s+", "", m[0]).split("(")[0].strip()
        for _, m in found
    ]
    shown = ", ".join(names[:12]) + (", …" if len(names) > 12 else "")
    where = files[0] if len(files) == 1 else f"{len(files)} files"
    answer = (
        f"{len(found)} ({shown} in {where})" if noun not in ("todo", "import") else f"{len(found)} in {where}"
    )
    return Answered(_read(files[0]), answer)


def _count_all(task: str, view: ProjectView) -> Answered | None:
    for rel, text in _texts(view, task):
        match = re.search(r"^__all__\s*=\s*[\[(](?P<body>.*?)[\])]", text, re.MULTILINE | re.DOTALL)
        if match:
            names = re.findall(r"""["']([^"']+)["']""", match["body"])
            return Answered(_read(rel), f"{len(names)} ({', '.join(names)})")
    return None


_NOUNS_BY_WORD = {
    **{word: word for word in _NOUNS},
    "tests": "test",
    "functions": "function",
    "classes": "class",
    "exceptions": "exception",
    "todos": "todo",
    "imports": "import",
    **_ZH_NOUNS,
}


def _words(phrase: str) -> list[str]:
    found = re.findall(r"[a-z_]+", phrase)
    found += [zh for zh in _ZH_NOUNS if zh in phrase]
    return found


def _is_test_file(rel: str) -> bool:
    name = PurePosixPath(rel).name
    return name.startswith("test_") or name.endswith(("_test.py", ".test.js", ".spec.js", ".test.ts"))


# -- what a function returns ------------------------------------------------------------------


def _returns(task: str, view: ProjectView) -> Answered | None:
    match = _RETURNS.search(task)
    if match is None or _EVALUATES.search(task):
        return None
    name = match["name"] or match["zh"]
    define = re.compile(rf"^[ \t]*(?:async\s+)?def\s+{re.escape(name)}\s*\(", re.MULTILINE)
    for rel, text in _texts(view, task):
        if not rel.endswith(".py") or (found := define.search(text)) is None:
            continue
        lines = text.split("\n")
        opener = text.count("\n", 0, found.start())
        end = block_end(lines, opener)
        returns = [line.strip() for line in lines[opener + 1 : end] if re.match(r"\s*return\b", line)]
        if returns:
            return Answered(_read(rel, opener + 1, end + 1), "\n".join(dict.fromkeys(returns)))
    return None


def _does(task: str, view: ProjectView) -> Answered | None:
    """ "what does subtract do": what its body returns and calls (`grounding.does`)."""
    found = describe(task, view)
    return Answered(*found) if found is not None else None


# -- where something is defined ----------------------------------------------------------------

_WHERE = re.compile(
    r"(?:where(?:'s| is| are| do| does)?|"
    r"which (?:file|module)(?: is| defines| has| holds| contains| declares)?|"
    r"in which file is|which file is|find the definition of|locate)\s+(?:the )?"
    r"(?:(?P<kind1>function|class|method|constant|variable) )?"
    r"`?(?P<name>[A-Za-z_]\w*)`?(?:\(\))?(?: (?P<kind2>function|class|method|constant))?"
    r"|`?(?P<zh>[A-Za-z_]\w*)`?(?:\(\))?\s*(?P<kindzh>类|函数|方法|常量)?\s*(?:在哪个文件|在哪里?|定义在哪|是在哪)",
    re.IGNORECASE,
)
_DEFINITION = (
    r"^[ \t]*(?:(?:async\s+)?def|class|function|const|let|var|func|fn|type)\s+{name}\b"
    r"|^{name}\s*(?::[^=\n]+)?=(?!=)"
)


def _where(task: str, view: ProjectView) -> Answered | None:
    match = _WHERE.search(task)
    if match is None:
        return None
    name = match["name"] or match["zh"]
    kind = (match["kind1"] or match["kind2"] or match["kindzh"] or "").lower()
    kind = {"类": "class", "函数": "def", "方法": "def", "function": "def", "method": "def"}.get(kind, kind)
    pattern = re.compile(_DEFINITION.format(name=re.escape(name)), re.MULTILINE)
    hits: list[tuple[str, int, str]] = []
    for rel, text in _texts(view, task):
        for found in pattern.finditer(text):
            number = text.count("\n", 0, found.start()) + 1
            hits.append((rel, number, text.split("\n")[number - 1].strip()))
    if kind in ("class", "def"):
        hits = [hit for hit in hits if re.match(rf"(?:async\s+)?{kind}\b", hit[2])] or hits
    if not hits or (len(hits) > 1 and not _one_not_test(hits)):
        return None
    rel, number, line = _one_not_test(hits) or hits[0]
    return Answered(_read(rel, number, number + 3), f"{rel}:{number}: {line}")


def _one_not_test(hits: list[tuple[str, int, str]]) -> tuple[str, int, str] | None:
    """The one hit outside test files, if exactly one is."""
    kept = [hit for hit in hits if not _is_test_file(hit[0]) and "/tests/" not in f"/{hit[0]}"]
    return kept[0] if len(kept) == 1 else None


# -- a setting's value --------------------------------------------------------------------------

_KEY = re.compile(
    r"""^\s*"""
    + DECLARED
    + r"""["']?(?P<key>[A-Za-z_][\w.-]*)["']?\s*(?:[=:](?!:)|:\s*[\w\[\]., |]+\s*=)\s*"""
    r"""(?P<value>\S.*)$"""
)
_ALIKE = {
    "length": ("minutes", "duration", "seconds", "mins", "secs", "time", "len"),
    "duration": ("minutes", "seconds", "length", "time"),
    "address": ("url", "host", "uri"),
    "url": ("uri", "address", "endpoint"),
    "number": ("count", "num"),
}
_NOT_KEYS = frozenset({"the", "a", "an", "of", "in", "is", "what", "which", "value", "set", "used", "file"})


def _value(task: str, view: ProjectView) -> Answered | None:
    match = _VALUE.search(task.strip())
    if match is None:
        return None
    phrase = match["key"] or match["used"] or match["zh"] or ""
    owner = set(key_words(match["owner"] or ""))  # "which port does the server use": the [server] section's
    wanted = [w for w in key_words(phrase) if w not in _NOT_KEYS]
    if not wanted:
        return None
    alike = set(wanted) | {other for word in wanted for other in _ALIKE.get(word, ())}
    default = "default" in phrase.lower() or "默认" in phrase
    hits: list[tuple[float, str, int, str]] = []
    for rel, text in _texts(view, task):
        section: set[str] = set()
        for number, line in enumerate(text.split("\n"), start=1):
            if header := re.match(r"\s*\[+([\w.-]+)\]+\s*$", line):
                section = set(name_words(header[1]))
            found = _KEY.match(line)
            if found is None or len(line) > 300:
                continue
            have = set(name_words(found["key"]))
            score = len(set(wanted) & have) + 0.75 * len((alike - set(wanted)) & have)
            score += 0.5 * len(owner & (section | have)) if score else 0
            score += 0.5 if default and "default" in have else 0
            if score >= 1:
                hits.append((score, rel, number, line.strip()))
    if not hits:
        return None
    best = max(score for score, *_ in hits)
    top = [hit for hit in hits if hit[0] == best]
    if len({(h[3]) for h in top}) != 1:
        return None  # not one setting the words name: leave it to the ordinary grounding
    _, rel, number, line = top[0]
    whole = _whole_value(view, rel, number, line)
    return Answered(_read(rel, number, number + 6), f"{rel}:{number}: {whole}")


def _whole_value(view: ProjectView, rel: str, number: int, line: str) -> str:
    """A setting's line, with the lines its value continues on (an open bracket) joined to it."""
    lines = (view.small_text(rel, 200_000) or "").split("\n")
    parts, at = [line], number
    while sum(map("([{".count, "".join(parts))) > sum(map(")]}".count, "".join(parts))) and at < len(lines):
        if len(parts) > 6:
            break
        parts.append(lines[at].strip())
        at += 1
    return " ".join(parts)
