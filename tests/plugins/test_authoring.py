"""`asi-agent plugins new` and `asi-agent plugins add`, through the real command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib

from asi_cli import asi, model_free_env

SHOUT = """from asi_agent.sdk import BaseModel, Field, PluginContext, tool


class ShoutArgs(BaseModel):
    text: str = Field(description="What to shout")


@tool(description="Upper-case a text", risk="read")
def shout(args: ShoutArgs, ctx: PluginContext) -> str:
    return args.text.upper() + "!"


def plain(args, ctx):
    return "not a tool"
"""


def test_new_writes_an_installable_project_whose_test_passes(tmp_path):
    proc = asi("plugins", "new", "word-stats", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    folder = tmp_path / "word-stats"
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) == [
        "README.md",
        "pyproject.toml",
        "src/word_stats/__init__.py",
        "src/word_stats/tools.py",
        "tests/test_tools.py",
    ]
    project = tomllib.loads((folder / "pyproject.toml").read_text())
    assert project["project"]["entry-points"]["asi_agent.plugins"] == {"word-stats": "word_stats.tools"}
    assert project["build-system"]["build-backend"] == "hatchling.build"
    assert "call_tool" in (folder / "tests" / "test_tools.py").read_text()
    assert "asi-agent plugins install" in proc.stdout
    # Its own test, against the source folder: the example tool called as the runtime would.
    env = model_free_env()
    env["PYTHONPATH"] = os.pathsep.join([str(folder / "src"), env.get("PYTHONPATH", "")])
    tested = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(folder / "tests")],
        cwd=folder,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "3 passed" in tested.stdout


def test_a_dotted_name_is_one_entry_point(tmp_path):
    assert asi("plugins", "new", "acme.word-stats", cwd=tmp_path).returncode == 0
    project = tomllib.loads((tmp_path / "acme.word-stats" / "pyproject.toml").read_text())
    entry_points = project["project"]["entry-points"]["asi_agent.plugins"]
    assert entry_points == {"acme.word-stats": "acme_word_stats.tools"}
    assert (tmp_path / "acme.word-stats" / "src" / "acme_word_stats" / "tools.py").is_file()


def test_new_refuses_bad_names_and_existing_folders(tmp_path):
    for name, reason in [
        ("2fast", "starting with a letter"),
        ("word stats", "use letters and digits"),
        ("class", "Python keyword"),
        ("read-file", "built-in tool's name"),
    ]:
        proc = asi("plugins", "new", name, cwd=tmp_path)
        assert proc.returncode == 1 and reason in proc.stderr, (name, proc.stderr)
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "x").write_text("")
    proc = asi("plugins", "new", "taken", cwd=tmp_path)
    assert proc.returncode == 1 and "already exists" in proc.stderr
    proc = asi("plugins", "new", "ok-name", "--dir", str(tmp_path / "nowhere"), cwd=tmp_path)
    assert proc.returncode == 1 and "not a directory" in proc.stderr


def test_add_writes_then_updates_the_manifest_entry_of_a_tool(tmp_path):
    (tmp_path / "plugins").mkdir()
    source = tmp_path / "plugins" / "shout.py"
    source.write_text(SHOUT)
    (tmp_path / "moss-tools.json").write_text(
        json.dumps({"$schema": "plugins/moss-tools.schema.json", "version": 1, "tools": [], "mcpServers": {}})
    )
    proc = asi("plugins", "add", "plugins/shout.py:shout", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "added tool 'shout' (read, entry shout:shout)" in proc.stdout
    manifest = json.loads((tmp_path / "moss-tools.json").read_text())
    assert manifest["$schema"] == "plugins/moss-tools.schema.json" and manifest["mcpServers"] == {}
    (entry,) = manifest["tools"]
    assert entry["run"] == {"type": "python", "entry": "shout:shout"}
    assert entry["parameters"]["properties"]["text"] == {"type": "string", "description": "What to shout"}
    listed = asi("tools", "--check", "--trust", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "shout" in listed.stdout.split()
    source.write_text(SHOUT.replace('"Upper-case a text", risk="read"', '"Shout a text", risk="write"'))
    proc = asi("plugins", "add", "plugins/shout.py:shout", cwd=tmp_path)
    assert "updated tool 'shout' (write" in proc.stdout
    (entry,) = json.loads((tmp_path / "moss-tools.json").read_text())["tools"]
    assert entry["description"] == "Shout a text" and entry["risk"] == "write"


def test_add_says_what_to_fix(tmp_path):
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "shout.py").write_text(SHOUT)
    cases = [
        ("plugins/shout.py", "expected PATH:FUNC"),
        ("plugins/missing.py:shout", "not a Python file"),
        ("plugins/shout.py:plain", "is not a tool; decorate the function with @tool"),
        ("plugins/shout.py:nothing", "is not a tool"),
    ]
    for target, reason in cases:
        proc = asi("plugins", "add", target, cwd=tmp_path)
        assert proc.returncode == 1 and reason in proc.stderr, (target, proc.stderr)
    (tmp_path / "plugins" / "clash.py").write_text(SHOUT.replace("def shout", "def read_file"))
    proc = asi("plugins", "add", "plugins/clash.py:read_file", cwd=tmp_path)
    assert proc.returncode == 1 and "already used by a built-in tool" in proc.stderr
    (tmp_path / "moss-tools.json").write_text('{"tools": [}')
    proc = asi("plugins", "add", "plugins/shout.py:shout", cwd=tmp_path)
    assert proc.returncode == 1 and "invalid JSON" in proc.stderr
    assert (tmp_path / "moss-tools.json").read_text() == '{"tools": [}'


def test_install_runs_pip_of_asi_agents_environment_and_says_so(tmp_path):
    proc = asi("plugins", "install", str(tmp_path / "no-such-folder"), "--no-index", cwd=tmp_path)
    assert proc.returncode != 0
    assert f"installing into the environment asi-agent runs in ({sys.prefix})" in proc.stderr
    assert f"{sys.executable} -m pip install {tmp_path / 'no-such-folder'} --no-index" in proc.stderr
    assert "pip failed" in proc.stderr
    empty = asi("plugins", "install", cwd=tmp_path)
    assert empty.returncode == 1 and "needs what to install" in empty.stderr


def test_plugins_lists_nothing_plainly(tmp_path):
    proc = asi("plugins", cwd=tmp_path)
    assert proc.returncode == 0
    assert "no plugin packages are installed" in proc.stdout and "asi-agent plugins new NAME" in proc.stdout
    assert json.loads(asi("plugins", "list", "--json", cwd=tmp_path).stdout) == []


def test_help_lists_the_plugins_command(tmp_path):
    proc = asi("--help", cwd=tmp_path)
    assert "plugins" in proc.stdout
    sub = asi("plugins", "new", "--help", cwd=tmp_path)
    assert "asi_agent.sdk.testing" in sub.stdout
