"""Model-server faults against the local test servers: each ends in a retry or a one-line error, in time.

Both HTTP backends are driven through the same cases (parametrised by `protocol`): the OpenAI-compatible
server streams SSE, the Ollama server NDJSON; the fault modes are those of `servers/scripted_http.py`.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from asi_cli import model_free_env
from servers.openai_server import OpenAIServer
from servers.scripted_http import Fault, Reply, ScriptedServer

from asi_agent.backends.ollama import OllamaBackend
from asi_agent.backends.openai import OpenAIBackend
from asi_agent.config import load_config
from asi_agent.exceptions import BackendError
from asi_agent.messages import Message
from asi_agent.providers import create_backend

USER = [Message("user", "Show me a.py")]

Backend = OpenAIBackend | OllamaBackend
Setup = tuple[ScriptedServer, Callable[..., Backend]]


def one_line(error: BaseException) -> str:
    text = str(error)
    assert "\n" not in text and "Traceback" not in text
    return text


async def test_500_and_429_without_retry_after_are_retried(setup: Setup):
    server, make = setup
    server.fail_next(1, status=500)
    server.fail_next(1, status=429)
    server.reply("recovered")
    waits: list[float] = []
    backend = make()
    backend.on_retry = lambda wait, error: waits.append(wait)

    assert (await backend.complete(USER)).text == "recovered"

    assert len(server.chat_bodies) == 3
    assert len(waits) == 2 and all(0 < wait < 0.1 for wait in waits)


async def test_429_with_retry_after_waits_as_asked(setup: Setup):
    server, make = setup
    server.fail_next(1, status=429, retry_after=0.5)
    server.reply("after the wait")

    started = time.monotonic()
    assert (await make(retry_backoff=0.0).complete(USER)).text == "after the wait"
    assert time.monotonic() - started >= 0.5


async def test_a_retry_after_beyond_the_deadline_is_not_waited_for(setup: Setup):
    server, make = setup
    server.fail_next(1, status=429, retry_after=30)
    server.reply("never reached")

    started = time.monotonic()
    with pytest.raises(BackendError) as caught:
        await make(request_timeout=2.0).complete(USER)

    assert time.monotonic() - started < 1.5
    assert "429" in one_line(caught.value) and "request_timeout" in str(caught.value)


async def test_a_connection_dropped_before_any_text_is_retried(setup: Setup):
    server, make = setup
    server.reply(Reply(text="lost", fault="drop", fault_after=0), "second try")

    assert (await make().complete(USER)).text == "second try"
    assert len(server.chat_bodies) == 2


async def test_a_connection_dropped_mid_reply_is_one_line_error(setup: Setup):
    server, make = setup
    server.reply(Reply(text="This reply is lost half way through", fault="drop", fault_after=2), "unused")
    shown: list[str] = []

    with pytest.raises(BackendError) as caught:
        await make().complete(USER, on_delta=shown.append)

    assert shown, "some text arrived before the drop"
    assert "dropped the connection mid-reply" in one_line(caught.value)
    assert len(server.chat_bodies) == 1  # text already shown is never shown twice


async def test_a_stream_that_stops_sending_fails_after_the_idle_timeout(setup: Setup):
    server, make = setup
    server.reply(Reply(text="I am about to stop talking", fault="stall", fault_after=2))

    started = time.monotonic()
    with pytest.raises(BackendError) as caught:
        await make(idle_timeout=0.5, max_retries=0).complete(USER, on_delta=lambda _: None)

    assert 0.4 < time.monotonic() - started < 3
    assert "stopped sending its reply for 0.5 s (idle_timeout)" in one_line(caught.value)


async def test_malformed_stream_data_is_one_line_error(setup: Setup):
    server, make = setup
    server.reply(Reply(text="Half a reply, then garbage", fault="malformed", fault_after=2))

    with pytest.raises(BackendError) as caught:
        await make(max_retries=0).complete(USER, on_delta=lambda _: None)

    message = one_line(caught.value)
    assert "malformed" in message or "not JSON" in message


async def test_a_reply_that_never_ends_is_cut_at_the_token_limit(setup: Setup):
    server, make = setup
    server.reply(Reply(text="Working.", fault="endless"))

    started = time.monotonic()
    completion = await make(max_tokens=50).complete(USER)

    assert time.monotonic() - started < 5
    assert completion.finish_reason == "length"
    assert completion.text.startswith("Wor") and "Step 3: still going." in completion.text
    assert len(completion.text) < 1000  # cut at about twice the limit (~4 characters a token)


async def test_a_reply_that_repeats_itself_is_cut(setup: Setup):
    server, make = setup
    server.reply(Reply(text="Let me read it.", fault="loop"))

    completion = await make(max_tokens=100_000).complete(USER)

    assert completion.finish_reason == "repetition"
    assert completion.text.count("I will read the file now.") >= 40
    assert len(completion.text) < 5000


async def test_a_slow_endless_reply_ends_at_the_request_timeout(setup: Setup):
    server, make = setup
    server.reply(Reply(text="Slowly.", fault="endless", interval=0.05))

    started = time.monotonic()
    with pytest.raises(BackendError) as caught:
        await make(max_tokens=100_000, request_timeout=1.0).complete(USER, on_delta=lambda _: None)

    assert 0.9 < time.monotonic() - started < 3
    assert "did not finish its reply within 1 s (request_timeout)" in one_line(caught.value)


@pytest.mark.parametrize(("reason", "expected"), [("length", "length"), ("content_filter", "content_filter")])
async def test_finish_reason_is_read(setup: Setup, reason: str, expected: str):
    server, make = setup
    server.reply(Reply(text="Cut here", finish_reason=reason, completion_tokens=256))

    assert (await make(max_tokens=256).complete(USER)).finish_reason == expected


async def test_a_length_stop_far_below_max_tokens_means_the_context_is_full(setup: Setup):
    server, make = setup
    server.reply(Reply(text="Cut early", finish_reason="length", completion_tokens=40))

    assert (await make(max_tokens=1024).complete(USER)).finish_reason == "context_full"


async def test_max_tokens_is_sent_with_every_request(setup: Setup):
    server, make = setup
    server.reply("one", "two")
    backend = make(max_tokens=321)

    await backend.complete(USER)
    await backend.complete(USER)

    for body in server.chat_bodies:
        sent = body.get("max_tokens") or body.get("options", {}).get("num_predict")
        assert sent == 321


async def test_a_different_model_name_in_the_reply_is_logged_once(
    setup: Setup, caplog: pytest.LogCaptureFixture
):
    server, make = setup
    server.reply(Reply(text="a", model="other-model"), Reply(text="b", model="other-model"))
    backend = make()

    await backend.complete(USER)
    await backend.complete(USER)

    warnings = [r.getMessage() for r in caplog.records if "answered as" in r.getMessage()]
    assert (
        warnings == [warnings[0]]
        and "asked" in warnings[0]
        and "'test-model' but it answered as 'other-model'" in warnings[0]
    )


async def test_the_same_model_under_a_longer_name_is_not_a_mismatch(
    setup: Setup, caplog: pytest.LogCaptureFixture
):
    server, make = setup
    server.reply(Reply(text="a", model="test-model-2025-01-01"))

    await make().complete(USER)

    assert not [r for r in caplog.records if "answered as" in r.getMessage()]


@pytest.mark.parametrize("fault", ["stall", "drop", "malformed"])
def test_the_cli_ends_a_broken_stream_with_one_line_and_exit_1(tmp_path: Path, fault: Fault):
    root = tmp_path / "project"
    (root / ".asi").mkdir(parents=True)
    (root / ".asi" / "config.toml").write_text("idle_timeout = 1\nrequest_timeout = 20\nmax_retries = 1\n")
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(tmp_path / "user-config")
    with OpenAIServer() as server:
        server.reply(Reply(text="This reply breaks half way", fault=fault, fault_after=2))
        started = time.monotonic()
        proc = subprocess.run(
            [
                *(sys.executable, "-m", "asi_agent", "run", "--provider", "openai"),
                *(
                    "--base-url",
                    server.base_url,
                    "--model",
                    "test-model",
                    "--output-format",
                    "json",
                    "say hello",
                ),
            ],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=90,
            check=False,
        )
    assert time.monotonic() - started < 50  # idle_timeout 1 s; the rest is start-up on a busy machine
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    errors = [line for line in proc.stderr.splitlines() if line.startswith("asi-agent: error:")]
    assert len(errors) == 1, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["status"] == "ERROR" and result["error"] in errors[0]


async def test_max_tokens_and_timeouts_come_from_the_config(
    setup: Setup, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    server, _ = setup
    monkeypatch.setenv("ASI_CONFIG_DIR", str(tmp_path / "user-config"))  # no person's config.toml
    provider = "openai" if isinstance(server, OpenAIServer) else "ollama"
    url = server.base_url if isinstance(server, OpenAIServer) else server.root_url
    (tmp_path / ".asi").mkdir()
    (tmp_path / ".asi" / "config.toml").write_text("max_tokens = 99\nidle_timeout = 0.5\nmax_retries = 0\n")
    config = load_config(tmp_path, {"provider": provider, "base_url": url, "model": "test-model"}, env={})
    backend = create_backend(config)
    server.reply("bounded", Reply(text="then silent", fault="stall"))

    await backend.complete(USER)
    started = time.monotonic()
    with pytest.raises(BackendError, match=r"0\.5 s \(idle_timeout\)"):
        await backend.complete(USER, on_delta=lambda _: None)
    await backend.aclose()

    assert time.monotonic() - started < 3
    body = server.chat_bodies[0]
    assert (body.get("max_tokens") or body["options"]["num_predict"]) == 99


async def test_a_stream_closed_early_without_a_finish_reason_is_retried_or_an_error(setup: Setup):
    server, make = setup
    server.reply(Reply(text="gone", fault="close", fault_after=0), "second try")
    server.reply(Reply(text="This one ends half way", fault="close", fault_after=2))
    backend = make()

    assert (await backend.complete(USER)).text == "second try"
    with pytest.raises(BackendError) as caught:
        await backend.complete(USER, on_delta=lambda _: None)

    assert "ended the stream before the reply was complete" in one_line(caught.value)
