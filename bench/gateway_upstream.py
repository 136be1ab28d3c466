"""The fake upstream of the gateway bench: an OpenAI-compatible server with no native tools.

Starlette + uvicorn in a daemon thread of the bench's process. Every request is answered with the same
short text reply carrying one call written as text, whole or streamed in a few SSE chunks. `REPLIES`
holds the forms the bench can ask for (`gateway_bench.py --reply`):

- `asi`: the ASI protocol's one-line call, the default contract's form (the gateway has a shortcut for it);
- `hermes`: the same call as Hermes-style JSON in `<tool_call>` tags, read through the general path;
- `mistral`, `llama`, `qwen-xml`: the same call in Mistral's `[TOOL_CALLS]` array, as a bare Llama 3.1
  JSON object, and in Qwen3-Coder's XML parameters. These three were added before the round that tuned the
  general path on `hermes` and are measured once after it, untuned: they check that a cut made for one
  form was not a cut for that form only.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import AsyncIterator

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

REPLIES = {
    "asi": 'Reading it.\n[TOOL_CALL]read_file[ARGS]{"path": "src/main.py"}',
    "hermes": (
        'Reading it.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "src/main.py"}}\n</tool_call>'
    ),
    "mistral": ('Reading it.\n[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "src/main.py"}}]'),
    "llama": 'Reading it.\n{"name": "read_file", "parameters": {"path": "src/main.py"}}',
    "qwen-xml": (
        "Reading it.\n<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/main.py\n"
        "</parameter>\n</function>\n</tool_call>"
    ),
}
REPLY = REPLIES["asi"]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read a file",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
            },
        },
    }
]
BODY = {"model": "m", "messages": [{"role": "user", "content": "Read src/main.py"}], "tools": TOOLS}


async def _chat(request: Request) -> Response:
    body = await request.json()
    reply = request.app.state.reply
    if not body.get("stream"):
        message = {"role": "assistant", "content": reply}
        choice = {"index": 0, "message": message, "finish_reason": "stop"}
        usage = {"prompt_tokens": 50, "completion_tokens": 20, "total_tokens": 70}
        return JSONResponse(
            {
                "id": "x",
                "object": "chat.completion",
                "created": 0,
                "model": "m",
                "choices": [choice],
                "usage": usage,
            }
        )

    async def chunks() -> AsyncIterator[str]:
        for piece in (reply[:12], reply[12:40], reply[40:]):
            delta = {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "m"}
            yield (
                "data: "
                + json.dumps(delta | {"choices": [{"index": 0, "delta": {"content": piece}}]})
                + "\n\n"
            )
        done = {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "m"}
        yield (
            "data: "
            + json.dumps(done | {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
            + "\n\n"
        )
        yield "data: [DONE]\n\n"

    return StreamingResponse(chunks(), media_type="text/event-stream")


async def _models(_request: Request) -> Response:
    return JSONResponse(
        {"object": "list", "data": [{"id": "m", "object": "model", "created": 0, "owned_by": "b"}]}
    )


def start_upstream(reply: str = REPLY) -> str:
    """The fake upstream on a free loopback port, served from a daemon thread, answering `reply`."""
    app = Starlette(
        routes=[Route("/v1/chat/completions", _chat, methods=["POST"]), Route("/v1/models", _models)]
    )
    app.state.reply = reply
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", access_log=False)
    )
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
