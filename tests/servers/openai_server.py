"""A real local HTTP server speaking enough of the OpenAI Chat Completions API for the `openai` client.

Routes: `POST /v1/chat/completions` (streamed as SSE `data:` chunks ending in `[DONE]`, or not),
`GET /v1/models`, and llama.cpp's `GET /props` when `props` is set. Streamed tool calls are split
into several fragments, arguments cut mid-string; a usage chunk is sent when the request asks for it
with `stream_options`.

Example (the `openai_server` fixture of tests/conftest.py gives a started instance)::

    from servers.openai_server import Call, OpenAIServer, Reply

    with OpenAIServer(models=["test-model"]) as server:
        server.reply("Let me look.", Reply(calls=[Call("read_file", {"path": "a.py"})]))
        server.reply(lambda body: Reply(text=f"{len(body['messages'])} messages"))
        server.fail_next(2, status=503)        # the next two chat requests fail
        server.reject_tools = True             # 400 "tools not supported" when tools are sent
        server.n_ctx = 4096                    # act as llama.cpp: /props, /tokenize, context overflows
        server.props = {"chat_template_caps": {"supports_tools": False}}   # more of llama.cpp's /props
        server.reply(Reply(text="a", fault="stall"))   # see scripted_http for the fault modes
        backend = OpenAIBackend(OpenAIBackendConfig(model="test-model", base_url=server.base_url))
        ...
        assert server.chat_bodies[0]["messages"][0]["role"] == "system"
"""

from __future__ import annotations

import dataclasses
import json
import re
from http.server import BaseHTTPRequestHandler
from typing import Any

from servers.scripted_http import (
    Call,
    Reply,
    ScriptedServer,
    pieces,
    send_json,
)

__all__ = ["Call", "OpenAIServer", "Reply", "count_tokens", "prompt_tokens"]

_TOKEN = re.compile(r"\w+|[^\w\s]")


def count_tokens(text: str) -> int:
    """The test server's tokenizer: every word and every punctuation mark is a token."""
    return len(_TOKEN.findall(text))


def prompt_tokens(body: dict[str, Any]) -> int:
    """Tokens of a chat request as the test server counts them (4 per message for the template)."""
    total = count_tokens(json.dumps(body.get("tools") or []))
    for message in body.get("messages") or ():
        total += 4 + count_tokens(str(message.get("content") or ""))
        total += count_tokens(json.dumps(message.get("tool_calls") or []))
    return total


def _error(message: str, kind: str = "invalid_request_error", code: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


class OpenAIServer(ScriptedServer):
    """Scripted OpenAI-compatible server; see the module docstring."""

    chat_path = "/v1/chat/completions"

    def __init__(self, models: tuple[str, ...] | list[str] = ("test-model",)) -> None:
        super().__init__(models)
        self.omit_tool_index = False
        """Send tool-call fragments without `index` (as some servers do)."""
        self.arguments_as_object = False
        """Send dict arguments as a JSON object instead of a string (a non-conforming server)."""
        self.reject_stream_options = False
        """Answer 400 to requests carrying `stream_options` (older servers)."""
        self.api_key: str | None = None
        """When set, requests without `Authorization: Bearer <api_key>` get 401."""
        self.n_ctx: int | None = None
        """When set, act as llama.cpp with this context size: `GET /props`, `POST /tokenize`, usage counted
        by `prompt_tokens`, and a 400 `exceed_context_size_error` for a longer prompt."""
        self.reject_max_tokens = False
        """Answer 400 to requests carrying `max_tokens`, as OpenAI does for its reasoning models."""
        self.props: dict[str, Any] | None = None
        """More of llama.cpp's `GET /props` (merged over what `n_ctx` implies); with neither, 404."""

    @property
    def base_url(self) -> str:
        """The URL to give the client, `/v1` included."""
        return f"{self.root_url}/v1"

    def route(self, handler: BaseHTTPRequestHandler, method: str, path: str, body: Any) -> None:
        """Answer one request."""
        if self.api_key is not None and handler.headers.get("Authorization") != f"Bearer {self.api_key}":
            send_json(
                handler, 401, _error("Incorrect API key provided", "invalid_api_key", "invalid_api_key")
            )
        elif method == "GET" and path == "/v1/models":
            data = [{"id": m, "object": "model", "created": 0, "owned_by": "test"} for m in self.models]
            send_json(handler, 200, {"object": "list", "data": data})
        elif method == "GET" and path == "/props" and (self.n_ctx is not None or self.props is not None):
            send_json(handler, 200, self._props())
        elif self.n_ctx is not None and method == "POST" and path == "/tokenize" and isinstance(body, dict):
            tokens = list(range(count_tokens(str(body.get("content") or ""))))
            send_json(handler, 200, {"tokens": tokens})
        elif method == "POST" and path == self.chat_path and isinstance(body, dict):
            self._chat(handler, body)
        else:
            send_json(handler, 404, _error(f"no route {method} {path}"))

    def _props(self) -> dict[str, Any]:
        props: dict[str, Any] = {"total_slots": 1}
        if self.n_ctx is not None:
            props["default_generation_settings"] = {"n_ctx": self.n_ctx}
        return props | (self.props or {})

    def _chat(self, handler: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        failure = self.take_failure()
        if failure is not None:
            status, retry_after = failure
            headers = {"Retry-After": f"{retry_after:g}"} if retry_after is not None else {}
            send_json(handler, status, _error(f"injected failure {status}", "server_error"), headers)
            return
        refusal = self._refusal(body)
        if refusal is not None:
            send_json(handler, refusal[0], refusal[1])
            return
        counted = prompt_tokens(body)
        if self.n_ctx is not None and counted > self.n_ctx:
            message = (
                f"request ({counted} tokens) exceeds the available context size ({self.n_ctx} tokens), "
                "try increasing it"
            )
            error = {"code": 400, "message": message, "type": "exceed_context_size_error"}
            send_json(handler, 400, {"error": error | {"n_prompt_tokens": counted, "n_ctx": self.n_ctx}})
            return
        reply = self.next_reply(body)
        if reply is not None and self.n_ctx is not None:
            reply = dataclasses.replace(reply, prompt_tokens=counted)
        if reply is None:
            send_json(handler, 400, _error(self.no_reply_message()))
        elif body.get("stream"):
            self._stream(handler, body, reply)
        else:
            send_json(handler, 200, self._completion(body, reply))

    def _refusal(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        model = body.get("model")
        if self.reject_unknown_models and model not in self.models:
            return 404, _error(f"The model `{model}` does not exist", code="model_not_found")
        if self.reject_tools and body.get("tools"):
            return 400, _error("tools are not supported by this model")
        if self.reject_stream_options and "stream_options" in body:
            return 400, _error("Unrecognized request argument supplied: stream_options")
        if self.reject_max_tokens and "max_tokens" in body:
            message = "Unsupported parameter: 'max_tokens' is not supported with this model. "
            return 400, _error(message + "Use 'max_completion_tokens' instead.")
        return None

    def _wire_arguments(self, call: Call) -> str | dict[str, Any]:
        if isinstance(call.arguments, str) or self.arguments_as_object:
            return call.arguments
        return json.dumps(call.arguments)

    def _completion(self, body: dict[str, Any], reply: Reply) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
        if reply.calls:
            message["tool_calls"] = [
                {
                    "id": call.id or f"call_{n}",
                    "type": "function",
                    "function": {"name": call.name, "arguments": self._wire_arguments(call)},
                }
                for n, call in enumerate(reply.calls)
            ]
        return {
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": 0,
            "model": reply.model or body.get("model"),
            "choices": [{"index": 0, "message": message, "finish_reason": reply.finish}],
            "usage": self._usage(reply, body),
        }

    def _stream(self, handler: BaseHTTPRequestHandler, body: dict[str, Any], reply: Reply) -> None:
        model = reply.model or body.get("model")

        def chunk(choices: list[dict[str, Any]], usage: dict[str, int] | None = None) -> str:
            data = {"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 0, "model": model}
            data |= {"choices": choices, "usage": usage}
            return f"data: {json.dumps(data)}\n\n"

        def delta(content: dict[str, Any], finish: str | None = None) -> str:
            return chunk([{"index": 0, "delta": content, "logprobs": None, "finish_reason": finish}])

        def faulty(kind: str, count: int) -> str:
            if kind == "malformed":
                return 'data: {"choices": [{"delta": {"content": "cut\n\n'
            text = "I will read the file now.\n" if kind == "loop" else f"Step {count}: still going.\n"
            return delta({"content": text})

        lines = [delta({"role": "assistant", "content": ""})]
        lines += [delta({"reasoning_content": piece}) for piece in pieces(reply.reasoning)]
        lines += [delta({"content": piece}) for piece in pieces(reply.text)]
        for n, call in enumerate(reply.calls):
            lines += [delta({"tool_calls": [fragment]}) for fragment in self._fragments(n, call)]
        lines.append(delta({}, reply.finish))
        if (body.get("stream_options") or {}).get("include_usage"):
            lines.append(chunk([], self._usage(reply, body)))
        lines.append("data: [DONE]\n\n")
        self.send_stream(handler, "text/event-stream", lines, reply, faulty)

    def _usage(self, reply: Reply, body: dict[str, Any]) -> dict[str, int]:
        prompt = self.prompt_tokens(reply, body)
        total = prompt + reply.completion_tokens
        return {"prompt_tokens": prompt, "completion_tokens": reply.completion_tokens, "total_tokens": total}

    def _fragments(self, n: int, call: Call) -> list[dict[str, Any]]:
        """A call as stream fragments: id, type and name first, then the arguments in pieces."""
        head: dict[str, Any] = {"id": call.id or f"call_{n}", "type": "function"}
        head["function"] = {"name": call.name, "arguments": ""}
        arguments = self._wire_arguments(call)
        if isinstance(arguments, dict):
            parts: list[Any] = [arguments]
        else:
            parts = pieces(arguments)
        fragments = [head] + [{"function": {"arguments": part}} for part in parts]
        if not self.omit_tool_index:
            for fragment in fragments:
                fragment["index"] = n
        return fragments
