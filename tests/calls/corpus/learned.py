"""Replies of families no hand-written reader knows, as their own chat templates write the corpus's call
sets (tests/calls/templates, sources in SOURCES.md), and the same replies cut off inside their last call."""

from __future__ import annotations

from pathlib import Path

from asi_agent.calls.template import render_calls
from corpus.case import Case
from corpus.templates import CALL_SETS, TOOLS

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
SOURCES = {
    "gemma4.jinja": "ggml-org/llama.cpp models/templates/gemma4.jinja",
    "deepseek-v3.2.jinja": "ggml-org/llama.cpp models/templates/DeepSeek-V3.2.jinja",
    "functionary-v2.jinja": "MeetKai/functionary functionary/prompt_template/jinja_templates/v2.txt",
    "functionary-v2-llama3.jinja": "MeetKai/functionary functionary/prompt_template/jinja_templates/v2.llama3.txt",
}


def _cases() -> tuple[Case, ...]:
    cases = []
    for file, source in SOURCES.items():
        template = (TEMPLATES / file).read_text(encoding="utf-8")
        for calls in CALL_SETS:
            if file == "functionary-v2.jinja" and not calls[0][1]:
                continue  # v2 writes no arguments at all for `{}`
            reply = render_calls(template, [(name, dict(args)) for name, args in calls])
            tools = {name: TOOLS[name] for name, _ in calls}
            cases.append(Case(source, reply.strip(), calls, tools=tools))
            last_value = (
                reply.rstrip().rfind(str(list(calls[-1][1].values())[-1])[:3]) if calls[-1][1] else -1
            )
            if last_value > 0:
                cases.append(
                    Case(
                        source,
                        reply[: last_value + 1],
                        problem=True,
                        tools=tools,
                        note="cut off in its last call",
                    )
                )
    return tuple(cases)


CASES: tuple[Case, ...] = _cases()
