"""A real local HTTP server speaking enough of Ollama's native API for the `ollama` client.

Routes: `POST /api/chat` (NDJSON stream, or one JSON object when `"stream": false`; tool calls carry
dict arguments and no id), `POST /api/show` (model capabilities), `GET /api/tags` (local models).
Ollama's errors are `{"error": "..."}` bodies.

Example (the `ollama_server` fixture of tests/conftest.py gives a started instance)::

    from servers.ollama_server import Call, OllamaServer, Reply

    with OllamaServer(models=["qwen3:8b"]) as server:
        server.reply(Reply(calls=[Call("read_file", {"path": "a.py"})]), "Done.")
        server.capabilities = ["completion"]   # /api/show: no "tools"
        server.fail_next(1, status=500)
        server.reply(Reply(text="a", fault="drop"))   # see scripted_http for the fault modes
        backend = OllamaBackend(OllamaBackendConfig(model="qwen3:8b", host=server.host))
        ...
        assert server.chat_bodies[0]["options"]["num_ctx"] == 8192
"""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from typing import Any

from servers.scripted_http import (
    Call,
    Reply,
    ScriptedServer,
    pieces,
    send_json,
)

__all__ = ["Call", "OllamaServer", "Reply"]

_CREATED = "2025-01-01T00:00:00Z"


class OllamaServer(ScriptedServer):
    """Scripted Ollama server; see the module docstring."""

    chat_path = "/api/chat"

    def __init__(self, models: tuple[str, ...] | list[str] = ("test-model",)) -> None:
        super().__init__(models)
        self.capabilities: list[str] | None = ["completion", "tools"]
        """What `/api/show` reports; None omits the field (older Ollama)."""
        self.context_length: int | None = None
        """The model's trained context length in `/api/show` (`model_info["test.context_length"]`)."""
        self.chat_template: str | None = None
        """The GGUF's Jinja template in `/api/show` (`model_info["tokenizer.chat_template"]`)."""

    @property
    def host(self) -> str:
        """The host URL to give the client."""
        return self.root_url

    def route(self, handler: BaseHTTPRequestHandler, method: str, path: str, body: Any) -> None:
        """Answer one request."""
        payload = body if isinstance(body, dict) else {}
        if method == "GET" and path == "/api/tags":
            send_json(handler, 200, {"models": [_model_entry(name) for name in self.models]})
        elif method == "POST" and path == "/api/show":
            self._show(handler, payload)
        elif method == "POST" and path == self.chat_path:
            self._chat(handler, payload)
        else:
            send_json(handler, 404, {"error": f"no route {method} {path}"})

    def _known(self, model: Any) -> bool:
        return model in self.models or f"{model}:latest" in self.models

    def _show(self, handler: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        model = body.get("model") or body.get("name")
        if self.reject_unknown_models and not self._known(model):
            send_json(handler, 404, {"error": f"model '{model}' not found"})
            return
        payload: dict[str, Any] = {
            "modelfile": "",
            "parameters": "",
            "template": "{{ .Prompt }}",
            "details": _details(),
            "model_info": {"general.architecture": "test"}
            | ({"test.context_length": self.context_length} if self.context_length else {})
            | ({"tokenizer.chat_template": self.chat_template} if self.chat_template else {}),
            "modified_at": _CREATED,
        }
        if self.capabilities is not None:
            payload["capabilities"] = self.capabilities
        send_json(handler, 200, payload)

    def _chat(self, handler: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        failure = self.take_failure()
        if failure is not None:
            status, retry_after = failure
            headers = {"Retry-After": f"{retry_after:g}"} if retry_after is not None else {}
            send_json(handler, status, {"error": f"injected failure {status}"}, headers)
            return
        model = body.get("model")
        if self.reject_unknown_models and not self._known(model):
            send_json(handler, 404, {"error": f'model "{model}" not found, try pulling it first'})
            return
        if self.reject_tools and body.get("tools"):
            send_json(handler, 400, {"error": f"registry.ollama.ai/library/{model} does not support tools"})
            return
        reply = self.next_reply(body)
        if reply is None:
            send_json(handler, 400, {"error": self.no_reply_message()})
        elif body.get("stream", True):
            model = reply.model or model
            prompt = self.prompt_tokens(reply, body)

            def faulty(kind: str, count: int) -> str:
                if kind == "malformed":
                    return '{"model": "cut", "message": {"content": "cu\n'
                text = "I will read the file now.\n" if kind == "loop" else f"Step {count}: still going.\n"
                return json.dumps(_part(model, {"role": "assistant", "content": text})) + "\n"

            lines = [json.dumps(part) + "\n" for part in _stream_parts(model, reply, prompt)]
            self.send_stream(handler, "application/x-ndjson", lines, reply, faulty)
        else:
            prompt = self.prompt_tokens(reply, body)
            send_json(handler, 200, _final(reply.model or model, reply, reply.text, prompt, with_calls=True))


def _stream_parts(model: Any, reply: Reply, prompt: int) -> list[dict[str, Any]]:
    thinking = pieces(reply.reasoning)
    parts = [_part(model, {"role": "assistant", "content": "", "thinking": piece}) for piece in thinking]
    parts += [_part(model, {"role": "assistant", "content": piece}) for piece in pieces(reply.text)]
    if reply.calls:
        parts.append(_part(model, {"role": "assistant", "content": "", "tool_calls": _calls(reply.calls)}))
    parts.append(_final(model, reply, "", prompt, with_calls=False))
    return parts


def _part(model: Any, message: dict[str, Any]) -> dict[str, Any]:
    return {"model": model, "created_at": _CREATED, "message": message, "done": False}


def _final(model: Any, reply: Reply, text: str, prompt: int, *, with_calls: bool) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if with_calls and reply.calls:
        message["tool_calls"] = _calls(reply.calls)
    return {
        "model": model,
        "created_at": _CREATED,
        "message": message,
        "done": True,
        "done_reason": reply.finish_reason or "stop",
        "total_duration": 1000,
        "prompt_eval_count": prompt,
        "eval_count": reply.completion_tokens,
    }


def _calls(calls: list[Call]) -> list[dict[str, Any]]:
    return [{"function": {"name": call.name, "arguments": call.arguments}} for call in calls]


def _details() -> dict[str, Any]:
    return {"format": "gguf", "family": "test", "parameter_size": "1B", "quantization_level": "Q4_0"}


def _model_entry(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "model": name,
        "modified_at": _CREATED,
        "size": 1,
        "digest": "0" * 64,
        "details": _details(),
    }
