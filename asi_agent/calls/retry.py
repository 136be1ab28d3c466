"""Whether a text-mode reply is asked again: no call, an unreadable call, a refusal, a narrated call.

The call adapter (`calls.adapter.CallAdapter`) and the gateway's emulation ask `retry_reason` about every
reply a model without native tools gives; the message that then asks again is `textmode.retry_prompt`,
written in the model's dialect beside the rest of what the model reads. Everything here is a pure function.
"""

from __future__ import annotations

import re

from asi_agent.calls.parse import ParsedReply, parse_status
from asi_agent.calls.reasoning import split_reasoning

__all__ = ["REFUSAL_PATTERNS", "detect_refusal", "retry_reason"]

_VERB_OBJECTS = (
    r"(?:access|browse|execute|interact with|navigate|make changes|do that|perform (?:actions|that|this)"
    r"|help with (?:that|this)|assist with (?:that|this)|use (?:the )?tools|call (?:the )?tools"
    r"|run (?:commands|code|shell|scripts|programs|the command|this|it)"
    r"|(?:read|open|view|modify|edit|see) (?:your|local|files|the files|the file ?system))"
)
REFUSAL_PATTERNS: tuple[str, ...] = (
    # Hard refusals: the model declines, or hides behind being a model.
    rf"\bi(?:'m| am)?(?: sorry,?(?: but)? i)? ?(?:can't|cannot|can not|am unable to|'m unable to"
    rf"|am not able to|'m not able to) (?:directly )?{_VERB_OBJECTS}",
    r"\bas an ai\b",
    r"\bas a (?:large )?language model\b",
    r"\bi(?:'m| am) (?:just |only )?(?:an ai|a (?:large )?language model|a text-based)",
    r"我(?:无法|不能|没办法|没有办法)(?:直接)?(?:访问|读取|打开|查看|执行|运行|操作|修改|编辑|浏览|使用工具|调用工具|帮|协助)",
    r"无法(?:直接)?访问(?:你|您|本地|文件|项目|代码|系统|计算机|电脑)",
    r"作为(?:一个)?(?:ai|人工智能|语言模型|大语言模型)",
    # Soft refusals: the model claims the environment stops it, or hands the work back to the person.
    r"\bi (?:do not|don't) have (?:direct |any )?(?:access|the ability|permission|the tools)\b",
    r"\b(?:tools?|tool calling|function calling) (?:is|are) "
    r"(?:not available|unavailable|not supported|disabled)",
    r"\b(?:no|without) access to (?:your|the|any) (?:files?|file ?system|project|repository|codebase"
    r"|computer|machine|terminal|tools?)",
    r"\b(?:run|execute|try|check|do) (?:this|it|that|these|them|the (?:command|commands|script|tests?|code))"
    r" (?:for )?yourself\b",
    r"\b(?:paste|share|send) (?:me (?:the|its) (?:output|contents?|results?)"
    r"|(?:the|its) (?:output|contents?|results?) (?:with me|here|back to me))",
    r"\b(?:my|this) (?:environment|sandbox) (?:does not|doesn't) (?:allow|support|have)",
    r"我没有(?:权限|能力|办法|访问)",
    r"工具(?:不可用|无法使用|暂不可用)",
    r"(?:无法|不能)(?:使用|调用)工具",
    r"请(?:你|您)?(?:自己|自行|手动)(?:运行|执行|操作|检查|查看)",
    r"(?:无法|不能)(?:直接)?(?:执行|运行)(?:命令|代码|程序|脚本)",
    r"(?:把|将)(?:输出|结果|内容)(?:粘贴|贴|发)(?:给我|过来)",
)
"""Refusal signals, as case-insensitive regexes, in English and Chinese: hard refusals first, then soft
"environment limitation" answers. They are phrased narrowly ("I can't access", not "I can't") so that a
legitimate answer such as "I can't find any caller of parse()" is not taken for a refusal."""

_REFUSAL_RES = tuple(re.compile(pattern, re.IGNORECASE) for pattern in REFUSAL_PATTERNS)
_SNAKE = r"`?[a-z]+(?:_[a-z0-9]+)+`?"
# Narration that replaces a call even when the reply ends with a status line (spec §4.4 forbids it).
_NARRATION_STRONG = tuple(
    re.compile(pattern, re.IGNORECASE | re.MULTILINE)
    for pattern in (
        r"工具执行\s*[:：]",
        r"模拟(?:工具)?调用",
        r"\bsimulat(?:e|ed|ing) (?:a |the )?(?:tool|function) call",
        r"^\s*(?:action|tool|tool call|function call)\s*[:：]\s*" + _SNAKE,
        r"^\s*action input\s*[:：]",
        r"\[TOOL_RESULT\b",
    )
)
# Narration that only counts in a reply without a status line: a summary may say "I called read_file".
_NARRATION_WEAK = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        r"调用工具|执行工具|工具执行|工具调用",
        r"(?:我将|我会|让我|现在|接下来|下面)(?:来)?(?:调用|使用|执行)\s*" + _SNAKE,
        r"\b(?:i will|i'll|let me|i am going to|i'm going to|i need to|i shall)(?: now| first| then)?"
        r" (?:call|invoke|use|run|execute) (?:the )?(?:" + _SNAKE + r"|tool\b)",
        r"\b(?:calling|invoking) (?:the )?" + _SNAKE,
        r"\b[a-z]+(?:_[a-z0-9]+)+\s*\(\s*(?:[a-z]\w*\s*=|[\"'{])",
    )
)


def detect_refusal(text: str) -> str | None:
    """The refusal signal the text matches (see `REFUSAL_PATTERNS`), or None for a genuine answer."""
    normalized = " ".join(text.replace("’", "'").replace("‘", "'").split())
    for pattern in _REFUSAL_RES:
        match = pattern.search(normalized)
        if match:
            return match.group(0).strip()
    return None


def _is_narrated(text: str) -> bool:
    if any(pattern.search(text) for pattern in _NARRATION_STRONG):
        return True
    return parse_status(text) is None and any(pattern.search(text) for pattern in _NARRATION_WEAK)


def retry_reason(reply_text: str, parsed: ParsedReply, *, expect_call: bool) -> str | None:
    """Why a text-mode reply should be asked again, or None when it is fine.

    A reply with at least one parsed call is fine: problems of its other fragments go back to the model
    with the results.
    """
    if parsed.calls:
        return None
    reply_text = split_reasoning(reply_text)[1]  # what the model thought is not what it said
    if parsed.problems:
        return f"unparsable call: {parsed.problems[0]}"
    signal = detect_refusal(reply_text)
    if signal is not None:
        return f"refusal: {signal}"
    if _is_narrated(reply_text):
        return "narrated call"
    if expect_call and parse_status(reply_text) is None:
        return "no call"
    return None
