"""`data validate` catches what would poison training: secrets, narrated calls (§4.4), a lost
`AGENT_STATUS` line (§4.5), unreadable arguments; pairs are judged on their own turns."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from asi_cli import asi

SCRIPT = {
    "native": True,
    "replies": [
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


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("gates")
    (root / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (root / "s.json").write_text(json.dumps(SCRIPT))
    done = asi("run", "--provider", "scripted", "--model", "s.json", "--yes", "Fix add in calc.py", cwd=root)
    assert done.returncode == 0, done.stderr
    return root


def _export(root: Path, *args: str) -> list[dict[str, Any]]:
    done = asi("data", "export", *args, cwd=root)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def _validate(root: Path, samples: list[dict[str, Any]]) -> tuple[int, str]:
    (root / "check.jsonl").write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in samples))
    done = asi("data", "validate", "-q", "check.jsonl", cwd=root)
    return done.returncode, done.stdout


def _last_answer(sample: dict[str, Any]) -> dict[str, Any]:
    return next(m for m in reversed(sample["messages"]) if m["role"] == "assistant")


def test_a_clean_export_passes_every_gate(project: Path):
    for args in ((), ("--format", "ms-swift")):
        code, report = _validate(project, _export(project, *args))
        assert code == 0 and "all gates passed" in report, report


@pytest.mark.parametrize(
    "secret",
    [
        "sk-proj-abcdefghijklmnopqrstuvwx",
        "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----",
        "API_TOKEN=q8w7e6r5t4y3u2i1",
    ],
)
def test_secrets_fail_the_gate_and_redact_clears_them(project: Path, tmp_path: Path, secret: str):
    [sample] = _export(project)
    tool = next(m for m in sample["messages"] if m["role"] == "tool")
    tool["content"] += "\n" + secret
    code, report = _validate(project, [sample])
    assert code == 1
    assert "a secret in messages[3].content" in report and "export with --redact" in report
    assert "FAIL  samples without secrets: 0.0%" in report
    (tmp_path / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (tmp_path / "leak.txt").write_text(secret)  # the same text read in a run, exported with --redact
    leak = copy.deepcopy(SCRIPT)
    leak["replies"].insert(0, {"tool_calls": [{"name": "read_file", "arguments": {"path": "leak.txt"}}]})
    (tmp_path / "leak.json").write_text(json.dumps(leak))
    done = asi("run", "--provider", "scripted", "--model", "leak.json", "--yes", "Fix add", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert _validate(tmp_path, _export(tmp_path))[0] == 1
    code, report = _validate(tmp_path, _export(tmp_path, "--redact"))
    assert code == 0, report


@pytest.mark.parametrize(
    "narration",
    [
        "工具执行：read_file {path: calc.py} 结果：文件已修复",
        "Simulated tool call: replace_text applied.",
        '[TOOL_CALL]replace_text[ARGS]{"path": "calc.py", "oldText": "a", "newText": "b"}',
        'I ran read_file({"path": "calc.py"}) and it worked.',
    ],
)
def test_a_narrated_call_fails_the_gate(project: Path, narration: str):
    [sample] = _export(project)
    _last_answer(sample)["content"] = narration + "\nAGENT_STATUS: DONE"
    code, report = _validate(project, [sample])
    assert code == 1 and "narrates a call instead of making it (§4.4)" in report
    assert "FAIL  samples without narrated calls (§4.4): 0.0%" in report
    masked = copy.deepcopy(sample)
    _last_answer(masked)["loss"] = False  # context, not a target: nothing is taught
    assert "narrates" not in _validate(project, [masked])[1]


def test_an_ordinary_summary_is_no_narration(project: Path):
    [sample] = _export(project)
    _last_answer(sample)["content"] = (
        "I read calc.py with read_file and changed `a - b` to `a + b` with replace_text.\nAGENT_STATUS: DONE"
    )
    assert _validate(project, [sample])[0] == 0


def test_the_status_line_the_run_wrote_must_close_the_sample(project: Path):
    [sample] = _export(project)
    assert sample["quality"]["agent_status"] == "DONE"
    for answer, problem in (
        ("Fixed add: it now returns a + b.", "does not end with an exact AGENT_STATUS line"),
        ("Fixed add.\nAGENT_STATUS: done", "does not end with an exact AGENT_STATUS line"),
        ("Fixed add.\nAGENT_STATUS: STOP", "but the run wrote AGENT_STATUS: DONE"),
    ):
        broken = copy.deepcopy(sample)
        _last_answer(broken)["content"] = answer
        code, report = _validate(project, [broken])
        assert code == 1 and problem in report, report
        assert "FAIL  samples ending with the run's AGENT_STATUS line (§4.5)" in report
    [swift] = _export(project, "--format", "ms-swift")
    swift["messages"][-1]["content"] = (
        "Fixed add: it now returns a + b."  # no quality: any status line counts
    )
    assert _validate(project, [swift])[0] == 0


def test_unparsable_arguments_have_their_own_message_with_the_line(project: Path):
    [sample] = _export(project)
    call = next(m for m in sample["messages"] if m.get("tool_calls"))["tool_calls"][0]
    call["arguments"] = '{"path": "calc.py",'
    code, report = _validate(project, [_export(project)[0], sample])
    assert code == 1
    assert (
        "line 2 (" in report and "read_file: arguments are not valid JSON: Expecting property name" in report
    )
    [swift] = _export(project, "--format", "ms-swift")
    turn = next(m for m in swift["messages"] if m["role"] == "tool_call")
    turn["content"] = '{"name": "read_file", "arguments": {"path": '
    code, report = _validate(project, [swift])
    assert code == 1 and "line 1 (line 1): a call: arguments are not valid JSON: tool_call content:" in report


def test_a_pair_is_judged_on_its_own_turns(project: Path):
    pairs = _export(project, "--dpo")
    pair = next(p for p in pairs if p["chosen"].get("tool_calls"))
    mistake = {"id": "x1", "name": "open_file", "arguments": {"file": 1}}
    pair["messages"] = [
        *pair["messages"],
        {"role": "assistant", "content": None, "tool_calls": [mistake]},
        {"role": "tool", "tool_call_id": "x1", "name": "open_file", "content": "ERROR: unknown tool"},
    ]
    code, report = _validate(project, [pair])  # the real mistake in the shared state is context
    assert code == 0, report
    wrong = copy.deepcopy(pair)
    wrong["chosen"]["tool_calls"][0]["name"] = "open_file"
    code, report = _validate(project, [wrong])
    assert code == 1 and "tool name 'open_file' is not in the registry" in report
    same = copy.deepcopy(pair)
    same["rejected"] = same["chosen"]
    assert "the pair's chosen and rejected sides are the same" in _validate(project, [same])[1]
