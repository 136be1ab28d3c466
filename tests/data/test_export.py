"""`asi-agent data export / validate / stats` on real sessions written by `asi-agent run`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from asi_cli import asi

from asi_agent.data.transcript import legal_after, legal_before
from asi_agent.eval.suite import BUILTIN_SUITE
from asi_agent.tools.registry import default_registry

FIX_SCRIPT = {
    "native": True,
    "replies": [
        {
            "text": "I will find add.",
            "tool_calls": [{"name": "grep_search", "arguments": {"pattern": "def add"}}],
        },
        {"tool_calls": [{"name": "read_file", "arguments": {"file_path": "calc.py"}}]},
        {
            "tool_calls": [
                {
                    "name": "replace_text",
                    "arguments": {"path": "calc.py", "oldText": "a - b", "newText": "a + b", "force": True},
                }
            ]
        },
        {
            "text": "Without the extra parameter.",
            "tool_calls": [
                {
                    "name": "replace_text",
                    "arguments": {"path": "calc.py", "oldText": "a - b", "newText": "a + b"},
                }
            ],
        },
        {"tool_calls": [{"name": "run_terminal_cmd", "arguments": {"command": "python3 -c 'print(2 + 3)'"}}]},
        "Fixed add. Write to alice.w@example.com; the key was sk-abcdefghijklmnopqrstuvwx; "
        "see /home/alice/work/calc.py\nAGENT_STATUS: DONE",
    ],
}
HELLO_SCRIPT = {"native": True, "replies": ["Hello there!\nAGENT_STATUS: DONE"]}
STOP_SCRIPT = {"native": True, "replies": ["I cannot deploy from here.\nAGENT_STATUS: STOP"]}
SWIFT_ROLES = {"system", "user", "assistant", "tool_call", "tool_response"}
# The runs of the `project` fixture: script, task, exit code (0 DONE, 2 STOP).
RUNS = (
    ("fix.json", "Fix add in calc.py", 0),  # DONE, backed by the calls that ran: verified
    ("hello.json", "Say hello", 0),  # DONE with no call at all: nothing backs it, unverified
    ("stop.json", "Deploy the app to production", 2),  # STOP
)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with three saved sessions: a fix with a corrected mistake and a command, a greeting,
    and a run that stopped."""
    root = tmp_path_factory.mktemp("proj")
    (root / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (root / "fix.json").write_text(json.dumps(FIX_SCRIPT))
    (root / "hello.json").write_text(json.dumps(HELLO_SCRIPT))
    (root / "stop.json").write_text(json.dumps(STOP_SCRIPT))
    for script, task, code in RUNS:
        done = asi("run", "--provider", "scripted", "--model", script, "--yes", task, cwd=root)
        assert done.returncode == code, done.stderr
    return root


def _export_run(project: Path, *args: str) -> tuple[list[dict], str]:
    """The samples `data export ARGS` writes, and its summary line."""
    done = asi("data", "export", *args, cwd=project)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()], done.stderr.strip()


def _export(project: Path, *args: str) -> list[dict]:
    return _export_run(project, *args)[0]


def _task(sample: dict) -> str:
    return next(m["content"] for m in sample["messages"] if m["role"] == "user")


def _validate(project: Path, lines: list[dict], name: str) -> str:
    (project / name).write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in lines))
    done = asi("data", "validate", name, cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_only_runs_that_ended_done_and_verified_are_exported(project: Path):
    samples, summary = _export_run(project)
    assert [_task(s) for s in samples] == ["Fix add in calc.py"]
    assert summary == (
        "asi-agent: 1 sample(s) written; skipped 1: not finished DONE, 1: DONE not verified "
        "(--include-unproven keeps them); 1 mistaken call(s) masked (loss: false)"
    )
    every, summary = _export_run(project, "--include-unproven")  # unproven runs only on purpose
    assert sorted(_task(s) for s in every) == sorted(task for _, task, _ in RUNS)
    assert summary == "asi-agent: 3 sample(s) written; 1 mistaken call(s) masked (loss: false)"


def _with_ending(transcript: str, **finished: object) -> str:
    """The transcript with its `finished` record replaced by one carrying `finished` (status, verified...)."""
    lines = []
    for line in transcript.splitlines():
        record = json.loads(line)
        if record["type"] == "finished":
            record = {k: v for k, v in record.items() if k not in ("status", "verified", "checks")}
            record |= finished
        lines.append(json.dumps(record))
    return "\n".join(lines) + "\n"


def test_the_recorded_ending_decides_what_is_exported(project: Path, tmp_path: Path):
    fix = next(
        p for p in (project / ".asi" / "sessions").glob("*.jsonl") if "Fix add in calc.py" in p.read_text()
    )
    transcript = fix.read_text()
    evidence = {"name": "tool_evidence", "ok": True, "detail": "4 tool call(s) succeeded", "required": False}
    none = {**evidence, "ok": False, "detail": "no tool call succeeded"}
    endings: dict[str, dict[str, object]] = {
        "done-verified": {"status": "DONE", "verified": True, "checks": [evidence]},
        "done-unverified": {"status": "DONE", "verified": False, "checks": [none]},
        "done-before-verification": {"status": "DONE"},  # a transcript from before verified endings
        "stopped": {"status": "STOP", "verified": False, "checks": []},
        "out-of-turns": {"status": "MAX_TURNS", "verified": False, "checks": []},
    }
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    for name, ending in endings.items():
        (sessions / f"{name}.jsonl").write_text(_with_ending(transcript, **ending))
    samples, summary = _export_run(project, str(sessions))
    assert [s["id"] for s in samples] == ["done-verified"]
    assert summary == (
        "asi-agent: 1 sample(s) written; skipped 2: not finished DONE, 2: DONE not verified "
        "(--include-unproven keeps them); 1 mistaken call(s) masked (loss: false)"
    )
    pairs, _ = _export_run(project, str(sessions), "--dpo")
    assert pairs and {p["id"].split(":")[0] for p in pairs} == {"done-verified"}
    every, _ = _export_run(project, str(sessions), "--include-unproven")
    assert sorted(s["id"] for s in every) == sorted(endings)


def test_asi_export_is_spec_5_1_and_validates(project: Path):
    samples = _export(project)
    assert len(samples) == 1
    fix = samples[0]
    assert fix["tags"][0] == "error-correction"
    roles = [m["role"] for m in fix["messages"]]
    assert roles[:3] == ["system", "user", "assistant"] and roles[-1] == "assistant"
    calls = [c for m in fix["messages"] for c in m.get("tool_calls", [])]
    assert calls[1] == {
        "id": calls[1]["id"],
        "name": "read_file",
        "arguments": {"path": "calc.py"},
    }  # repaired
    results = {m["tool_call_id"]: m for m in fix["messages"] if m["role"] == "tool"}
    command = results[calls[-1]["id"]]
    assert command["permission"]["action"] == "allow" and command["permission"]["risk"] == "execute"
    assert results[calls[2]["id"]]["content"].startswith("ERROR: replace_text: unknown parameter 'force'")
    assert fix["quality"] == {
        "schema_valid": True,  # the rejected call is masked: no target
        "tools_from_registry": True,
        "closed": True,
        "mistakes": {"calls": 1, "handled": "mask"},
        "agent_status": "DONE",
    }
    # what the run offered: the registry's tools, and `task`, the extension tool every session has
    assert {t["function"]["name"] for t in fix["tools"]} <= {*default_registry().names(), "task"}
    every = _export(project, "--include-unproven", "--redact")
    hello = next(s for s in every if _task(s) == "Say hello")
    assert hello["tags"][0] == "no-tool" and hello["quality"]["schema_valid"]
    report = _validate(project, every, "asi.jsonl")
    assert "all gates passed" in report and report.count(": ok") == 3


def test_tool_descriptions_are_the_sent_ones_and_follow_the_locale_when_unrecorded(
    project: Path, tmp_path: Path
):
    sent = _export(project)[0]["tools"]
    assert _export(project, "--locale", "en")[0]["tools"] == sent  # what the run sent, whatever the flag
    fix = next(
        p for p in (project / ".asi" / "sessions").glob("*.jsonl") if "Fix add in calc.py" in p.read_text()
    )
    old = [line for line in fix.read_text().splitlines() if '"type": "request"' not in line]
    (tmp_path / "old.jsonl").write_text("\n".join(old) + "\n")  # from before requests were recorded
    zh = _export(project, str(tmp_path / "old.jsonl"), "--include-unproven", "--locale", "zh")[0]["tools"]
    en = _export(project, str(tmp_path / "old.jsonl"), "--include-unproven", "--locale", "en")[0]["tools"]
    assert [t["function"]["name"] for t in zh] == [t["function"]["name"] for t in en]
    assert zh[0]["function"]["description"] != en[0]["function"]["description"]


def test_ms_swift_export_loads_as_the_format_describes(project: Path):
    samples = _export(project, "--format", "ms-swift", "--redact")
    for sample in samples:
        tools = json.loads(sample["tools"])  # tools is a JSON string of function definitions
        assert all(
            t["type"] == "function" and {"name", "description", "parameters"} <= set(t["function"])
            for t in tools
        )
        names = {t["function"]["name"] for t in tools}
        assert {m["role"] for m in sample["messages"]} <= SWIFT_ROLES
        assert sample["messages"][-1]["role"] == "assistant"
        calls = responses = 0
        for message in sample["messages"]:
            if message["role"] == "tool_call":
                body = json.loads(message["content"])
                assert set(body) == {"name", "arguments"} and body["name"] in names
                assert isinstance(body["arguments"], dict)
                calls += 1
            elif message["role"] == "tool_response":
                assert isinstance(message["content"], str)  # the result text the model read
                responses += 1
        assert calls == responses
    assert "all gates passed" in _validate(project, samples, "swift.jsonl")


def test_dpo_pairs_are_well_formed(project: Path):
    registry = default_registry()
    pairs = _export(project, "--dpo", "--redact")
    kinds = {(p["kind"], p["source"]) for p in pairs}
    assert ("invented_parameters", "transcript") in kinds  # the real mistake of the session
    assert ("ignored_error", "transcript") in kinds  # the run's own closing claim, put after the error
    assert ("wrong_tool_name", "derived") in kinds  # no session made a mistake with grep_search
    for pair in pairs:
        assert pair["messages"][0]["role"] == "system" and pair["messages"][-1]["role"] in ("user", "tool")
        chosen, rejected = pair["chosen"], pair["rejected"]
        assert chosen != rejected and chosen["role"] == rejected["role"] == "assistant"
        assert chosen["tool_calls"] and all(
            legal_before(registry, c["name"], c["arguments"]) for c in chosen["tool_calls"]
        )
        if pair["kind"] == "wrong_tool_name":
            assert any(c["name"] not in registry for c in rejected["tool_calls"])
        elif pair["kind"] == "invented_parameters":
            assert not all(legal_after(registry, c["name"], c["arguments"]) for c in rejected["tool_calls"])
        else:
            assert rejected["content"].startswith("Fixed add.") and "tool_calls" not in rejected
            assert pair["messages"][-1]["content"].startswith("ERROR:")
    assert "all gates passed" in _validate(project, pairs, "dpo.jsonl")
    swift = _export(project, "--dpo", "--format", "ms-swift", "--redact")
    assert len(swift) == len(pairs)
    assert "all gates passed" in _validate(project, swift, "dpo-swift.jsonl")
    for pair in swift:
        chosen, rejected = pair["messages"], pair["rejected_messages"]
        shared = next(i for i, (a, b) in enumerate(zip(chosen, rejected, strict=False)) if a != b)
        assert shared >= 2 and chosen[:shared] == rejected[:shared]  # same state, different next step
        assert json.loads(pair["rejected_tools"]) == json.loads(pair["tools"])


def test_failures_are_error_correction_samples(project: Path):
    samples = _export(project, "--failures", "--redact")
    assert len(samples) == 1
    correction = samples[0]["correction"]
    assert correction["failed"]["arguments"]["force"] is True
    assert "unknown parameter 'force'" in correction["error"]
    assert (
        correction["corrected"]["name"] == "replace_text"
        and "force" not in correction["corrected"]["arguments"]
    )
    assert samples[0]["tags"][0] == "error-correction"
    _validate(project, samples, "failures.jsonl")


def test_redact_removes_paths_emails_and_secrets(project: Path):
    text = "\n".join(json.dumps(s, ensure_ascii=False) for s in _export(project, "--redact"))
    for private in ("alice.w@example.com", "sk-abcdefghijklmnopqrstuvwx", "/home/alice", str(project)):
        assert private not in text
    assert "<email>" in text and "<secret>" in text and "<path>" in text


def test_stats_shows_the_mix_against_the_suggestion(project: Path):
    samples = _export(project, "--include-unproven")
    (project / "mix.jsonl").write_text("".join(json.dumps(s) + "\n" for s in samples))
    done = asi("data", "stats", "mix.jsonl", cwd=project)
    assert done.returncode == 0, done.stderr
    lines = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()[1:]}
    assert lines["error-correction"][:3] == ["1", "33.3%", "15%"]
    assert lines["no-tool"][:3] == ["2", "66.7%", "15%"]
    assert lines["single-tool"][0] == "0" and lines["total"] == ["3"]


def test_a_failed_gate_exits_non_zero_with_a_per_sample_report(project: Path):
    bad = {
        "messages": [
            {"role": "user", "content": "x"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "1", "name": "openFile", "arguments": {}}],
            },
            {"role": "tool", "tool_call_id": "1", "name": "openFile", "content": "ok"},
        ]
    }
    good = _export(project, "--redact")[0]  # the fix: four calls that are targets, names from the registry
    (project / "bad.jsonl").write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    done = asi("data", "validate", "bad.jsonl", cwd=project)
    assert done.returncode == 1
    assert "line 2 (line 2): tool name 'openFile' is not in the registry" in done.stdout
    assert "not closed" in done.stdout
    assert "FAIL  tool names from the registry: 80.0%" in done.stdout  # 4 of 5 calls
    assert "a gate failed" in done.stdout


def test_eval_results_export_and_validate(tmp_path: Path):
    done = asi(
        "eval", "--provider", "scripted", "--filter", "py-chain-*", "--output", "run.json", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    samples = _export(tmp_path, "run.json", "--redact")
    assert len(samples) == 5 and all("eval:passed" in s["tags"] for s in samples)
    assert all(s["tags"][0] == "multi-tool" for s in samples)
    _validate(tmp_path, samples, "run.jsonl")


def test_a_passed_eval_proves_a_plain_answer_but_not_a_guess(tmp_path: Path):
    suite = tmp_path / "suite"
    for task in ("none-greeting", "unsafe-read-secrets", "py-read-config"):
        shutil.copytree(BUILTIN_SUITE / task, suite / task)
    # The right port with no call at all: its verifier accepts it, but the task expects a verified DONE.
    guess = {"native": True, "replies": ["The server listens on port 8731.\nAGENT_STATUS: DONE"]}
    (suite / "py-read-config" / "script.json").write_text(json.dumps(guess))
    done = asi("eval", "--suite", "suite", "--provider", "scripted", "--output", "run.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    run = json.loads((tmp_path / "run.json").read_text())
    endings = {r["id"]: (r["status"], r["verified"], r["verifier_passed"], r["passed"]) for r in run["tasks"]}
    assert endings == {
        "none-greeting": ("DONE", False, True, True),  # a plain answer, proven by its verifier
        "unsafe-read-secrets": ("STOP", False, True, True),  # a refusal: samples have no kind for it
        "py-read-config": ("DONE", False, False, False),  # a guess
    }
    samples, summary = _export_run(tmp_path, "run.json")
    assert [(s["id"], s["tags"]) for s in samples] == [
        ("none-greeting#0", ["no-tool", "eval:passed", "asi_v1"])
    ]
    assert summary == (
        "asi-agent: 1 sample(s) written; skipped 1: not finished DONE, 1: DONE not verified "
        "(--include-unproven keeps them)"
    )
    assert "all gates passed" in _validate(tmp_path, samples, "answers.jsonl")
    # A result file from before tasks declared their ending: `passed` meant the verifier alone.
    for task in run["tasks"]:
        del task["expect"]
    (tmp_path / "old.json").write_text(json.dumps(run))
    samples, summary = _export_run(tmp_path, "old.json")
    assert samples == [] and "skipped 1: not finished DONE, 2: DONE not verified" in summary


def test_no_sessions_is_a_clear_error(tmp_path: Path):
    done = asi("data", "export", cwd=tmp_path)
    assert done.returncode == 1 and "no such file or folder" in done.stderr


def test_turns_the_planner_wrote_are_never_model_targets(tmp_path: Path):
    """Grounding writes a reply itself when its plan leaves only one: the transcript marks it
    runtime-written and the export keeps it as context only (`loss: false`), never as a target."""
    (tmp_path / "config.toml").write_text('[server]\nport = 8080\nhost = "localhost"\n')
    script = {"native": True, "planner": True, "replies": ["port = 8080\nAGENT_STATUS: DONE"]}
    (tmp_path / "s.json").write_text(json.dumps(script))
    done = asi(
        "run",
        "--provider",
        "scripted",
        "--model",
        "s.json",
        "--yes",
        "What is the port in config.toml?",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    (transcript,) = (tmp_path / ".asi" / "sessions").glob("*.jsonl")
    records = [json.loads(line) for line in transcript.read_text().splitlines()]
    written = [r for r in records if r["type"] == "planned" and r["written"]]
    replies = [
        r["message"] for r in records if r["type"] == "message" and r["message"]["role"] == "assistant"
    ]
    assert written and len(written) == sum(m["origin"] == "runtime" for m in replies)
    [sample] = _export(tmp_path)
    exported = [m for m in sample["messages"] if m["role"] == "assistant"]
    assert len(exported) == len(replies)
    for kept, message in zip(exported, replies, strict=True):
        assert (kept.get("loss") is False) == (message["origin"] == "runtime")
    assert any(m["origin"] == "runtime" for m in replies)
