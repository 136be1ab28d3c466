"""The call adapter: any chat backend made one that takes native tool schemas and returns native calls.

The agent (and the gateway of a later issue) only ever sees native calls. For a model with native tool
calling, tools go through as they are and a call it wrote as text anyway is read out of its content. For
one without (text mode: `tool_mode = "text"`, or `auto` on a backend that says it has none, or rejects
the tools), the adapter does what tool emulation needs (tool-emulation checklist §1-§7):

- the prompt contract (`textmode.render_contract`) added to the system turn, in the session's dialect;
- the call shapes learned from the model's chat template, else the hand-written dialects;
- the history projected into the model's own form: earlier calls written in its dialect, results framed
  as user turns (`textmode.HistoryProjection`);
- a text retry when a reply has no readable call, refuses or narrates one (`retry.retry_reason`): the
  adapter asks again itself up to `max_retries` times; past them (0 for the agent, which keeps the retry in
  its transcript and turn count) the reply comes back with `retry` and `retry_prompt` set.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

from asi_agent.backends.base import (
    NO_OPTIONS,
    Backend,
    BackendBase,
    DeltaCallback,
    RequestOptions,
    ToolSchema,
)
from asi_agent.backends.guide import TurnPlan
from asi_agent.calls.parse import ParsedReply, parse_reply
from asi_agent.calls.retry import retry_reason
from asi_agent.calls.style import CallStyle
from asi_agent.calls.template import CallShape
from asi_agent.calls.template.source import shape_for
from asi_agent.cutoff import CUT_REASONS
from asi_agent.exceptions import ToolsUnsupportedError
from asi_agent.memo import LastValue
from asi_agent.messages import Completion, Message, RawCall, Usage

log = logging.getLogger("asi_agent.calls.adapter")

__all__ = ["CallAdapter", "ToolMode", "system_message"]

ToolMode = Literal["auto", "native", "text"]


def system_message() -> LastValue[str, Message]:
    """The system message of a text, the same object while the text stays the same."""
    return LastValue(lambda text: Message("system", text))


class CallAdapter(BackendBase):
    """A backend that takes native tool schemas and returns native calls, whatever the model can do."""

    def __init__(
        self,
        inner: Backend,
        *,
        tool_mode: ToolMode = "auto",
        call_format: str = "auto",
        chat_template: str | None = None,
        records: Iterable[Mapping[str, Any]] = (),
        max_retries: int = 2,
        on_learned: Callable[[str], None] | None = None,
        on_switched: Callable[[str], None] | None = None,
        systems: LastValue[str, Message] | None = None,
    ) -> None:
        """`records` (a resumed session's transcript) give back a learned dialect; `on_learned` hears of a
        dialect learned from a reply, `on_switched` of a switch to text mode after the server rejected the
        tools (`auto` only); `systems` makes the system message sent for a text (see `system_message`),
        shared by adapters made one per request."""
        self.inner, self.tool_mode, self.max_retries = inner, tool_mode, max_retries
        self.style = CallStyle.choose(call_format, inner.model_name, records)
        self._configured_template = chat_template
        self._on_learned, self._on_switched = on_learned, on_switched
        self.native: bool | None = None if tool_mode == "auto" else tool_mode == "native"
        self._shape: asyncio.Future[CallShape | None] | None = None
        self.shape: CallShape | None = None
        # The same system message object while its text stays the same: the backends' wire encoding
        # knows the unchanged history by identity and does not look at it again.
        self._system = systems if systems is not None else system_message()

    @property
    def model_name(self) -> str:
        """The wrapped backend's model."""
        return self.inner.model_name

    @property
    def small_model(self) -> bool:
        """As the wrapped backend says."""
        return self.inner.small_model

    @property
    def wants_planner(self) -> bool:
        """As the wrapped backend says."""
        return self.inner.wants_planner

    @property
    def constrained(self) -> bool:
        """As the wrapped backend says."""
        return self.inner.constrained

    @property
    def mode(self) -> Literal["native", "text"]:
        """How calls travel now (native until decided)."""
        return "text" if self.native is False else "native"

    async def supports_native_tools(self) -> bool:
        """Always: native schemas in, native calls out."""
        return True

    async def decide(self) -> Literal["native", "text"]:
        """Ask the wrapped backend how calls travel (`auto`), and start learning the call shape from the
        chat template beside the first request (reading a GGUF header and rendering take ~0.1 s)."""
        if self.native is None or self.tool_mode == "auto":
            self.native = await self.inner.supports_native_tools()
        if self._shape is None and self.shape is None:
            self._shape = asyncio.ensure_future(shape_for(self.inner, self._configured_template))
        return self.mode

    async def accepts_images(self) -> bool:
        """As the wrapped backend says."""
        return await self.inner.accepts_images()

    async def chat_template(self) -> str | None:
        """The wrapped backend's template."""
        return await self.inner.chat_template()

    async def context_window(self) -> int | None:
        """The wrapped backend's window."""
        return await self.inner.context_window()

    async def count_tokens(self, text: str) -> int | None:
        """The wrapped backend's tokenizer."""
        return await self.inner.count_tokens(text)

    def system_text(self, system: str, tools: Sequence[ToolSchema]) -> str:
        """The system turn as sent: in text mode, the contract follows it."""
        return system if self.native is not False else f"{system}\n\n{self.style.contract(tools)}"

    async def fixed_text(
        self,
        system: str,
        history: Sequence[Message],
        tools: Sequence[ToolSchema] | None,
        plan: TurnPlan | None = None,
    ) -> str | None:
        """What a request sends besides the history."""
        if self.native is False:
            return self.system_text(system, tools or [])
        return await self.inner.fixed_text(system, history, tools, plan)

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSchema] | None = None,
        *,
        on_delta: DeltaCallback | None = None,
        plan: TurnPlan | None = None,
        options: RequestOptions = NO_OPTIONS,
    ) -> Completion:
        """One request; calls written as text come back as native calls (see the module docstring).
        In text mode only `options.max_tokens` travels: a tool choice is the contract's business."""
        if tools is None:  # a plain request (a summary, a tool's question): nothing to adapt
            return await self.inner.complete(messages, None, on_delta=on_delta, options=options)
        if self.native is None:
            await self.decide()
        if self.native:
            try:
                reply = await self.inner.complete(
                    messages, tools, on_delta=on_delta, plan=plan, options=options
                )
            except ToolsUnsupportedError as exc:
                if self.tool_mode != "auto":
                    raise
                log.warning("asi-agent: warning: %s; switching to text mode", exc)
                self.native = False
                if self._on_switched is not None:
                    self._on_switched(str(exc))
            else:
                return await self._read(reply, tools)
        limit = RequestOptions(max_tokens=options.max_tokens)
        return await self._text_mode(list(messages), tools, on_delta, limit)

    async def _text_mode(
        self,
        messages: list[Message],
        tools: Sequence[ToolSchema],
        on_delta: DeltaCallback | None,
        options: RequestOptions = NO_OPTIONS,
    ) -> Completion:
        """The contract and the projected history sent as plain chat; unusable replies asked again."""
        attempts, usage = 0, Usage()
        while True:
            system = messages[0].content if messages and messages[0].role == "system" else ""
            rest = messages[1:] if messages and messages[0].role == "system" else messages
            wire = [self._system(self.system_text(system, tools)), *self.style.history(rest)]
            reply = await self.inner.complete(wire, None, on_delta=on_delta, options=options)
            usage += reply.usage
            read = await self._read(reply, tools)
            if read.retry is None or attempts >= self.max_retries:
                # A first answer already carries its own usage (the sum of one request).
                return read if attempts == 0 else dataclasses.replace(read, usage=usage)
            attempts += 1
            log.info("text mode retry %d: %s", attempts, read.retry)
            messages = [
                *messages,
                Message("assistant", read.text),
                Message("user", read.retry_prompt, origin="runtime", note="text"),
            ]

    async def _read(self, reply: Completion, tools: Sequence[ToolSchema]) -> Completion:
        """The reply with the calls its text holds made native; a cut-off reply is left as it came."""
        if reply.finish_reason in CUT_REASONS:
            return reply
        if self._shape is not None:
            self.shape, self._shape = await self._shape, None
        parsed = parse_reply(reply.text, tools, hint=self.style.hint, shape=self.shape)
        if self.native is False and self.style.learn(parsed) and self._on_learned is not None:
            self._on_learned(self.style.name)
        text = parsed.text if parsed.calls or parsed.reasoning or parsed.markup else reply.text
        calls = tuple(RawCall(call.id, call.name, call.arguments) for call in parsed.calls)
        retry = None if self.native else self._retry_reason(reply, parsed)
        return Completion(
            text,
            calls + reply.native_calls,
            reply.usage,
            reply.finish_reason,
            origin=reply.origin,
            problems=parsed.problems,
            retry=retry,
            retry_prompt=self.style.retry_prompt(retry) if retry else "",
        )

    @staticmethod
    def _retry_reason(reply: Completion, parsed: ParsedReply) -> str | None:
        return retry_reason(reply.text, parsed, expect_call=False)

    async def aclose(self) -> None:
        """Close the wrapped backend."""
        if self._shape is not None:
            self._shape.cancel()
        await self.inner.aclose()
