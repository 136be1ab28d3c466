"""What the gateway's own HTTP/1.1 server does that a framework's server did before, on raw sockets
against the real `asi-agent serve`: keep-alive, pipelining, chunked request bodies, `Expect:
100-continue`, 413 for an oversized body (by its length or as it streams in), 400 for what is not
HTTP, a slow half-sent request that blocks nobody and is closed, and a graceful stop on SIGTERM."""

from __future__ import annotations

import json
import signal
import socket
import time
from collections.abc import Callable
from typing import BinaryIO
from urllib.parse import urlsplit

import httpx2 as httpx  # the project's HTTP client
from servers.openai_server import Reply

from gateway.conftest import Gateway
from gateway.test_openai_sdk import ASK

BODY = json.dumps({"model": "m", "messages": ASK}).encode()


def _connect(gateway: Gateway) -> socket.socket:
    address = urlsplit(gateway.url)
    return socket.create_connection((address.hostname, address.port), timeout=10)


def _post(body: bytes, *headers: str, path: str = "/v1/chat/completions") -> bytes:
    head = [f"POST {path} HTTP/1.1", "host: gateway", "content-type: application/json", *headers]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def _read(stream: BinaryIO) -> tuple[int, dict[str, str], bytes]:
    """One whole answer (with a Content-Length) from `stream`: status, headers, body."""
    status_line = stream.readline()
    assert status_line.startswith(b"HTTP/1.1 "), status_line
    headers: dict[str, str] = {}
    while (line := stream.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    body = stream.read(int(headers.get("content-length", "0")))
    return int(status_line.split()[1]), headers, body


def _closed(sock: socket.socket) -> bool:
    """Whether the server has closed the connection (read returns end of file)."""
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


def test_several_requests_on_one_connection(gateway: Gateway) -> None:
    gateway.upstream.reply("One.", "Two.", "Three.")
    with _connect(gateway) as sock, sock.makefile("rb") as stream:
        for expected in ("One.", "Two.", "Three."):
            sock.sendall(_post(BODY, f"content-length: {len(BODY)}"))
            status, headers, body = _read(stream)
            assert status == 200 and "connection" not in headers
            assert json.loads(body)["choices"][0]["message"]["content"] == expected


def test_pipelined_requests_are_answered_in_order(gateway: Gateway) -> None:
    gateway.upstream.reply("First.", "Second.")
    with _connect(gateway) as sock, sock.makefile("rb") as stream:
        request = _post(BODY, f"content-length: {len(BODY)}")
        health = b"GET /health HTTP/1.1\r\nhost: gateway\r\n\r\n"
        sock.sendall(request + health + request)  # three requests in one write
        answers = [_read(stream) for _ in range(3)]
    assert [status for status, _, _ in answers] == [200, 200, 200]
    assert json.loads(answers[0][2])["choices"][0]["message"]["content"] == "First."
    assert json.loads(answers[1][2])["status"] == "ok"
    assert json.loads(answers[2][2])["choices"][0]["message"]["content"] == "Second."


def test_a_chunked_request_body(gateway: Gateway) -> None:
    gateway.upstream.reply("Chunked.")
    half = len(BODY) // 2
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in (BODY[:half], BODY[half:]))
    with _connect(gateway) as sock, sock.makefile("rb") as stream:
        sock.sendall(_post(b"", "transfer-encoding: chunked"))
        time.sleep(0.1)  # the body comes after the head, in pieces
        sock.sendall(chunks[:10])
        sock.sendall(chunks[10:] + b"0\r\n\r\n")
        status, _, body = _read(stream)
    assert status == 200 and json.loads(body)["choices"][0]["message"]["content"] == "Chunked."
    assert gateway.upstream.chat_bodies[-1]["messages"][-1]["content"] == ASK[-1]["content"]


def test_expect_100_continue(gateway: Gateway) -> None:
    gateway.upstream.reply("Continued.")
    with _connect(gateway) as sock, sock.makefile("rb") as stream:
        sock.sendall(_post(b"", f"content-length: {len(BODY)}", "expect: 100-continue"))
        assert stream.readline() == b"HTTP/1.1 100 Continue\r\n" and stream.readline() == b"\r\n"
        sock.sendall(BODY)
        status, _, body = _read(stream)
    assert status == 200 and json.loads(body)["choices"][0]["message"]["content"] == "Continued."


def test_oversized_bodies_get_413_and_the_connection_closed(serve: Callable[..., Gateway]) -> None:
    gateway = serve("--emulate", "always", "--max-body", "2000")
    big = json.dumps({"messages": [{"role": "user", "content": "x" * 5000}]}).encode()
    with _connect(gateway) as sock, sock.makefile("rb") as stream:  # by its stated length, unread
        sock.sendall(_post(b"", f"content-length: {len(big)}", "expect: 100-continue"))
        status, headers, body = _read(stream)
        assert status == 413 and headers["connection"] == "close" and b"limit of 2000 bytes" in body
        assert _closed(sock)
    chunked = b"".join(b"%x\r\n%s\r\n" % (500, big[i : i + 500]) for i in range(0, 4500, 500))
    with _connect(gateway) as sock, sock.makefile("rb") as stream:  # no length: refused as it comes
        sock.sendall(_post(chunked, "transfer-encoding: chunked"))
        status, headers, body = _read(stream)
        assert status == 413 and headers["connection"] == "close" and b"limit of 2000 bytes" in body
    gateway.upstream.reply("Still here.")
    answer = httpx.post(f"{gateway.v1}/chat/completions", content=BODY, timeout=10)
    assert answer.json()["choices"][0]["message"]["content"] == "Still here."


def test_what_is_not_http_gets_400_and_the_server_stays_up(gateway: Gateway) -> None:
    with _connect(gateway) as sock, sock.makefile("rb") as stream:
        sock.sendall(b"HELLO THERE\r\n\r\n")
        status, headers, _ = _read(stream)
        assert status == 400 and headers["connection"] == "close" and _closed(sock)
    assert httpx.get(f"{gateway.url}/health", timeout=10).json()["status"] == "ok"


def test_a_slow_half_sent_request_blocks_nobody_and_is_closed(gateway: Gateway) -> None:
    gateway.upstream.reply("Not blocked.")
    with _connect(gateway) as slow:
        slow.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nhost: gate")  # and nothing more
        started = time.monotonic()
        answer = httpx.post(f"{gateway.v1}/chat/completions", content=BODY, timeout=10)
        assert answer.json()["choices"][0]["message"]["content"] == "Not blocked."
        assert time.monotonic() - started < 2
        assert _closed(slow)  # after the idle time (5 s), well within the socket's 10 s timeout
        assert time.monotonic() - started < 9


def test_sigterm_lets_the_answer_in_progress_finish(gateway: Gateway) -> None:
    gateway.upstream.reply(Reply(text="Finished anyway.", delay=1.0))
    with _connect(gateway) as sock, sock.makefile("rb") as stream:
        sock.sendall(_post(BODY, f"content-length: {len(BODY)}"))
        time.sleep(0.4)  # the request is with the upstream
        gateway.process.send_signal(signal.SIGTERM)
        status, headers, body = _read(stream)
        assert status == 200 and headers["connection"] == "close"
        assert json.loads(body)["choices"][0]["message"]["content"] == "Finished anyway."
    assert gateway.process.wait(10) == 0


def test_an_upgrade_it_does_not_speak_is_answered_in_http_1_1_then_closed(gateway: Gateway) -> None:
    upgrade = "connection: Upgrade, HTTP2-Settings\r\nupgrade: h2c\r\nhttp2-settings: AAMAAABkAAQAAP__"
    with _connect(gateway) as sock, sock.makefile("rb") as stream:
        sock.sendall(f"GET /health HTTP/1.1\r\nhost: gateway\r\n{upgrade}\r\n\r\n".encode())
        status, headers, body = _read(stream)
        assert status == 200 and json.loads(body)["status"] == "ok" and headers["connection"] == "close"
        assert _closed(sock)


def test_a_slow_body_holds_no_place_and_the_limit_answers_429(serve: Callable[..., Gateway]) -> None:
    gateway = serve("--emulate", "always", "--max-concurrent", "1")
    gateway.upstream.reply(Reply(text="Slow.", delay=1.5), "Next.")
    with _connect(gateway) as slow, _connect(gateway) as busy, busy.makefile("rb") as stream:
        slow.sendall(_post(BODY[:10], f"content-length: {len(BODY)}"))  # the rest never comes
        busy.sendall(_post(BODY, f"content-length: {len(BODY)}"))  # takes the one place for 1.5 s
        time.sleep(0.5)
        refused = httpx.post(f"{gateway.v1}/chat/completions", content=BODY, timeout=10)
        assert refused.status_code == 429 and "limit 1" in refused.json()["error"]["message"]
        status, _, body = _read(stream)
        assert status == 200 and json.loads(body)["choices"][0]["message"]["content"] == "Slow."
    answer = httpx.post(f"{gateway.v1}/chat/completions", content=BODY, timeout=10)
    assert answer.json()["choices"][0]["message"]["content"] == "Next."


def test_a_stream_to_an_http_1_0_client_ends_with_the_connection_not_in_chunks(gateway: Gateway) -> None:
    gateway.upstream.reply("Streamed to an old client.")
    body = json.dumps({"model": "m", "messages": ASK, "stream": True}).encode()
    with _connect(gateway) as sock:
        head = f"POST /v1/chat/completions HTTP/1.0\r\ncontent-length: {len(body)}\r\n\r\n"
        sock.sendall(head.encode() + body)
        received = b""
        while piece := sock.recv(65536):  # until the server closes
            received += piece
    head_part, _, events = received.partition(b"\r\n\r\n")
    assert b"transfer-encoding" not in head_part.lower() and b"connection: close" in head_part
    lines = [line for line in events.decode().split("\n") if line.startswith("data: ")]
    assert lines[-1] == "data: [DONE]"
    text = "".join(json.loads(line[6:])["choices"][0]["delta"].get("content") or "" for line in lines[:-1])
    assert text == "Streamed to an old client."
