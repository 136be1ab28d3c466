"""The `task` tool through the real CLI: a child agent's edit journaled in the parent's session and undone,
its turns counted in the JSON result, its tool subset and the depth limit enforced."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from asi_cli import asi
from ext_cli import call, records, run

DONE_TEXT = "Done.\nAGENT_STATUS: DONE"
WRITER = (
    "---\nname: writer\ndescription: writes files\ntools: Write, Read\n---\nYou write the files asked for.\n"
)


def child_sessions(root: Path, parent: str) -> list[str]:
    found = []
    for path in (root / ".asi" / "sessions").glob("*.jsonl"):
        meta = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        if meta.get("parent") == parent:
            found.append(path.stem)
    return found


def tool_outputs(root: Path, session_id: str) -> list[str]:
    found = [r["message"] for r in records(root, session_id) if r.get("type") == "message"]
    return [m["content"] for m in found if m["role"] == "tool"]


def test_child_edit_is_journaled_in_the_parent_session_and_undone(project: Path) -> None:
    agents = project / ".asi" / "agents"
    agents.mkdir(parents=True)
    (agents / "writer.md").write_text(WRITER)
    replies = [
        call(
            "task", description="write the note", prompt="Create note.txt saying hi", subagent_type="writer"
        ),
        call("create_file", path="note.txt", content="hi from the child\n"),
        "Created note.txt.\nAGENT_STATUS: DONE",
        "The writer made note.txt.\nAGENT_STATUS: DONE",
    ]
    result, stderr = run(project, "delegate the note", replies, "--trust", "--approval", "auto-edit")
    assert (project / "note.txt").read_text() == "hi from the child\n", stderr
    assert result["tool_calls"] == [{"name": "task", "ok": True, "error": None}]
    assert result["changed_files"] == ["note.txt"]
    [child] = result["subagents"]
    assert (child["agent"], child["status"], child["turns"]) == ("writer", "DONE", 2)
    assert tool_outputs(project, result["session_id"]) == ["Created note.txt."]
    diff = asi("diff", "--session", result["session_id"], cwd=project)  # the parent's session owns the edit
    assert "+hi from the child" in diff.stdout, diff.stderr
    [child_id] = child_sessions(project, result["session_id"])
    listed = asi("sessions", cwd=project).stdout
    assert result["session_id"] in listed and child_id not in listed  # the child's transcript is the parent's
    undone = asi("undo", cwd=project)
    assert undone.returncode == 0, undone.stderr
    assert not (project / "note.txt").exists()


def test_child_cannot_use_a_tool_outside_its_subset(project: Path) -> None:
    replies = [
        call("task", description="look around", prompt="Find the config", subagent_type="explore"),
        call("create_file", path="sneaky.txt", content="x"),
        "Nothing found.\nAGENT_STATUS: DONE",
        "Done.\nAGENT_STATUS: DONE",
    ]
    result, _ = run(project, "explore", replies, "--approval", "auto-edit")
    assert not (project / "sneaky.txt").exists()
    [child] = child_sessions(project, result["session_id"])
    [refusal] = tool_outputs(project, child)
    assert "create_file" in refusal and "ERROR" in refusal, refusal


def test_children_start_no_grandchildren_by_default(project: Path) -> None:
    replies = [
        call("task", description="helper", prompt="Do part one", subagent_type="general"),
        call("task", description="nested", prompt="Do part two", subagent_type="explore"),
        "Could not delegate.\nAGENT_STATUS: DONE",
        "Done.\nAGENT_STATUS: DONE",
    ]
    result, stderr = run(project, "split the work", replies, "--yes")
    assert [c["agent"] for c in result["subagents"]] == ["general"], stderr
    [child] = child_sessions(project, result["session_id"])
    [refusal] = tool_outputs(project, child)
    assert "ERROR" in refusal and "task" in refusal, refusal
    (project / ".user-config" / "config.toml").write_text("subagent_depth = 2\n")
    replies[2:2] = ["Found it.\nAGENT_STATUS: DONE"]
    result, stderr = run(project, "split the work", replies, "--yes")
    assert [c["agent"] for c in result["subagents"]] == ["explore", "general"], stderr


def test_read_only_children_run_together_without_asking(project: Path) -> None:
    both = {
        "text": "",
        "tool_calls": [
            {"id": "t1", "name": "task", "arguments": {"description": "a", "prompt": "Look for A"}},
            {"id": "t2", "name": "task", "arguments": {"description": "b", "prompt": "Look for B"}},
        ],
    }
    replies = [
        both,
        "Found.\nAGENT_STATUS: DONE",
        "Found.\nAGENT_STATUS: DONE",
        "Both found.\nAGENT_STATUS: DONE",
    ]
    script = project.parent / "script.json"
    script.write_text(json.dumps({"native": True, "replies": replies}))
    done = asi(
        "run", "--provider", "scripted", "--model", str(script), "--output-format", "stream-json",
        "--no-sandbox", "--approval", "ask", "look for A and B", cwd=project,
    )  # fmt: skip
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    order = [(line["type"], line.get("id")) for line in lines if line["type"] in ("tool_call", "tool_result")]
    # both started before either finished: the explore agents (read-only) ran concurrently, unasked
    assert order == [("tool_call", "t1"), ("tool_call", "t2"), ("tool_result", "t1"), ("tool_result", "t2")]
    assert all(line["ok"] for line in lines if line["type"] == "tool_result")
    ends = [line for line in lines if line["type"] == "subagent" and line["event"]["type"] == "end"]
    assert sorted(end["parent_tool_call_id"] for end in ends) == ["t1", "t2"]
    assert lines[-1]["type"] == "result" and len(lines[-1]["subagents"]) == 2


def test_a_definitions_model_answers_for_the_child(project: Path, tmp_path: Path) -> None:
    """With the scripted provider a model is a script: the child's replies come from its own."""
    other = tmp_path / "child-model.json"
    other.write_text(json.dumps({"replies": ["CHILD-MODEL-REPORT\nAGENT_STATUS: DONE"]}))
    folder = project / ".user-config" / "agents"
    folder.mkdir(parents=True)
    (folder / "scout.md").write_text(
        f"---\nname: scout\ndescription: looks\nmodel: {other}\ntools: Read\n---\nLook.\n"
    )
    replies = [
        call("task", description="look", prompt="Look", subagent_type="scout"),
        "Done.\nAGENT_STATUS: DONE",
    ]
    result, stderr = run(project, "look around", replies)
    assert result["status"] == "DONE", stderr
    assert tool_outputs(project, result["session_id"]) == ["CHILD-MODEL-REPORT"]


def test_an_untrusted_folders_agent_definitions_are_not_loaded(project: Path) -> None:
    agents = project / ".claude" / "agents"
    agents.mkdir(parents=True)
    (agents / "writer.md").write_text(WRITER)
    replies = [call("task", description="w", prompt="Write", subagent_type="writer"), DONE_TEXT]
    result, stderr = run(project, "delegate", replies, "--approval", "auto-edit")
    [output] = tool_outputs(project, result["session_id"])
    assert "no agent named 'writer'" in output and "explore" in output
    assert ".claude/agents: agent definitions" in stderr


@pytest.mark.parametrize("mode", ["plan", "ask"])
def test_a_child_is_never_looser_than_its_parent(project: Path, mode: str) -> None:
    """A trusted folder's `writer` agent lists write tools; a parent in plan (or headless ask) mode may
    not start it at all (the `task` call is as risky as the child's riskiest tool), so nothing is written:
    a definition narrows tools, never the mode."""
    agents = project / ".asi" / "agents"
    agents.mkdir(parents=True)
    (agents / "writer.md").write_text(WRITER)
    replies = [
        call("task", description="write", prompt="Create note.txt saying hi", subagent_type="writer"),
        call("create_file", path="note.txt", content="hi\n"),
        "Could not write.\nAGENT_STATUS: DONE",
        "The writer could not write.\nAGENT_STATUS: DONE",
    ]
    result, stderr = run(project, "delegate the note", replies, "--trust", "--approval", mode)
    assert result["tool_calls"][0] == {"name": "task", "ok": False, "error": result["tool_calls"][0]["error"]}
    assert mode in result["denied_calls"][0]["reason"], stderr
    assert not (project / "note.txt").exists() and child_sessions(project, result["session_id"]) == []
