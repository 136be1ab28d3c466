import pytest

from asi_agent.exceptions import UserError
from asi_agent.messages import Message, ToolCall
from asi_agent.session import SessionStore


def test_transcript_round_trip(tmp_path):
    store = SessionStore(tmp_path / ".asi")
    session = store.create(cwd="x")
    session.add_message(Message("user", "fix the bug"))
    call = ToolCall("call_1", "read_file", {"path": "a.py"})
    session.add_message(Message("assistant", "plan", (call,)))
    session.add_message(Message("tool", "1| x", tool_call_id="call_1", name="read_file"))
    session.append("finished", status="DONE")
    again = store.open(session.id)
    assert again.messages() == [
        Message("user", "fix the bug"),
        Message("assistant", "plan", (call,)),
        Message("tool", "1| x", tool_call_id="call_1", name="read_file"),
    ]
    [info] = store.list()
    assert (info.id, info.task, info.status) == (session.id, "fix the bug", "DONE")


def test_torn_last_line_is_skipped(tmp_path):
    store = SessionStore(tmp_path)
    session = store.create()
    session.add_message(Message("user", "hello"))
    with session.path.open("a") as handle:
        handle.write('{"type": "message", "mess')
    assert store.open(session.id).messages() == [Message("user", "hello")]


def test_unknown_session(tmp_path):
    with pytest.raises(UserError, match="asi-agent sessions"):
        SessionStore(tmp_path).open("nope")
    with pytest.raises(UserError):
        SessionStore(tmp_path).open("../../etc/passwd")


def test_a_new_session_makes_the_state_folder_ignored_by_git(tmp_path):
    SessionStore(tmp_path / ".asi").create()
    assert (tmp_path / ".asi" / ".gitignore").read_text() == "*\n"


def test_settings_are_kept_for_resume(tmp_path):
    store = SessionStore(tmp_path / ".asi")
    settings = {"provider": "openai", "model": "m", "base_url": None, "tool_mode": "text", "policy": None}
    session = store.create(cwd=str(tmp_path), settings=settings)
    session.append("run", task="t")
    again = store.open(session.id)
    assert again.meta()["cwd"] == str(tmp_path)
    assert again.settings() == {"provider": "openai", "model": "m", "tool_mode": "text"}
    assert store.create().settings() == {}  # sessions of older versions carry none


def test_sessions_started_in_the_same_second_sort_in_the_order_they_were_started(tmp_path):
    store = SessionStore(tmp_path / ".asi")
    started = [store.create(task=f"task {n}").id for n in range(30)]
    assert len(set(started)) == 30
    assert started == sorted(started)
    assert [info.id for info in store.list()] == started[::-1]  # newest first
