"""Backend for OpenAI-compatible chat servers (OpenAI, vLLM, llama.cpp server, LM Studio, ...).

Streams `/chat/completions`, assembles native tool calls from their fragments, and turns every
failure into a one-line `BackendError` saying what to do. Retries are ours. The chat request is spoken
directly over HTTP (`chat_http`): the lean `http1` client for plain HTTP, else `httpx2`; read as the
`openai` SDK reads it, whose half a second of imports is only paid to list the models after a 404.

Every request carries `max_tokens`; each attempt fails after `idle_timeout` seconds without data, and
the whole reply (retries included) must end within `request_timeout`. A reply that repeats itself,
or runs far past the token limit on a server that ignores it, is cut (`finish_reason` `repetition` /
`length`). `supports_native_tools` asks llama.cpp's `/props`; the first reply to a request with tools
is checked for tools the server accepted but never showed the model.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from typing import Any

import httpx2
from pydantic import BaseModel, ConfigDict, Field

from asi_agent import jsonfast
from asi_agent.backends.adopt import adopting_transport
from asi_agent.backends.base import NO_OPTIONS, BackendBase, DeltaCallback, RequestOptions, ToolSchema
from asi_agent.backends.capabilities import ModelNameCheck, ServerProps, dropped_tools, read_props
from asi_agent.backends.chat_http import StatusError, StreamedError, sse_data, status_error
from asi_agent.backends.guard import StreamGuard
from asi_agent.backends.guide import TurnPlan
from asi_agent.backends.http1 import Http1Pool, Http1Response, lean_eligible
from asi_agent.backends.openai_errors import connection_problem, status_problem
from asi_agent.backends.openai_wire import (
    StreamState,
    WireMessages,
    as_chunk,
    json_body,
    to_openai_messages,
)
from asi_agent.backends.probe import ServerProbe
from asi_agent.backends.retry import (
    RetryCallback,
    RetryPolicy,
    TransientError,
    call_within,
)
from asi_agent.backends.tls import verify_for
from asi_agent.exceptions import BackendError, ToolsUnsupportedError
from asi_agent.memo import LastValue
from asi_agent.messages import Completion, Message
from asi_agent.prefetch import NO_KEY

__all__ = ["DEFAULT_MAX_TOKENS", "OpenAIBackend", "OpenAIBackendConfig", "to_openai_messages"]

logger = logging.getLogger("asi_agent.backends.openai")

_LIMITS = httpx2.Limits(max_connections=1000, max_keepalive_connections=100)
_CONNECT_TIMEOUT = 10.0
_HEADERS = {"Content-Type": "application/json", "Accept": "text/event-stream", "User-Agent": "asi-agent"}
DEFAULT_MAX_TOKENS = 4096
_USAGE_IN_STREAM = '{"include_usage": true}'
"""`stream_options` as `json.dumps` writes it, encoded once rather than for every request."""
"""`max_tokens` when none is configured: room for a long file, far from a runaway reply."""


class OpenAIBackendConfig(BaseModel):
    """Settings of `OpenAIBackend`."""

    model_config = ConfigDict(extra="forbid")

    model: str
    """Model name as the server knows it (`GET /v1/models` lists them)."""
    base_url: str = "https://api.openai.com/v1"
    """Server URL including the `/v1` prefix, e.g. `http://127.0.0.1:8000/v1`."""
    api_key: str | None = None
    """API key; None sends a placeholder, which local servers accept."""
    idle_timeout: float = Field(default=120.0, gt=0)
    """Seconds without any data from the server (the first token included) before an attempt fails."""
    request_timeout: float = Field(default=600.0, gt=0)
    """Seconds allowed for the whole reply, retries included: an absolute deadline."""
    max_retries: int = Field(default=3, ge=0)
    """Retries after a 429, a 5xx, a lost connection or a timeout."""
    retry_backoff: float = Field(default=1.0, ge=0)
    """Base delay in seconds of the exponential backoff between retries."""
    temperature: float | None = 0.2
    """Sampling temperature; None leaves the server's default."""
    max_tokens: int | None = Field(default=DEFAULT_MAX_TOKENS, gt=0)
    """Upper bound on the reply's tokens; None leaves the server's default (often unlimited)."""
    stream: bool = True
    """Stream the reply; False asks for it whole (then only `request_timeout` bounds the wait)."""


class OpenAIBackend(BackendBase):
    """A model behind an OpenAI-compatible `/v1/chat/completions` endpoint."""

    def __init__(self, config: OpenAIBackendConfig) -> None:
        self._config = config
        idle, verify = config.idle_timeout, verify_for(config.base_url)
        connect = min(idle, _CONNECT_TIMEOUT)
        # A reply asked for whole sends nothing until it is complete: only the request's deadline holds.
        self._whole_timeout = httpx2.Timeout(config.request_timeout, connect=connect)
        # Parsed once: building a request from a string parses the URL again each time (~45 µs).
        self._chat_url = httpx2.URL(config.base_url.rstrip("/") + "/chat/completions")
        # Around the transport: one that adopts the first request sent ahead at start-up, if any.
        headers = _HEADERS | {"Authorization": f"Bearer {config.api_key or NO_KEY}"}
        adopting = adopting_transport(httpx2, "/chat/completions", limits=_LIMITS, verify=verify)
        self._http = httpx2.AsyncClient(
            headers=headers,
            timeout=httpx2.Timeout(idle, connect=connect),
            limits=_LIMITS,
            verify=verify,
            transport=adopting,
        )
        # Plain HTTP without a proxy or a request sent ahead: the lean client (a fraction of httpx2's CPU).
        lean = adopting is None and lean_eligible(config.base_url)
        self._lean = Http1Pool(config.base_url, headers=headers, connect_timeout=connect) if lean else None
        self._policy = RetryPolicy(max_retries=config.max_retries, base_delay=config.retry_backoff)
        self._wire = WireMessages()
        # The tools' JSON, encoded again only when they changed (most turns offer the same tools).
        self._tools_json: LastValue[list[dict[str, Any]], str] = LastValue(jsonfast.dumps)
        # Flipped off for good once the server rejects `stream_options`.
        self._usage_in_stream = True
        self._probe = ServerProbe(config.base_url, config.api_key)
        # OpenAI's reasoning models take `max_completion_tokens` instead.
        self._limit_param = "max_tokens"
        self._tools_verdict: bool | None = None
        self._props: ServerProps | None = None
        self._props_read = False
        self._props_flight: asyncio.Task[ServerProps | None] | None = None
        self._tools_checked = False
        self._names = ModelNameCheck(config.model, f"the model server at {config.base_url}")
        self.on_retry: RetryCallback | None = None
        """Told before each retry wait (seconds, error); a UI sets it to show "retrying in N s"."""

    @property
    def model_name(self) -> str:
        """The configured model name."""
        return self._config.model

    async def supports_native_tools(self) -> bool:
        """False when llama.cpp's `/props` says the chat template cannot render tools; else True
        (a server that rejects tools later says so with `ToolsUnsupportedError`)."""
        if self._tools_verdict is None:
            props = await self._server_props()
            self._tools_verdict = not (props and props.supports_tools is False)
            if not self._tools_verdict:
                logger.warning(
                    "asi-agent: the model server at %s says its chat template cannot render tools "
                    "(/props: supports_tools false); using text mode",
                    self._config.base_url,
                )
        return self._tools_verdict

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSchema] | None = None,
        *,
        on_delta: DeltaCallback | None = None,
        plan: TurnPlan | None = None,
        options: RequestOptions = NO_OPTIONS,
    ) -> Completion:
        """One streamed chat request, retried on transient failures, all within `request_timeout`;
        `options` may set this request's `max_tokens` and (with tools) its `tool_choice`."""
        wire = self._wire(messages)
        # An empty list means no tools: OpenAI rejects `"tools": []`.
        tool_list = [dict(tool) for tool in tools] if tools else None
        encoded = {"messages": self._wire.json_array(messages), "stream_options": _USAGE_IN_STREAM}
        if tool_list is not None:
            encoded["tools"] = self._tools_json(tool_list)
        limit = self._config.request_timeout
        completion = await call_within(
            lambda: self._attempt(wire, tool_list, on_delta, encoded, options),
            self._policy,
            limit,
            late=f"the model server at {self._config.base_url} did not finish its reply within {limit:g} s "
            "(request_timeout); raise request_timeout or lower max_tokens",
            on_retry=self.on_retry,
        )
        if tool_list is not None:
            self._check_tools_rendered(wire, tool_list, completion)
        return completion

    async def accepts_images(self) -> bool:
        """Yes for an API that does not describe itself (OpenAI, most servers); a llama.cpp server only with
        a vision projector loaded (`/props` `modalities.vision`)."""
        props = await self._server_props()
        return props is None or props.vision is True

    async def chat_template(self) -> str | None:
        """The model's chat template from llama.cpp's `/props` (None from servers without it)."""
        props = await self._server_props()
        return props.chat_template if props is not None else None

    async def context_window(self) -> int | None:
        """The window the server reports (llama.cpp `/props`, vLLM `max_model_len`), else None."""
        props = await self._server_props()  # asked once: the tool-mode check reads it too
        if props is not None and props.n_ctx:
            return props.n_ctx
        return await self._probe.listed_window(self._config.model)

    async def count_tokens(self, text: str) -> int | None:
        """Tokens by the server's tokenizer (llama.cpp `/tokenize`), else None."""
        return await self._probe.count_tokens(text)

    async def aclose(self) -> None:
        """Close the HTTP connections."""
        await self._http.aclose()
        if self._lean is not None:
            await self._lean.aclose()
        await self._probe.aclose()

    async def _server_props(self) -> ServerProps | None:
        """llama.cpp's `/props`, asked once (only when needed: auto tool mode, a `length` stop)."""
        # OpenAI's own API has no /props: spare the round trip.
        if not self._props_read and "api.openai.com" not in self._config.base_url:
            # One request however many ask at once (the first request and the chat template's reader).
            loop = asyncio.get_running_loop()
            if self._props_flight is None or self._props_flight.get_loop() is not loop:
                self._props_flight = loop.create_task(read_props(self._config.base_url, self._auth_headers()))
            self._props = await asyncio.shield(self._props_flight)
        self._props_read = True
        return self._props

    def _auth_headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._config.api_key}"} if self._config.api_key else {}

    def _check_tools_rendered(
        self, wire: list[dict[str, Any]], tools: list[dict[str, Any]], completion: Completion
    ) -> None:
        """The cheap consistency check, once: did the prompt have room for the tools we sent?"""
        if self._tools_checked or completion.usage.prompt_tokens <= 0:
            return
        self._tools_checked = True
        why = dropped_tools(wire, tools, completion.usage.prompt_tokens)
        if why:
            url = self._config.base_url
            raise ToolsUnsupportedError(f"the model server at {url} {why}; use --tool-mode text")

    def _params(
        self, wire: list[dict[str, Any]], tools: list[dict[str, Any]] | None, options: RequestOptions
    ) -> dict[str, Any]:
        params: dict[str, Any] = {
            "model": self._config.model,
            "messages": wire,
            "stream": self._config.stream,
        }
        if self._usage_in_stream and self._config.stream:
            params["stream_options"] = {"include_usage": True}
        if tools is not None:
            params["tools"] = tools
            if options.tool_choice is not None:
                params["tool_choice"] = openai_tool_choice(options.tool_choice)
        if self._config.temperature is not None:
            params["temperature"] = self._config.temperature
        max_tokens = options.limit(self._config.max_tokens)
        if max_tokens is not None:
            params[self._limit_param] = max_tokens
        return params

    def _adapted(self, exc: StatusError) -> bool:
        """Whether a 400 asked for a request shape we can give (then the attempt is repeated)."""
        message = exc.message
        if self._usage_in_stream and "stream_options" in message:
            self._usage_in_stream = False
            return True
        if self._limit_param == "max_tokens" and "max_completion_tokens" in message:
            self._limit_param = "max_completion_tokens"
            return True
        return False

    async def _attempt(
        self,
        wire: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        on_delta: DeltaCallback | None,
        encoded: dict[str, str],
        options: RequestOptions,
    ) -> Completion:
        max_tokens = options.limit(self._config.max_tokens)
        state = StreamState(StreamGuard(max_tokens))
        try:
            await self._stream(json_body(self._params(wire, tools, options), encoded), state, on_delta)
        except StatusError as exc:
            if self._adapted(exc):
                return await self._attempt(wire, tools, on_delta, encoded, options)
            raise await status_problem(self._config, exc, has_tools=tools is not None) from exc
        except httpx2.RequestError as exc:
            error = connection_problem(self._config, exc, mid_reply=state.chunks > 0)
            # Text already shown to the person must not be shown twice: retry only clean failures.
            raise (error if state.streamed else TransientError(error)) from exc
        except StreamedError as exc:
            # The request reached the server, which gave up.
            raise BackendError(f"the model server at {self._config.base_url} failed: {exc.message}") from exc
        except json.JSONDecodeError as exc:
            error = BackendError(
                f"the model server at {self._config.base_url} sent malformed stream data "
                f"({exc.msg} in {exc.doc[:60]!r}); is it an OpenAI-compatible server?"
            )
            raise (error if state.streamed else TransientError(error)) from exc
        self._names.observe(state.model)
        if state.finish_reason is None and state.cut is None:
            error = BackendError(
                f"the model server at {self._config.base_url} ended the stream before the reply was "
                "complete (no finish_reason)"
            )
            raise error if state.streamed else TransientError(error)
        # Whether a `length` stop left room to continue depends on the context size.
        props = await self._server_props() if state.finish_reason == "length" else self._props
        return state.completion(max_tokens, props.n_ctx if props else None)

    async def _stream(self, body: bytes, state: StreamState, on_delta: DeltaCallback | None) -> None:
        """Post the request and feed its streamed chunks (plain JSON objects) to `state`; a reply asked
        for whole is fed as one chunk."""
        whole = not self._config.stream
        response: Http1Response | httpx2.Response
        if self._lean is not None:
            wait = self._config.request_timeout if whole else self._config.idle_timeout
            response = await self._lean.post(self._chat_url.raw_path.decode("ascii"), body, read_timeout=wait)
        else:
            timeout = self._whole_timeout if whole else httpx2.USE_CLIENT_DEFAULT
            request = self._http.build_request("POST", self._chat_url, content=body, timeout=timeout)
            response = await self._http.send(request, stream=True)
        try:
            if response.status_code >= 400:
                raise await status_error(response)
            if whole:
                state.feed(as_chunk(jsonfast.loads(await response.aread())), on_delta)
                return
            async for chunk in sse_data(response):
                state.feed(chunk, on_delta)
                if state.cut:
                    break
        finally:
            await response.aclose()


def openai_tool_choice(choice: str) -> str | dict[str, Any]:
    """A tool choice in the Chat Completions form: the keyword, or the named function."""
    if choice in ("auto", "none", "required"):
        return choice
    return {"type": "function", "function": {"name": choice}}
