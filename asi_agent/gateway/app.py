"""The gateway's HTTP application (served by the gateway's own server, `server.py`): the OpenAI and
Anthropic endpoints over one `Upstream`.

Every request: the bearer token checked when one is set (every route but `/health`), else the request
refused when it names another host or a web page of another origin sent it (`access`); the body size
and the number of requests in flight bounded (clear 413 / 429 errors), one JSON log line when it ends
(checklist §11), written after the answer has gone out, and any error answered in the client's API
shape — one bad request never takes the server down.
"""

from __future__ import annotations

import hmac
import json
import logging
import time
from collections import Counter
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import aclosing
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from asi_agent import jsonfast, traces
from asi_agent.context.images import image_tokens
from asi_agent.exceptions import BackendError
from asi_agent.gateway import anthropic_api, openai_api, responses_api
from asi_agent.gateway.access import from_elsewhere
from asi_agent.gateway.emulate import Outcome, Upstream
from asi_agent.gateway.normalize import BadRequest, ChatRequest, from_anthropic, from_openai, from_responses
from asi_agent.gateway.server import Gone, Request, TooLarge
from asi_agent.gateway.streams import answer_stream

__all__ = ["GatewayApp", "GatewayConfig", "build_app"]

log = logging.getLogger("asi_agent.gateway")
Api = Literal["openai", "anthropic", "responses"]
Endpoint = Callable[[Request], Awaitable[None]]
_JSON = b"application/json"
_TEXT = b"text/plain; charset=utf-8"


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


def _send_json(request: Request, status: int, content: Any) -> None:
    request.answer(status, jsonfast.compact(content), _JSON)


_READERS: dict[Api, Callable[[dict[str, Any]], ChatRequest]] = {
    "openai": from_openai,
    "anthropic": from_anthropic,
    "responses": from_responses,
}


LogLine = Callable[[str], None]
"""Where a request's log line goes (the gateway's logger when none is given)."""


class _Gateway:
    def __init__(self, upstream: Upstream, config: GatewayConfig, log_line: LogLine | None) -> None:
        self.upstream, self.config, self.log_line = upstream, config, log_line
        self.in_flight = 0
        self.counts: Counter[str] = Counter()
        self.started = time.time()

    def _local_only(self, request: Request) -> None:
        """403 for a request from elsewhere when there is no token (see `access`)."""
        if self.config.token is None:
            why = from_elsewhere(request.header(b"host"), request.header(b"origin"))
            if why is not None:
                raise _Refused(403, why, "permission_error")

    def _check(self, request: Request) -> None:
        token = self.config.token
        self._local_only(request)
        if token is not None:
            given = request.header(b"x-api-key") or request.header(b"authorization") or ""
            given = given.removeprefix("Bearer ").strip()
            if not hmac.compare_digest(given.encode(), token.encode()):
                raise _Refused(
                    401, "missing or wrong token (Authorization: Bearer TOKEN)", "authentication_error"
                )
        length = request.header(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.config.max_body:
            raise _Refused(413, self._too_large(), "request_too_large")

    def _admit(self) -> None:
        """429 when the requests in flight are at the limit (counted once a request's body is in: a client
        slow to send one holds no place)."""
        if self.in_flight >= self.config.max_concurrent:
            raise _Refused(
                429, f"too many requests at once (limit {self.config.max_concurrent})", "rate_limit_error"
            )

    def _too_large(self) -> str:
        return f"request body over the limit of {self.config.max_body} bytes"

    async def _body(self, request: Request) -> dict[str, Any]:
        try:
            raw = await request.body()
        except TooLarge:
            raise _Refused(413, self._too_large(), "request_too_large") from None
        try:
            body = jsonfast.loads(raw)
        except ValueError as exc:
            raise _Refused(400, f"the body is not JSON: {exc}", "invalid_request_error") from None
        if not isinstance(body, dict):
            raise _Refused(400, "the body must be a JSON object", "invalid_request_error")
        return body

    async def handle(self, api: Api, request: Request) -> None:
        """One API request, answered (an error in the client's API shape), then logged."""
        started, entry = time.perf_counter(), {"api": api, "path": request.path}
        try:
            self._check(request)
            body = await self._body(request)
            self._admit()
            self.in_flight += 1
            try:
                await self._answer(api, body, request, entry)
            finally:
                self.in_flight -= 1
        except BadRequest as exc:
            self._error(request, api, _Refused(400, str(exc), "invalid_request_error"), entry)
        except BackendError as exc:
            self._error(request, api, _Refused(502, f"upstream: {exc}", "api_error"), entry)
        except _Refused as exc:
            self._error(request, api, exc, entry)
        except Gone:
            pass  # logged as 499 below
        self._done(entry, started)

    async def _answer(self, api: Api, body: dict[str, Any], request: Request, entry: dict[str, Any]) -> None:
        chat = _READERS[api](body)
        await self.upstream.check(chat)
        entry["stream"] = chat.stream
        if chat.stream:
            await request.stream(self._events(api, chat, entry))
            return
        with traces.span("gateway.request", api=api, stream=False):
            outcome = await self.upstream.answer(chat)
        entry |= outcome.trace | {"status": 200}
        encode = {"openai": openai_api.chat_completion, "anthropic": anthropic_api.message}
        _send_json(request, 200, encode[api](outcome) if api in encode else responses_api.response(outcome))

    async def _events(
        self, api: Api, chat: ChatRequest, entry: dict[str, Any]
    ) -> AsyncGenerator[tuple[str, bool], None]:
        """The event stream's pieces, each with whether it is the last (the one after the outcome)."""
        outcome: list[Outcome] = []

        async def watched() -> AsyncGenerator[str | Outcome, None]:
            async with aclosing(answer_stream(self.upstream, chat)) as items:
                async for item in items:
                    if isinstance(item, Outcome):
                        outcome.append(item)
                    yield item

        model = chat.model or self.upstream.backend.model_name
        encoders = {"openai": openai_api.chat_chunks, "anthropic": anthropic_api.message_events}
        encode = encoders.get(api, responses_api.response_events)
        entry["status"] = 200
        try:
            # The generators are closed here, when the stream ends: one left to the garbage collector
            # is closed by a task the loop is woken for from outside (a system call or three each).
            with traces.span("gateway.request", api=api, stream=True):
                async with aclosing(watched()) as source, aclosing(encode(source, model)) as events:
                    async for event in events:
                        yield event, bool(outcome)
        except BackendError as exc:
            entry["status"] = 502
            yield _stream_error(api, f"upstream: {exc}"), True
        finally:
            entry |= outcome[0].trace if outcome else {}

    def _error(self, request: Request, api: Api, exc: _Refused, entry: dict[str, Any]) -> None:
        entry |= {"status": exc.status, "error": str(exc)}
        encode = anthropic_api.error_body if api == "anthropic" else openai_api.error_body
        _send_json(request, exc.status, encode(str(exc), exc.kind))

    def _done(self, entry: dict[str, Any], started: float) -> None:
        entry["ms"] = round((time.perf_counter() - started) * 1000, 1)
        entry.setdefault("status", 499)  # the client went away before an answer
        self.counts["requests"] += 1
        self.counts[f"status_{entry['status']}"] += 1
        self.counts["emulated"] += bool(entry.get("emulated"))
        self.counts["calls"] += int(entry.get("calls") or 0)
        self.counts["retries"] += len(entry.get("retries") or ())
        if self.log_line is not None:
            self.log_line(_LOG_LINE(entry))
        elif log.isEnabledFor(logging.INFO):
            log.info(_LOG_LINE(entry))  # no arguments: the line is not %-formatted again

    def _let_in(self, request: Request, *, token: bool = True, admit: bool = False) -> bool:
        """Whether a request to one of the service routes may go on; if not, its refusal is sent (OpenAI's
        error shape). `token`: the token checked as for the API (else only the rule on requests from
        elsewhere); `admit`: the request counted against `max_concurrent`."""
        try:
            if token:
                self._check(request)
            else:
                self._local_only(request)
            if admit:
                self._admit()
        except _Refused as exc:
            _send_json(request, exc.status, openai_api.error_body(str(exc), exc.kind))
            return False
        return True

    async def models(self, request: Request) -> None:
        """`GET /v1/models`: the one model served."""
        if not self._let_in(request, admit=True):
            return
        name = self.upstream.backend.model_name
        _send_json(
            request,
            200,
            {
                "object": "list",
                "data": [{"id": name, "object": "model", "created": 0, "owned_by": "asi-agent"}],
            },
        )

    async def health(self, request: Request) -> None:
        """`GET /health` (open to probes: no token)."""
        if not self._let_in(request, token=False):
            return
        native = self.upstream.native
        body = {"status": "ok", "model": self.upstream.backend.model_name, "native_tools": native}
        _send_json(request, 200, body)

    async def metrics(self, request: Request) -> None:
        """`GET /metrics` in the Prometheus text format (the token needed, as for the API)."""
        if not self._let_in(request):
            return
        lines = [
            f"asi_gateway_in_flight {self.in_flight}",
            f"asi_gateway_uptime_seconds {time.time() - self.started:.0f}",
        ]
        lines += [f"asi_gateway_{name}_total {value}" for name, value in sorted(self.counts.items())]
        text = ("\n".join(lines) + "\n").encode("utf-8")
        request.answer(200, text, _TEXT)

    async def count_tokens(self, request: Request) -> None:
        """`POST /v1/messages/count_tokens`: the upstream's count, else an estimate."""
        try:
            self._check(request)
            chat = from_anthropic({**await self._body(request), "max_tokens": 1})
            self._admit()
        except (_Refused, BadRequest) as exc:
            status = exc.status if isinstance(exc, _Refused) else 400
            _send_json(request, status, anthropic_api.error_body(str(exc)))
            return
        except Gone:
            return
        text = "\n".join(m.content for m in chat.messages) + json.dumps(chat.tools)
        counted = await self.upstream.backend.count_tokens(text)
        images = sum(image_tokens(i, "anthropic") for m in chat.messages for i in m.images)
        estimate = counted if counted is not None else len(text) // 4
        _send_json(request, 200, {"input_tokens": estimate + images})


def _stream_error(api: Api, message: str) -> str:
    """An error inside a stream that has already started (the status line is sent)."""
    if api == "anthropic":
        return f"event: error\ndata: {json.dumps(anthropic_api.error_body(message, 'api_error'))}\n\n"
    return f"data: {json.dumps(openai_api.error_body(message, 'api_error'))}\n\n"


class GatewayApp:
    """The application the server runs: routes by path and method, then the endpoint answers."""

    def __init__(self, upstream: Upstream, config: GatewayConfig, log_line: LogLine | None = None) -> None:
        self.upstream, self.config = upstream, config
        gateway = _Gateway(upstream, config, log_line)

        def api(name: Api) -> Endpoint:
            return lambda request: gateway.handle(name, request)

        self.routes: dict[str, tuple[str, Endpoint]] = {
            "/v1/chat/completions": ("POST", api("openai")),
            "/v1/messages": ("POST", api("anthropic")),
            "/v1/messages/count_tokens": ("POST", gateway.count_tokens),
            "/v1/responses": ("POST", api("responses")),
            "/v1/models": ("GET", gateway.models),
            "/health": ("GET", gateway.health),
            "/metrics": ("GET", gateway.metrics),
        }

    async def handle(self, request: Request) -> None:
        """One request: 404 for an unknown path, 405 for a wrong method, else its endpoint's answer."""
        method, endpoint = self.routes.get(request.path, ("", None))
        if endpoint is None:
            request.answer(404, b"Not Found", _TEXT)
        elif request.method != method and not (method == "GET" and request.method == "HEAD"):
            allow = f"{method}, HEAD" if method == "GET" else method
            request.answer(405, b"Method Not Allowed", _TEXT, f"allow: {allow}\r\n".encode())
        else:
            await endpoint(request)

    async def start(self) -> None:
        """Learn about the upstream before the first request."""
        await self.upstream.start()

    async def close(self) -> None:
        """Close the upstream's connections after the last request."""
        await self.upstream.backend.aclose()
        if self.upstream.unstreamed is not self.upstream.backend:
            await self.upstream.unstreamed.aclose()


def build_app(upstream: Upstream, config: GatewayConfig, log_line: LogLine | None = None) -> GatewayApp:
    """The application: `/v1/chat/completions`, `/v1/messages` (+ `count_tokens`), `/v1/responses`,
    `/v1/models`, `/health`, `/metrics`; each request's JSON log line goes to `log_line` (else to the
    `asi_agent.gateway` logger at INFO)."""
    return GatewayApp(upstream, config, log_line)
