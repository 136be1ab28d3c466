"""Request forms read apart from the clause reader (`grounding.request`), which is at its size budget.

- A docstring whose text the request quotes before the name it belongs to: 'Add the docstring "Return the
  mean of xs." to average', 'put "…" as the docstring of average'.
- What a function should return, as code ("subtract should return a - b, not a + b", "the subtract
  function should return `a - b`"): the expression must read as Python, or the clause is left to the
  reader's own rule.
- The glossary of Chinese words for settings and code, and the English words the code likely uses.

Each reader returns plain values; `grounding.request` turns them into its `Edit`s.
"""

from __future__ import annotations

import ast
import re

__all__ = ["GLOSSARY", "quoted_docstring", "stated_return"]

_QUOTED = r"""(?:`(?P<q>[^`]+)`|"(?P<d>[^"]+)"|'(?P<s>[^']+)'|“(?P<c>[^”]+)”)"""
_NAME = r"(?:the )?(?:function |method |class )?[`'\"]?(?P<target>[A-Za-z_][\w.]*)[`'\"]?(?:\(\))?"
_DOCSTRING_QUOTED = (
    # 'Add the docstring "Return the mean of xs." to average'
    re.compile(
        rf"\b(?:add|put|insert|write|use|set)\s+(?:the |a |this )?(?:one-line )?docstring\s*:?\s*{_QUOTED}\s+"
        rf"(?:to|for|on|in|under|of)\s+{_NAME}",
        re.IGNORECASE,
    ),
    # 'put "Return the mean of xs." as the docstring of average'
    re.compile(
        rf"\b(?:add|put|insert|write|use|set)\s+{_QUOTED}\s+as\s+(?:the |a |its )?docstring\s+"
        rf"(?:of|to|for|on|in)\s+{_NAME}",
        re.IGNORECASE,
    ),
)


def quoted_docstring(clause: str) -> tuple[str, str] | None:
    """The name and the quoted text of a docstring the clause asks for, when it quotes the text before
    the name ('Add the docstring "…" to average'); None otherwise."""
    for pattern in _DOCSTRING_QUOTED:
        if found := pattern.search(clause):
            text = next(found[group] for group in ("q", "d", "s", "c") if found[group])
            return found["target"], text.strip()
    return None


_RETURNS = re.compile(
    r"^(?:the )?(?:function |method )?`?(?P<target>[A-Za-z_]\w*)`?(?:\(\))?(?: function| method)?\s+"
    r"(?:should|must|has to|needs to|ought to) (?:return|give back)\s+(?:`(?P<code>[^`]+)`|(?P<bare>.+?))"
    r"(?:,?\s+(?:not|instead of|rather than)\s+.+?)?\s*[.!]?$",
    re.IGNORECASE,
)


def stated_return(clause: str) -> tuple[str, str] | None:
    """The function and the Python expression a clause says it should return ("subtract should return
    a - b, not a + b"); None when the clause is not of that form or the expression is not Python."""
    found = _RETURNS.search(clause.strip())
    if found is None:
        return None
    expression = (found["code"] or found["bare"]).strip()
    try:
        ast.parse(expression, mode="eval")
    except SyntaxError:
        return None
    return found["target"], expression


GLOSSARY = {
    "端口": "port",
    "版本": "version",
    "超时": "timeout",
    "重试": "retries",
    "音量": "volume",
    "休息": "break",
    "工作": "work",
    "时长": "minutes",
    "分钟": "minutes",
    "日志": "log",
    "级别": "level",
    "语言": "locale",
    "调试": "debug",
    "默认": "default",
    "份数": "servings",
    "单位": "units",
    "名字": "name",
    "名称": "name",
    "数据库": "db",
    "地址": "url",
    "用户代理": "user_agent",
    "主机": "host",
    "主题": "theme",
    "快捷键": "key",
    "延迟": "delay",
    "路径": "path",
    "密钥": "key",
    "颜色": "color",
    "宽度": "width",
    "高度": "height",
    "大小": "size",
    "数量": "count",
    "间隔": "interval",
    "描述": "description",
    "标题": "title",
    "测试": "test",
    "函数": "function",
    "类": "class",
}
"""Words of settings and code as Chinese requests name them, and the English word the code likely uses."""
