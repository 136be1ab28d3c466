"""A streaming client that goes away stops the upstream request behind it, and the request is still
logged (the gateway answers streams through its own HTTP server, not a framework's); the text-mode
contract, rendered once per tool set, still follows each request's tools; unknown paths and methods
are refused as before; answer and call ids keep their prefixes and lengths."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx2 as httpx  # the project's HTTP client
from servers.openai_server import Reply

from gateway.conftest import Gateway
from gateway.test_openai_sdk import ASK, GREP, READ


def _logged(gateway: Gateway) -> list[dict[str, object]]:
    return gateway.entries()


def test_a_client_that_hangs_up_mid_stream_stops_the_upstream_request(gateway: Gateway) -> None:
    # An upstream that streams until its client hangs up: at this pace, 4096 tokens take minutes.
    gateway.upstream.reply(Reply(text="", fault="endless", fault_after=1, interval=0.05))
    body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": "Count."}]}

    with (
        httpx.Client(timeout=10) as client,
        client.stream("POST", f"{gateway.v1}/chat/completions", json=body) as reply,
    ):
        assert reply.status_code == 200
        for line in reply.iter_lines():
            if "still going" in line:
                break  # the first text is here: hang up
    hung_up = time.monotonic()

    while not _logged(gateway) and time.monotonic() - hung_up < 5:
        time.sleep(0.05)
    (entry,) = _logged(gateway)
    assert entry["stream"] is True and entry["api"] == "openai"
    assert float(entry["ms"]) < 5000  # type: ignore[arg-type]
    # The upstream connection was closed too: the server's endless stream ended when its write failed.
    count = len(gateway.upstream.chat_bodies)
    assert gateway.process.poll() is None  # and the gateway is still serving
    gateway.upstream.reply("still here")
    with httpx.Client(timeout=10) as client:
        answer = client.post(f"{gateway.v1}/chat/completions", json=body | {"stream": False})
    assert answer.json()["choices"][0]["message"]["content"] == "still here"
    assert len(gateway.upstream.chat_bodies) == count + 1


def test_the_contract_follows_the_tools_of_each_request(gateway: Gateway) -> None:
    # The contract is rendered once per tool set: a request with other tools (or another description)
    # must still be shown its own.
    renamed = {"type": "function", "function": {**READ["function"], "description": "Show a file's lines"}}
    tool_sets = [[READ], [GREP], [READ], [renamed]]
    gateway.upstream.reply(*["Nothing to do."] * len(tool_sets))
    with httpx.Client(timeout=10) as client:
        for tools in tool_sets:
            body = {"model": "m", "messages": ASK, "tools": tools}
            assert client.post(f"{gateway.v1}/chat/completions", json=body).status_code == 200
    systems = [body["messages"][0]["content"] for body in gateway.upstream.chat_bodies]
    assert ["read_file" in s and "grep" not in s for s in systems] == [True, False, True, True]
    assert ["Search files" in s for s in systems] == [False, True, False, False]
    assert ["Show a file's lines" in s for s in systems] == [False, False, False, True]


def test_unknown_paths_and_wrong_methods_are_refused_plainly(gateway: Gateway) -> None:
    with httpx.Client(timeout=10) as client:
        missing = client.get(f"{gateway.url}/v1/nothing-here")
        wrong = client.get(f"{gateway.v1}/chat/completions")
        head = client.head(f"{gateway.url}/health")
        health = client.get(f"{gateway.url}/health")
    assert (missing.status_code, missing.text) == (404, "Not Found")
    assert (wrong.status_code, wrong.headers["allow"]) == (405, "POST")
    assert head.status_code == 200 and head.content == b""
    assert health.json()["status"] == "ok"


def test_bodies_the_fast_json_reader_refuses_are_read_as_before(gateway: Gateway) -> None:
    # NaN is JSON to Python's reader (not to orjson): the request is answered (the field is one the
    # gateway does not forward).
    gateway.upstream.reply("read")
    nan = '{"model": "m", "metadata": {"score": NaN}, "messages": [{"role": "user", "content": "half"}]}'
    headers = {"content-type": "application/json"}
    with httpx.Client(timeout=10) as client:
        for body in (nan,):
            answer = client.post(f"{gateway.v1}/chat/completions", content=body, headers=headers)
            assert answer.status_code == 200, answer.text
            assert answer.json()["choices"][0]["message"]["content"] == "read"
        broken = client.post(f"{gateway.v1}/chat/completions", content="{'model': 1}", headers=headers)
    assert broken.status_code == 400
    # The message is Python's reader's, as it always was.
    assert "Expecting property name enclosed in double quotes" in broken.json()["error"]["message"]
    assert gateway.upstream.chat_bodies[0]["messages"][-1]["content"] == "half"


def test_every_request_writes_one_json_log_line_in_the_same_form(gateway: Gateway) -> None:
    gateway.upstream.reply("one", "two")
    with httpx.Client(timeout=10) as client:
        for _ in range(2):
            body = {"model": "m", "messages": ASK}
            assert client.post(f"{gateway.v1}/chat/completions", json=body).status_code == 200
    entries = _logged(gateway)
    assert [entry["status"] for entry in entries] == [200, 200]
    lines = [line for line in gateway.log_lines() if line.startswith("{")]
    # `json.dumps` spacing, one line each, on stderr with the server's other lines.
    assert all(line.startswith('{"api": "openai", "path": "/v1/chat/completions", ') for line in lines)


def test_every_streamed_event_is_compact_json_as_the_apis_write_it(gateway: Gateway) -> None:
    # Text deltas (written from a prefix encoded once per stream) and the events encoded whole read the
    # same: JSON without spaces (as OpenAI and Anthropic write their streams), the text kept exactly.
    text = 'Line "one"\n\ttwo — ü {x}.\n'
    reply = text + '[TOOL_CALL]read_file[ARGS]{"path": "a b.py"}'
    tool = {"name": "read_file", "input_schema": READ["function"]["parameters"]}  # type: ignore[index]
    responses_tool = {"type": "function", **READ["function"]}  # type: ignore[dict-item]
    requests = {
        "chat/completions": {"model": "m", "stream": True, "messages": ASK, "tools": [READ]},
        "messages": {"model": "m", "stream": True, "max_tokens": 9, "messages": ASK, "tools": [tool]},
        "responses": {"model": "m", "stream": True, "input": "What does a.py do?", "tools": [responses_tool]},
    }
    gateway.upstream.reply(*[reply] * len(requests))
    with httpx.Client(timeout=10) as client:
        for path, body in requests.items():
            answer = client.post(f"{gateway.v1}/{path}", json=body)
            assert answer.status_code == 200, answer.text
            datas = [line[6:] for line in answer.text.split("\n") if line.startswith("data: ")]
            events = [json.loads(data) for data in datas if data != "[DONE]"]
            for data, event in zip([d for d in datas if d != "[DONE]"], events, strict=True):
                assert data == json.dumps(event, ensure_ascii=False, separators=(",", ":")), data
            assert text.strip() in "".join(_streamed_text(event) for event in events), path
            assert '"a b.py"' in answer.text.replace('\\"', '"'), path


def _streamed_text(event: dict[str, Any]) -> str:
    """The visible text a Chat Completions, Messages or Responses stream event carries."""
    if "choices" in event:
        return str(event["choices"][0]["delta"].get("content") or "")
    if event.get("type") == "content_block_delta":
        return str(event["delta"].get("text", ""))
    return str(event["delta"]) if event.get("type") == "response.output_text.delta" else ""


def test_answer_and_call_ids_keep_their_prefixes_and_lengths(gateway: Gateway) -> None:
    # Ids come from one seeded generator, written as bytes' hex: same alphabet and lengths as before.
    reply = 'Reading.\n[TOOL_CALL]read_file[ARGS]{"path": "a.py"}'
    gateway.upstream.reply(reply, reply, reply, reply)
    tool = {"name": "read_file", "input_schema": READ["function"]["parameters"]}  # type: ignore[index]
    with httpx.Client(timeout=10) as client:
        chats = [
            client.post(
                f"{gateway.v1}/chat/completions", json={"model": "m", "messages": ASK, "tools": [READ]}
            )
            for _ in range(2)
        ]
        messages = [
            client.post(
                f"{gateway.v1}/messages",
                json={"model": "m", "max_tokens": 9, "messages": ASK, "tools": [tool]},
            )
            for _ in range(2)
        ]
    chat_ids = [answer.json()["id"] for answer in chats]
    call_ids = [answer.json()["choices"][0]["message"]["tool_calls"][0]["id"] for answer in chats]
    message_ids = [answer.json()["id"] for answer in messages]
    use_ids = [answer.json()["content"][-1]["id"] for answer in messages]
    assert all(re.fullmatch(r"chatcmpl-[0-9a-f]{24}", found) for found in chat_ids), chat_ids
    assert all(re.fullmatch(r"msg_[0-9a-f]{24}", found) for found in message_ids), message_ids
    assert all(re.fullmatch(r"call_[0-9a-f]{12}", found) for found in call_ids), call_ids
    assert all(re.fullmatch(r"toolu_[0-9a-f]{12}", found) for found in use_ids), use_ids
    assert len({*chat_ids, *message_ids, *call_ids, *use_ids}) == 8
