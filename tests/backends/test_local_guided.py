"""The local backend under a guide: plans shape the chat and the grammar; a forced reply needs no model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from asi_agent.backends.guide import NO_VALUE, TurnPlan, only_value
from asi_agent.backends.local import LocalBackend, LocalBackendConfig, build_reply_schema, render_messages
from asi_agent.grounding import Planner
from asi_agent.messages import Message, ToolCall


def _read(paths: list[str]) -> dict[str, Any]:
    parameters = {
        "type": "object",
        "properties": {"path": {"type": "string", "enum": paths}},
        "required": ["path"],
        "additionalProperties": False,
    }
    return {
        "type": "function",
        "function": {"name": "read_file", "description": "Read.", "parameters": parameters},
    }


class _Plan:
    def __init__(self, plan: TurnPlan) -> None:
        self.fixed = plan

    async def plan(self, messages: Any) -> TurnPlan:
        return self.fixed

    def judge(self, messages: Any, answer: str) -> str | None:
        return None if "8080" in answer else "the answer does not quote what the tools returned"


def _absent_model(tmp_path: Path) -> LocalBackend:
    """A backend whose model file does not exist: any real decoding would raise."""
    return LocalBackend(LocalBackendConfig(model_path=tmp_path / "absent.gguf"))


def test_only_value_finds_the_single_reply() -> None:
    assert only_value(build_reply_schema([_read(["a.py"])], allow_answer=False)) == {
        "tool": "read_file",
        "arguments": {"path": "a.py"},
    }
    assert only_value(build_reply_schema([_read(["a.py", "b.py"])], allow_answer=False)) is NO_VALUE
    assert only_value(build_reply_schema([_read(["a.py"])], allow_answer=True)) is NO_VALUE
    assert only_value(build_reply_schema([], answer={"enum": ["port = 8080"]})) == {"answer": "port = 8080"}
    assert only_value({"type": "object", "properties": {"x": {"const": 1}}, "required": []}) is NO_VALUE


async def test_a_call_grounding_leaves_alone_is_made_without_the_model() -> None:
    planner = Planner(_Plan(TurnPlan(tools=[_read(["config.toml"])], allow_answer=False)))
    messages = [Message("user", "Show config.toml")]
    plan = await planner.plan(messages, [_read(["x"])])
    assert plan is not None
    completion = planner.written(plan)
    assert completion is not None and completion.origin == "runtime"
    (call,) = completion.native_calls
    assert (call.name, call.arguments) == ("read_file", {"path": "config.toml"})
    assert completion.usage.completion_tokens == 0


async def test_a_forced_answer_still_has_to_rest_on_a_result() -> None:
    messages = [Message("user", "What port?")]
    planner = Planner(_Plan(TurnPlan(tools=[], allow_answer=True, answer={"enum": ["port = 8080"]})))
    completion = planner.written(await _planned(planner, messages))
    assert completion is not None
    completion = planner.judge(messages, completion)
    assert completion.text == "port = 8080" and not completion.native_calls
    planner = Planner(_Plan(TurnPlan(tools=[], allow_answer=True, answer={"enum": ["no idea"]})))
    completion = planner.written(await _planned(planner, messages))
    assert completion is not None
    completion = planner.judge(messages, completion)
    assert completion.text.startswith("The model could not complete the task: the answer does not quote")
    assert completion.text.endswith("AGENT_STATUS: STOP")
    assert completion.origin == "runtime"


async def _planned(planner: Planner, messages: list[Message]) -> TurnPlan:
    plan = await planner.plan(messages, [_read(["x"])])
    assert plan is not None
    return plan


def test_the_plan_shapes_the_chat() -> None:
    plan = TurnPlan(
        tools=[_read(["a.py"])],
        allow_answer=False,
        system="Project files:\na.py",
        example=[("user", "Show notes.txt"), ("assistant", '{"tool": "read_file"}')],
        own_system=True,
    )
    call = ToolCall("c1", "read_file", {"path": "a.py"})
    messages = [
        Message("system", "A long generic system prompt."),
        Message("user", "Show a.py"),
        Message("assistant", "", (call,)),
        Message("tool", "a.py (1 line)\n    1| x = 1", tool_call_id="c1", name="read_file"),
    ]
    chat = render_messages(messages, plan.tools, plan)
    assert chat[0]["role"] == "system"
    assert "A long generic" not in chat[0]["content"] and chat[0]["content"].endswith("Project files:\na.py")
    assert '"a.py"' in chat[0]["content"]  # the grounded choices are shown with the tool
    assert [turn["role"] for turn in chat[1:]] == ["user", "assistant", "user", "assistant", "user"]
    assert chat[1]["content"] == "Show notes.txt" and chat[3]["content"] == "Show a.py"
    assert chat[-1]["content"].startswith("Result of read_file:")
