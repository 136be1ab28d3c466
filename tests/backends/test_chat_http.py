"""The chat stream read without the SDK: events and error bodies, as the `openai` SDK reads them."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest

from asi_agent.backends.chat_http import StatusError, StreamedError, sse_data, status_error


async def events(raw: bytes) -> list[Any]:
    return [data async for data in sse_data(httpx2.Response(200, content=raw))]


async def test_events_are_read_up_to_done_whatever_the_line_endings():
    raw = (
        b": keep-alive ping\r\n\r\n"
        b'data: {"n": 1}\r\n\r\n'
        b'data:{"n": 2}\n\n'
        b'data: {"n":\ndata: 3}\r\r'  # a value split over two data lines
        b"data: [DONE]\n\n"
        b'data: {"n": 4}\n\n'
    )
    assert await events(raw) == [{"n": 1}, {"n": 2}, {"n": 3}]


async def test_events_without_data_are_skipped_and_an_unfinished_last_event_is_dropped():
    assert await events(b"event: ping\n\nid: 7\n\n" + b'data: {"n": 1}\n\n' + b'data: {"n": 2}') == [{"n": 1}]


async def test_a_named_event_comes_wrapped_with_its_name():
    raw = b'event: notice\ndata: {"n": 1}\n\nevent: response.delta\ndata: {"n": 2}\n\n'
    assert await events(raw) == [{"data": {"n": 1}, "event": "notice"}, {"n": 2}]


@pytest.mark.parametrize(
    "raw",
    [
        b'data: {"error": {"message": "out of memory", "code": 500}}\n\n',
        b'event: error\ndata: {"error": {"message": "out of memory"}}\n\n',
    ],
)
async def test_an_error_event_raises_with_the_servers_message(raw: bytes):
    with pytest.raises(StreamedError) as caught:
        await events(b'data: {"n": 1}\n\n' + raw)
    assert caught.value.message == "out of memory"


async def test_an_error_event_without_a_message_still_says_something():
    with pytest.raises(StreamedError) as caught:
        await events(b'data: {"error": {"type": "server_error"}}\n\n')
    assert str(caught.value)


async def test_malformed_data_is_a_json_error():
    with pytest.raises(json.JSONDecodeError):
        await events(b'data: {"n": 1}\n\ndata: {"n": \n\n')


async def test_an_error_status_keeps_the_error_object_its_code_and_headers():
    body = {"error": {"message": "The model `x` does not exist", "code": "model_not_found"}}
    response = httpx2.Response(404, json=body, headers={"Retry-After": "3"})

    error = await status_error(response)

    assert isinstance(error, StatusError)
    assert (error.status, error.code) == (404, "model_not_found")
    assert error.message == "The model `x` does not exist"
    assert error.headers["retry-after"] == "3"


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"Bad Gateway\n", "Bad Gateway"), (b"", "Error code: 502"), (b'{"detail": "busy"}', "busy")],
)
async def test_an_error_status_with_a_plain_or_empty_body(content: bytes, message: str):
    error = await status_error(httpx2.Response(502, content=content))
    assert (error.message, error.code) == (message, None)
