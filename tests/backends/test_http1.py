"""OpenAIBackend's lean HTTP/1.1 client (plain HTTP, no proxy) against a raw loopback server that frames
its replies every way HTTP/1.1 allows: chunked (cut at awkward places), Content-Length, gzip, until the
connection closes; kept-alive connections reused, and replaced when the server dropped them while idle."""

from __future__ import annotations

import asyncio
import gzip
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

from asi_agent.backends.openai import OpenAIBackend, OpenAIBackendConfig
from asi_agent.exceptions import BackendError
from asi_agent.messages import Message

USER = [Message("user", "Say hello")]


def _sse(*texts: str) -> bytes:
    events = [
        {"choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]} for text in texts
    ]
    events.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    return b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events) + b"data: [DONE]\n\n"


def _whole(text: str) -> bytes:
    message = {"role": "assistant", "content": text}
    body = {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}
    return json.dumps(body).encode()


def chunked(body: bytes, size: int) -> bytes:
    """`body` in chunked transfer encoding, `size` bytes a chunk."""
    parts = [body[i : i + size] for i in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n\r\n"


@dataclass
class RawServer:
    """A loopback server answering each request with the next scripted bytes (then closing, if asked)."""

    replies: list[tuple[list[bytes], bool]] = field(default_factory=list)
    request_lines: list[str] = field(default_factory=list)
    connections: int = 0
    port: int = 0
    writers: list[asyncio.StreamWriter] = field(default_factory=list)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.writers.append(writer)
        while self.replies:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionError):
                break
            lines = head.decode("latin-1").split("\r\n")
            self.request_lines.append(lines[0])
            length = next(
                int(v) for k, _, v in (x.partition(":") for x in lines) if k.lower() == "content-length"
            )
            await reader.readexactly(length)
            pieces, close = self.replies.pop(0)
            for piece in pieces:  # written apart, so the client reads them in separate pieces
                writer.write(piece)
                await writer.drain()
                await asyncio.sleep(0.002)
            if close:
                break
        writer.close()

    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


@pytest.fixture
async def raw() -> AsyncIterator[RawServer]:
    state = RawServer()
    server = await asyncio.start_server(state._serve, "127.0.0.1", 0)
    state.port = server.sockets[0].getsockname()[1]
    yield state
    server.close()
    for writer in state.writers:
        writer.close()


def _backend(url: str, **options: object) -> OpenAIBackend:
    settings = {"model": "m", "base_url": url, "retry_backoff": 0.01, "idle_timeout": 5.0} | options
    return OpenAIBackend(OpenAIBackendConfig(**settings))  # type: ignore[arg-type]


def _head(extra: str) -> bytes:
    return f"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n{extra}\r\n".encode()


async def test_a_chunked_stream_cut_mid_line_and_mid_character_reads_whole(raw: RawServer):
    body = chunked(_sse("Grüße, ", "wörld"), 7)  # chunks split lines and two-byte characters
    third = len(body) // 3
    raw.replies.append(([_head("Transfer-Encoding: chunked\r\n"), body[:third], body[third:]], False))
    deltas: list[str] = []
    backend = _backend(raw.url())

    completion = await backend.complete(USER, on_delta=deltas.append)
    await backend.aclose()

    assert completion.text == "Grüße, wörld" and completion.finish_reason == "stop"
    assert "".join(deltas) == "Grüße, wörld"
    assert raw.request_lines == ["POST /v1/chat/completions HTTP/1.1"]


async def test_whole_replies_by_content_length_gzip_and_connection_end(raw: RawServer):
    plain, zipped = _whole("by length"), gzip.compress(_whole("zipped"))
    raw.replies.append(
        ([_head(f"Content-Type: application/json\r\nContent-Length: {len(plain)}\r\n"), plain], False)
    )
    gz = f"Content-Encoding: gzip\r\nContent-Length: {len(zipped)}\r\n"
    raw.replies.append(([_head(gz), zipped[:10], zipped[10:]], False))
    raw.replies.append(([b"HTTP/1.0 200 OK\r\n\r\n", _whole("until the end")], True))
    backend = _backend(raw.url(), stream=False)

    texts = [(await backend.complete(USER)).text for _ in range(3)]
    await backend.aclose()

    assert texts == ["by length", "zipped", "until the end"]
    assert raw.connections == 1  # kept alive until the reply that ends with the connection


async def test_kept_alive_connections_are_reused_and_replaced_when_dropped(raw: RawServer):
    head = _head("Transfer-Encoding: chunked\r\n")
    raw.replies += [
        ([head, chunked(_sse(word), 64)], close) for word, close in [("one", False), ("two", True)]
    ]
    raw.replies.append(([head, chunked(_sse("three"), 64)], False))
    backend = _backend(raw.url(), max_retries=0)

    texts = [(await backend.complete(USER)).text for _ in range(2)]
    await asyncio.sleep(0.05)  # the server has closed the kept-alive connection meanwhile
    texts.append((await backend.complete(USER)).text)
    await backend.aclose()

    assert texts == ["one", "two", "three"]
    assert raw.connections == 2


async def test_a_malformed_chunk_is_a_one_line_error(raw: RawServer):
    bad = [_head("Transfer-Encoding: chunked\r\n"), b"zz\r\nnot a chunk\r\n"]
    raw.replies += [(bad, True), (bad, True)]
    backend = _backend(raw.url(), max_retries=1)

    with pytest.raises(BackendError) as caught:
        await backend.complete(USER)
    await backend.aclose()

    assert "malformed chunk size" in str(caught.value) and "\n" not in str(caught.value)


async def test_an_http_proxy_in_the_environment_is_honoured(raw: RawServer, monkeypatch: pytest.MonkeyPatch):
    # The proxy is the raw server itself: a proxied request names the whole URL in its request line.
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{raw.port}")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    raw.replies.append(([_head("Transfer-Encoding: chunked\r\n"), chunked(_sse("via proxy"), 64)], False))
    backend = _backend("http://model.invalid:8000/v1")

    completion = await backend.complete(USER)
    await backend.aclose()

    assert completion.text == "via proxy"
    assert raw.request_lines == ["POST http://model.invalid:8000/v1/chat/completions HTTP/1.1"]


async def test_a_stream_in_tiny_chunks_with_crlf_lines_a_line_separator_and_trailers(raw: RawServer):
    # U+2028 inside a JSON string is not a line end for SSE (only CR and LF are); chunks of 3 bytes cut
    # every line, every chunk-size line and every character; trailers follow the last chunk.
    events = [{"choices": [{"index": 0, "delta": {"content": t}}]} for t in ("one\u2028two", " — three")]
    events.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    lines = [b"data: " + json.dumps(e, ensure_ascii=False).encode() + b"\r\n\r\n" for e in events]
    body = chunked(b"".join([*lines, b"data: [DONE]\r\n\r\n"]), 5)
    body = body.removesuffix(b"0\r\n\r\n") + b"0\r\nx-trailer: 1\r\n\r\n"
    pieces = [body[i : i + 3] for i in range(0, len(body), 3)]
    raw.replies.append(([_head("Transfer-Encoding: chunked\r\n"), *pieces], False))
    raw.replies.append(([_head("Transfer-Encoding: chunked\r\n"), chunked(_sse("again"), 64)], False))
    backend = _backend(raw.url())

    first = await backend.complete(USER)
    second = await backend.complete(USER)
    await backend.aclose()

    assert first.text == "one\u2028two — three" and first.finish_reason == "stop"
    assert second.text == "again"
    assert raw.connections == 1  # the first reply was read to its end: its connection was reused
