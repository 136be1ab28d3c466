"""Grounding as a step of the loop: the rule-based planner that narrows each turn of a guided model.

The agent asks the planner before every request (`plan`): the turn's few tools, whether an answer is
allowed and its shape, orientation and a worked example (`TurnPlan`), which a backend that constrains
decoding honours. When the plan leaves one possible reply, the planner writes it itself (`written`)
instead of running the model; when the model answers, the planner judges whether the answer rests on the
run's results (`judge`) and otherwise ends the run with an honest STOP. Every reply it writes is marked
runtime-written (`Completion.origin`), in the transcript too, so it is never exported as a model target.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

from asi_agent.backends.base import ToolSchema
from asi_agent.backends.guide import CUT_OFF, Guide, TurnPlan, cut_off_text, is_value, only_value
from asi_agent.backends.local_chat import build_reply_schema, parse_reply
from asi_agent.messages import Completion, Message

__all__ = ["Planner"]


class Planner:
    """One run's planner over a `Guide` (the grounding rules of one project)."""

    name = "grounding"
    """How the transcript names the step."""

    def __init__(self, guide: Guide) -> None:
        self.guide = guide
        self._planned: tuple[list[Message], TurnPlan] | None = None

    async def plan(self, messages: Sequence[Message], tools: Sequence[ToolSchema] | None) -> TurnPlan | None:
        """The plan of the next turn (None without tools). The context budget asks for it just before the
        request does: the same conversation is planned once."""
        if not tools:
            return None
        history = [message for message in messages if message.role != "system"]
        if self._planned is None or self._planned[0] != history:
            self._planned = (history, await self.guide.plan(messages))
        return self._planned[1]

    def written(self, plan: TurnPlan) -> Completion | None:
        """The reply, when the plan leaves only one: decoding it with the model would only spend time."""
        schema = build_reply_schema(plan.tools, allow_answer=plan.allow_answer, answer=plan.answer)
        forced = only_value(schema)
        if not is_value(forced):
            return None
        text, call = parse_reply(json.dumps(forced, ensure_ascii=False))  # as decoded under the schema
        calls = (call,) if call is not None else ()
        return Completion(text, calls, finish_reason="tool_calls" if calls else "stop", origin="runtime")

    def judge(self, messages: Sequence[Message], reply: Completion) -> Completion:
        """The reply, or, for an answer that does not rest on the run's results, an honest STOP."""
        if reply.native_calls:
            calls = self.guide.framed(messages, reply.native_calls)
            # The model wrote a sentence of the call, the runtime the rest: not a call the model decoded.
            return (
                reply if calls == reply.native_calls else replace(reply, native_calls=calls, origin="runtime")
            )
        if reply.finish_reason == CUT_OFF:
            return reply
        reason = self.guide.judge(messages, reply.text)
        if reason is None:
            return reply
        return Completion(
            cut_off_text(reason), usage=reply.usage, finish_reason=reply.finish_reason, origin="runtime"
        )
