"""Call dialects learned from a model's own chat template (asi_agent/calls/template): four real templates
of families no hand-written reader knows, rendered and read back; cut-off calls; the sandbox; the cache."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from corpus.templates import CALL_SETS, TOOLS

from asi_agent.calls import parse_reply
from asi_agent.calls.dialects import DIALECTS, ReadContext
from asi_agent.calls.template import CallShape, learn_shape, render_calls, template_hash
from asi_agent.calls.template.known import KNOWN_SHAPES

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
FAMILIES = ("gemma4.jinja", "deepseek-v3.2.jinja", "functionary-v2.jinja", "functionary-v2-llama3.jinja")
SCHEMAS = [
    {
        "type": "function",
        "function": {
            "name": name,
            "parameters": {"type": "object", "properties": {p: {"type": t} for p, t in params.items()}},
        },
    }
    for name, params in TOOLS.items()
]


def _template(file: str) -> str:
    return (TEMPLATES / file).read_text(encoding="utf-8")


def _shape(file: str) -> CallShape:
    shape = learn_shape(_template(file))
    assert shape is not None, file
    return shape


@pytest.mark.parametrize("file", FAMILIES)
def test_a_family_no_reader_knows_is_read_from_its_template(file):
    """Every call set of the corpus, written by the family's own template, reads back exactly with the shape
    learned from that template; the hand-written readers find no call in the same text."""
    template, shape = _template(file), _shape(file)
    for calls in CALL_SETS:
        if file == "functionary-v2.jinja" and not calls[0][1]:
            continue  # v2 writes `{}` arguments as nothing the probes can tell from prose
        reply = render_calls(template, [(name, dict(args)) for name, args in calls])
        parsed = parse_reply(reply, SCHEMAS, shape=shape)
        assert [(call.name, call.arguments) for call in parsed.calls] == list(calls), reply
        assert parsed.problems == (), reply
        named = [span for dialect in DIALECTS for span in dialect.scan(reply, ReadContext()) if span.calls]
        assert named == [], f"{file}: a hand-written reader already reads {reply!r}"


@pytest.mark.parametrize("file", FAMILIES)
def test_a_call_the_reply_stopped_inside_is_reported_and_never_run(file):
    """Every cut of a rendered call before its end: no call, a problem the model is told."""
    template, shape = _template(file), _shape(file)
    command = "rm -rf build/cache && make"
    reply = render_calls(template, [("shell", {"command": command, "timeout": 30})])
    start, end = reply.index("shell") + len("shell"), reply.rindex("30") + 1
    for cut in range(start, end):
        parsed = parse_reply(reply[:cut], shape=shape)
        assert parsed.calls == (), reply[:cut]
        assert parsed.problems, reply[:cut]


def test_earlier_complete_calls_do_not_run_when_the_reply_stops_inside_a_later_one():
    template, shape = _template("gemma4.jinja"), _shape("gemma4.jinja")
    reply = render_calls(template, [("read", {"path": "a"}), ("shell", {"command": "rm -rf build"})])
    parsed = parse_reply(reply[: reply.index("build")], shape=shape)
    assert parsed.calls == ()
    assert any("cut off" in item and "read, " not in item for item in parsed.problems)


def test_the_learned_pieces_of_two_families():
    gemma = _shape("gemma4.jinja")
    assert (gemma.style, gemma.call_open, gemma.call_close) == ("pairs", "<|tool_call>call:", "}<tool_call|>")
    assert (gemma.string_open, gemma.string_close, gemma.pair_sep) == ('<|"|>', '<|"|>', ",")
    dsml = _shape("deepseek-v3.2.jinja")
    assert dsml.call_open.strip() == '<｜DSML｜invoke name="'
    assert (dsml.string_open, dsml.other_open) == ('string="true">', 'string="false">')
    assert dsml.wrap_open.strip() == "<｜DSML｜function_calls>"


def test_the_learned_reader_comes_before_the_named_dialects():
    """A shape that writes calls in a known wrapper is read the template's way."""
    template = (
        "{% for m in messages %}{% if m.tool_calls %}{% for c in m.tool_calls %}<tool_call>"
        "{{ c.function.name }}|{{ c.function.arguments | tojson }}</tool_call>{% endfor %}"
        "{% else %}{{ m.content }}{% endif %}{% endfor %}"
    )
    shape = learn_shape(template)
    assert shape is not None and shape.style == "json"
    parsed = parse_reply('<tool_call>read_file|{"path": "a.py"}</tool_call>', shape=shape)
    assert [(c.name, c.arguments) for c in parsed.calls] == [("read_file", {"path": "a.py"})]
    assert parsed.dialect == shape.name
    assert parse_reply('<tool_call>read_file|{"path": "a.py"}</tool_call>').calls == ()


def test_shapes_are_cached_per_template_hash():
    template = _template("gemma4.jinja")
    assert learn_shape(template) is learn_shape(template)
    assert _shape("gemma4.jinja").template_hash == template_hash(template)
    assert len(template_hash(template)) == 64


def test_a_template_without_tool_calls_teaches_nothing():
    chatml = (
        "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
        "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
    )
    assert learn_shape(chatml) is None
    assert learn_shape("{% for m in messages %}{{ m.content ") is None  # does not parse


def test_templates_render_in_a_sandbox():
    escape = (
        "{{ ''.__class__.__mro__[1].__subclasses__() }}{% for m in messages %}{{ m.tool_calls }}{% endfor %}"
    )
    assert learn_shape(escape) is None
    raising = "{{ raise_exception('only user and assistant roles are supported') }}"
    assert learn_shape(raising) is None


def test_the_shipped_shapes_are_what_the_stored_templates_give():
    root = HERE.parent.parent
    done = subprocess.run(
        [sys.executable, str(root / "scripts" / "known_shapes.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert {shape.family for shape in KNOWN_SHAPES} == {
        "gemma4",
        "deepseek-v3.2",
        "functionary-v2",
        "functionary-v2-llama3",
    }


def test_a_known_family_is_read_without_its_template():
    parsed = parse_reply('Sure.<|tool_call>call:glob{pattern:<|"|>*.md<|"|>}<tool_call|>')
    assert [(c.name, c.arguments) for c in parsed.calls] == [("glob", {"pattern": "*.md"})]
    assert parsed.text == "Sure."
    assert parsed.dialect == "template:gemma4"
