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

DONE = "Nothing to do.\nAGENT_STATUS: DONE"
HEAVY = ("asyncio", "pydantic", "httpx", "httpx2", "openai", "ollama")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "hello.py").write_text("print('hello')\n")
    return root


def _cache(project: Path) -> Path:
    """The recorded first requests: in the user cache folder, below `ASI_CONFIG_DIR` as set by `_env`."""
    return project.parent / "user-config" / "cache" / "first-request.json"


def _env(project: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(project.parent / "user-config")
    return env | (extra or {})


def _argv(provider: str, url: str, task: str) -> list[str]:
    return [
        "run", "--provider", provider, "--base-url", url, "--model", "test-model",
        "--approval", "plan", "--output-format", "json", task,
    ]  # fmt: skip


def _run(
    project: Path, argv: list[str], env: dict[str, str] | None = None, *, user: Path | None = None
) -> dict[str, Any]:
    """`asi-agent ARGV` in `project`; the user configuration is that of `user`'s tests (default: this one)."""
    proc = subprocess.run(
        [sys.executable, "-m", "asi_agent", *argv],
        cwd=project,
        env=_env(user or project, env),
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
    assert _cache(project).is_file()
    openai_server.requests.clear()

    second = _run(project, _argv("openai", openai_server.base_url, 'a different task, «ünïcode» "quoted"'))

    assert second["status"] == "DONE", second
    chats = _chats(openai_server)
    assert len(chats) == 1, "the request sent ahead was adopted: no second chat request"
    assert _user_message(chats[0]) == 'a different task, «ünïcode» "quoted"'
    # It left before the backend existed: before the tool-mode probe (/props) that the backend makes.
    assert _order(openai_server)[0] == "/v1/chat/completions"
    assert openai_server.replies_used == 2


def _git(project: Path, *command: str) -> None:
    who = ["-c", "user.name=t", "-c", "user.email=t@x"]
    subprocess.run(["git", *who, *command], cwd=project, check=True, capture_output=True)


def _system(body: Any) -> str:
    return str(body["messages"][0]["content"])


def test_in_a_git_repository_a_run_after_a_commit_is_sent_ahead_with_the_new_summary(
    openai_server: OpenAIServer, project: Path
):
    """The repository's summary is made afresh for each run: a commit or an uncommitted change does not
    make the recording stale."""
    for command in (["init", "-q"], ["add", "."], ["commit", "-qm", "first commit"]):
        _git(project, *command)
    openai_server.reply(DONE, DONE)
    assert _run(project, _argv("openai", openai_server.base_url, "one"))["status"] == "DONE"
    (project / "hello.py").write_text("print('hello again')\n")
    _git(project, "commit", "-qam", "second commit")
    (project / "fresh.py").write_text("")
    openai_server.requests.clear()

    assert _run(project, _argv("openai", openai_server.base_url, "two"))["status"] == "DONE"

    assert _order(openai_server)[0] == "/v1/chat/completions"
    (chat,) = _chats(openai_server)
    assert _user_message(chat) == "two"
    assert "second commit" in _system(chat)
    assert "Uncommitted changes (1 files): fresh.py" in _system(chat)


KILLED_MID_WRITE = """
import os, signal, sys
from pathlib import Path
from asi_agent.tools.files.journal import Journal
root = Path(sys.argv[1])
before = (root / "hello.py").read_bytes()
with Journal(root / ".asi").change(root / "hello.py", "hello.py", before, b"new", tool="x", session_id="s"):
    (root / ".hello.py.0123abcd.tmp").write_bytes(b"ne")
    os.kill(os.getpid(), signal.SIGKILL)
"""


def test_after_a_killed_write_the_prompt_is_made_again_once_the_journal_settled_it(
    openai_server: OpenAIServer, project: Path
):
    """The prompt sent ahead is made before the journal's recovery: when recovery changes the project
    (here: removes a killed write's temporary file, which git listed), the agent's prompt is made again,
    and the request sent ahead is discarded."""
    for command in (["init", "-q"], ["add", "."], ["commit", "-qm", "first commit"]):
        _git(project, *command)
    openai_server.reply(DONE, DONE, DONE)
    assert _run(project, _argv("openai", openai_server.base_url, "one"))["status"] == "DONE"
    killed = subprocess.run([sys.executable, "-c", KILLED_MID_WRITE, str(project)], check=False)
    assert killed.returncode == -9 and (project / ".hello.py.0123abcd.tmp").exists()
    openai_server.requests.clear()

    assert _run(project, _argv("openai", openai_server.base_url, "two"))["status"] == "DONE"

    ahead, real = _chats(openai_server)
    assert "0123abcd" in _system(ahead)
    assert "0123abcd" not in _system(real) and "Working tree clean." in _system(real)
    assert not (project / ".hello.py.0123abcd.tmp").exists()


def test_the_first_run_in_another_project_is_sent_ahead_with_its_own_prompt(
    openai_server: OpenAIServer, project: Path
):
    openai_server.reply(DONE, DONE)
    assert _run(project, _argv("openai", openai_server.base_url, "one"))["status"] == "DONE"
    other = project.parent / "other"
    other.mkdir()
    (other / "AGENTS.md").write_text("Always answer in haiku.\n")
    openai_server.requests.clear()

    assert _run(other, _argv("openai", openai_server.base_url, "two"), user=project)["status"] == "DONE"

    assert _order(openai_server)[0] == "/v1/chat/completions"
    (chat,) = _chats(openai_server)
    assert f"working in the project folder {other.resolve()}." in _system(chat)
    assert "Always answer in haiku." in _system(chat)


def test_runs_that_name_their_project_with_cwd_share_the_recording(
    openai_server: OpenAIServer, project: Path
):
    """What an editor integration does: every run names its project with `--cwd` (or `--cwd=`)."""
    other = project.parent / "other"
    other.mkdir()
    openai_server.reply(DONE, DONE, DONE)
    for number, cwd in enumerate((["--cwd", str(project)], ["--cwd", str(other)], [f"--cwd={other}"])):
        openai_server.requests.clear()
        argv = _argv("openai", openai_server.base_url, f"task {number}")
        assert _run(project.parent, [*argv[:-1], *cwd, argv[-1]], user=project)["status"] == "DONE"
        assert _order(openai_server)[0] == ("/props" if number == 0 else "/v1/chat/completions")
    assert f"project folder {other.resolve()}." in _system(_chats(openai_server)[0])


def test_a_project_with_its_own_configuration_gets_its_own_recording(
    openai_server: OpenAIServer, project: Path
):
    openai_server.reply(DONE, DONE, DONE)
    assert _run(project, _argv("openai", openai_server.base_url, "one"))["status"] == "DONE"
    other = project.parent / "other"
    (other / ".asi").mkdir(parents=True)
    (other / ".asi" / "config.toml").write_text("temperature = 0.7\n")
    openai_server.requests.clear()

    assert _run(other, _argv("openai", openai_server.base_url, "two"), user=project)["status"] == "DONE"
    assert _order(openai_server)[0] == "/props", "nothing recorded for its settings yet"
    openai_server.requests.clear()
    assert _run(other, _argv("openai", openai_server.base_url, "three"), user=project)["status"] == "DONE"

    assert _order(openai_server)[0] == "/v1/chat/completions"
    (chat,) = _chats(openai_server)
    assert chat["temperature"] == 0.7


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
    cached = _cache(project).read_bytes()
    assert secret.encode() not in cached
    assert b"0123456789abcdef" not in cached
    openai_server.requests.clear()

    result = _run(project, _argv("openai", openai_server.base_url, "second"), env)

    assert result["status"] == "DONE", result
    assert len(_chats(openai_server)) == 1
    assert _order(openai_server)[0] == "/v1/chat/completions"
    assert secret.encode() not in _cache(project).read_bytes()


def test_the_setting_turns_it_off(openai_server: OpenAIServer, project: Path):
    (project / ".asi").mkdir()
    (project / ".asi" / "config.toml").write_text("prefetch = false\n")
    openai_server.reply(DONE, DONE)
    for task in ("first", "second"):
        openai_server.requests.clear()
        assert _run(project, _argv("openai", openai_server.base_url, task))["status"] == "DONE"
        assert _order(openai_server)[0] == "/props", "nothing was sent ahead"
    data = json.loads(_cache(project).read_text()) if _cache(project).exists() else {"entries": {}}
    assert data["entries"] == {}


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe not json",
        b"{",
        b"[]",
        b'{"format": 2, "entries": []}',
        b'{"format": 2, "entries": {"k": 5}}',
    ],
)
def test_a_corrupt_cache_is_ignored_and_replaced(openai_server: OpenAIServer, project: Path, content: bytes):
    _cache(project).parent.mkdir(parents=True)
    _cache(project).write_bytes(content)
    openai_server.reply(DONE)

    # the task is not a word the request holds elsewhere (the `task` tool's name): it is cut out once
    assert _run(project, _argv("openai", openai_server.base_url, "what is here?"))["status"] == "DONE"

    assert len(_chats(openai_server)) == 1
    assert json.loads(_cache(project).read_text())["format"] == 2


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
        {"slots": 5},
        {"slots": ["task"]},
        {"slots": ["task", "task"]},
        {"root": "/another/project"},
    ],
)
def test_a_damaged_entry_with_the_right_key_is_ignored(
    openai_server: OpenAIServer, project: Path, damage: dict[str, Any]
):
    openai_server.reply(DONE, DONE)
    assert _run(project, _argv("openai", openai_server.base_url, "first"))["status"] == "DONE"
    data = json.loads(_cache(project).read_text())
    (entry,) = data["entries"].values()
    entry.update(damage)
    _cache(project).write_text(json.dumps(data))
    openai_server.requests.clear()

    assert _run(project, _argv("openai", openai_server.base_url, "second"))["status"] == "DONE"
    assert [_user_message(body) for body in _chats(openai_server)][-1] == "second"


START = """
import json, sys
from asi_agent import prefetch
from asi_agent.ui.cli import parse
argv = json.loads(sys.argv[1])
args = parse(argv)
first = prefetch.start(argv, sys.argv[2], sys.argv[3], provider=args.provider, base_url=args.base_url)
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
    ("base", "forged", "sent"),
    [
        ("http://127.0.0.1:{port}/v1", None, True),
        ("http://localhost:{port}/v1", None, True),
        # A recorded URL is sent to only when it is exactly the configured server's chat endpoint.
        ("http://127.0.0.1:{port}/v1", "http://localhost:{port}/v1/chat/completions", False),
        ("http://127.0.0.1:{port}/v1", "http://127.0.0.1:{port}/v2/chat/completions", False),
        ("http://127.0.0.1:{port}/v1", "http://127.0.0.1:{port}/v1/chat/completions?to=x", False),
        ("http://127.0.0.1:{port}/v1", "http://me@127.0.0.1:{port}/v1/chat/completions", False),
        ("http://127.0.0.1:{port}/v1", "https://127.0.0.1:{port}/v1/chat/completions", False),
        ("http://127.0.0.1:{port}/v1", "http://8.8.8.8:9/v1/chat/completions", False),
    ],
)
def test_only_the_configured_servers_chat_endpoint_gets_a_request_ahead(
    openai_server: OpenAIServer, project: Path, base: str, forged: str | None, sent: bool
):
    openai_server.reply(DONE, DONE)
    port = openai_server.root_url.rsplit(":", 1)[1]
    base = base.format(port=port)
    assert _run(project, _argv("openai", base, "first"))["status"] == "DONE"
    if forged is not None:
        data = json.loads(_cache(project).read_text())
        (entry,) = data["entries"].values()
        entry["url"] = forged.format(port=port)
        _cache(project).write_text(json.dumps(data))

    assert _start(project, _argv("openai", base, "second"), "second")["sent"] is sent


def test_a_public_server_is_not_recorded(project: Path):
    """Claimed in a fresh interpreter: what the backend does with a public URL's first request."""
    code = f"""
    import os
    from asi_agent import prefetch
    first = prefetch.start(["run", "hi"], "hi", {str(project)!r})
    body = b'{{"messages":[{{"role":"user","content":"hi"}}]}}'
    for url in ("https://api.openai.com/v1/chat/completions", "http://93.184.216.34/v1/chat/completions"):
        first.claim("POST", url, [("Host", "x")], body)
    print(os.path.exists(prefetch.cache_file()))
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
    _cache(project).unlink()
    cold = _run(project, _argv("openai", openai_server.base_url, "second"))

    assert warm["exit"] == cold["exit"] == 1
    assert warm["status"] == cold["status"] == "ERROR"
    assert warm["error"] == cold["error"], (warm["error"], cold["error"])
    assert len(_chats(openai_server)) == 2


def test_a_text_mode_run_is_sent_ahead_too(openai_server: OpenAIServer, project: Path):
    """Text mode appends the tool contract to the system prompt: still this run's own request."""
    openai_server.reply(DONE, DONE)
    argv = [*_argv("openai", openai_server.base_url, "first")[:-1], "--tool-mode", "text", "first"]
    assert _run(project, argv)["status"] == "DONE"
    openai_server.requests.clear()

    assert _run(project, [*argv[:-1], "second"])["status"] == "DONE"

    assert _order(openai_server)[0] == "/v1/chat/completions"
    (chat,) = _chats(openai_server)
    assert _user_message(chat) == "second"
