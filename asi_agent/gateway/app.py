"""The gateway's HTTP application (plain ASGI, served by uvicorn): the OpenAI and Anthropic endpoints over
one `Upstream`.

Every request: the bearer token checked when one is set, the body size and the number of requests in
flight bounded (clear 413 / 429 errors), one JSON log line when it ends (checklist §11), written after
the answer has gone out, and any error answered in the client's API shape — one bad request never takes
the server down.
"""

from __future__ import annotations

import hmac
import json
import logging
import time
import traceback
from collections import Counter
from collections.abc import AsyncGenerator, Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from asi_agent import traces
from asi_agent.context.images import image_tokens
from asi_agent.exceptions import BackendError
from asi_agent.gateway import anthropic_api, openai_api, responses_api
from asi_agent.gateway.asgi import (
    Receive,
    Scope,
    Send,
    TooLarge,
    header,
    read_body,
    send_json,
    send_stream,
    send_text,
)
from asi_agent.gateway.emulate import Outcome, Upstream
from asi_agent.gateway.normalize import BadRequest, ChatRequest, from_anthropic, from_openai, from_responses
from asi_agent.gateway.streams import answer_stream

__all__ = ["GatewayConfig", "build_app"]

log = logging.getLogger("asi_agent.gateway")
Api = Literal["openai", "anthropic", "responses"]
App = Callable[[Scope, Receive, Send], Any]


class GatewayConfig(BaseModel):
    """Limits and access of the gateway's HTTP side."""

    model_config = ConfigDict(extra="forbid")

    token: str | None = None
    """Bearer token every API request must carry (`Authorization: Bearer` or `x-api-key`); None: none."""
    max_body: int = 8 * 1024 * 1024
    """Largest request body in bytes (larger: 413)."""
    max_concurrent: int = 64
    """Requests answered at once (more: 429)."""


class _Refused(Exception):
    def __init__(self, status: int, message: str, kind: str) -> None:
        super().__init__(message)
        self.status, self.kind = status, kind


_LOG_LINE = json.JSONEncoder(ensure_ascii=False).encode
"""`json.dumps(…, ensure_ascii=False)` without building an encoder for every request's log line."""

_READERS: dict[Api, Callable[[dict[str, Any]], ChatRequest]] = {
    "openai": from_openai,
    "anthropic": from_anthropic,
    "responses": from_responses,
}


class _Gateway:
    def __init__(self, upstream: Upstream, config: GatewayConfig) -> None:
        self.upstream, self.config = upstream, config
        self.in_flight = 0
        self.counts: Counter[str] = Counter()
        self.started = time.time()

    def _check(self, scope: Scope) -> None:
        token = self.config.token
        if token is not None:
            given = header(scope, b"x-api-key") or header(scope, b"authorization") or ""
            given = given.removeprefix("Bearer ").strip()
            if not hmac.compare_digest(given.encode(), token.encode()):
                raise _Refused(
                    401, "missing or wrong token (Authorization: Bearer TOKEN)", "authentication_error"
                )
        length = header(scope, b"content-length")
        if length is not None and length.isdigit() and int(length) > self.config.max_body:
            raise _Refused(413, self._too_large(), "request_too_large")
        if self.in_flight >= self.config.max_concurrent:
            raise _Refused(
                429, f"too many requests at once (limit {self.config.max_concurrent})", "rate_limit_error"
            )

    def _too_large(self) -> str:
        return f"request body over the limit of {self.config.max_body} bytes"

    async def _body(self, receive: Receive) -> dict[str, Any]:
        try:
            raw = await read_body(receive, self.config.max_body)
        except TooLarge:
            raise _Refused(413, self._too_large(), "request_too_large") from None
        try:
            body = json.loads(raw)
        except ValueError as exc:
            raise _Refused(400, f"the body is not JSON: {exc}", "invalid_request_error") from None
        if not isinstance(body, dict):
            raise _Refused(400, "the body must be a JSON object", "invalid_request_error")
        return body

    async def handle(self, api: Api, scope: Scope, receive: Receive, send: Send) -> None:
        """One API request, answered (an error in the client's API shape), then logged."""
        started, entry = time.perf_counter(), {"api": api, "path": scope["path"]}
        try:
            self._check(scope)
            self.in_flight += 1
            try:
                await self._answer(api, receive, send, entry)
            finally:
                self.in_flight -= 1
        except BadRequest as exc:
            await self._error(send, api, _Refused(400, str(exc), "invalid_request_error"), entry)
        except BackendError as exc:
            await self._error(send, api, _Refused(502, f"upstream: {exc}", "api_error"), entry)
        except _Refused as exc:
            await self._error(send, api, exc, entry)
        self._done(entry, started)

    async def _answer(self, api: Api, receive: Receive, send: Send, entry: dict[str, Any]) -> None:
        chat = _READERS[api](await self._body(receive))
        await self.upstream.check(chat)
        entry["stream"] = chat.stream
        if chat.stream:
            await send_stream(receive, send, self._events(api, chat, entry))
            return
        with traces.span("gateway.request", api=api, stream=False):
            outcome = await self.upstream.answer(chat)
        entry |= outcome.trace | {"status": 200}
        encode = {"openai": openai_api.chat_completion, "anthropic": anthropic_api.message}
        await send_json(send, 200, encode[api](outcome) if api in encode else responses_api.response(outcome))

    async def _events(
        self, api: Api, chat: ChatRequest, entry: dict[str, Any]
    ) -> AsyncGenerator[tuple[str, bool], None]:
        """The event stream's pieces, each with whether it is the last (the one after the outcome)."""
        outcome: list[Outcome] = []

        async def watched() -> AsyncGenerator[str | Outcome, None]:
            async for item in answer_stream(self.upstream, chat):
                if isinstance(item, Outcome):
                    outcome.append(item)
                yield item

        model = chat.model or self.upstream.backend.model_name
        encoders = {"openai": openai_api.chat_chunks, "anthropic": anthropic_api.message_events}
        encode = encoders.get(api, responses_api.response_events)
        entry["status"] = 200
        try:
            with traces.span("gateway.request", api=api, stream=True):
                async for event in encode(watched(), model):
                    yield event, bool(outcome)
        except BackendError as exc:
            entry["status"] = 502
            yield _stream_error(api, f"upstream: {exc}"), True
        finally:
            entry |= outcome[0].trace if outcome else {}

    async def _error(self, send: Send, api: Api, exc: _Refused, entry: dict[str, Any]) -> None:
        entry |= {"status": exc.status, "error": str(exc)}
        encode = anthropic_api.error_body if api == "anthropic" else openai_api.error_body
        await send_json(send, exc.status, encode(str(exc), exc.kind))

    def _done(self, entry: dict[str, Any], started: float) -> None:
        entry["ms"] = round((time.perf_counter() - started) * 1000, 1)
        entry.setdefault("status", 499)  # the client went away before an answer
        self.counts["requests"] += 1
        self.counts[f"status_{entry['status']}"] += 1
        self.counts["emulated"] += bool(entry.get("emulated"))
        self.counts["calls"] += int(entry.get("calls") or 0)
        self.counts["retries"] += len(entry.get("retries") or ())
        if log.isEnabledFor(logging.INFO):
            log.info(_LOG_LINE(entry))  # no arguments: the line is not %-formatted again

    async def models(self, scope: Scope, receive: Receive, send: Send) -> None:
        """`GET /v1/models`: the one model served."""
        try:
            self._check(scope)
        except _Refused as exc:
            await send_json(send, exc.status, openai_api.error_body(str(exc), exc.kind))
            return
        name = self.upstream.backend.model_name
        await send_json(
            send,
            200,
            {
                "object": "list",
                "data": [{"id": name, "object": "model", "created": 0, "owned_by": "asi-agent"}],
            },
        )

    async def health(self, scope: Scope, receive: Receive, send: Send) -> None:
        """`GET /health` (open to probes: no token)."""
        native = self.upstream.native
        body = {"status": "ok", "model": self.upstream.backend.model_name, "native_tools": native}
        await send_json(send, 200, body)

    async def metrics(self, scope: Scope, receive: Receive, send: Send) -> None:
        """`GET /metrics` in the Prometheus text format."""
        lines = [
            f"asi_gateway_in_flight {self.in_flight}",
            f"asi_gateway_uptime_seconds {time.time() - self.started:.0f}",
        ]
        lines += [f"asi_gateway_{name}_total {value}" for name, value in sorted(self.counts.items())]
        text = ("\n".join(lines) + "\n").encode("utf-8")
        await send_text(send, 200, text, b"text/plain; charset=utf-8")

    async def count_tokens(self, scope: Scope, receive: Receive, send: Send) -> None:
        """`POST /v1/messages/count_tokens`: the upstream's count, else an estimate."""
        try:
            self._check(scope)
            chat = from_anthropic({**await self._body(receive), "max_tokens": 1})
        except (_Refused, BadRequest) as exc:
            status = exc.status if isinstance(exc, _Refused) else 400
            await send_json(send, status, anthropic_api.error_body(str(exc)))
            return
        text = "\n".join(m.content for m in chat.messages) + json.dumps(chat.tools)
        counted = await self.upstream.backend.count_tokens(text)
        images = sum(image_tokens(i, "anthropic") for m in chat.messages for i in m.images)
        estimate = counted if counted is not None else len(text) // 4
        await send_json(send, 200, {"input_tokens": estimate + images})


def _stream_error(api: Api, message: str) -> str:
    """An error inside a stream that has already started (the status line is sent)."""
    if api == "anthropic":
        return f"event: error\ndata: {json.dumps(anthropic_api.error_body(message, 'api_error'))}\n\n"
    return f"data: {json.dumps(openai_api.error_body(message, 'api_error'))}\n\n"


def build_app(upstream: Upstream, config: GatewayConfig) -> App:
    """The ASGI application: `/v1/chat/completions`, `/v1/messages` (+ `count_tokens`), `/v1/responses`,
    `/v1/models`, `/health`, `/metrics`."""
    gateway = _Gateway(upstream, config)

    def api(name: Api) -> App:
        return lambda scope, receive, send: gateway.handle(name, scope, receive, send)

    routes: dict[str, tuple[str, App]] = {
        "/v1/chat/completions": ("POST", api("openai")),
        "/v1/messages": ("POST", api("anthropic")),
        "/v1/messages/count_tokens": ("POST", gateway.count_tokens),
        "/v1/responses": ("POST", api("responses")),
        "/v1/models": ("GET", gateway.models),
        "/health": ("GET", gateway.health),
        "/metrics": ("GET", gateway.metrics),
    }

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(upstream, receive, send)
            return
        if scope["type"] != "http":
            return
        method, endpoint = routes.get(scope["path"], ("", None))
        if endpoint is None:
            await send_text(send, 404, b"Not Found", b"text/plain; charset=utf-8")
        elif scope["method"] != method and not (method == "GET" and scope["method"] == "HEAD"):
            allow = [(b"allow", f"{method}, HEAD".encode() if method == "GET" else method.encode())]
            await send_text(send, 405, b"Method Not Allowed", b"text/plain; charset=utf-8", allow)
        else:
            await endpoint(scope, receive, send)

    return app


async def _lifespan(upstream: Upstream, receive: Receive, send: Send) -> None:
    """Learn about the upstream at start-up; close its connections at shutdown."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            try:
                await upstream.start()
            except BaseException:  # told to the server (which stops), as Starlette tells it
                await send({"type": "lifespan.startup.failed", "message": traceback.format_exc()})
                raise
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await upstream.backend.aclose()
            if upstream.unstreamed is not upstream.backend:
                await upstream.unstreamed.aclose()
            await send({"type": "lifespan.shutdown.complete"})
            return
