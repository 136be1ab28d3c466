"""Learning a model's call dialect from its chat template.

The template renders probe assistant turns: one call with one text argument, one call with a text and a
number argument, two calls, and the same turn without calls. The text the calls add (the turn with calls
against the turn without) is the model's call block; where the probe's names and values sit in it gives
the pieces `CallShape` records. A template that does not render calls, or renders them in a way the
probes cannot place, gives `None`: the named dialects read that model's replies as before.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any

from asi_agent.calls.dialects.base import balanced_end
from asi_agent.calls.template.render import TemplateError, render_turns
from asi_agent.calls.template.shape import CallShape

__all__ = ["learn_shape", "render_calls", "template_hash"]

_NAME1, _NAME2 = "zqprobe_alpha", "zqprobe_beta"
_KEY1, _KEY2 = "zqkey_a", "zqkey_b"
_TEXT1, _TEXT2 = "zqtext one", "zqtext two"
_NUMBER = 7301
_END_CHARS = set(">])}") | {"\n", " ", "\t"}
_START_CHARS = set("<[{(") | {"\n", " ", "\t"}
_cache: dict[str, CallShape | None] = {}


def template_hash(template: str) -> str:
    """The SHA-256 of a template's text (what learned shapes are cached under)."""
    return hashlib.sha256(template.encode("utf-8", "surrogatepass")).hexdigest()


def learn_shape(template: str) -> CallShape | None:
    """The call shape a chat template renders, or None when its calls cannot be learned; cached per
    template hash, so a template is rendered once per process."""
    key = template_hash(template)
    if key not in _cache:
        try:
            _cache[key] = _learn(template, key)
        except TemplateError:
            _cache[key] = None
    return _cache[key]


def _call(name: str, arguments: Mapping[str, Any], as_text: bool, index: int) -> dict[str, Any]:
    args: Any = json.dumps(arguments, ensure_ascii=False) if as_text else dict(arguments)
    return {
        "id": f"call_{index}",
        "type": "function",
        "function": {"name": name, "arguments": args},
    }


def _turns(calls: list[tuple[str, dict[str, Any]]], as_text: bool) -> list[dict[str, Any]]:
    assistant: dict[str, Any] = {"role": "assistant", "content": ""}
    if calls:
        assistant["tool_calls"] = [_call(n, a, as_text, i) for i, (n, a) in enumerate(calls)]
    return [{"role": "user", "content": "zquser"}, assistant]


def _cut_after(text: str, size: int) -> int:
    """`size`, moved back to a token boundary of `text` (a tag or word is not split)."""
    while 0 < size < len(text) and text[size - 1] not in _END_CHARS and text[size] not in _START_CHARS:
        size -= 1
    return size


def _cut_before(text: str, start: int) -> int:
    """`start`, moved forward to a token boundary of `text`."""
    while 0 < start < len(text) and text[start] not in _START_CHARS and text[start - 1] not in _END_CHARS:
        start += 1
    return start


def _diff(with_calls: str, without: str) -> str:
    """What the calls added: the middle where the two renderings differ, cut at token boundaries."""
    limit = min(len(with_calls), len(without))
    start = 0
    while start < limit and with_calls[start] == without[start]:
        start += 1
    start = _cut_after(with_calls, start)
    end = 0
    while end < limit - start and with_calls[-1 - end] == without[-1 - end]:
        end += 1
    return with_calls[start : _cut_before(with_calls, len(with_calls) - end)]


def _renderer(template: str) -> Callable[[list[tuple[str, dict[str, Any]]]], str]:
    """A function from probe calls to the call block, with the argument form the template accepts
    (an object, else a JSON string) and the conversation shape it needs."""
    plain = render_turns(template, _turns([], False))
    probe = [(_NAME1, {_KEY1: _TEXT1})]
    for as_text in (False, True):
        try:
            rendered = render_turns(template, _turns(probe, as_text))
        except TemplateError:
            continue
        if _NAME1 in rendered and _TEXT1 in rendered:
            return _block_renderer(template, plain, as_text)
    raise TemplateError("the template does not render an assistant turn's tool calls")


def _block_renderer(
    template: str, plain: str, as_text: bool
) -> Callable[[list[tuple[str, dict[str, Any]]]], str]:
    def render(calls: list[tuple[str, dict[str, Any]]]) -> str:
        return _diff(render_turns(template, _turns(calls, as_text)), plain)

    return render


def render_calls(template: str, calls: list[tuple[str, dict[str, Any]]]) -> str:
    """The text a chat template writes for an assistant turn making `calls` (name, arguments): what the
    model was trained to produce. TemplateError when the template does not render calls."""
    return _renderer(template)(calls)


def _common_prefix(a: str, b: str) -> str:
    size = 0
    while size < min(len(a), len(b)) and a[size] == b[size]:
        size += 1
    return a[: _cut_after(a, size)] if size < len(a) else a


def _common_suffix(a: str, b: str) -> str:
    size = 0
    while size < min(len(a), len(b)) and a[-1 - size] == b[-1 - size]:
        size += 1
    return a[_cut_before(a, len(a) - size) :] if size < len(a) else a


def _json_at(block: str, wanted: Callable[[Any], bool]) -> tuple[int, int] | None:
    """Where a JSON value that satisfies `wanted` is written in the block."""
    for index, char in enumerate(block):
        if char != "{":
            continue
        end = balanced_end(block, index)
        if end is None:
            continue
        try:
            value = json.loads(block[index:end])
        except ValueError:
            continue
        if wanted(value):
            return index, end
    return None


def _named(value: Any) -> bool:
    return isinstance(value, dict) and value.get("name") == _NAME1 and _KEY1 in json.dumps(value)


def _learn(template: str, key: str) -> CallShape | None:
    render = _renderer(template)
    one = render([(_NAME1, {_KEY1: _TEXT1})])
    two = render([(_NAME1, {_KEY1: _TEXT1}), (_NAME2, {_KEY1: _TEXT2})])
    named = _json_at(one, _named)
    if named is not None:
        return _named_json(one, two, named, key)
    args = _json_at(one, lambda value: value == {_KEY1: _TEXT1})
    name_at = one.find(_NAME1)
    if name_at < 0:
        return None
    if args is not None and args[0] > name_at:
        return _json_args(one, two, name_at, args, key)
    mixed = render([(_NAME1, {_KEY1: _TEXT1, _KEY2: _NUMBER})])
    return _pairs(one, two, mixed, key)


def _frame(one_head: str, one_tail: str, two: str, where: tuple[int, int, int]) -> dict[str, str]:
    """Split the text around calls into wrapper and per-call pieces, from the one-call and two-call blocks.

    `where` locates, in `two`, the end of the first call's arguments, the start of the second call's name
    (or object) and the end of its arguments."""
    first_end, second_start, second_end = where
    if second_start < 0:  # the template renders one call per turn
        return {"call_open": one_head, "call_close": one_tail, "wrap_open": "", "wrap_close": ""}
    middle, tail = two[first_end:second_start], two[second_end:]
    call_open = _common_suffix(one_head, middle)
    after = _common_prefix(middle, tail)
    return {
        "call_open": call_open,
        "wrap_open": one_head[: len(one_head) - len(call_open)],
        "call_close": after,
        "wrap_close": tail[len(after) :],
    }


def _named_json(one: str, two: str, at: tuple[int, int], key: str) -> CallShape:
    second = _json_at(two[at[1] :], lambda value: isinstance(value, dict) and value.get("name") == _NAME2)
    second_start = at[1] + second[0] if second else -1
    second_end = at[1] + second[1] if second else -1
    pieces = _frame(one[: at[0]], one[at[1] :], two, (at[1], second_start, second_end))
    return CallShape(style="named-json", template_hash=key, **pieces)


def _json_args(one: str, two: str, name_at: int, args: tuple[int, int], key: str) -> CallShape:
    name2 = two.find(_NAME2)
    second = _json_at(two[name2:], lambda value: value == {_KEY1: _TEXT2}) if name2 >= 0 else None
    second_end = name2 + second[1] if second else -1
    pieces = _frame(one[:name_at], one[args[1] :], two, (args[1], name2 if second else -1, second_end))
    name_close = one[name_at + len(_NAME1) : args[0]]
    return CallShape(style="json", name_close=name_close, template_hash=key, **pieces)


def _pairs(one: str, two: str, mixed: str, key: str) -> CallShape | None:
    name_end = mixed.find(_NAME1) + len(_NAME1)
    k1, v1 = mixed.find(_KEY1, name_end), mixed.find(_TEXT1, name_end)
    k2 = mixed.find(_KEY2, v1 + len(_TEXT1)) if v1 >= 0 else -1
    number = mixed.find(str(_NUMBER), k2) if k2 >= 0 else -1
    if min(k1, v1, k2, number) < 0 or not k1 < v1 < k2 < number:
        return None
    head = mixed[name_end:k1]
    between = mixed[v1 + len(_TEXT1) : k2]
    key_open = _common_suffix(head, between)
    string_kv, other_kv = mixed[k1 + len(_KEY1) : v1], mixed[k2 + len(_KEY2) : number]
    key_close = _common_prefix(string_kv, other_kv)
    tail_string = one[one.find(_TEXT1) + len(_TEXT1) :]
    tail_other = mixed[number + len(str(_NUMBER)) :]
    string_close = _common_prefix(between, tail_string)
    rest = _common_suffix(tail_string[len(string_close) :], tail_other)
    other_close = tail_other[: len(tail_other) - len(rest)]
    pair_sep = between[len(string_close) : len(between) - len(key_open)]
    first_end = two.find(_TEXT1) + len(_TEXT1)
    second_name = two.find(_NAME2)
    second_end = two.find(_TEXT2) + len(_TEXT2) if second_name >= 0 else -1
    pieces = _frame(one[: one.find(_NAME1)], tail_string, two, (first_end, second_name, second_end))
    # The text after a call's last value is the value's closer, then the call's own closer.
    pieces["call_close"] = pieces["call_close"][len(string_close) :] if second_name >= 0 else rest
    return CallShape(
        style="pairs",
        name_close=head[: len(head) - len(key_open)],
        key_open=key_open,
        pair_sep=pair_sep,
        key_close=key_close,
        string_open=string_kv[len(key_close) :],
        other_open=other_kv[len(key_close) :],
        string_close=string_close,
        other_close=other_close,
        template_hash=key,
        **pieces,
    )
