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


def test_typed_fields_are_kept(tmp_path):
    """Who wrote a message and how a call ended are fields of the transcript, read back as they were."""
    store = SessionStore(tmp_path / ".asi")
    session = store.create(cwd="x")
    kept = [
        Message("user", "Continue with the next step of the task.", origin="runtime", note="continue"),
        Message("assistant", '{"answer": "42"}', origin="runtime"),
        Message("tool", "ERROR: no such file", tool_call_id="c1", outcome="error", error_kind="ToolError"),
        Message("tool", "ERROR: permission denied: no. Do not retry", tool_call_id="c2", outcome="refused"),
    ]
    for message in kept:
        session.add_message(message)
    again = store.open(session.id).messages()
    assert again == kept
    assert [m.author for m in again] == ["runtime", "runtime", "runtime", "runtime"]
    assert [m.ok for m in again] == [True, True, False, False]


def test_an_older_transcript_loads_with_its_typed_fields(tmp_path):
    """A transcript written before messages carried their origin and outcome still loads: the fields
    come from the words the runtime used then."""
    store = SessionStore(tmp_path / ".asi")
    session = store.create(cwd="x")
    old = [
        {"role": "user", "content": "fix the bug"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"id": "c1", "name": "read_file", "arguments": {}}],
        },
        {"role": "tool", "content": "ERROR: permission denied: a rule. Do not retry", "tool_call_id": "c1"},
        {
            "role": "tool",
            "content": "ERROR: x.py is outside the project root /p; tools may",
            "tool_call_id": "c2",
        },
        {"role": "tool", "content": "1| x", "tool_call_id": "c3"},
        {"role": "user", "content": "Not done yet, the runtime's checks failed: change_made: none."},
        {"role": "user", "content": "Continue with the next step of the task."},
    ]
    for message in old:
        session.append("message", message=message)
    loaded = store.open(session.id).messages()
    assert [m.author for m in loaded] == [
        "person",
        "model",
        "runtime",
        "runtime",
        "runtime",
        "runtime",
        "runtime",
    ]
    assert [m.outcome for m in loaded[2:5]] == ["refused", "error", "ok"]
    assert loaded[3].error_kind == "PermissionDeniedError"
    assert [m.note for m in loaded[5:]] == ["checks", "continue"]
    assert loaded[2].body == "permission denied: a rule. Do not retry"
