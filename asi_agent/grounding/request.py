"""The request reader: what a request typed by a person asks for, clause by clause.

People type "make the banner say Welcome instead of Hi", "can you bump the version to 2.1.0",
"I need a config file that sets debug to true", "rename load to read_config and update the call in
app.py", "把 端口 改成 9090". The request is cut into clauses, each read as a question or a change
(`grounding.clauses`); where a change clause states the new text, the `Edit` it asks for is read here: a
rename, a replacement, a setting, a version, an import, a docstring, a function, a removal, a new file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from asi_agent.grounding.clauses import _QUOTES_ANY, asks_for_change, clauses, key_words
from asi_agent.grounding.forms import quoted_docstring, stated_return

# asks_for_change and clauses: also here for the verification, which reads them from this module
__all__ = ["Edit", "EditKind", "asks_for_change", "clauses", "edits", "read_edit"]

EditKind = Literal[
    "rename",
    "replace",
    "set",
    "assign",
    "also",
    "version",
    "import",
    "docstring",
    "function",
    "returns",
    "remove",
    "create",
]


@dataclass(frozen=True, slots=True)
class Edit:
    """A change a clause states: what kind, and its values (empty strings where it does not say)."""

    kind: EditKind
    old: str = ""
    new: str = ""
    target: str = ""
    """A name the edit is about: a function for a docstring, a setting's key, a module to import."""
    context: str = field(default="", compare=False)
    """The clause that states it: its other words tell which of several places is meant."""


# -- the edit a clause states -----------------------------------------------------------------

_END = (
    r"(?=\s*(?:[,.;!?，。；！？]|\s(?:and|in|on|from|everywhere|throughout|too|please|pls|plz|instead|now)\b"
    r"|\s*吧|$))"
)
"""Where a value the request states ends: punctuation, "and …", "in <file>", or the end."""
_ZH_IN = r"(?:[\w./-]+\.\w+\s*(?:里|中|里面)(?:的|那行|那一行)?\s*)?"
"""A Chinese request's "in <file>" before what it names: `把 settings.json 里的 locale …`."""
_V = r"""[`"'“‘]?(?P<{0}>[^\s`"'“”‘’,;，。；、]+(?: [^\s`"'“”‘’,;，。；、]+)*?)[`"'”’]?"""
_ID = r"[`'\"]?(?P<{0}>[A-Za-z_][\w.]*)[`'\"]?(?:\(\))?"
_QUOTED = r"""(?:`(?P<{0}q>[^`]+)`|"(?P<{0}d>[^"]+)"|'(?P<{0}s>[^']+)'|“(?P<{0}c>[^”]+)”)"""
_KIND_WORDS = (
    r"(?:the )?(?:function |method |class |variable |constant |field |setting |option |key |module )?"
)
_VERSION = r"(?P<version>v?\d+(?:\.\d+){1,3}(?:[-.]?\w+)?)"
_RENAME = (
    re.compile(rf"\brename {_KIND_WORDS}{_ID.format('old')} (?:to|into|as|->) {_ID.format('new')}", re.I),
    re.compile(rf"{_ID.format('old')} should be (?:renamed|called) {_ID.format('new')}", re.I),
    re.compile(
        rf"^{_ID.format('old')}\s*(?:->|→|=>)\s*{_ID.format('new')}(?:\s+(?:please|pls|plz))?\s*[.!]?$", re.I
    ),
    re.compile(
        rf"把\s*{_ZH_IN}{_ID.format('old')}\s*(?:重命名为|重命名成|改名为|改名成|改名叫|改叫|重命名|改名)\s*{_ID.format('new')}"
    ),
)
_BUMP = (
    re.compile(
        rf"\b(?:bump|set|change|update|raise|make)\b.*?(?:\b|_)version(?:\b|_).*?\bto {_VERSION}", re.I
    ),
    re.compile(rf"\bversion\b\s*(?:to|->|=|should be|is now)\s*{_VERSION}", re.I),
    re.compile(rf"版本.*?(?:改成|改为|升级到|升到|设为|设成|更新到|到)\s*{_VERSION}"),
)
_BUMP_ONLY = re.compile(
    r"\b(?:update|change|set|bump)\b.{0,12}\bversion\b|\bbump\b.*\bversion\b|\bversion\b.*\bbump\b|升级版本|版本号?加一",
    re.I,
)


def _value(match: re.Match[str], name: str) -> str:
    for suffix in ("q", "d", "s", "c", ""):
        value = match.groupdict().get(name + suffix)
        if value:
            return value.strip()
    return ""


def _either(name: str) -> str:
    return f"(?:{_QUOTED.format(name)}|{_V.format(name)})"


_REPLACE = (
    re.compile(rf"\bsay {_either('new')} instead of {_either('old')}{_END}", re.I),
    re.compile(rf"\buse {_either('new')} instead of {_either('old')}{_END}", re.I),
    re.compile(rf"^(?P<old>)use {_either('new')} instead\s*[.!]?$", re.I),
    re.compile(rf"\breplace {_either('old')} (?:with|by) {_either('new')}{_END}", re.I),
    re.compile(rf"\bfrom {_either('old')} to {_either('new')}{_END}", re.I),
    re.compile(rf"\bchange {_either('old')} (?:to|into) {_either('new')}{_END}", re.I),
    re.compile(rf"{_either('new')} instead of {_either('old')}{_END}", re.I),
    re.compile(rf"{_either('old')} (?:->|→|=>) {_either('new')}{_END}", re.I),
    re.compile(rf"{_either('old')} should (?:say|be|read) {_either('new')}{_END}", re.I),
    re.compile(
        rf"(?:shows?|says?|prints?|reads?|displays?) {_QUOTED.format('old')}.*?"
        r"\b(?:say|show|print|read|display) "
        rf"{_QUOTED.format('new')} instead",
        re.I,
    ),
    re.compile(
        rf"(?:magic number|literal|number|value|hardcoded)\s+{_either('old')}\b.*?"
        r"\b(?:constant|variable|name)\s+"
        rf"(?:called |named )?{_ID.format('new')}",
        re.I,
    ),
    re.compile(
        rf"(?:be|return|returns|say|says) {_QUOTED.format('new')},? (?:and )?not {_QUOTED.format('old')}",
        re.I,
    ),
    re.compile(rf"从\s*{_either('old')}\s*(?:改成|改为|换成|改到|变成)\s*{_either('new')}{_END}"),
    re.compile(
        rf"把\s*{_ZH_IN}{_either('old')}\s*(?:改成|改为|换成|替换成|替换为|变成)\s*{_either('new')}{_END}"
    ),
    re.compile(rf"用\s*{_either('new')}\s*(?:代替|替换|替代)\s*{_either('old')}{_END}"),
    re.compile(rf"^(?P<old>把它|将其|它)?\s*(?:改成|改为|设为|设成|调成|调到)\s*{_either('new')}"),
)
_SET = (
    re.compile(
        rf"\b(?:set|change|make|update|switch)\s+{_KIND_WORDS}{_ID.format('key')}\s+(?:to|=|into)\s+{_either('new')}",
        re.I,
    ),
    re.compile(rf"\b{_ID.format('key')}\s*=(?!=)\s*{_either('new')}", re.I),
    re.compile(rf"把\s*{_ZH_IN}{_ID.format('key')}\s*(?:设为|设成|设置为|改成|改为)\s*{_either('new')}"),
    re.compile(rf"\bsets? {_ID.format('key')} to {_either('new')}", re.I),
    re.compile(  # "set the work length to 50 minutes": a setting named in words
        r"\b(?:set|change|make|update|switch|raise|lower|increase|decrease|bump|turn)\s+(?:the |my |our )?"
        rf"(?P<key>[a-z][\w]*(?: [a-z]\w*){{1,3}}?)\s+(?:to|=|down to|up to)\s+{_either('new')}",
        re.I,
    ),
    re.compile(
        rf"把\s*{_ZH_IN}(?P<key>[^\s把]{{1,12}}?)\s*(?:设为|设成|设置为|改成|改为|调成|调到|调整为)\s*{_either('new')}"
    ),
)
_ZH_SET = re.compile(
    rf"(?:^|[\s，的])(?P<key>--[\w-]+|[A-Za-z_][\w.]*)\s*(?:的)?(?P<dflt>默认值?)?\s*(?:改成|改为|设为|设成|调成|调到|换成)\s*"
    rf"{_either('new')}{_END}"
)
_ZH_TOGGLE = re.compile(rf"把?\s*{_ID.format('key')}\s*(?P<verb>关掉|关闭|关了|禁用|打开|开启|启用|开了)")
_FLAG_DEFAULT = re.compile(
    rf"(?P<key>--[\w-]+)(?:'s| option's| flag's)?\s+default\s+(?:to|should be|=)\s+{_either('new')}{_END}",
    re.I,
)
_TOGGLE = re.compile(
    rf"\b(?P<verb>enable|disable|turn on|turn off|switch on|switch off)\s+{_KIND_WORDS}{_ID.format('key')}",
    re.I,
)
_IMPORT = (
    re.compile(r"[`\"'](?:import (?P<target>[\w.]+)|from (?P<module>[\w.]+) import [\w, ]+)[`\"']"),
    re.compile(rf"\badd (?:an? )?import (?:of |for )?{_ID.format('target')}", re.I),
    re.compile(rf"^(?:add |insert |put )?import {_ID.format('target')}\b", re.I),
    re.compile(
        rf"(?:加|添加|加上|增加)(?:一个)?\s*(?:import\s*)?{_ID.format('target')}\s*(?:的)?\s*(?:import|导入)",
        re.I,
    ),
)
_DOCSTRING = (
    re.compile(rf"\bdocstring (?:to|for|on) {_KIND_WORDS}{_ID.format('target')}", re.I),
    re.compile(rf"\bgive {_KIND_WORDS}{_ID.format('target')} an? docstring", re.I),
    re.compile(rf"\bdocument {_KIND_WORDS}{_ID.format('target')}", re.I),
    re.compile(
        rf"给\s*(?:(?P<owner>[A-Za-z_]\w*)\s*的\s*)?{_ID.format('target')}\s*(?:加|添加|加上|写)(?:一个|个)?\s*"
        r"(?:docstring|文档字符串|注释)",
        re.I,
    ),
)
_DOC_TEXT = re.compile(
    r"(?:(?:就写|写成|内容是|saying|that says|reading|with the text)\s*[:：]?|docstring\s*[:：])\s*"
    rf"(?:{_QUOTED.format('text')}|(?P<bare>[^`\"'].*?))\s*$",
    re.I,
)
_FUNCTION = re.compile(
    r"\b(?:add|write|create|define|implement)\s+(?:a |an )?(?:new )?(?:helper )?function\s+"
    r"(?:called |named )?"
    r"[`'\"]?(?P<target>[A-Za-z_]\w*)(?P<params>\([^)]*\))?[`'\"]?"
    r"(?:\s+that\s+(?:returns?|gives back)\s+(?P<body>.+?))?\s*(?:[.!]|$| (?:in|to) [\w/]+\.\w+)",
    re.I,
)
_REMOVE = (
    re.compile(
        r"\b(?:remove|delete|drop|get rid of|strip)\s+(?:the |that |this )?"
        rf"(?:line |setting |option |entry |key |import )?(?:{_QUOTED.format('old')}|{_ID.format('idold')}|"
        r"(?P<tokold>\.[\w.-]+))",
        re.I,
    ),
    re.compile(
        r"\b(?:remove|delete|drop)\s+the\s+line\s+(?:about|with|mentioning|that mentions|containing)\s+"
        rf"(?:{_QUOTED.format('old')}|{_ID.format('idold')})",
        re.I,
    ),
    re.compile(
        rf"(?:关于|有|含有|包含|提到)\s*(?:{_QUOTED.format('old')}|{_ID.format('idold')})\s*的那?一?行"
    ),
    re.compile(
        rf"(?:删掉|删除|去掉|移除)\s*{_ZH_IN}(?:那行|那一行|这行)?\s*(?:{_QUOTED.format('old')}|{_ID.format('idold')})"
    ),
)


def read_edit(clause: str) -> Edit | None:
    """The edit a clause states, if it states one (its new text, or what a rule can derive it from)."""
    for pattern in _RENAME:
        if found := pattern.search(clause):
            return Edit("rename", found["old"], found["new"])
    if (version := _version(clause)) is not None:
        return version
    if (docstring := _docstring(clause)) is not None:
        return docstring
    if found := _FUNCTION.search(clause):
        body = (found["body"] or "").strip().rstrip(".")
        return Edit("function", new=body, target=found["target"] + (found["params"] or "()"))
    for pattern in _IMPORT:
        found = pattern.search(clause)
        target = (found.groupdict().get("target") or found.groupdict().get("module") or "") if found else ""
        if target and target.lower() not in ("a", "an", "the", "it", "them", "this", "that", "those", "in"):
            return Edit("import", target=target)
    return _replace_or_set(clause)


def _docstring(clause: str) -> Edit | None:
    """A docstring asked for: its text quoted before the name (`grounding.forms`) or after it, or none."""
    if (stated := quoted_docstring(clause)) is not None:
        return Edit("docstring", new=stated[1], target=stated[0])
    if found := next((m for pattern in _DOCSTRING if (m := pattern.search(clause))), None):
        owner = found.groupdict().get("owner")
        said = _DOC_TEXT.search(clause)
        text = (_value(said, "text") or (said["bare"] or "")).strip() if said else ""
        return Edit("docstring", new=text, target=f"{owner}.{found['target']}" if owner else found["target"])
    return None


def _version(clause: str) -> Edit | None:
    """ "bump the version to 2.1.0" (or just "bump the version": the next patch release)."""
    for pattern in _BUMP:
        if found := pattern.search(clause):
            return Edit("version", new=found["version"].lstrip("v"))
    return Edit("version") if _BUMP_ONLY.search(clause) else None


_RETURNS = (
    re.compile(
        rf"\b(?:make|have|let|get)\s+{_KIND_WORDS}{_ID.format('target')}\s+return\s+{_either('new')}\s*$",
        re.I,
    ),
    re.compile(
        rf"{_ID.format('target')}\s+(?:should|must|has to|needs to)\s+return\s+{_either('new')}\s*$", re.I
    ),
    re.compile(rf"让\s*{_ID.format('target')}\s*返回\s*{_either('new')}\s*$"),
)


_ARTICLES = re.compile(
    r"^(?:a |an |the )?(?:new )?"
    r"(?:named |named constant |constant |literal |number |value |string |variable )+",
    re.I,
)


def _toggle(clause: str) -> Edit | None:
    """A setting switched, or set without "set … to": 把 DEBUG 关掉, enable debug, X 改成 V, a default."""
    if found := _ZH_SET.search(clause) or _FLAG_DEFAULT.search(clause):
        return Edit("set", new=_value(found, "new"), target=found["key"])
    if found := _ZH_TOGGLE.search(clause):
        off = found["verb"] in ("关掉", "关闭", "关了", "禁用")
        return Edit("set", new="false" if off else "true", target=found["key"])
    if found := _TOGGLE.search(clause):
        on = found["verb"].lower() in ("enable", "turn on", "switch on")
        return Edit("set", new="true" if on else "false", target=found["key"])
    return None


def _replace_or_set(clause: str) -> Edit | None:
    found = next((m for pattern in _RETURNS if (m := pattern.search(clause.rstrip(" .!。")))), None)
    if (returned := stated_return(clause) or (found and (found["target"], _value(found, "new")))) is not None:
        return Edit("returns", new=returned[1], target=returned[0])
    for pattern in _REPLACE:
        if found := pattern.search(clause):
            old, new = (
                _ARTICLES.sub("", _value(found, "old")) or "it",
                _ARTICLES.sub("", _value(found, "new")),
            )
            if new and old != new:
                return Edit("replace", old, new)
    for pattern in _SET:
        if found := pattern.search(clause):
            adds = (
                re.match(r"^(?:add|define|insert|declare|put|给|加|添加|增加|新增)", clause, re.I)
                or "加" in clause
            )
            return Edit("assign" if adds else "set", new=_value(found, "new"), target=found["key"])
    if (toggled := _toggle(clause)) is not None:
        return toggled
    for pattern in _REMOVE:
        if found := pattern.search(clause):
            return Edit(
                "remove", old=_value(found, "old") or found["idold"] or found.groupdict().get("tokold") or ""
            )
    return None


_ALSO = re.compile(r"也|一起|同样|\btoo\b|\bas well\b|\balso\b|\bboth\b|\beverywhere\b", re.I)
_PRONOUNS = frozenset({"it", "that", "this", "them", "its value", "the value", "把它", "将其", "它", ""})
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FILLER = frozenset(
    ("find", "where", "which", "what", "is", "are", "set", "the", "a", "an", "in", "of", "file", "defined")
)
_CREATE = re.compile(
    r"\b(?:create|make|add|write|need|want)\b.*?\b(?:(?:new |a |an |the )?file\b|"
    r"(?P<name>[\w./-]+\.[A-Za-z0-9]{1,8})\b)|新建|创建|建一个|写一个",
    re.I,
)
_FILE = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*\.?[\w-]*[A-Za-z_][\w-]*\.[A-Za-z][A-Za-z0-9]{0,7})(?![\w/])")
_CONTENT = re.compile(
    r"(?:with (?:the )?(?:text|content|contents|line)|containing|that (?:says|contains|reads)|内容(?:是|为)?)"
    rf"\s*:?\s*{_QUOTED.format('text')}",
    re.I,
)


_CONTENT_BARE = re.compile(
    r"(?:里面(?:只)?写(?:上|入)?|只写|写上|写入|内容是|内容为|"
    r"containing|with the (?:text|line|content)|that says)"
    r"\s*[:：]?\s*"
    r"(?P<text>[^\s`\"'].*?)\s*$",
    re.I,
)


def edits(request: str) -> list[Edit]:
    """The edits the request's change clauses state, in order (a clause that states none adds none).

    "find where retries is set and change it to 5": a pronoun stands for the name the clause before named.
    """
    found: list[Edit] = []
    before = ""
    for clause in clauses(request):
        edit = read_edit(clause.text) if clause.change else None
        if edit is not None and edit.kind == "replace" and edit.old.lower() in _PRONOUNS:
            edit = _resolved(edit, before)
        version = re.search(r"(?<![\w.])v?(\d+\.\d+(?:\.\d+)?)(?![\w.])", request)
        if edit is not None and edit.kind == "version" and not edit.new and version:
            edit = replace(edit, new=version[1])  # "we're releasing 0.5.0, update the version everywhere"
        if clause.change and (edit is None or edit.kind in ("set", "assign")):
            edit = new_file(clause.text, edit) or edit
        if edit is None and found and _ALSO.search(clause.text):
            edit = Edit("also", target=clause.text)  # "README 里的也一起改", "update the readme too"
        if edit is not None:
            found.append(replace(edit, context=clause.text))
        before = clause.text
    return found


def _resolved(edit: Edit, before: str) -> Edit | None:
    """ "it" in "… 3.14159 hardcoded, use math.pi instead" or "find where retries is set and change it to 5":
    the value (a quoted text or number) or else the name the clause before named."""
    value = _QUOTES_ANY.search(before) or re.search(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])", before)
    if value is not None and value[0].strip("`\"'“”") != edit.new:
        return Edit("replace", value[0].strip("`\"'“”"), edit.new)
    names = [n for n in _NAME.findall(before) if n.lower() not in _FILLER]
    key = names[-1] if names else " ".join(key_words(before))
    return Edit("set", new=edit.new, target=key) if key else None


def new_file(clause: str, edit: Edit | None) -> Edit | None:
    """A clause that asks for a new file: its name (when given) and content (quoted, or a setting)."""
    match = _CREATE.search(clause)
    if match is None:
        return None
    content = _CONTENT.search(clause) or _CONTENT_BARE.search(clause)
    text = _value(content, "text") if content else ""
    if not text and edit is not None and edit.kind == "set":
        text = f"{edit.target} = {edit.new}"
    name = _FILE.search(clause) or re.search(
        r"(?:新建|创建|建)(?:一个|个)?\s*(?P<bare>[A-Za-z_][\w.-]*)\s*文件|"
        r"\b(?:create|add|make|write) (?:a |an |the )?"
        r"(?:new )?(?P<word>[A-Z][A-Z_]+|[\w-]+\.[\w]+) file\b",
        clause,
    )
    target = (name.groupdict().get("bare") or name.groupdict().get("word") or name[0]) if name else ""
    return Edit("create", new=text, target=target)
