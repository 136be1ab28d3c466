"""The first chat request sent ahead at start-up (asi_agent/prefetch.py) and adopted by the backend
(asi_agent/backends/adopt.py): real `asi-agent run` processes against the real local test servers."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from asi_cli import model_free_env
from servers.ollama_server import OllamaServer
from servers.openai_server import OpenAIServer, Reply

CACHE = Path(".asi/cache/first-request.json")
DONE = "Nothing to do.\nAGENT_STATUS: DONE"
HEAVY = ("asyncio", "pydantic", "httpx", "httpx2", "openai", "ollama")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "hello.py").write_text("print('hello')\n")
    return root


def _env(project: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(project.parent / "user-config")
    return env | (extra or {})


def _argv(provider: str, url: str, task: str) -> list[str]:
    return [
        "run", "--provider", provider, "--base-url", url, "--model", "test-model",
        "--approval", "plan", "--output-format", "json", task,
    ]  # fmt: skip


def _run(project: Path, argv: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "asi_agent", *argv],
        cwd=project,
        env=_env(project, env),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    result: dict[str, Any] = json.loads(proc.stdout.splitlines()[-1])
    result["exit"] = proc.returncode
    return result


def _chats(server: OpenAIServer | OllamaServer) -> list[Any]:
    return [r.body for r in server.requests if r.path == server.chat_path]


def _user_message(body: Any) -> str:
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


def _order(server: OpenAIServer | OllamaServer) -> list[str]:
    return [r.path for r in server.requests]


def test_a_second_run_sends_its_first_request_ahead_and_adopts_the_reply(
    openai_server: OpenAIServer, project: Path
):
    openai_server.reply(DONE, DONE)
    first = _run(project, _argv("openai", openai_server.base_url, "say hello"))
    assert first["status"] == "DONE"
    assert _order(openai_server)[0] == "/props", "the first run has nothing to send ahead"
    assert (project / CACHE).is_file()
    openai_server.requests.clear()

    second = _run(project, _argv("openai", openai_server.base_url, 'a different task, «ünïcode» "quoted"'))

    assert second["status"] == "DONE", second
    chats = _chats(openai_server)
    assert len(chats) == 1, "the request sent ahead was adopted: no second chat request"
    assert _user_message(chats[0]) == 'a different task, «ünïcode» "quoted"'
    # It left before the backend existed: before the tool-mode probe (/props) that the backend makes.
    assert _order(openai_server)[0] == "/v1/chat/completions"
    assert openai_server.replies_used == 2


def test_in_a_git_repository_the_second_run_is_sent_ahead_too(openai_server: OpenAIServer, project: Path):
    """Reading the status for the prompt makes git rewrite its index file, one of the inputs of the
    key: the request is recorded under the inputs as they are after it was made."""
    for command in (
        ["init", "-q"],
        ["add", "."],
        ["-c", "user.name=t", "-c", "user.email=t@x", "commit", "-qm", "a"],
    ):
        subprocess.run(["git", *command], cwd=project, check=True, capture_output=True)
    openai_server.reply(DONE, DONE)
    assert _run(project, _argv("openai", openai_server.base_url, "one"))["status"] == "DONE"
    openai_server.requests.clear()

    assert _run(project, _argv("openai", openai_server.base_url, "two"))["status"] == "DONE"

    assert _order(openai_server)[0] == "/v1/chat/completions"
    assert [_user_message(body) for body in _chats(openai_server)] == ["two"]


def test_a_task_on_standard_input_is_sent_ahead_too(openai_server: OpenAIServer, project: Path):
    openai_server.reply(DONE, DONE)
    argv = _argv("openai", openai_server.base_url, "-")
    for task in ("the first task", "the second task"):
        proc = subprocess.run(
            [sys.executable, "-m", "asi_agent", *argv],
            input=f"{task}\n", cwd=project, env=_env(project), capture_output=True, text=True, timeout=120,
            check=False,
        )  # fmt: skip
        assert json.loads(proc.stdout.splitlines()[-1])["status"] == "DONE", proc.stderr
        if task == "the first task":
            openai_server.requests.clear()

    assert _order(openai_server)[0] == "/v1/chat/completions"
    assert [_user_message(body) for body in _chats(openai_server)] == ["the second task"]


def test_ollama_runs_adopt_the_request_sent_ahead_too(project: Path):
    with OllamaServer(models=["test-model"]) as server:
        server.reply(DONE, DONE)
        assert _run(project, _argv("ollama", server.host, "one"))["status"] == "DONE"
        server.requests.clear()
        assert _run(project, _argv("ollama", server.host, "two"))["status"] == "DONE"
        assert _order(server)[0] == "/api/chat"
        assert [_user_message(body) for body in _chats(server)] == ["two"]


def test_a_request_that_turns_out_different_is_aborted_and_the_real_one_answered(
    openai_server: OpenAIServer, project: Path
):
    """The tool-mode probe runs after the request left: when it changes the request, a reply is wasted."""
    openai_server.reply(DONE, DONE, DONE)
    assert _run(project, _argv("openai", openai_server.base_url, "first"))["status"] == "DONE"
    openai_server.requests.clear()
    openai_server.props = {"chat_template_caps": {"supports_tools": False}}  # now: text mode

    result = _run(project, _argv("openai", openai_server.base_url, "second"))

    assert result["status"] == "DONE", result
    ahead, real = _chats(openai_server)
    assert "tools" in ahead, "the request sent ahead was the recorded native one"
    assert "tools" not in real, "the real request (text mode) was sent and answered"
    assert _user_message(ahead) == "second"
    assert openai_server.replies_used == 3


def test_an_error_status_of_the_adopted_request_is_retried_as_usual(
    openai_server: OpenAIServer, project: Path
):
    openai_server.reply(DONE, DONE)
    assert _run(project, _argv("openai", openai_server.base_url, "first"))["status"] == "DONE"
    openai_server.requests.clear()
    openai_server.fail_next(1, status=503, retry_after=0)

    result = _run(project, _argv("openai", openai_server.base_url, "second"))

    assert result["status"] == "DONE", result
    assert len(_chats(openai_server)) == 2, "the 503 sent ahead was adopted, then retried like any 503"
    assert _order(openai_server)[0] == "/v1/chat/completions"


def test_no_secret_is_written_and_the_key_is_sent_ahead_from_the_configuration(
    openai_server: OpenAIServer, project: Path
):
    secret = "sk-test-0123456789abcdef-secret"
    openai_server.api_key = secret
    openai_server.reply(DONE, DONE)
    env = {"ASI_API_KEY": secret}
    assert _run(project, _argv("openai", openai_server.base_url, "first"), env)["status"] == "DONE"
    cached = (project / CACHE).read_bytes()
    assert secret.encode() not in cached
    assert b"0123456789abcdef" not in cached
    openai_server.requests.clear()

    result = _run(project, _argv("openai", openai_server.base_url, "second"), env)

    assert result["status"] == "DONE", result
    assert len(_chats(openai_server)) == 1
    assert _order(openai_server)[0] == "/v1/chat/completions"
    assert secret.encode() not in (project / CACHE).read_bytes()


def test_the_setting_turns_it_off(openai_server: OpenAIServer, project: Path):
    (project / ".asi").mkdir()
    (project / ".asi" / "config.toml").write_text("prefetch = false\n")
    openai_server.reply(DONE, DONE)
    for task in ("first", "second"):
        openai_server.requests.clear()
        assert _run(project, _argv("openai", openai_server.base_url, task))["status"] == "DONE"
        assert _order(openai_server)[0] == "/props", "nothing was sent ahead"
    data = json.loads((project / CACHE).read_text()) if (project / CACHE).exists() else {"entries": {}}
    assert data["entries"] == {}


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe not json",
        b"{",
        b"[]",
        b'{"format": 1, "entries": []}',
        b'{"format": 1, "entries": {"k": 5}}',
    ],
)
def test_a_corrupt_cache_is_ignored_and_replaced(openai_server: OpenAIServer, project: Path, content: bytes):
    (project / CACHE).parent.mkdir(parents=True)
    (project / CACHE).write_bytes(content)
    openai_server.reply(DONE)

    assert _run(project, _argv("openai", openai_server.base_url, "task"))["status"] == "DONE"

    assert len(_chats(openai_server)) == 1
    assert json.loads((project / CACHE).read_text())["format"] == 1


@pytest.mark.parametrize(
    "damage",
    [
        {"parts": 5},
        {"parts": [1, 2]},
        {"headers": [[1]]},
        {"headers": [["authorization", None]]},
        {"url": 7},
        {"url": "ftp://127.0.0.1/x"},
        {"method": None, "ascii": "yes"},
        {"headers": [["Bad\r\nName", "v"]]},
    ],
)
def test_a_damaged_entry_with_the_right_key_is_ignored(
    openai_server: OpenAIServer, project: Path, damage: dict[str, Any]
):
    openai_server.reply(DONE, DONE)
    assert _run(project, _argv("openai", openai_server.base_url, "first"))["status"] == "DONE"
    data = json.loads((project / CACHE).read_text())
    (entry,) = data["entries"].values()
    entry.update(damage)
    (project / CACHE).write_text(json.dumps(data))
    openai_server.requests.clear()

    assert _run(project, _argv("openai", openai_server.base_url, "second"))["status"] == "DONE"
    assert [_user_message(body) for body in _chats(openai_server)][-1] == "second"


START = """
import json, sys
from asi_agent import prefetch
first = prefetch.start(json.loads(sys.argv[1]), sys.argv[2], sys.argv[3])
heavy = sorted(name for name in {heavy} if name in sys.modules)
print(json.dumps({{"sent": first is not None and first.sent is not None, "heavy": heavy}}))
"""


def _start(project: Path, argv: list[str], task: str) -> dict[str, Any]:
    """`prefetch.start` in a fresh interpreter, as the command line calls it."""
    code = START.format(heavy=repr(HEAVY))
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), json.dumps(argv), task, str(project)],
        env=_env(project),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def test_sending_ahead_imports_no_heavy_library(openai_server: OpenAIServer, project: Path):
    openai_server.reply(DONE, DONE)
    assert _run(project, _argv("openai", openai_server.base_url, "first"))["status"] == "DONE"

    started = _start(project, _argv("openai", openai_server.base_url, "second"), "second")

    assert started == {"sent": True, "heavy": []}


@pytest.mark.parametrize(
    ("url", "sent"),
    [
        ("http://127.0.0.1:{port}/v1/chat/completions", True),
        ("http://localhost:{port}/v1/chat/completions", True),
        ("http://8.8.8.8:9/v1/chat/completions", False),
        ("http://api.example.com:9/v1/chat/completions", False),
        ("https://127.0.0.1:{port}/v1/chat/completions", False),
    ],
)
def test_only_private_plain_http_servers_get_a_request_ahead(
    openai_server: OpenAIServer, project: Path, url: str, sent: bool
):
    openai_server.reply(DONE, DONE)
    argv = _argv("openai", openai_server.base_url, "first")
    assert _run(project, argv)["status"] == "DONE"
    data = json.loads((project / CACHE).read_text())
    (entry,) = data["entries"].values()
    entry["url"] = url.format(port=openai_server.root_url.rsplit(":", 1)[1])
    (project / CACHE).write_text(json.dumps(data))

    assert _start(project, _argv("openai", openai_server.base_url, "second"), "second")["sent"] is sent


def test_a_public_server_is_not_recorded(project: Path):
    """Claimed in a fresh interpreter: what the backend does with a public URL's first request."""
    code = f"""
    import os
    from asi_agent import prefetch
    first = prefetch.start(["run", "hi"], "hi", {str(project)!r})
    body = b'{{"messages":[{{"role":"user","content":"hi"}}]}}'
    for url in ("https://api.openai.com/v1/chat/completions", "http://93.184.216.34/v1/chat/completions"):
        first.claim("POST", url, [("Host", "x")], body)
    print(os.path.exists(os.path.join({str(project)!r}, ".asi/cache/first-request.json")))
    """
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=_env(project),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert proc.stdout.strip() == "False"


@pytest.mark.parametrize("fault", ["stall", "drop", "malformed"])
def test_an_adopted_reply_that_breaks_ends_as_the_same_reply_would_cold(
    openai_server: OpenAIServer, project: Path, fault: str
):
    """The reply sent ahead is read with the same idle timeout and breaks with the same error."""
    (project / ".asi").mkdir()
    (project / ".asi" / "config.toml").write_text("idle_timeout = 1\nrequest_timeout = 20\nmax_retries = 1\n")
    broken = Reply(text="This reply breaks half way", fault=fault, fault_after=2)  # type: ignore[arg-type]
    openai_server.reply(DONE, broken, broken)
    assert _run(project, _argv("openai", openai_server.base_url, "first"))["status"] == "DONE"
    openai_server.requests.clear()

    warm = _run(project, _argv("openai", openai_server.base_url, "second"))
    assert _order(openai_server)[0] == "/v1/chat/completions", "the broken reply was the one sent ahead"
    (project / CACHE).unlink()
    cold = _run(project, _argv("openai", openai_server.base_url, "second"))

    assert warm["exit"] == cold["exit"] == 1
    assert warm["status"] == cold["status"] == "ERROR"
    assert warm["error"] == cold["error"], (warm["error"], cold["error"])
    assert len(_chats(openai_server)) == 2
