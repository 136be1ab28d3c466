"""Text mode: the prompt contract, history projection and the message that asks a model again."""

from __future__ import annotations

import pytest

from asi_agent.calls import (
    parse_reply,
    project_history,
    render_call_line,
    render_contract,
    retry_prompt,
)
from asi_agent.calls.textmode import HistoryProjection
from asi_agent.messages import Message, ToolCall


def tool(
    name: str, description: str, properties: dict[str, object], required: list[str]
) -> dict[str, object]:
    parameters = {"type": "object", "properties": properties, "required": required}
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": parameters},
    }


TOOLS = [
    tool(
        "read_file",
        "读取文件内容",
        {
            "path": {"type": "string"},
            "startLine": {"type": "number", "default": 1},
            "endLine": {"type": "number"},
        },
        ["path"],
    ),
    tool(
        "grep_search",
        "Search file contents\nwith a regex.",
        {"query": {"type": "string"}, "globs": {"type": "array", "items": {"type": "string"}}},
        ["query"],
    ),
    tool(
        "run_terminal_cmd",
        "Run a shell command",
        {"command": {"type": "string"}, "isBackground": {"type": "boolean", "default": False}},
        ["command", "isBackground"],
    ),
    tool("diff_history", "Show changes", {"mode": {"type": "string", "enum": ["short", "full"]}}, []),
]
REQUIRED = {t["function"]["name"]: set(t["function"]["parameters"]["required"]) for t in TOOLS}  # type: ignore[index]


# --- contract ---------------------------------------------------------------------------------------


def test_contract_lists_every_tool_with_a_compact_signature():
    contract = render_contract(TOOLS)
    assert "- read_file(path: string, startLine?: number = 1, endLine?: number): 读取文件内容" in contract
    assert "- grep_search(query: string, globs?: string[]): Search file contents with a regex." in contract
    assert "run_terminal_cmd(command: string, isBackground: boolean)" not in contract
    assert "run_terminal_cmd(command: string, isBackground: boolean = false)" in contract
    assert 'diff_history(mode?: "short"|"full")' in contract


def test_contract_states_format_rules_and_ending():
    contract = render_contract(TOOLS)
    assert "[TOOL_CALL]tool_name[ARGS]{json}" in contract
    assert "nothing else on that line" in contract
    assert "工具执行" in contract
    assert "Never invent a tool result" in contract
    assert "AGENT_STATUS: DONE" in contract
    assert "AGENT_STATUS: CONTINUE" in contract
    assert "AGENT_STATUS: STOP" in contract


def test_contract_examples_are_valid_calls_of_listed_tools_with_a_continuation():
    contract = render_contract(TOOLS)
    examples = contract[contract.index("## Examples") :]
    calls = parse_reply(examples).calls
    assert [call.name for call in calls] == ["read_file", "grep_search"]
    for call in calls:
        assert REQUIRED[call.name] <= set(call.arguments)
    result_at = examples.index("[TOOL_RESULT read_file id=call_1]")
    assert examples.index(render_call_line(calls[0])) < result_at < examples.index("[/TOOL_RESULT]")
    assert examples.index("[/TOOL_RESULT]") < examples.index(render_call_line(calls[1]))
    assert examples.rstrip().endswith("AGENT_STATUS: DONE")


def test_contract_examples_use_available_tools_only():
    tools = [TOOLS[2], TOOLS[3]]
    contract = render_contract(tools)
    calls = parse_reply(contract[contract.index("## Examples") :]).calls
    assert [call.name for call in calls] == ["run_terminal_cmd", "diff_history"]
    assert calls[0].arguments == {"command": "example", "isBackground": True}
    assert "read_file" not in contract.replace("I will now call read_file", "")


def test_contract_accepts_flat_schemas_and_no_tools():
    flat = {"name": "word_count", "description": "Count words", "parameters": {"type": "object"}}
    assert "- word_count(): Count words" in render_contract([flat])
    empty = render_contract([])
    assert "no tools are available" in empty
    assert "## Examples" not in empty


# --- history projection -----------------------------------------------------------------------------

READ = ToolCall("call_a", "read_file", {"path": "src/app.py"})
GREP = ToolCall("call_b", "grep_search", {"query": "def main"})
EDIT = ToolCall("call_c", "replace_text", {"path": "src/app.py", "oldText": "x", "newText": "y"})


def transcript() -> list[Message]:
    return [
        Message("system", "You are asi-agent."),
        Message("user", "Fix main."),
        Message("assistant", "Reading first.", (READ, GREP)),
        Message("tool", "1\tdef main():", tool_call_id="call_a", name="read_file"),
        Message("tool", "", tool_call_id="call_b"),
        Message("assistant", "", (EDIT,)),
        Message(
            "tool",
            "ERROR: oldText not found in src/app.py",
            tool_call_id="call_c",
            name="replace_text",
            outcome="error",
        ),
        Message("assistant", "Could not edit.\nAGENT_STATUS: STOP"),
    ]


def test_a_projection_kept_turn_after_turn_is_what_a_fresh_one_gives():
    """Grown a message at a time (results arriving one by one), compacted, cut short, in two dialects."""
    full = transcript()
    steps = [full[:n] for n in range(1, len(full) + 1)]
    steps += [[full[0], Message("user", "Summary of the work so far."), *full[5:]], full, full[:4], []]
    projection = HistoryProjection()
    for dialect in ("asi", "hermes", "asi"):
        for messages in steps:
            assert projection(messages, dialect) == project_history(messages, dialect)


def test_what_a_turn_did_not_change_is_handed_back_as_the_same_messages():
    """So the wire encoding, which knows messages by identity, encodes each one once."""
    projection = HistoryProjection()
    before = projection(transcript()[:4])
    after = projection([*transcript()[:4], *transcript()[4:7]])  # equal copies of the first four, then more
    assert after[2] is before[2]  # the assistant turn, projected once
    assert after[3] == project_history(transcript()[:7])[3]  # the run of results grew: framed again


def test_history_projection_of_a_two_turn_transcript():
    projected = project_history(transcript())
    assert [message.role for message in projected] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
        "assistant",
    ]
    assert projected[:2] == transcript()[:2]
    assert all(not m.tool_calls and m.tool_call_id is None and m.name is None for m in projected)
    first = projected[2].content
    assert first.startswith("Reading first.\n")
    assert [(c.name, c.arguments) for c in parse_reply(first).calls] == [
        (READ.name, READ.arguments),
        (GREP.name, GREP.arguments),
    ]
    assert projected[4].content == render_call_line(EDIT)
    assert projected[6] == transcript()[7]


def test_results_of_one_turn_are_merged_and_framed():
    merged = project_history(transcript())[3].content
    assert "[TOOL_RESULT read_file id=call_a]\n1\tdef main():\n[/TOOL_RESULT]" in merged
    # The second result had no name: it is found from the call it answers; empty output is framed.
    assert "[TOOL_RESULT grep_search id=call_b]\n(no output)\n[/TOOL_RESULT]" in merged
    assert merged.rstrip().endswith("AGENT_STATUS: DONE (or CONTINUE / STOP).")
    assert "[TOOL_CALL]tool_name[ARGS]{json}" in merged
    assert "failed" not in merged


def test_error_results_are_framed_as_errors_with_a_hint():
    framed = project_history(transcript())[5].content
    assert framed.startswith("[TOOL_RESULT replace_text id=call_c error]\nERROR: oldText not found")
    assert "correct the arguments" in framed


def test_history_ending_with_results_ends_with_their_continuation():
    projected = project_history(transcript()[:5])
    assert projected[-1].role == "user"
    assert projected[-1].content.count("[TOOL_RESULT") == 2


@pytest.mark.parametrize(
    ("reason", "expected"),
    [
        ("refusal: I can't access", "You do have working tools"),
        ("narrated call", "described a tool call instead of making it"),
        ("unparsable call: Could not parse the tool call `x`: bad.", "Could not parse the tool call `x`"),
        ("no call", "neither a tool call nor a final AGENT_STATUS line"),
    ],
)
def test_retry_prompt_restates_the_format_with_an_example(reason, expected):
    prompt = retry_prompt(reason)
    assert expected in prompt
    assert "[TOOL_CALL]tool_name[ARGS]{json}" in prompt
    assert [(c.name, c.arguments) for c in parse_reply(prompt).calls] == [
        ("read_file", {"path": "src/app.py"})
    ]
    assert "AGENT_STATUS: DONE" in prompt
