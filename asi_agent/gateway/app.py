"""The gateway's HTTP application (Starlette): the OpenAI and Anthropic endpoints over one `Upstream`.

Every request: the bearer token checked when one is set, the body size and the number of requests in
flight bounded (clear 413 / 429 errors), one JSON log line when it ends (checklist §11), and any error
answered in the client's API shape — one bad request never takes the server down.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from asi_agent import traces
from asi_agent.context.images import image_tokens
from asi_agent.exceptions import BackendError
from asi_agent.gateway import anthropic_api, openai_api, responses_api
from asi_agent.gateway.emulate import Outcome, Upstream
from asi_agent.gateway.normalize import BadRequest, ChatRequest, from_anthropic, from_openai, from_responses
from asi_agent.gateway.streams import answer_stream

__all__ = ["GatewayConfig", "build_app"]

log = logging.getLogger("asi_agent.gateway")
Api = Literal["openai", "anthropic", "responses"]


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

    def _check(self, request: Request) -> None:
        token = self.config.token
        if token is not None:
            given = request.headers.get("x-api-key") or request.headers.get("authorization", "")
            given = given.removeprefix("Bearer ").strip()
            if not hmac.compare_digest(given.encode(), token.encode()):
                raise _Refused(
                    401, "missing or wrong token (Authorization: Bearer TOKEN)", "authentication_error"
                )
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > self.config.max_body:
            raise _Refused(
                413, f"request body over the limit of {self.config.max_body} bytes", "request_too_large"
            )
        if self.in_flight >= self.config.max_concurrent:
            raise _Refused(
                429, f"too many requests at once (limit {self.config.max_concurrent})", "rate_limit_error"
            )

    async def _body(self, request: Request) -> dict[str, Any]:
        raw = b""
        async for piece in request.stream():
            raw += piece
            if len(raw) > self.config.max_body:
                raise _Refused(
                    413, f"request body over the limit of {self.config.max_body} bytes", "request_too_large"
                )
        try:
            body = json.loads(raw)
        except ValueError as exc:
            raise _Refused(400, f"the body is not JSON: {exc}", "invalid_request_error") from None
        if not isinstance(body, dict):
            raise _Refused(400, "the body must be a JSON object", "invalid_request_error")
        return body

    def handler(self, api: Api) -> Callable[[Request], Awaitable[Response]]:
        async def handle(request: Request) -> Response:
            started, entry = time.perf_counter(), {"api": api, "path": request.url.path}
            try:
                self._check(request)
                self.in_flight += 1
                try:
                    return await self._answer(api, request, entry, started)
                finally:
                    self.in_flight -= 1
            except BadRequest as exc:
                return self._error(api, _Refused(400, str(exc), "invalid_request_error"), entry, started)
            except BackendError as exc:
                return self._error(api, _Refused(502, f"upstream: {exc}", "api_error"), entry, started)
            except _Refused as exc:
                return self._error(api, exc, entry, started)

        return handle

    async def _answer(self, api: Api, request: Request, entry: dict[str, Any], started: float) -> Response:
        chat = _READERS[api](await self._body(request))
        await self.upstream.check(chat)
        entry["stream"] = chat.stream
        if chat.stream:
            return StreamingResponse(
                self._events(api, chat, entry, started),
                media_type="text/event-stream",
                headers={"cache-control": "no-cache", "x-accel-buffering": "no"},
            )
        with traces.span("gateway.request", api=api, stream=False):
            outcome = await self.upstream.answer(chat)
        self._done(entry | outcome.trace | {"status": 200}, started)
        encode = {"openai": openai_api.chat_completion, "anthropic": anthropic_api.message}
        body = encode[api](outcome) if api in encode else responses_api.response(outcome)
        return JSONResponse(body)

    async def _events(
        self, api: Api, chat: ChatRequest, entry: dict[str, Any], started: float
    ) -> AsyncIterator[str]:
        self.in_flight += 1
        outcome: list[Outcome] = []

        async def watched() -> AsyncIterator[str | Outcome]:
            async for item in answer_stream(self.upstream, chat):
                if isinstance(item, Outcome):
                    outcome.append(item)
                yield item

        model = chat.model or self.upstream.backend.model_name
        encoders = {"openai": openai_api.chat_chunks, "anthropic": anthropic_api.message_events}
        encode = encoders.get(api, responses_api.response_events)
        status = 200
        try:
            with traces.span("gateway.request", api=api, stream=True):
                async for event in encode(watched(), model):
                    yield event
        except BackendError as exc:
            status = 502
            yield _stream_error(api, f"upstream: {exc}")
        finally:
            self.in_flight -= 1
            self._done(entry | (outcome[0].trace if outcome else {}) | {"status": status}, started)

    def _error(self, api: Api, exc: _Refused, entry: dict[str, Any], started: float) -> Response:
        self._done(entry | {"status": exc.status, "error": str(exc)}, started)
        encode = anthropic_api.error_body if api == "anthropic" else openai_api.error_body
        return JSONResponse(encode(str(exc), exc.kind), status_code=exc.status)

    def _done(self, entry: dict[str, Any], started: float) -> None:
        entry["ms"] = round((time.perf_counter() - started) * 1000, 1)
        self.counts["requests"] += 1
        self.counts[f"status_{entry['status']}"] += 1
        self.counts["emulated"] += bool(entry.get("emulated"))
        self.counts["calls"] += int(entry.get("calls") or 0)
        self.counts["retries"] += len(entry.get("retries") or ())
        log.info("%s", json.dumps(entry, ensure_ascii=False))

    async def models(self, request: Request) -> Response:
        try:
            self._check(request)
        except _Refused as exc:
            return JSONResponse(openai_api.error_body(str(exc), exc.kind), status_code=exc.status)
        name = self.upstream.backend.model_name
        return JSONResponse(
            {
                "object": "list",
                "data": [{"id": name, "object": "model", "created": 0, "owned_by": "asi-agent"}],
            }
        )

    async def health(self, _request: Request) -> Response:
        native = self.upstream.native
        return JSONResponse(
            {"status": "ok", "model": self.upstream.backend.model_name, "native_tools": native}
        )

    async def metrics(self, _request: Request) -> Response:
        lines = [
            f"asi_gateway_in_flight {self.in_flight}",
            f"asi_gateway_uptime_seconds {time.time() - self.started:.0f}",
        ]
        lines += [f"asi_gateway_{name}_total {value}" for name, value in sorted(self.counts.items())]
        return PlainTextResponse("\n".join(lines) + "\n")

    async def count_tokens(self, request: Request) -> Response:
        try:
            self._check(request)
            chat = from_anthropic({**await self._body(request), "max_tokens": 1})
        except (_Refused, BadRequest) as exc:
            status = exc.status if isinstance(exc, _Refused) else 400
            return JSONResponse(anthropic_api.error_body(str(exc)), status_code=status)
        text = "\n".join(m.content for m in chat.messages) + json.dumps(chat.tools)
        counted = await self.upstream.backend.count_tokens(text)
        images = sum(image_tokens(i, "anthropic") for m in chat.messages for i in m.images)
        return JSONResponse({"input_tokens": (counted if counted is not None else len(text) // 4) + images})


def _stream_error(api: Api, message: str) -> str:
    """An error inside a stream that has already started (the status line is sent)."""
    if api == "anthropic":
        return f"event: error\ndata: {json.dumps(anthropic_api.error_body(message, 'api_error'))}\n\n"
    return f"data: {json.dumps(openai_api.error_body(message, 'api_error'))}\n\n"


def build_app(upstream: Upstream, config: GatewayConfig) -> Starlette:
    """The application: `/v1/chat/completions`, `/v1/messages` (+ `count_tokens`), `/v1/responses`,
    `/v1/models`, `/health`, `/metrics`."""
    gateway = _Gateway(upstream, config)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await upstream.start()
        yield
        await upstream.backend.aclose()
        if upstream.unstreamed is not upstream.backend:
            await upstream.unstreamed.aclose()

    routes = [
        Route("/v1/chat/completions", gateway.handler("openai"), methods=["POST"]),
        Route("/v1/messages", gateway.handler("anthropic"), methods=["POST"]),
        Route("/v1/messages/count_tokens", gateway.count_tokens, methods=["POST"]),
        Route("/v1/responses", gateway.handler("responses"), methods=["POST"]),
        Route("/v1/models", gateway.models, methods=["GET"]),
        Route("/health", gateway.health, methods=["GET"]),
        Route("/metrics", gateway.metrics, methods=["GET"]),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.gateway = gateway
    return app
