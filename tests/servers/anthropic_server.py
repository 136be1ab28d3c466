"""A real local HTTP server speaking enough of the Anthropic Messages API for the `anthropic` client.

Routes: `POST /v1/messages`, streamed as the API's SSE events (`message_start`, text and `tool_use`
blocks with `input_json_delta` fragments cut mid-string, `message_delta`, `message_stop`) or not.
A reply's `reasoning` becomes a `thinking` block before the text. Requests without the key
`api_key` (when set) get 401; requests without `max_tokens` get 400, as the API answers.

Example::

    from servers.anthropic_server import AnthropicServer, Call, Reply

    with AnthropicServer() as server:
        server.reply(Reply(text="Let me look.", calls=[Call("read_file", {"path": "a.py"})]))
        ...
        assert server.chat_bodies[0]["max_tokens"] > 0
"""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from typing import Any

from servers.scripted_http import Call, Reply, ScriptedServer, pieces, send_json

__all__ = ["AnthropicServer", "Call", "Reply"]

_STOP = {"stop": "end_turn", "tool_calls": "tool_use", "length": "max_tokens"}


def _error(message: str, kind: str = "invalid_request_error") -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}


class AnthropicServer(ScriptedServer):
    """Scripted Messages API server; see the module docstring."""

    chat_path = "/v1/messages"

    def __init__(self, models: tuple[str, ...] | list[str] = ("claude-test",)) -> None:
        super().__init__(models)
        self.api_key: str | None = None
        """When set, requests must carry it (`x-api-key`, or `Authorization: Bearer` as SDK 2.x sends it)."""

    @property
    def base_url(self) -> str:
        """The URL to give the client (the SDK adds `/v1/messages`)."""
        return self.root_url

    def route(self, handler: BaseHTTPRequestHandler, method: str, path: str, body: Any) -> None:
        """Answer one request."""
        given = handler.headers.get("x-api-key") or handler.headers.get("Authorization", "").removeprefix(
            "Bearer "
        )
        if self.api_key is not None and given != self.api_key:
            send_json(handler, 401, _error("invalid x-api-key", "authentication_error"))
        elif method == "POST" and path == self.chat_path and isinstance(body, dict):
            self._messages(handler, body)
        else:
            send_json(handler, 404, _error(f"no route {method} {path}", "not_found_error"))

    def _messages(self, handler: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        failure = self.take_failure()
        if failure is not None:
            send_json(handler, failure[0], _error(f"injected failure {failure[0]}", "api_error"))
            return
        if not isinstance(body.get("max_tokens"), int):
            send_json(handler, 400, _error("max_tokens: Field required"))
            return
        reply = self.next_reply(body)
        if reply is None:
            send_json(handler, 400, _error(self.no_reply_message()))
        elif body.get("stream"):
            self._stream(handler, body, reply)
        else:
            send_json(handler, 200, self._message(body, reply))

    def _blocks(self, reply: Reply) -> list[dict[str, Any]]:
        blocks: list[dict[str, Any]] = []
        if reply.reasoning:
            blocks.append({"type": "thinking", "thinking": reply.reasoning, "signature": "sig"})
        if reply.text:
            blocks.append({"type": "text", "text": reply.text})
        for n, call in enumerate(reply.calls):
            arguments = json.loads(call.arguments) if isinstance(call.arguments, str) else call.arguments
            blocks.append(
                {"type": "tool_use", "id": call.id or f"toolu_{n:02d}", "name": call.name, "input": arguments}
            )
        return blocks

    def _usage(self, reply: Reply, body: dict[str, Any]) -> dict[str, int]:
        prompt = reply.prompt_tokens if reply.prompt_tokens is not None else len(json.dumps(body)) // 4
        return {"input_tokens": prompt, "output_tokens": reply.completion_tokens}

    def _message(self, body: dict[str, Any], reply: Reply) -> dict[str, Any]:
        return {
            "id": "msg_test",
            "type": "message",
            "role": "assistant",
            "model": reply.model or body.get("model"),
            "content": self._blocks(reply),
            "stop_reason": _STOP.get(reply.finish, "end_turn"),
            "stop_sequence": None,
            "usage": self._usage(reply, body),
        }

    def _stream(self, handler: BaseHTTPRequestHandler, body: dict[str, Any], reply: Reply) -> None:
        def event(name: str, data: dict[str, Any]) -> str:
            return f"event: {name}\ndata: {json.dumps({'type': name, **data})}\n\n"

        start = self._message(body, reply) | {"content": [], "stop_reason": None}
        lines = [event("message_start", {"message": start})]
        for index, block in enumerate(self._blocks(reply)):
            kind = block["type"]
            empty = (
                {"text": ""}
                if kind == "text"
                else {"thinking": "", "signature": ""}
                if kind == "thinking"
                else {}
            )
            opened = {**block, **empty, "input": {}} if kind == "tool_use" else {**block, **empty}
            lines.append(event("content_block_start", {"index": index, "content_block": opened}))
            if kind == "text":
                deltas = [{"type": "text_delta", "text": p} for p in pieces(block["text"])]
            elif kind == "thinking":
                deltas = [{"type": "thinking_delta", "thinking": p} for p in pieces(block["thinking"])]
            else:
                deltas = [
                    {"type": "input_json_delta", "partial_json": p}
                    for p in pieces(json.dumps(block["input"]))
                ]
            lines += [event("content_block_delta", {"index": index, "delta": d}) for d in deltas]
            lines.append(event("content_block_stop", {"index": index}))
        stop = {"stop_reason": _STOP.get(reply.finish, "end_turn"), "stop_sequence": None}
        lines.append(
            event("message_delta", {"delta": stop, "usage": {"output_tokens": reply.completion_tokens}})
        )
        lines.append(event("message_stop", {}))
        self.send_stream(handler, "text/event-stream", lines, reply, lambda _kind, _n: "")
