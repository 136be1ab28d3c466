"""Backend for Ollama's native API (`/api/chat`), which honours `num_ctx` (its `/v1` endpoint does not).

Chat requests and the model's capabilities (`/api/show`) are plain JSON over `httpx2`: the `ollama`
client's `Tool` model drops `default`, `minimum`, `additionalProperties` and nested properties from
tool schemas, and the client with `httpx` costs about a quarter of a second of imports at start-up. It
is loaded only to list the local models after a model was not found.

Every request carries `num_predict` (Ollama's own default never stops a looping model); each
attempt fails after `idle_timeout` seconds without data and the whole reply must end within
`request_timeout`. `done_reason` becomes `Completion.finish_reason` (`length`, `context_full`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Sequence
from typing import Any

import httpx2
from pydantic import BaseModel, ConfigDict, Field

from asi_agent.backends.adopt import adopting_transport
from asi_agent.backends.base import NO_OPTIONS, BackendBase, DeltaCallback, RequestOptions, ToolSchema
from asi_agent.backends.capabilities import ModelNameCheck
from asi_agent.backends.guard import StreamGuard
from asi_agent.backends.guide import TurnPlan
from asi_agent.backends.ollama_wire import OllamaStreamState, to_ollama_messages
from asi_agent.backends.retry import (
    RETRYABLE_STATUSES,
    RetryCallback,
    RetryPolicy,
    TransientError,
    call_with_retries,
    call_within,
    connection_failure,
    error_text,
    estimate_tokens,
    looks_like_tools_unsupported,
    parse_retry_after,
)
from asi_agent.backends.tls import verify_for
from asi_agent.exceptions import BackendError, ToolsUnsupportedError
from asi_agent.messages import Completion, Message

__all__ = ["OllamaBackend", "OllamaBackendConfig"]

logger = logging.getLogger("asi_agent.backends.ollama")

DEFAULT_MAX_TOKENS = 4096
"""`num_predict` when none is configured (at most half the context)."""
_CONNECT_TIMEOUT = 10.0


class OllamaBackendConfig(BaseModel):
    """Settings of `OllamaBackend`."""

    model_config = ConfigDict(extra="forbid")

    model: str
    """Model name as Ollama knows it, e.g. `qwen3:8b` (`ollama list` shows them)."""
    host: str = "http://127.0.0.1:11434"
    """Ollama's URL (what OLLAMA_HOST holds)."""
    num_ctx: int = Field(default=8192, gt=0)
    """Context window in tokens; Ollama silently cuts longer prompts."""
    idle_timeout: float = Field(default=120.0, gt=0)
    """Seconds without any data from Ollama (model loading and the first token included) before an
    attempt fails."""
    request_timeout: float = Field(default=600.0, gt=0)
    """Seconds allowed for the whole reply, retries included: an absolute deadline."""
    max_tokens: int | None = Field(default=None, gt=0)
    """Upper bound on the reply's tokens (`num_predict`); None means 4096, at most half of num_ctx."""
    max_retries: int = Field(default=3, ge=0)
    """Retries after a 429, a 5xx, a lost connection or a timeout."""
    retry_backoff: float = Field(default=1.0, ge=0)
    """Base delay in seconds of the exponential backoff between retries."""
    temperature: float | None = 0.2
    """Sampling temperature; None leaves the model's default."""
    stream: bool = True
    """Stream the reply; False asks for it whole (then only `request_timeout` bounds the wait)."""


def _normalised_host(host: str) -> str:
    host = host.strip().rstrip("/")
    return host if "://" in host else f"http://{host}"


class OllamaBackend(BackendBase):
    """A model served by Ollama, through its native chat API."""

    def __init__(self, config: OllamaBackendConfig) -> None:
        self._config = config
        self._host = _normalised_host(config.host)
        idle = config.idle_timeout
        timeout = httpx2.Timeout(idle, connect=min(idle, _CONNECT_TIMEOUT))
        self._whole_timeout = httpx2.Timeout(config.request_timeout, connect=min(idle, _CONNECT_TIMEOUT))
        verify = verify_for(self._host)
        # Chat requests go through a transport that adopts a first request sent ahead at start-up.
        transport = adopting_transport(httpx2, "/api/chat", verify=verify)
        self._http = httpx2.AsyncClient(
            base_url=self._host, timeout=timeout, transport=transport, verify=verify
        )
        self._policy = RetryPolicy(max_retries=config.max_retries, base_delay=config.retry_backoff)
        self._tools_capable: bool | None = None
        self._vision: bool | None = None
        self._max_tokens = config.max_tokens or min(DEFAULT_MAX_TOKENS, config.num_ctx // 2)
        self._names = ModelNameCheck(config.model, f"Ollama at {self._host}")
        self.on_retry: RetryCallback | None = None
        """Told before each retry wait (seconds, error); a UI sets it to show "retrying in N s"."""

    @property
    def model_name(self) -> str:
        """The configured model name."""
        return self._config.model

    async def supports_native_tools(self) -> bool:
        """Whether `/api/show` lists the "tools" capability (asked once, then cached)."""
        if self._tools_capable is None:
            limit = self._config.request_timeout
            try:
                async with asyncio.timeout(limit):
                    show = await call_with_retries(
                        self._show, self._policy, deadline=time.monotonic() + limit, on_retry=self.on_retry
                    )
            except TimeoutError:
                raise BackendError(
                    f"Ollama at {self._host} did not describe the model within {limit:g} s"
                ) from None
            # An Ollama too old to report capabilities: try tools, the server will refuse them if needed.
            capabilities = show.get("capabilities")
            self._tools_capable = not isinstance(capabilities, list) or "tools" in capabilities
            if not self._tools_capable:
                logger.warning(
                    "asi-agent: Ollama says model '%s' has no tools capability (/api/show); using text mode",
                    self._config.model,
                )
        return self._tools_capable

    async def accepts_images(self) -> bool:
        """Whether `/api/show` lists the "vision" capability (asked once, then cached)."""
        if self._vision is None:
            try:
                capabilities = (await call_with_retries(self._show, self._policy)).get("capabilities")
            except BackendError:
                return False
            self._vision = isinstance(capabilities, list) and "vision" in capabilities
        return self._vision

    async def context_window(self) -> int | None:
        """`num_ctx` (what Ollama is asked to use), capped by the model's trained length from `/api/show`."""
        show = await call_with_retries(self._show, self._policy)
        info = _mapping(show.get("model_info"))
        trained = next((int(v) for k, v in info.items() if k.endswith(".context_length") and v), None)
        return min(self._config.num_ctx, trained) if trained else self._config.num_ctx

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSchema] | None = None,
        *,
        on_delta: DeltaCallback | None = None,
        plan: TurnPlan | None = None,
        options: RequestOptions = NO_OPTIONS,
    ) -> Completion:
        """One streamed chat request, retried on transient failures, all within `request_timeout`.
        `options.max_tokens` sets this request's `num_predict`; Ollama has no `tool_choice`: the tools
        are narrowed to the choice instead."""
        max_tokens = options.limit(self._max_tokens) or self._max_tokens
        tools = options.narrowed(tools)
        settings: dict[str, Any] = {"num_ctx": self._config.num_ctx, "num_predict": max_tokens}
        if self._config.temperature is not None:
            settings["temperature"] = self._config.temperature
        payload: dict[str, Any] = {
            "model": self._config.model,
            "messages": to_ollama_messages(messages),
            "stream": self._config.stream,
            "options": settings,
        }
        if tools:
            payload["tools"] = [dict(tool) for tool in tools]
        self._warn_if_too_long(payload)
        limit = self._config.request_timeout
        return await call_within(
            lambda: self._attempt(payload, on_delta, max_tokens),
            self._policy,
            limit,
            late=f"Ollama at {self._host} did not finish its reply within {limit:g} s (request_timeout); "
            "raise request_timeout or lower max_tokens",
            on_retry=self.on_retry,
        )

    async def aclose(self) -> None:
        """Close the HTTP connections."""
        await self._http.aclose()

    def _warn_if_too_long(self, payload: dict[str, Any]) -> None:
        texts = [str(m.get("content") or "") for m in payload["messages"]]
        texts.append(json.dumps(payload.get("tools") or [], ensure_ascii=False))
        estimate = sum(estimate_tokens(text) for text in texts)
        if estimate > self._config.num_ctx:
            logger.warning(
                "the prompt (~%d tokens) exceeds num_ctx=%d of model %s: Ollama will cut it; "
                "raise num_ctx or start a new session",
                estimate,
                self._config.num_ctx,
                self._config.model,
            )

    async def _attempt(
        self, payload: dict[str, Any], on_delta: DeltaCallback | None, max_tokens: int
    ) -> Completion:
        state = OllamaStreamState(StreamGuard(max_tokens))
        try:
            # A reply asked for whole sends nothing until it is complete: only the request's deadline holds.
            timeout = httpx2.USE_CLIENT_DEFAULT if payload["stream"] else self._whole_timeout
            async with self._http.stream("POST", "/api/chat", json=payload, timeout=timeout) as response:
                if response.status_code >= 400:
                    raise await self._status_error(response, has_tools="tools" in payload)
                async for line in response.aiter_lines():
                    if line.strip():
                        state.feed(self._parse_line(line), on_delta)
                    if state.cut:
                        break
        except httpx2.TransportError as exc:
            error = self._transport_error(exc, mid_reply=state.lines > 0)
            # Text already shown to the person must not be shown twice: retry only clean failures.
            raise (error if state.streamed else TransientError(error)) from exc
        self._names.observe(state.model)
        if state.finish_reason is None and state.cut is None:
            error = BackendError(f"Ollama at {self._host} ended the stream before the reply was complete")
            raise error if state.streamed else TransientError(error)
        return state.completion(max_tokens, self._config.num_ctx)

    def _parse_line(self, line: str) -> dict[str, Any]:
        try:
            part = json.loads(line)
        except json.JSONDecodeError:
            raise BackendError(
                f"Ollama at {self._host} sent a line that is not JSON: {line[:120]!r}"
            ) from None
        if not isinstance(part, dict):
            raise BackendError(f"Ollama at {self._host} sent an unexpected line: {line[:120]!r}")
        if part.get("error"):
            raise BackendError(f"Ollama at {self._host} failed while answering: {error_text(part)}")
        return part

    async def chat_template(self) -> str | None:
        """The model's Jinja chat template from `/api/show`: the GGUF's `tokenizer.chat_template` in
        `model_info`, else `template` when it is Jinja (Ollama's own templates are Go templates, which say
        nothing here); None when Ollama cannot be asked."""
        try:
            show = await self._show()
        except BackendError as exc:
            logger.info("asi-agent: no chat template from Ollama's /api/show: %s", exc)
            return None
        info = show.get("model_info")
        template = info.get("tokenizer.chat_template") if isinstance(info, dict) else None
        if isinstance(template, str) and template.strip():
            return template
        template = show.get("template")
        if (
            isinstance(template, str)
            and "{%" in template
            and "{{ ." not in template
            and "{{- ." not in template
        ):
            return template
        return None

    async def _show(self) -> dict[str, Any]:
        """The model's description (`/api/show`): capabilities, `model_info`."""
        try:
            response = await self._http.post("/api/show", json={"model": self._config.model})
        except httpx2.TransportError as exc:
            raise TransientError(self._transport_error(exc)) from exc
        if response.status_code >= 400:
            raise await self._status_error(response, has_tools=False)
        return _mapping(_json_or_text(response.text))

    def _transport_error(self, exc: httpx2.TransportError, *, mid_reply: bool = False) -> BackendError:
        waited = f"{self._config.idle_timeout:g} s (idle_timeout)"
        if isinstance(exc, httpx2.TimeoutException):
            if mid_reply:
                return BackendError(f"Ollama at {self._host} stopped sending its reply for {waited}")
            return BackendError(
                f"Ollama at {self._host} did not answer within {waited}; "
                "is the model still loading? raise the timeout or check OLLAMA_HOST"
            )
        if mid_reply:
            return BackendError(
                f"Ollama at {self._host} dropped the connection mid-reply ({connection_failure(exc)})"
            )
        return self._unreachable(connection_failure(exc))

    def _unreachable(self, reason: str) -> BackendError:
        return BackendError(
            f"cannot reach Ollama at {self._host} ({reason}); is it running (`ollama serve`)? "
            "set OLLAMA_HOST or --base-url"
        )

    async def _status_error(self, response: httpx2.Response, *, has_tools: bool) -> Exception:
        """The error of a response with an error status (its body is read here)."""
        await response.aread()
        status, message = response.status_code, error_text(_json_or_text(response.text))
        if status in RETRYABLE_STATUSES:
            error = BackendError(f"Ollama at {self._host} answered {status} ({message}); try again later")
            return TransientError(error, parse_retry_after(response.headers))
        low = message.lower()
        if status == 404 or ("model" in low and "not found" in low):
            return await self._unknown_model()
        if status == 400 and has_tools and looks_like_tools_unsupported(message):
            return ToolsUnsupportedError(
                f"model '{self._config.model}' does not accept native tool definitions in Ollama "
                f"({message}); use --tool-mode text"
            )
        return BackendError(f"Ollama at {self._host} rejected the request ({status}: {message})")

    async def _unknown_model(self) -> BackendError:
        import httpx  # noqa: PLC0415 - the ollama client's, only after a model was not found
        import ollama  # noqa: PLC0415

        model = self._config.model
        client = ollama.AsyncClient(
            host=self._host, timeout=self._config.idle_timeout, verify=verify_for(self._host)
        )
        try:
            listing = await client.list()
            names = sorted(entry.model for entry in listing.models if entry.model)
        except (ollama.ResponseError, ConnectionError, httpx.TransportError):
            names = []
        finally:
            await client.close()  # type: ignore[no-untyped-call]  # the SDK leaves it unannotated
        local = f"local models: {', '.join(names)}" if names else "no local models found"
        return BackendError(
            f"model '{model}' is not available in Ollama at {self._host}; run `ollama pull {model}` ({local})"
        )


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _json_or_text(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text
