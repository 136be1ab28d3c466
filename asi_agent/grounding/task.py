"""What a task asks for, read from its text alone: its intent, its language, and the values it quotes."""

from __future__ import annotations

import re
from typing import Literal

from asi_agent.grounding.clauses import asks_for_change
from asi_agent.grounding.request import edits

__all__ = ["INTENTS", "Intent", "classify", "language", "quoted", "words"]

Intent = Literal["create", "edit", "test", "find", "list", "show", "answer"]
INTENTS: tuple[Intent, ...] = ("create", "edit", "test", "find", "list", "show", "answer")
"""Every intent, in the order they are tried: the first whose words occur in the task wins."""

_RULES: tuple[tuple[Intent, str], ...] = (
    ("create", r"\b(create|new file|make a file|add a (new )?file|write a (new )?file)\b|新建|创建"),
    ("edit", r"\b(fix|change|replace|rename|correct|update|edit|modify)\b|修复|修改|替换|改成|改为"),
    ("test", r"\b(run|execute)( the| all)? tests?\b|运行测试|跑测试"),
    ("find", r"\b(where|defined|defines|definition|locate|mentions?|contains?)\b|在哪|定义|查找"),
    ("list", r"\b(list|what files|which files|files (are )?in|folder contents?|ls)\b|列出|有哪些文件|目录"),
    ("show", r"\b(show|display|print|contents?|cat|open|read)\b|显示|查看|内容|打开"),
    ("find", r"\b(find|search|which file)\b|搜索"),
)
_QUOTES = re.compile(r"`([^`]+)`|\"([^\"]+)\"|“([^”]+)”|「([^」]+)」|(?<![\w])'([^']+)'(?![\w])")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STOP = frozenset(
    str.split(
        "a an and are as at be by can do does file files folder for from get in into is it its me my "
        "of on or please show that the this to what which with you your where list find fix change "
        "create new text content contents containing contains say says should must not set value "
        "function class defined defines definition directory bug mentions mention"
    )
)


def classify(task: str) -> Intent:
    """The task's intent: create, edit, test, find, list, show, or answer (a question about the project).

    Whether it asks for a change is the request reader's call (`grounding.request`): "make the banner say
    Welcome", "I need a config file", "把 … 改成 …"; a change that makes a new file is `create`.
    """
    text = task.lower()
    if asks_for_change(task):
        made = any(edit.kind == "create" for edit in edits(task))
        return "create" if made or re.search(_RULES[0][1], text) else "edit"
    asks_zh = re.search(r"多少|几个|几处|什么|哪个|哪些|哪里|在哪|吗|是否", task)
    asks_en = re.match(r"\s*(?:how|what|which|where|who|why|when|is|are|does|do)\b", text)
    for intent, pattern in _RULES[2:]:
        if (asks_zh and intent in ("show", "list")) or (asks_en and intent == "show"):
            continue  # "… 会显示多少秒" asks a question; it does not ask to be shown a file
        if re.search(pattern, text):
            return intent
    return "answer"


def language(task: str) -> Literal["en", "zh"]:
    """`zh` when the task is written mostly in Chinese, else `en`."""
    cjk = len(_CJK.findall(task))
    return "zh" if cjk and cjk * 3 >= len(re.sub(r"\s", "", task)) // 2 else "en"


def quoted(task: str) -> list[str]:
    """The values the task quotes (backticks, straight or curly quotes), in order, without repeats."""
    found = ["".join(groups) for groups in _QUOTES.findall(task)]
    return list(dict.fromkeys(value for value in found if value.strip()))


def words(task: str) -> list[str]:
    """The task's identifier-like words that may name something in the project (stop words dropped)."""
    found = [w for w in _WORD.findall(task) if len(w) > 2 and w.lower() not in _STOP]
    return list(dict.fromkeys(found))
