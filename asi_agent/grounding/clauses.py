"""The clause reader: a request typed by a person cut into clauses, each read as a question or a change.

A request is cut into clauses ("X and then Y", "also", "然后"); each clause is a question or a change, read
from its shape — a polite opening ("can you", "please", "帮我") is dropped, a clause that opens with a verb
of change (or holds "instead of", "把 … 改成") asks for a change, one that opens with a question word asks a
question — not from a fixed list of whole phrasings. The edit a change clause states is read in
`grounding.request`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from asi_agent.grounding.forms import GLOSSARY

__all__ = ["Clause", "asks_for_change", "clauses", "key_words", "name_words"]

_POLITE = re.compile(
    r"^(?:(?:hey|hi|ok|okay|so|um|yo)[,!]?\s+)?(?:(?:can|could|would|will) (?:you|u)(?: please| pls)?|"
    r"please|pls|plz|kindly|i(?:'d| would) like (?:you )?to|i want (?:you )?to|i need (?:you )?to|"
    r"let's|lets|go ahead and|help me|try to|you should|we should|we need to)\s+",
    re.IGNORECASE,
)
_CHANGE_VERBS = (
    "add append prepend insert put write create make set bump raise increase decrease lower update "
    "change replace rename fix correct edit modify remove delete drop strip get rid use switch turn "
    "enable disable move implement refactor convert define declare import document comment uncomment "
    "swap bump reset default rewrite clean tidy improve generate new introduce link mention drop"
)
_VERBS = "|".join(sorted(set(_CHANGE_VERBS.split()), key=len, reverse=True))
_CHANGE_START = re.compile(rf"^(?:{_VERBS})\b", re.I)
_NEED = re.compile(r"^(?:i|we) (?:need|want|would like|'d like)\b", re.I)
_QUESTION_START = re.compile(
    r"^(?:what|what's|whats|where|where's|which|how|who|whose|why|when|is|are|does|do|did|was|were|has|"
    r"have|tell me|show|list|find|search|look|print|display|explain|describe|count|check|read|open|run|"
    r"execute|give me)\b",
    re.I,
)
_CHANGE_ANYWHERE = re.compile(
    r"\binstead of\b|\bshould (?:say|be|read|return|use|print)\b|\brename\b|->|→|=>|"
    r"\bconstant (?:called|named)\b|\bpull (?:\w+ )?out\b|\bshould\b|\bneeds? (?:an? |the )?[`\"']|"
    r"^give \S+ an? (?:docstring|comment|default|type)\b|"
    r"\bneeds? to be\b",
    re.I,
)
_CJK_CHANGE = re.compile(
    r"把|给.{0,20}(?:加|添)|改成|改为|换成|替换|删掉|删除|去掉|移除|新建|创建|加上|添加|增加|设为|设成|设置为|重命名|改名|升级|"
    r"修复|修好|修一下|修改|写一个|建一个|加一个|加个|调成|调到|调整为|挪到|移到|更新|一起改|也改|都改|"
    r"优化|改进|重构|整理|清理|弄好|改好|完善|美化|删了|去了|写个|建个"
)
_QUOTES_ANY = re.compile(r"`[^`]+`|\"[^\"]+\"|“[^”]+”|'[^'\s][^']*'")
_CJK_QUESTION = re.compile(r"在哪|哪个|哪些|哪里|几个|几处|多少|什么|吗|怎么|如何|为什么|是否")
_SPLIT = re.compile(
    r"(?:[.;!?。；！？]\s+|,?\s+(?:and then|then|also|and also|after that|afterwards|plus)\s+|"
    rf",\s+(?=(?:please |pls |can you |could you )?(?:{_VERBS})\b)|"
    r"，?(?:然后|并且|同时|之后|再)|，(?=(?:把它|将其|它)?(?:改|设|删|加|换|调|把|给|帮我|并|再))|，(?=[^，。]*(?:也|一起|同样))|\n+)",
    re.IGNORECASE,
)
_AND_VERB = re.compile(rf",?\s+and\s+(?=(?:{_VERBS})\b)", re.I)


@dataclass(frozen=True, slots=True)
class Clause:
    """One clause of a request: its text (polite opening dropped) and whether it asks for a change."""

    text: str
    change: bool


def name_words(text: str) -> list[str]:
    """The words of identifiers and phrases, lowercased: `BREAK_MINUTES`, `breakMinutes` → break, minutes."""
    return [word.lower() for word in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", text)]


def key_words(phrase: str) -> list[str]:
    """The words a phrase naming a setting holds (identifiers split, Chinese terms in English)."""
    found: list[str] = []
    for chinese, english in GLOSSARY.items():
        if chinese in phrase:
            found.append(english)
    for word in name_words(phrase):
        if word not in ("the", "my", "our", "of", "in", "default", "setting", "value"):
            found.append(word.lower())
    return list(dict.fromkeys(found))


def clauses(request: str) -> list[Clause]:
    """The request's clauses, in order, each read as a change or not."""
    text = _AND_VERB.sub("\n", request.strip())
    text = re.sub(
        r",\s+(?=[^,]*\b(?:too|as well|also|both)\b)", "\n", text
    )  # "…, the readme mentions it too"
    parts = [p.strip(" ,") for p in _SPLIT.split(text)]
    return [Clause(text, _is_change(text)) for part in parts if (text := _plain(part))]


def asks_for_change(request: str) -> bool:
    """Whether any clause of the request asks for a change to the project."""
    return any(clause.change for clause in clauses(request))


def _plain(text: str) -> str:
    previous = None
    text = text.strip()
    while previous != text:
        previous, text = text, _POLITE.sub("", text).strip()
    return text


_LEAD = re.compile(
    r"^(?:in|inside|within|for|on|at)\s+[^,:]{1,80}[,:]\s*|^在\s*\S+?\s*(?:里|中|里面)[,，]?\s*", re.I
)


_ASKS_BACK = re.compile(
    r"\b(?:tell|let) me (?:know )?(?:if|whether|what|which|how|why|where|when|who)\b|"
    r"\b(?:tell|show|let) me\b.{0,40}\?\s*$|"
    r"^(?:is|are) there\b|"
    r"^(?:should|shall|must|can|could|would|will) (?:i|we|it|this|that|they|the|[\w.]+\(?\)?)\b"
    r".*\?\s*$|"
    r"\b(?:do|would) you (?:think|recommend|suggest)\b|\b(?:check|see|find out|review \S+(?: and)?) "
    r"(?:if|whether)\b|^(?:review|audit|assess|evaluate|inspect|look over)\b(?!.*\b(?:and|then) "
    r"(?:fix|change|rename|update|apply)\b)",
    re.IGNORECASE,
)
"""A question, however it goes on: "tell me if …", "is there …", "should X return None?", "Review X and
tell me …". What such a clause asks about ("anything should be renamed") is not a change request."""


def _is_change(text: str) -> bool:
    text = _LEAD.sub("", text)
    if _ASKS_BACK.search(text) and not _CHANGE_START.match(text):
        return False
    if re.search(r"[\u4e00-\u9fff]", text):
        if _CJK_CHANGE.search(text):
            return not (_CJK_QUESTION.search(text) and not re.search(r"把|给|帮我|请", text))
        return False
    low = text.lower()
    if re.search(r"\binstead\b|\bshould (?:say|read|show)\b", low) and len(_QUOTES_ANY.findall(text)) >= 2:
        return True  # "when … the summary should say "A" instead of "B"": a change, however it opens
    if _QUESTION_START.match(low):
        return bool(re.match(r"^(?:run|execute)\b", low) and re.search(r"\bfix", low))
    return bool(_CHANGE_START.match(low) or _NEED.match(low) or _CHANGE_ANYWHERE.search(low))
