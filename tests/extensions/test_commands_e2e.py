"""Custom commands used headless: `asi-agent run "/review src/"` sends the command file's prompt."""

from __future__ import annotations

import json
from pathlib import Path

from asi_cli import asi
from ext_cli import call, records, run, user_messages

DONE = "Reviewed.\nAGENT_STATUS: DONE"


def test_markdown_command_fills_in_arguments_and_included_files(project: Path) -> None:
    commands = project / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "review.md").write_text(
        "---\ndescription: Review code\nargument-hint: PATH [FOCUS]\nallowed-tools: Read, Grep(*.py)\n---\n"
        "Review $ARGUMENTS now. First look at $1, then think about $2. Style guide: @notes.md\n"
    )
    (project / "notes.md").write_text("NOTES-MARKER: tabs are forbidden\n")
    result, stderr = run(project, "/review src/ speed", [DONE])
    assert result["status"] == "DONE", stderr
    prompt = user_messages(project, result["session_id"])[0]
    assert prompt.startswith("Review src/ speed now. First look at src/, then think about speed.")
    assert "NOTES-MARKER: tabs are forbidden" in prompt
    offered = next(r for r in records(project, result["session_id"]) if r.get("type") == "request")["tools"]
    assert sorted(tool["function"]["name"] for tool in offered) == ["grep_search", "read_file"]


def test_gemini_toml_command_with_args(project: Path) -> None:
    folder = project / ".gemini" / "commands" / "git"
    folder.mkdir(parents=True)
    (folder / "explain.toml").write_text(
        'description = "Explain a commit"\nprompt = "Explain commit {{args}} plainly."\n'
    )
    result, stderr = run(project, "/git:explain HEAD~1", [DONE])
    assert result["status"] == "DONE", stderr
    assert user_messages(project, result["session_id"])[0] == "Explain commit HEAD~1 plainly."


def test_user_command_and_unknown_names_pass_through(project: Path) -> None:
    folder = project / ".user-config" / "commands"
    folder.mkdir(parents=True)
    (folder / "hello.md").write_text("Say hello to the team.")
    result, _ = run(project, "/hello Ann", [DONE])
    assert user_messages(project, result["session_id"])[0] == "Say hello to the team.\n\nAnn"
    result, _ = run(project, "/nosuch thing", [DONE])
    assert user_messages(project, result["session_id"])[0] == "/nosuch thing"


def test_a_commands_model_is_used_only_from_a_trusted_folder(project: Path) -> None:
    other = project.parent / "other-model.json"
    other.write_text(json.dumps({"replies": ["From the command's model.\nAGENT_STATUS: DONE"]}))
    commands = project / ".asi" / "commands"
    commands.mkdir(parents=True)
    (commands / "fast.md").write_text(f"---\nmodel: {other}\n---\nBe quick about $ARGUMENTS.\n")
    mine = project.parent / "model.json"
    mine.write_text(json.dumps({"replies": [DONE]}))
    # your model in your configuration, not a flag (a flag always wins over a command's)
    (project / ".user-config" / "config.toml").write_text(f'provider = "scripted"\nmodel = "{mine}"\n')
    done = asi("run", "--no-sandbox", "--output-format", "json", "/fast it", cwd=project)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["result"] == "Reviewed.", done.stderr  # untrusted: your model answered
    assert user_messages(project, result["session_id"])[0] == "Be quick about it."
    assert f"fast.md: model = '{other}'" in done.stderr
    done = asi("run", "--no-sandbox", "--trust", "--output-format", "json", "/fast it", cwd=project)
    assert json.loads(done.stdout.strip().splitlines()[-1])["result"] == "From the command's model.", (
        done.stderr
    )


def test_allowed_tools_narrow_the_child_agents_too(project: Path) -> None:
    commands = project / ".claude" / "commands"
    commands.mkdir(parents=True)
    (commands / "look.md").write_text("---\nallowed-tools: Task, Read\n---\nLook at $ARGUMENTS.\n")
    replies = [
        call("task", description="help", prompt="Write x.txt", subagent_type="general"),
        call("create_file", path="x.txt", content="x"),
        "Could not write.\nAGENT_STATUS: DONE",
        DONE,
    ]
    result, stderr = run(project, "/look the code", replies, "--yes")
    assert result["subagents"][0]["agent"] == "general", stderr
    assert not (project / "x.txt").exists()  # the general agent has the parent's tools: only read_file here
