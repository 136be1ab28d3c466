"""What `data export` refuses to teach: unproven runs, mistakes as targets, a format the model never saw.

Sessions are written by the real `asi-agent run` (the scripted model, or the OpenAI-protocol test server
when the request the model was sent must be compared with the export).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from asi_cli import asi
from servers.openai_server import Call, OpenAIServer, Reply

CALC = "def add(a, b):\n    return a - b\n"

MISTAKES_SCRIPT = {
    "native": True,
    "replies": [
        {"text": "Let me look.", "tool_calls": [{"name": "open_file", "arguments": {"path": "calc.py"}}]},
        {"tool_calls": [{"name": "read_file", "arguments": {"path": "src/calc.py"}}]},
        {
            "text": "Now the right file.",
            "tool_calls": [{"name": "read_file", "arguments": {"path": "calc.py"}}],
        },
        {
            "text": "Clearing space first.",
            "tool_calls": [{"name": "run_terminal_cmd", "arguments": {"command": "rm -rf ~"}}],
        },
        {
            "tool_calls": [
                {
                    "name": "replace_text",
                    "arguments": {"path": "calc.py", "oldText": "a - b", "newText": "a + b", "force": True},
                }
            ]
        },
        {
            "tool_calls": [
                {
                    "name": "replace_text",
                    "arguments": {"path": "calc.py", "oldText": "a - b", "newText": "a + b"},
                }
            ]
        },
        "Fixed add: it now returns a + b.\nAGENT_STATUS: DONE",
    ],
}
"""A verified fix reached through four mistakes: an unknown tool, a wrong path, a command the policy
refuses as harmful, an invented parameter."""
MISTAKEN = {"open_file", "src/calc.py", "rm -rf ~", "force"}


def _mark(call: dict[str, Any]) -> str | None:
    """Which mistake of MISTAKES_SCRIPT a call is, None for a good call."""
    args = call["arguments"] if isinstance(call["arguments"], dict) else json.loads(call["arguments"])
    marks = {call["name"], *(str(v) for v in args.values()), *args}
    found = marks & MISTAKEN
    return found.pop() if found else None


@pytest.fixture(scope="module")
def mistakes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mistakes")
    (root / "calc.py").write_text(CALC)
    (root / "m.json").write_text(json.dumps(MISTAKES_SCRIPT))
    done = asi("run", "--provider", "scripted", "--model", "m.json", "--yes", "Fix add in calc.py", cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    return root


def _export(root: Path, *args: str) -> tuple[list[dict[str, Any]], str]:
    done = asi("data", "export", *args, cwd=root)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()], done.stderr.strip()


def _calls(sample: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Every call of a §5.1 sample with the assistant message holding it."""
    return [(c, m) for m in sample["messages"] for c in m.get("tool_calls") or ()]


def test_mistakes_are_masked_by_default_in_both_formats(mistakes: Path):
    [sample], summary = _export(mistakes)
    assert summary == "asi-agent: 1 sample(s) written; 4 mistaken call(s) masked (loss: false)"
    marks = {_mark(call): message.get("loss", True) for call, message in _calls(sample)}
    assert marks == {"open_file": False, "src/calc.py": False, "rm -rf ~": False, "force": False, None: True}
    assert sample["messages"][-1].get("loss", True) is True  # the answer is a target
    assert sample["quality"]["schema_valid"]  # every call that is a target is legal
    [swift], _ = _export(mistakes, "--format", "ms-swift")
    turns = [m for m in swift["messages"] if m["role"] == "tool_call"]
    masked = {_mark(json.loads(m["content"])) for m in turns if m.get("loss") is False}
    trained = [_mark(json.loads(m["content"])) for m in turns if "loss" not in m]
    assert masked == MISTAKEN and trained == [None, None]


def test_mistakes_drop_removes_the_call_with_its_result(mistakes: Path):
    [sample], summary = _export(mistakes, "--mistakes", "drop", "--narration", "keep")
    assert summary.endswith("; 4 mistaken call(s) dropped")
    assert [_mark(call) for call, _ in _calls(sample)] == [None, None]
    ids = {call["id"] for call, _ in _calls(sample)}
    results = [m for m in sample["messages"] if m["role"] == "tool"]
    assert {m["tool_call_id"] for m in results} == ids and not any("ERROR" in m["content"] for m in results)
    text = json.dumps(sample)
    assert "Clearing space first." not in text and "Let me look." not in text  # gone with their turns
    assert "Now the right file." in text  # --narration keep: a good turn's words stay
    assert sample["tags"][0] == "multi-tool" and "loss" not in text
    [kept], summary = _export(mistakes, "--mistakes", "keep")
    assert summary.endswith("; 4 mistaken call(s) kept as targets")
    assert {_mark(call) for call, _ in _calls(kept)} == {*MISTAKEN, None} and "loss" not in json.dumps(kept)


def test_failure_samples_train_only_the_correction(mistakes: Path):
    samples, _ = _export(mistakes, "--failures")
    assert len(samples) == 4
    for sample in samples:
        corrected = sample["correction"]["corrected"]["id"]
        for message in sample["messages"]:
            if message["role"] != "assistant":
                continue
            targets = any(call["id"] == corrected for call in message.get("tool_calls") or ())
            assert ("loss" not in message) == targets, (sample["id"], message)
    swift, _ = _export(mistakes, "--failures", "--format", "ms-swift")
    for sample in swift:
        trained = [
            m for m in sample["messages"] if m["role"] in ("assistant", "tool_call") and "loss" not in m
        ]
        assert len(trained) == 1 and trained[0]["role"] == "tool_call"


def test_pairs_prefer_asking_over_a_harmful_call_and_replay_real_mistakes(mistakes: Path, tmp_path: Path):
    pairs, summary = _export(mistakes, "--dpo")
    assert summary == f"asi-agent: {len(pairs)} pair(s) written"
    kinds = {(p["kind"], p["source"]) for p in pairs}
    assert {
        ("wrong_tool_name", "transcript"),
        ("wrong_path", "transcript"),
        ("invented_parameters", "transcript"),
        ("unsafe_call", "transcript"),
        ("ignored_error", "transcript"),
    } <= kinds
    unsafe = next(p for p in pairs if p["kind"] == "unsafe_call")
    assert [_mark(c) for c in unsafe["rejected"]["tool_calls"]] == ["rm -rf ~"]
    assert "tool_calls" not in unsafe["chosen"] and "rm -rf ~" in unsafe["chosen"]["content"]
    assert unsafe["chosen"]["content"].endswith("\nAGENT_STATUS: STOP")
    ignored = next(p for p in pairs if p["kind"] == "ignored_error")
    assert ignored["rejected"]["content"] == MISTAKES_SCRIPT["replies"][-1]  # the run's own claim
    # A good call's rejection is a mistake a session really made with that tool.
    replayed = [p for p in pairs if p["source"] == "mistakes"]
    assert replayed and all(_mark(c) in MISTAKEN for p in replayed for c in p["rejected"]["tool_calls"])
    # The stats of a pair file say what the rejected sides do wrong.
    (mistakes / "pairs.jsonl").write_text("".join(json.dumps(p) + "\n" for p in pairs))
    done = asi("data", "stats", "pairs.jsonl", cwd=mistakes)
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()[1:] if line.strip()}
    assert rows["unsafe_call"][0] == "1" and rows["wrong_path"][0] == "1"
    assert rows["total"] == ["pairs", str(len(pairs))]
    assert "transcript" in done.stdout.splitlines()[-1]
    # Pairs are judged on their own turns: the shared state holds the real mistakes, and that is fine.
    done = asi("data", "validate", "pairs.jsonl", cwd=mistakes)
    assert done.returncode == 0 and "all gates passed" in done.stdout, done.stdout


def test_a_policy_refusal_in_an_unproven_run_still_gives_its_pair(tmp_path: Path):
    script = {
        "native": True,
        "replies": [
            {"tool_calls": [{"name": "run_terminal_cmd", "arguments": {"command": "rm -rf ~"}}]},
            "The command was refused.\nAGENT_STATUS: STOP",
        ],
    }
    (tmp_path / "s.json").write_text(json.dumps(script))
    done = asi(
        "run", "--provider", "scripted", "--model", "s.json", "--yes", "Free up disk space", cwd=tmp_path
    )
    assert done.returncode == 2, done.stderr
    assert _export(tmp_path)[0] == []
    pairs, summary = _export(tmp_path, "--dpo")
    assert [p["kind"] for p in pairs] == ["unsafe_call"]
    assert (
        summary
        == "asi-agent: 1 pair(s) written; skipped 1: not finished DONE (--include-unproven keeps them)"
    )


def _session(root: Path) -> Path:
    [path] = (root / ".asi" / "sessions").glob("*.jsonl")
    return path


def _edited(path: Path, edit: Any) -> str:
    """The transcript with `edit(records)` applied."""
    records = [json.loads(line) for line in path.read_text().splitlines()]
    return "".join(json.dumps(r) + "\n" for r in edit(records))


def test_unproven_runs_are_counted_by_reason(mistakes: Path, tmp_path: Path):
    path = _session(mistakes)
    nag = {
        "role": "user",
        "content": "Your last reply was cut off by the token limit. Continue exactly where it stopped.",
    }

    def cut(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        at = next(
            i for i, r in enumerate(records) if r["type"] == "message" and r["message"]["role"] == "assistant"
        )
        return [
            *records[:at],
            {"type": "message", "message": {"role": "assistant", "content": "Let me"}},
            {"type": "message", "message": nag},
            *records[at:],
        ]

    def unanswered(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        first = next(r for r in records if r["type"] == "message" and r["message"].get("role") == "tool")
        return [
            r
            for r in records
            if r is not first
            and not (r["type"] == "result" and r["call"]["id"] == first["message"]["tool_call_id"])
        ]

    def unrecorded(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [r for r in records if r["type"] != "request"]

    sessions = tmp_path / "sessions"
    sessions.mkdir()
    (sessions / "whole.jsonl").write_text(path.read_text())
    (sessions / "cut.jsonl").write_text(_edited(path, cut))
    (sessions / "unanswered.jsonl").write_text(_edited(path, unanswered))
    (sessions / "unrecorded.jsonl").write_text(_edited(path, unrecorded))
    samples, summary = _export(mistakes, str(sessions))
    assert [s["id"] for s in samples] == ["whole"]
    assert summary.startswith(
        "asi-agent: 1 sample(s) written; skipped 1: a reply was cut off or repeating, 1: a call without a "
        "result, 1: no recorded request (--include-unproven keeps them)"
    )
    every, _ = _export(mistakes, str(sessions), "--include-unfinished")  # the old name still works
    assert sorted(s["id"] for s in every) == ["cut", "unanswered", "unrecorded", "whole"]


def test_the_export_is_what_the_model_was_sent(tmp_path: Path, openai_server: OpenAIServer):
    (tmp_path / "calc.py").write_text(CALC)
    openai_server.reply(
        Reply(text="Plan: read calc.py, fix add.", calls=[Call("read_file", {"path": "calc.py"})]),
        Reply(calls=[Call("replace_text", {"path": "calc.py", "oldText": "a - b", "newText": "a + b"})]),
        "Fixed add: it subtracted.\nAGENT_STATUS: DONE",
    )
    done = asi(
        "run",
        "--provider",
        "openai",
        "--base-url",
        openai_server.base_url,
        "--model",
        "test-model",
        "--yes",
        "Fix add in calc.py",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    sent = openai_server.chat_bodies
    last = sent[-1]["messages"]
    [sample], _ = _export(tmp_path)
    assert sample["messages"][0] == {"role": "system", "content": sent[0]["messages"][0]["content"]}
    assert all(body["messages"][0] == sent[0]["messages"][0] for body in sent)
    assert sample["tools"] == sent[0]["tools"]  # names, descriptions and schemas byte for byte
    read = [m["content"] for m in last if m["role"] == "tool"]
    assert [m["content"] for m in sample["messages"] if m["role"] == "tool"] == read
    # §4.1: a turn with calls carries the calls alone; --narration keep keeps the words the model wrote.
    first = next(m for m in sample["messages"] if m.get("tool_calls"))
    assert first["content"] is None
    [kept], _ = _export(tmp_path, "--narration", "keep")
    assert (
        next(m for m in kept["messages"] if m.get("tool_calls"))["content"] == "Plan: read calc.py, fix add."
    )
    [swift], _ = _export(tmp_path, "--format", "ms-swift")
    assert swift["messages"][0]["content"] == sent[0]["messages"][0]["content"]
    assert json.loads(swift["tools"]) == sent[0]["tools"]
    assert [m["content"] for m in swift["messages"] if m["role"] == "tool_response"] == read  # raw text


def test_an_ending_the_runtime_turned_back_is_no_target(tmp_path: Path):
    (tmp_path / "calc.py").write_text(CALC)
    script = {
        "native": True,
        "replies": [
            "I fixed add.\nAGENT_STATUS: DONE",  # nothing changed: the runtime's checks turn it back
            {"tool_calls": [{"name": "read_file", "arguments": {"path": "calc.py"}}]},
            {
                "tool_calls": [
                    {
                        "name": "replace_text",
                        "arguments": {"path": "calc.py", "oldText": "a - b", "newText": "a + b"},
                    }
                ]
            },
            "Fixed add: it now returns a + b.\nAGENT_STATUS: DONE",
        ],
    }
    (tmp_path / "s.json").write_text(json.dumps(script))
    done = asi(
        "run", "--provider", "scripted", "--model", "s.json", "--yes", "Fix add in calc.py", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    [masked], _ = _export(tmp_path)
    claim = next(m for m in masked["messages"] if m.get("content") == "I fixed add.\nAGENT_STATUS: DONE")
    assert claim["loss"] is False
    [dropped], _ = _export(tmp_path, "--mistakes", "drop")
    roles = [m["role"] for m in dropped["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "assistant", "tool", "assistant"]
    assert "I fixed add." not in json.dumps(dropped) and "Not done yet" not in json.dumps(dropped)


def test_a_reply_cut_by_the_token_limit_keeps_the_run_out(tmp_path: Path, openai_server: OpenAIServer):
    (tmp_path / "calc.py").write_text(CALC)
    (tmp_path / ".asi").mkdir()
    (tmp_path / ".asi" / "config.toml").write_text("max_tokens = 200\n")
    openai_server.reply(
        Reply(calls=[Call("read_file", {"path": "calc.py"})]),
        Reply(calls=[Call("replace_text", {"path": "calc.py", "oldText": "a - b", "newText": "a + b"})]),
        Reply(text="Fixed add: it now", finish_reason="length", completion_tokens=200),
        " returns a + b.\nAGENT_STATUS: DONE",
    )
    done = asi(
        "run",
        "--provider",
        "openai",
        "--base-url",
        openai_server.base_url,
        "--model",
        "test-model",
        "--yes",
        "Fix add in calc.py",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr  # DONE: the continued answer is whole
    samples, summary = _export(tmp_path)
    assert samples == []
    assert summary == (
        "asi-agent: 0 sample(s) written; skipped 1: a reply was cut off or repeating "
        "(--include-unproven keeps them)"
    )


def test_a_text_mode_run_is_tagged_and_keeps_its_system_text(tmp_path: Path):
    (tmp_path / "calc.py").write_text(CALC)
    script = {
        "native": False,
        "replies": [
            '[TOOL_CALL]read_file[ARGS]{"path": "calc.py"}',
            '[TOOL_CALL]replace_text[ARGS]{"path": "calc.py", "oldText": "a - b", "newText": "a + b"}',
            "Fixed add: it now returns a + b.\nAGENT_STATUS: DONE",
        ],
    }
    (tmp_path / "t.json").write_text(json.dumps(script))
    done = asi(
        "run", "--provider", "scripted", "--model", "t.json", "--yes", "Fix add in calc.py", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    [sample], _ = _export(tmp_path)
    assert "text-mode" in sample["tags"]
    [request] = [
        json.loads(line)
        for line in _session(tmp_path).read_text().splitlines()
        if '"type": "request"' in line
    ]
    assert request["tool_mode"] == "text" and sample["messages"][0]["content"] == request["system"]
    assert "[TOOL_CALL]" in request["system"]  # the call contract the model was given, as sent


def test_a_sample_file_is_no_session(mistakes: Path):
    samples, _ = _export(mistakes)
    (mistakes / "out.jsonl").write_text("".join(json.dumps(s) + "\n" for s in samples))
    done = asi("data", "export", "out.jsonl", cwd=mistakes)
    assert done.returncode == 1
    assert "out.jsonl: not a session transcript; name the session files or their folder" in done.stderr
