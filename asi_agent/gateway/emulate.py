"""One gateway request answered by the upstream model, with tool calling emulated when it has none.

The emulation is the agent's own: a `CallAdapter` (prompt contract, history projection, framed results,
the tolerant parser, bounded retries) built per request over the one shared upstream backend, so the
state of a conversation is derived from the history the client sent, never kept between requests.
What was learned about the upstream once (native tools or not, the call shape of its chat template) is
shared by all requests.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from asi_agent.backends.base import Backend, RequestOptions, ToolSchema
from asi_agent.calls.adapter import CallAdapter, system_message
from asi_agent.calls.jsonish import normalize_native
from asi_agent.calls.parse import ParsedReply
from asi_agent.calls.retry import retry_reason
from asi_agent.calls.template import CallShape
from asi_agent.calls.template.source import shape_for
from asi_agent.cutoff import CUT_REASONS
from asi_agent.exceptions import CallFormatError
from asi_agent.gateway.images import check_images
from asi_agent.gateway.normalize import ChatRequest
from asi_agent.messages import Completion, ToolCall, Usage
from asi_agent.providers import provider_of

__all__ = ["Emulate", "Outcome", "Upstream"]

Emulate = Literal["auto", "always", "never"]
TextSink = Callable[[str], None]
_CALL_STARTS = "`<[{"
"""Characters a call can begin with in some dialect: streamed text stops at the first one until the
reply has ended and been parsed."""
_STATUS = "AGENT_STATUS"
_RECIPIENT = re.compile(r"\bto=[\w.:-]")
_LABEL = re.compile(
    r"^[ \t]*(?:\*\*|__)?[ \t]*(?:tool|function)[ _-]?calls?[ \t]*(?:\*\*|__)?[ \t]*:", re.I | re.M
)
"""What opens a call without one of `_CALL_STARTS`: a recipient header (` to=NAME<|message|>`) and a label
line (`**Tool Call:**`); the parser takes both out of the text, so the stream stops at them too."""
_LABEL_WORDS = ("tool", "function")
_TO_END = re.compile(r"\bto?\Z")
_STATUS_LINE = re.compile(r"^[ \t]*AGENT_STATUS:[ \t]*[A-Z]+[ \t]*$\n?", re.MULTILINE)
_URL_IMAGES = frozenset({"openai", "anthropic"})
"""Providers whose API takes an image by its http(s) address (the server fetches it, not the gateway)."""


@dataclass(slots=True)
class Outcome:
    """What the upstream answered, in the runtime's terms, with what the request log needs."""

    text: str
    calls: list[ToolCall]
    finish: Literal["stop", "tool_calls", "length"]
    usage: Usage
    model: str
    tail: str = ""
    """Streaming: the visible text not streamed yet when the reply ended (held back at a possible call)."""
    trace: dict[str, Any] = field(default_factory=dict)
    custom_tools: frozenset[str] = frozenset()
    """Calls of these tools are answered as free-form (`custom_tool_call`) items (Responses API)."""


class _RequestAdapter(CallAdapter):
    """The call adapter of one request: asks again when a call was required, and remembers why it did.

    Unlike the agent's loop, a reply with good calls beside one that cannot be read is asked again too: the
    client runs only the calls it is given, and the broken one's problem would reach the model nowhere (the
    agent sends it back with the results; a client's history holds only the calls it got)."""

    expect_call = False
    retries: list[str]

    def _retry_reason(self, reply: Completion, parsed: ParsedReply) -> str | None:  # type: ignore[override]
        reason = retry_reason(reply.text, parsed, expect_call=self.expect_call)
        if reason is None and parsed.calls and parsed.problems:
            reason = f"unparsable call: {parsed.problems[0]}"
        if reason is not None:
            self.retries.append(reason)
        return reason


class _HeldText:
    """Streamed text passed on as it arrives up to the first character a call could start with (or the
    contract's status line, which the client never sees)."""

    def __init__(self, sink: TextSink | None, *, hold_all: bool) -> None:
        self.sink, self.held, self.sent, self.pending = sink, hold_all or sink is None, "", ""

    def feed(self, delta: str) -> None:
        """Pass on `delta`, or the part of it before a possible call."""
        if self.held or not delta:
            return
        text, self.pending = self.pending + delta, ""
        at_line_start = not self.sent
        starts = [text.find(c) for c in _CALL_STARTS] + [text.find(_STATUS)]
        recipient, label = _RECIPIENT.search(text), _LABEL.search(text, 0 if at_line_start else 1)
        starts += [found.start() for found in (recipient, label) if found is not None]
        cut = min((i for i in starts if i >= 0), default=-1)
        if cut >= 0:
            self.held, text = True, text[:cut].rstrip()
        else:  # an ending that may grow into the status line or an opener waits for the next delta
            keep = _unsure_ending(text, at_line_start)
            text, self.pending = text[: len(text) - keep], text[len(text) - keep :]
            stripped = text.rstrip()  # space before a call is trimmed with it: wait for what follows
            text, self.pending = stripped, text[len(stripped) :] + self.pending
        if text and self.sink is not None:
            self.sent += text
            self.sink(text)

    def tail(self, final: str) -> str:
        """The visible text of the reply not passed on yet."""
        pairs = zip(final, self.sent, strict=False)
        shared = next((i for i, (a, b) in enumerate(pairs) if a != b), min(len(final), len(self.sent)))
        if shared >= len(self.sent.rstrip()):  # the parser trims the space left before a call
            return final[shared:]
        return f"\n\n{final}" if self.sent else final  # a retry answered after text already shown


def _unsure_ending(text: str, at_line_start: bool) -> int:
    """How many characters at the end of `text` may be the start of the status line, a recipient header
    (` to=`) or a label line (`**Tool Call:**`): they wait for the next delta."""
    keep, start = 0, max(0, len(text) - (len(_STATUS) - 1))
    # The longest ending that begins the status word starts at the earliest `A` that begins it.
    while (start := text.find(_STATUS[0], start)) >= 0:
        if _STATUS.startswith(text[start:]):
            keep = len(text) - start
            break
        start += 1
    word = _TO_END.search(text)
    if word is not None:
        keep = max(keep, len(text) - word.start())
    line_start = text.rfind("\n") + 1
    if (line_start or at_line_start) and _may_be_label(text[line_start:]):
        keep = max(keep, len(text) - line_start)
    return keep


def _may_be_label(line: str) -> bool:
    """Whether the unfinished `line` may still become a label line naming a call (`**Tool Call:**`)."""
    rest = line.lstrip(" \t*_").lower()
    if not rest:
        return bool(line)
    for word in _LABEL_WORDS:
        if word.startswith(rest):
            return True
        if rest.startswith(word):
            tail = rest[len(word) :].lstrip(" _-")
            return "call".startswith(tail) or (tail.startswith("call") and not tail[4:].strip("s \t*_"))
    return False


def visible(text: str) -> str:
    """The reply's text without the contract's `AGENT_STATUS` line (a client knows nothing of it)."""
    return _STATUS_LINE.sub("", text).rstrip()


class Upstream:
    """The upstream backend and what is known about it: whether calls travel natively, its call shape."""

    def __init__(
        self,
        backend: Backend,
        *,
        emulate: Emulate = "auto",
        call_format: str = "auto",
        chat_template: str | None = None,
        max_retries: int = 2,
        unstreamed: Backend | None = None,
    ) -> None:
        """`emulate`: `auto` passes tools through when the upstream takes them, `always`/`never` force.
        `unstreamed`: the same upstream asked without streaming, for requests whose client does not stream
        (a plain request and reply cost less than a stream)."""
        self.backend, self.emulate, self.call_format = backend, emulate, call_format
        self.unstreamed = unstreamed or backend
        self._template, self.max_retries = chat_template, max_retries
        # One system message object while the contract stays the same, across requests: the backend's
        # wire encoding knows it by identity instead of comparing its text.
        self._systems = system_message()
        self.native: bool | None = None if emulate == "auto" else emulate == "never"
        self.shape: CallShape | None = None
        self.image_urls = provider_of(backend) in _URL_IMAGES
        """Whether image URLs pass through to the upstream (else a request carrying one is refused)."""

    async def start(self) -> None:
        """Ask the upstream once whether it takes tools, and learn its call shape from its template."""
        if self.native is None:
            self.native = await self.backend.supports_native_tools()
        if not self.native:
            self.shape = await shape_for(self.backend, self._template)

    async def check(self, request: ChatRequest) -> None:
        """Refuse (`BadRequest`), before any answer starts, what the upstream cannot be given: images to a
        model that does not read them, image URLs to an API that takes only inline images."""
        await check_images(request.messages, self.backend, takes_urls=self.image_urls)

    def _adapter(self, request: ChatRequest, inner: Backend) -> _RequestAdapter:
        adapter = _RequestAdapter(
            inner,
            tool_mode="native" if self.native else "text",
            call_format=self.call_format,
            max_retries=self.max_retries,
            systems=self._systems,
        )
        adapter.native, adapter.shape, adapter.retries = bool(self.native), self.shape, []
        adapter.expect_call = request.tool_choice != "auto"
        return adapter

    async def answer(self, request: ChatRequest, on_text: TextSink | None = None) -> Outcome:
        """The upstream's answer to `request`; `on_text` receives visible text as it streams."""
        if self.native is None:
            await self.start()
        inner = self.backend if on_text is not None else self.unstreamed
        adapter = self._adapter(request, inner)
        # Native: the client's tools and tool_choice pass through (`auto`, the default, is not sent: some
        # servers refuse it unless started for it); emulated: the choice shapes the offer and the contract.
        tools = request.tools if self.native else _offered(request)
        forwarded = self.native and request.tool_choice != "auto"
        options = RequestOptions(request.max_tokens, request.tool_choice if forwarded else None)
        emulating = bool(tools) and not self.native
        held = _HeldText(on_text, hold_all=emulating and adapter.expect_call)
        sink = held.feed if on_text is not None else None
        started = time.perf_counter()
        if tools:
            reply = await adapter.complete(request.messages, tools, on_delta=sink, options=options)
        else:
            reply = await self._plain(adapter, request, sink, options)
        elapsed = time.perf_counter() - started
        calls = _calls(reply)
        cut = reply.finish_reason in CUT_REASONS
        finish: Literal["stop", "tool_calls", "length"] = (
            "length" if cut else "tool_calls" if calls else "stop"
        )
        retries = adapter.retries
        refusal = next((r.removeprefix("refusal: ") for r in retries if r.startswith("refusal")), None)
        trace = {
            "emulated": emulating,
            "dialect": adapter.style.name if emulating else None,
            "contract": emulating,
            "tool_history": request.tool_history,
            "tools_from_history": request.tools_from_history,
            "tool_choice": request.tool_choice,
            "calls": len(calls),
            "retries": retries,
            "refusal": refusal,
            "cut_off": cut,
            "upstream_ms": round(elapsed * 1000, 1),
            "prompt_tokens": reply.usage.prompt_tokens,
            "completion_tokens": reply.usage.completion_tokens,
        }
        model = request.model or self.backend.model_name
        text = visible(reply.text)
        return Outcome(text, calls, finish, reply.usage, model, held.tail(text), trace, request.custom_tools)

    async def _plain(
        self,
        adapter: CallAdapter,
        request: ChatRequest,
        on_delta: TextSink | None,
        options: RequestOptions,
    ) -> Completion:
        """A request without tools (or `tool_choice: none`): the history still projected in text mode."""
        messages = request.messages
        if not self.native and request.tool_history:
            system = [messages[0]] if messages[0].role == "system" else []
            messages = [*system, *adapter.style.history(messages[len(system) :])]
        return await adapter.inner.complete(messages, None, on_delta=on_delta, options=options)


def _offered(request: ChatRequest) -> list[ToolSchema]:
    """The tools the model is shown: none for `none`, only the named one for a named choice."""
    if request.tool_choice == "none":
        return []
    if request.tool_choice in ("auto", "required"):
        return request.tools
    return [t for t in request.tools if t["function"]["name"] == request.tool_choice]


def _calls(reply: Completion) -> list[ToolCall]:
    """The reply's calls with their arguments decoded; one whose arguments cannot be read is left out
    (the adapter has already asked the model again for those)."""
    calls = []
    for raw in reply.native_calls:
        try:
            calls.append(normalize_native(raw))
        except CallFormatError:
            continue
    return calls
