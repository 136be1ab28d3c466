"""`asi-agent serve` as a service: the Responses API, models, health and metrics, the trust boundary
(token with --host), limits with clear errors, native passthrough, and a request log that never shows
the upstream key."""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx2 as httpx  # the project's HTTP client
import openai
import pytest
from servers.openai_server import Call, Reply

from gateway.conftest import Gateway, final_response, openai_client
from gateway.test_openai_sdk import ASK, READ

FAKE_KEY = "sk-fake-upstream-secret-0123456789"
RESPONSES_TOOL = {"type": "function", **READ["function"]}  # type: ignore[dict-item]


def test_responses_api_non_stream_and_stream(gateway: Gateway) -> None:
    gateway.upstream.reply('[TOOL_CALL]read_file[ARGS]{"path": "a.py"}', "It prints hello.")
    sdk = openai.OpenAI(base_url=gateway.v1, api_key="unused", max_retries=0)
    first = sdk.responses.create(
        model="m", instructions="Be brief.", input="What does a.py do?", tools=[RESPONSES_TOOL]
    )  # type: ignore[list-item]
    (call,) = [item for item in first.output if item.type == "function_call"]
    assert call.name == "read_file" and json.loads(call.arguments) == {"path": "a.py"}
    history = [
        {"role": "user", "content": "What does a.py do?"},
        {"type": "function_call", "call_id": call.call_id, "name": "read_file", "arguments": call.arguments},
        {"type": "function_call_output", "call_id": call.call_id, "output": "print('hello')"},
    ]
    with sdk.responses.stream(model="m", input=history, tools=[RESPONSES_TOOL]) as stream:  # type: ignore[arg-type,list-item]
        final = stream.get_final_response()
    assert final.output_text == "It prints hello."
    sent = "\n".join(m["content"] for m in gateway.upstream.chat_bodies[-1]["messages"])
    assert f"[TOOL_RESULT read_file id={call.call_id}]\nprint('hello')" in sent


def test_models_health_and_metrics(gateway: Gateway) -> None:
    gateway.upstream.reply("Hi.")
    sdk = openai.OpenAI(base_url=gateway.v1, api_key="unused", max_retries=0)
    assert [m.id for m in sdk.models.list()] == ["test-model"]
    sdk.chat.completions.create(model="m", messages=ASK, tools=[READ])  # type: ignore[list-item]
    assert httpx.get(f"{gateway.url}/health").json()["status"] == "ok"
    metrics = httpx.get(f"{gateway.url}/metrics").text
    assert "asi_gateway_requests_total 1" in metrics and "asi_gateway_emulated_total 1" in metrics


def test_bad_requests_get_clear_errors_and_the_server_stays_up(serve: Callable[..., Gateway]) -> None:
    gateway = serve("--emulate", "always", "--max-body", "2000")
    url = f"{gateway.url}/v1/chat/completions"
    assert httpx.post(url, content=b"{not json").status_code == 400
    too_big = httpx.post(url, json={"messages": [{"role": "user", "content": "x" * 5000}]})
    assert too_big.status_code == 413 and "limit of 2000 bytes" in too_big.json()["error"]["message"]
    bad = httpx.post(f"{gateway.url}/v1/messages", json={"messages": [{"role": "robot", "content": "x"}]})
    assert bad.status_code == 400 and bad.json()["type"] == "error"
    unknown = httpx.post(
        url, json={"messages": ASK, "tools": [READ], "tool_choice": {"function": {"name": "nope"}}}
    )
    assert unknown.status_code == 400 and "nope" in unknown.json()["error"]["message"]
    gateway.upstream.reply("Still here.")
    assert httpx.post(url, json={"messages": ASK}).json()["choices"][0]["message"]["content"] == "Still here."


def test_a_host_requires_a_token_generated_and_printed_once(serve: Callable[..., Gateway]) -> None:
    gateway = serve("--emulate", "always", "--host", "127.0.0.1")
    (line,) = [line for line in gateway.log_lines() if "asi-agent serve: token" in line]
    token = line.rsplit(" ", 1)[-1]
    sdk = openai.OpenAI(base_url=gateway.v1, api_key="wrong", max_retries=0)
    with pytest.raises(openai.AuthenticationError):
        sdk.chat.completions.create(model="m", messages=ASK)  # type: ignore[arg-type]
    with pytest.raises(openai.AuthenticationError):
        sdk.models.list()
    assert httpx.post(f"{gateway.url}/v1/messages", json={"messages": ASK}).status_code == 401
    assert httpx.get(f"{gateway.url}/health").status_code == 200  # for probes: names the model, nothing else
    gateway.upstream.reply("Allowed.")
    sdk = openai.OpenAI(base_url=gateway.v1, api_key=token, max_retries=0)
    assert sdk.chat.completions.create(model="m", messages=ASK).choices[0].message.content == "Allowed."  # type: ignore[arg-type]


def test_loopback_needs_no_token(gateway: Gateway) -> None:
    gateway.upstream.reply("Open.")
    reply = httpx.post(f"{gateway.url}/v1/chat/completions", json={"messages": ASK})
    assert reply.status_code == 200 and not [
        line for line in gateway.log_lines() if "asi-agent serve: token" in line
    ]


def test_loopback_refuses_other_host_names_and_web_pages(gateway: Gateway) -> None:
    """Without a token, only this machine may use the gateway (and the upstream key behind it): a request
    naming another host (a web page's name rebound to 127.0.0.1) or sent by a web page of another origin
    is refused before it reaches the upstream, on every route; a loopback page and a plain client go on."""
    port = gateway.url.rsplit(":", 1)[1]
    chat = f"{gateway.url}/v1/chat/completions"
    for headers in ({"Host": f"attacker.example:{port}"}, {"Origin": "http://attacker.example"},
                    {"Origin": "null"}):  # fmt: skip
        assert httpx.post(chat, json={"messages": ASK}, headers=headers).status_code == 403
        for path in ("/v1/models", "/metrics", "/health"):
            assert httpx.get(f"{gateway.url}{path}", headers=headers).status_code == 403
    assert [r.path for r in gateway.upstream.requests if r.method == "POST"] == []
    gateway.upstream.reply("Local.")
    local = {"Host": f"localhost:{port}", "Origin": f"http://localhost:{port}"}
    assert httpx.post(chat, json={"messages": ASK}, headers=local).status_code == 200


def test_with_a_token_metrics_need_it_and_health_stays_open(serve: Callable[..., Gateway]) -> None:
    """With a token every route but `/health` needs it: `/metrics` tells who uses the gateway how much;
    `/health` (for probes) says only that it is up and which model it serves."""
    gateway = serve("--emulate", "always", env={"ASI_GATEWAY_TOKEN": "tok-0123"})
    assert httpx.get(f"{gateway.url}/metrics").status_code == 401
    assert httpx.get(f"{gateway.url}/v1/models").status_code == 401
    authorised = {"Authorization": "Bearer tok-0123"}
    assert httpx.get(f"{gateway.url}/metrics", headers=authorised).status_code == 200
    assert httpx.get(f"{gateway.url}/health").json()["status"] == "ok"


def test_the_upstream_key_is_never_echoed_or_logged(serve: Callable[..., Gateway]) -> None:
    gateway = serve("--emulate", "always", env={"ASI_API_KEY": FAKE_KEY})
    gateway.upstream.fail_next(1, status=401)
    failed = httpx.post(f"{gateway.url}/v1/chat/completions", json={"messages": ASK})
    assert failed.status_code == 502 and FAKE_KEY not in failed.text
    gateway.upstream.reply("Fine.")
    assert (
        httpx.post(f"{gateway.url}/v1/messages", json={"messages": ASK, "max_tokens": 9}).status_code == 200
    )
    assert FAKE_KEY not in gateway.log.read_text(encoding="utf-8")
    headers = {k.lower(): v for k, v in gateway.upstream.requests[-1].headers.items()}
    assert headers["authorization"] == f"Bearer {FAKE_KEY}"  # it was used, only not shown


def test_native_passthrough_when_the_upstream_takes_tools(serve: Callable[..., Gateway]) -> None:
    gateway = serve("--emulate", "never")
    gateway.upstream.reply(Reply(calls=[Call("read_file", {"path": "a.py"}, id="call_up")]))
    sdk = openai.OpenAI(base_url=gateway.v1, api_key="unused", max_retries=0)
    reply = sdk.chat.completions.create(model="m", messages=ASK, tools=[READ])  # type: ignore[list-item]
    assert reply.choices[0].message.tool_calls[0].id == "call_up"  # type: ignore[index]
    body = gateway.upstream.chat_bodies[-1]
    assert body["tools"][0]["function"]["name"] == "read_file"
    assert "[TOOL_CALL]" not in json.dumps(body["messages"])
    logged = gateway.entries()
    assert logged[-1]["emulated"] is False


def test_otel_spans_when_the_standard_variables_ask(serve: Callable[..., Gateway]) -> None:
    otel = {"OTEL_TRACES_EXPORTER": "console", "OTEL_SERVICE_NAME": "gw-test"}
    gateway = serve("--emulate", "always", env=otel)
    gateway.upstream.reply("Traced.")
    assert httpx.post(f"{gateway.url}/v1/chat/completions", json={"messages": ASK}).status_code == 200
    log = gateway.log.read_text(encoding="utf-8")
    assert '"name": "gateway.request"' in log and "gw-test" in log


def test_no_spans_without_the_variables(gateway: Gateway) -> None:
    gateway.upstream.reply("Quiet.")
    assert httpx.post(f"{gateway.url}/v1/chat/completions", json={"messages": ASK}).status_code == 200
    assert '"name": "gateway.request"' not in gateway.log.read_text(encoding="utf-8")


@pytest.mark.parametrize("stream", [False, True])
def test_responses_free_form_tools_come_back_as_custom_tool_calls(gateway: Gateway, stream: bool) -> None:
    patch = "*** Begin Patch\n*** Update File: a.py\n-x\n+y\n*** End Patch"
    gateway.upstream.reply("[TOOL_CALL]apply_patch[ARGS]" + json.dumps({"input": patch}))
    tool = {"type": "custom", "name": "apply_patch", "description": "Edit files", "format": {"type": "text"}}
    reply = final_response(openai_client(gateway), stream=stream, model="m", input="fix a.py", tools=[tool])
    (call,) = reply.output
    assert call.type == "custom_tool_call" and call.name == "apply_patch" and call.input == patch
    assert "apply_patch(input: string)" in gateway.upstream.chat_bodies[-1]["messages"][0]["content"]
