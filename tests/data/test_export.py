"""`asi-agent data export / validate / stats` on real sessions written by `asi-agent run`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from asi_cli import asi

from asi_agent.data.pairs import IGNORED_ERROR_REPLY
from asi_agent.data.transcript import legal_after, legal_before
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
SWIFT_ROLES = {"system", "user", "assistant", "tool_call", "tool_response"}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with two saved sessions: a fix with a corrected mistake and a command, and a greeting."""
    root = tmp_path_factory.mktemp("proj")
    (root / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (root / "fix.json").write_text(json.dumps(FIX_SCRIPT))
    (root / "hello.json").write_text(json.dumps(HELLO_SCRIPT))
    for script, task in (("fix.json", "Fix add in calc.py"), ("hello.json", "Say hello")):
        done = asi("run", "--provider", "scripted", "--model", script, "--yes", task, cwd=root)
        assert done.returncode == 0, done.stderr
    return root


def _export(project: Path, *args: str) -> list[dict]:
    done = asi("data", "export", *args, cwd=project)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def _validate(project: Path, lines: list[dict], name: str) -> str:
    (project / name).write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in lines))
    done = asi("data", "validate", name, cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_asi_export_is_spec_5_1_and_validates(project: Path):
    samples = _export(project)
    assert len(samples) == 2
    fix = next(s for s in samples if s["tags"][0] == "error-correction")
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
    assert fix["quality"] == {"schema_valid": False, "tools_from_registry": True, "closed": True}
    assert {t["function"]["name"] for t in fix["tools"]} == set(default_registry().names())
    hello = next(s for s in samples if s is not fix)
    assert hello["tags"][0] == "no-tool" and hello["quality"]["schema_valid"]
    report = _validate(project, samples, "asi.jsonl")
    assert "all gates passed" in report and report.count(": ok") == 2


def test_tool_descriptions_follow_the_locale(project: Path):
    zh = _export(project)[0]["tools"]
    en = _export(project, "--locale", "en")[0]["tools"]
    assert [t["function"]["name"] for t in zh] == [t["function"]["name"] for t in en]
    assert zh[0]["function"]["description"] != en[0]["function"]["description"]


def test_ms_swift_export_loads_as_the_format_describes(project: Path):
    samples = _export(project, "--format", "ms-swift")
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
                json.loads(message["content"])  # content must be a JSON string
                responses += 1
        assert calls == responses
    assert "all gates passed" in _validate(project, samples, "swift.jsonl")


def test_dpo_pairs_are_well_formed(project: Path):
    registry = default_registry()
    pairs = _export(project, "--dpo")
    kinds = {(p["kind"], p["source"]) for p in pairs}
    assert ("invented_parameters", "transcript") in kinds  # the real mistake of the session
    assert ("ignored_error", "derived") in kinds
    assert ("wrong_tool_name", "derived") in kinds
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
            assert rejected == {"role": "assistant", "content": IGNORED_ERROR_REPLY}
            assert pair["messages"][-1]["content"].startswith("ERROR:")
    assert "all gates passed" in _validate(project, pairs, "dpo.jsonl")
    swift = _export(project, "--dpo", "--format", "ms-swift")
    assert len(swift) == len(pairs)
    assert "all gates passed" in _validate(project, swift, "dpo-swift.jsonl")
    for pair in swift:
        chosen, rejected = pair["messages"], pair["rejected_messages"]
        shared = next(i for i, (a, b) in enumerate(zip(chosen, rejected, strict=False)) if a != b)
        assert shared >= 2 and chosen[:shared] == rejected[:shared]  # same state, different next step
        assert json.loads(pair["rejected_tools"]) == json.loads(pair["tools"])


def test_failures_are_error_correction_samples(project: Path):
    samples = _export(project, "--failures")
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
    (project / "mix.jsonl").write_text("".join(json.dumps(s) + "\n" for s in _export(project)))
    done = asi("data", "stats", "mix.jsonl", cwd=project)
    assert done.returncode == 0, done.stderr
    lines = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()[1:]}
    assert lines["error-correction"][:3] == ["1", "50.0%", "15%"]
    assert lines["no-tool"][:3] == ["1", "50.0%", "15%"]
    assert lines["single-tool"][0] == "0" and lines["total"] == ["2"]


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
    good = _export(project)[1]
    (project / "bad.jsonl").write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    done = asi("data", "validate", "bad.jsonl", cwd=project)
    assert done.returncode == 1
    assert "line 2 (line 2): tool name 'openFile' is not in the registry" in done.stdout
    assert "not closed" in done.stdout
    assert "FAIL  tool names from the registry: 0.0%" in done.stdout
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


def test_no_sessions_is_a_clear_error(tmp_path: Path):
    done = asi("data", "export", cwd=tmp_path)
    assert done.returncode == 1 and "no such file or folder" in done.stderr
