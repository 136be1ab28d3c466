"""The parser's prefilter (readers, known shapes, reasoning and framing patterns run only when the text
holds what they look for) changes nothing: over the whole corpus, every sealed set, stripped forms of
their replies and generated text, `parse_reply` gives the same text, calls, problems, reasoning, dialect
and markup with the prefilter as with every reader and pattern run on every reply."""

from __future__ import annotations

from typing import Any

from corpus import CASES
from corpus.case import Case
from gateway.sealed.cases import CASES as SEALED
from gateway.sealed2.cases import CASES as SEALED2
from gateway.sealed3.cases import CASES as SEALED3
from gateway.sealed4.cases import CASES as SEALED4
from gateway.sealed4.cases import SEEN_FAMILY_CASES
from hypothesis import given, settings
from hypothesis import strategies as st
from replies import READ_FILE_ONLY, joined_from, seen
from sealed.cases import CASES as CALLS_SEALED

from asi_agent.calls import parse_reply
from asi_agent.calls.dialects import READERS
from asi_agent.calls.dialects.base import balanced_end
from asi_agent.calls.prefilter import needed, one_call_line, readers_for
from asi_agent.calls.reasoning import reasoning_regions
from asi_agent.calls.template.known import KNOWN_SHAPES
from asi_agent.calls.template.shape import CallShape

_ALL: tuple[Case, ...] = (*CASES, *CALLS_SEALED, *SEALED, *SEALED2, *SEALED3, *SEALED4, *SEEN_FAMILY_CASES)
_STRIPPED = str.maketrans("", "", '<[{(`|\n"“')


def _differences(
    texts: list[tuple[str, list[dict[str, Any]]]], shape: CallShape | None = None
) -> list[tuple[str, Any, Any]]:
    found = []
    for text, tools in texts:
        quick = seen(parse_reply(text, tools, shape=shape))
        full = seen(parse_reply(text, tools, shape=shape, prefilter=False))
        if quick != full:
            found.append((text, quick, full))
    return found


def _forms(case: Case) -> list[str]:
    """The reply, its halves (a reply cut off), on one line, and without the characters readers key on."""
    reply = case.reply
    flat = " ".join(reply.split())
    return [reply, reply[: len(reply) // 2], flat, flat.translate(_STRIPPED), *reply.split("\n")[:4]]


def test_the_corpus_and_every_sealed_set_parse_the_same_with_the_prefilter():
    assert len(_ALL) > 900
    texts = [(form, case.schemas()) for case in _ALL for form in _forms(case)]
    assert _differences(texts) == []


def test_every_reply_parses_the_same_with_each_known_shape_learned():
    texts = [(case.reply, case.schemas()) for case in _ALL]
    for shape in KNOWN_SHAPES:
        assert _differences(texts, shape) == [], shape.name


def test_the_readers_for_a_reply_are_those_one_of_whose_needles_it_holds():
    for case in _ALL:
        for text in _forms(case):
            found = needed(text)
            expected = tuple(d for d in READERS if not d.needs or not found.isdisjoint(d.needs))
            assert readers_for(text) == expected, text


def test_reasoning_regions_are_the_same_with_the_quick_test():
    for case in _ALL:
        assert reasoning_regions(case.reply) == reasoning_regions(case.reply, prefilter=False)


def test_where_json_ends_is_the_same_read_by_the_json_reader_as_scanned_bracket_by_bracket():
    checked = 0
    for case in _ALL:
        for text in (case.reply, case.reply[: len(case.reply) * 2 // 3]):
            for start in (i for i, char in enumerate(text) if char in "{["):
                for limit in (None, len(text), start + 40):
                    quick = balanced_end(text, start, limit)
                    assert quick == balanced_end(text, start, limit, exact=True), (text, start, limit)
                    checked += quick is not None
    assert checked > 2000


def test_the_prefilter_spares_readers_and_still_reads_the_call():
    reply = 'Reading it.\n[TOOL_CALL]read_file[ARGS]{"path": "src/main.py"}'
    parsed = parse_reply(reply)
    assert [(call.name, call.arguments) for call in parsed.calls] == [("read_file", {"path": "src/main.py"})]
    assert parsed.text == "Reading it."


def test_a_known_shape_is_read_where_the_reply_starts_inside_its_call_and_only_there():
    # Gemma 4's name closer is `{`: the shape reads it without its opener only right after a name that
    # starts the reply (the generation prompt wrote the opener); a `{` elsewhere no longer wakes the shape.
    call = 'read_file{path:<|"|>a.py<|"|>}<tool_call|>'
    inside = parse_reply(f"  {call}\nDone.")
    assert [(c.name, c.arguments) for c in inside.calls] == [("read_file", {"path": "a.py"})]
    assert (inside.dialect, inside.text) == ("template:gemma4", "Done.")
    after_prose = parse_reply(f"See {call}")
    assert after_prose.calls == ()
    assert after_prose.problems  # reported, never dropped in silence
    texts = [(text, []) for text in (call, f"  {call}\nDone.", f"See {call}", f"x\n{call}", '{"a": 1}')]
    assert _differences(texts) == []


_PIECES = [
    *"abc :;.,!?'_-=>/1\n{}[]()`\"<|",
    "read_file{",
    'path:<|"|>a.py<|"|>',
    "}<tool_call|>",
    "read_file",
    '{"path": "a"}',
    "[TOOL_CALL]",
    "[ARGS]",
    "<tool_call>",
    "</tool_call>",
    "<think>",
    "</think>",
    "<|im_end|>",
    "```json\n",
    "\n```",
    "to=self<|message|>",
    "<|start|>assistant",
    "<|channel|>analysis<|message|>",
    "<|end|>",
    '{"name": "read_file", "arguments": {"path": "a"}}',
    "<function=read_file>",
    "</function>",
    "[TOOL_CALLS]",
    "<|tool_call>call:",
    ">>>",
    "Action:",
    "``",
    "</s>",
]


@joined_from(_PIECES, max_size=24, examples=400)
def test_generated_replies_parse_the_same_with_the_prefilter(text: str):
    assert _differences([(text, READ_FILE_ONLY)]) == []


# Prose and one call line: the reply the parser reads without its readers (`one_call_line`), with pieces
# that each of the readers, shapes and patterns it stands in for would key on.
_PLAIN = [
    *"abc :;.,!?'_-=>/1\n\t\r ",
    "Reading it.",
    "python\n",
    "all\n",
    " all\n",
    "read_file",
    "read_file\n",
    "Tool call:\n",
    "**Tool Call:**\n",
    "functools",
    "to=",
    "(",
    ")",
    " (see src/a.py)",
    "read_file(",
]
_KEYED = [
    ">>>",
    ">>>all\n",
    "Action:",
    "tool_calls",
    "to=self",
    "to=functions.read_file",
    "</s>",
    "<think>",
    "[THINK]",
    "```",
    "``",
    "{",
    "[f(",
    "“name",
]
_PROSE = st.lists(
    st.one_of(st.sampled_from(_PLAIN), st.sampled_from(_PLAIN), st.sampled_from(_KEYED)), max_size=8
)
_ARGUMENTS = [
    '{"path": "src/main.py"}',
    "{}",
    '{"path": "a", "limit": 3, "deep": {"x": [1, 2.5, null, true]}}',
    '{"text": "line\\nnext ü <think> (x) [TOOL_CALLS] </tool_call>"}',
    '{"name": "x"}',
    '{"code": "print(1) [f(x)] [g(", "n": 2}',
    '{"a":\n1}',
    '{"a": 1',
    '{"a": NaN}',
    "[1, 2]",
    '"text"',
]


@settings(max_examples=600, deadline=None)
@given(
    _PROSE,
    st.sampled_from(["read_file", " read_file ", "`read_file`", "", "a b", '"read_file"']),
    st.sampled_from(_ARGUMENTS),
    st.sampled_from(
        ["", "\n", "  \n\n", "\r\n", "\x0c", " [/TOOL_CALL]", "\nDone.", "}", "\n[TOOL_CALL]x[ARGS]{}"]
    ),
)
def test_prose_and_one_call_line_parse_the_same_as_with_every_reader(
    prose: list[str], name: str, arguments: str, after: str
):
    text = "".join(prose) + f"[TOOL_CALL]{name}[ARGS]{arguments}{after}"
    assert _differences([(text, READ_FILE_ONLY)]) == []


def test_the_commonest_text_mode_reply_is_read_without_the_readers():
    reply = 'I will read it first.\nThen edit it.\n\n[TOOL_CALL] read_file [ARGS]{"path": "src/main.py"}\n'
    quick = parse_reply(reply)
    assert one_call_line(reply) is not None
    assert seen(quick) == seen(parse_reply(reply, prefilter=False))
    assert quick.text == "I will read it first.\nThen edit it."
    assert [(call.name, call.arguments) for call in quick.calls] == [("read_file", {"path": "src/main.py"})]
    # Anything another reader could read sends the reply to the readers.
    for other in ("[see", "<think>", "[TOOL_CALLS]", '"name', "python\n", ">>>", "Action:"):
        assert one_call_line(other + reply) is None, other
