"""Installed plugin packages, through the real command line: found by their entry point, listed with
their package and version, called in a run under the same policy as every tool, switched off by
`disabled_plugins`, and a broken one reported once without stopping the run.

The packages are installed the way pip leaves them (a `.dist-info` folder with `entry_points.txt`, next
to the modules) in a folder put on the subprocess's PYTHONPATH.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from asi_cli import model_free_env

SHOUT = """
from asi_agent.sdk import BaseModel, Field, PluginContext, tool


class ShoutArgs(BaseModel):
    text: str = Field(description="What to shout")


@tool(description="Upper-case a text", risk="read")
def shout(args: ShoutArgs, ctx: PluginContext) -> str:
    return args.text.upper() + "!"


class NoteArgs(BaseModel):
    path: str


@tool(description="Write a note file", risk="write")
def write_note(args: NoteArgs, ctx: PluginContext) -> str:
    (ctx.root / args.path).write_text("note")
    return "written"
"""


def install_fake(
    site: Path, package: str, entry: str, modules: dict[str, str], version: str = "1.2.0"
) -> None:
    """What pip leaves for a package: its modules and a dist-info folder declaring the entry point."""
    dist = site / f"{package.replace('-', '_')}-{version}.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: {version}\n")
    (dist / "entry_points.txt").write_text(f"[asi_agent.plugins]\n{package} = {entry}\n")
    for rel, source in modules.items():
        path = site / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source))


def asi(*args: str, root: Path, site: Path) -> subprocess.CompletedProcess[str]:
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(root / ".user-config")
    env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "asi_agent", *args],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def run_calling(root: Path, site: Path, *calls: dict, approval: str = "yolo") -> list[dict]:
    """`asi-agent run` with a scripted model making `calls`, then DONE; the stream-json events."""
    replies = [{"text": "", "tool_calls": [call]} for call in calls] + ["Done.\nAGENT_STATUS: DONE"] * 2
    script = root.parent / "script.json"
    script.write_text(json.dumps({"native": True, "replies": replies}))
    proc = asi(
        "run", "--provider", "scripted", "--model", str(script), "--approval", approval,
        "--output-format", "stream-json", "What does the plugin tool answer?", root=root, site=site,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def results(events: list[dict]) -> list[dict]:
    return [event for event in events if event["type"] == "tool_result"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    return root


@pytest.fixture
def site(tmp_path: Path) -> Path:
    folder = tmp_path / "site"
    install_fake(
        folder, "demo-shout", "demo_shout.tools", {"demo_shout/__init__.py": "", "demo_shout/tools.py": SHOUT}
    )
    return folder


def test_the_tools_of_an_installed_package_are_listed_with_its_package_and_version(project, site):
    listed = asi("tools", root=project, site=site)
    assert listed.returncode == 0, listed.stderr
    rows = {line.split()[0]: line.split(None, 2)[1:] for line in listed.stdout.splitlines()}
    assert rows["shout"] == ["read", "demo-shout 1.2.0"]
    assert rows["write_note"] == ["write", "demo-shout 1.2.0"]
    schemas = {row["name"]: row for row in json.loads(asi("tools", "--json", root=project, site=site).stdout)}
    assert schemas["shout"]["source"] == "demo-shout 1.2.0"
    assert schemas["shout"]["schema"]["function"]["parameters"]["required"] == ["text"]
    plugins = asi("plugins", root=project, site=site)
    assert plugins.returncode == 0, plugins.stderr
    assert "demo-shout 1.2.0  entry point demo-shout = demo_shout.tools" in plugins.stdout
    assert "  shout " in plugins.stdout and "Upper-case a text" in plugins.stdout


def test_a_run_calls_an_installed_tool_with_its_arguments_checked(project, site):
    events = run_calling(
        project,
        site,
        {"name": "shout", "arguments": {"words": "hello"}},
        {"name": "shout", "arguments": {"text": "hello"}},
    )
    bad, good = results(events)
    assert good["ok"] and good["output"] == "HELLO!"
    assert not bad["ok"] and "text" in bad["output"]


def test_an_installed_tool_gets_its_risk_class_from_the_policy(project, site):
    events = run_calling(
        project,
        site,
        {"name": "write_note", "arguments": {"path": "n.txt"}},
        {"name": "shout", "arguments": {"text": "read"}},
        approval="plan",
    )
    refused, allowed = results(events)
    assert not refused["ok"] and "plan mode is read-only: write calls are refused" in refused["output"]
    assert allowed["ok"] and allowed["output"] == "READ!"
    assert not (project / "n.txt").exists()
    events = run_calling(
        project, site, {"name": "write_note", "arguments": {"path": "n.txt"}}, approval="ask"
    )
    assert "write calls ask first, but nobody can answer" in results(events)[0]["output"]
    events = run_calling(
        project, site, {"name": "write_note", "arguments": {"path": "n.txt"}}, approval="yolo"
    )
    assert results(events)[0]["ok"] and (project / "n.txt").read_text() == "note"


def test_disabled_plugins_leaves_a_package_out_without_importing_it(project, site, tmp_path):
    marker = tmp_path / "imported"
    tools = site / "demo_shout" / "tools.py"
    tools.write_text(f"open({str(marker)!r}, 'w').close()\n" + tools.read_text())
    (project / ".asi").mkdir()
    (project / ".asi" / "config.toml").write_text('disabled_plugins = ["Demo_Shout"]\n')
    listed = asi("tools", root=project, site=site)
    assert listed.returncode == 0 and "shout" not in listed.stdout.split()
    assert "disabled" in asi("plugins", root=project, site=site).stdout
    events = run_calling(project, site, {"name": "shout", "arguments": {"text": "x"}})
    (result,) = results(events)
    assert not result["ok"] and "unknown tool 'shout'" in result["output"]
    assert not marker.exists()
    (project / ".asi" / "config.toml").write_text("disabled_plugins = []\n")
    assert "shout" in asi("tools", root=project, site=site).stdout.split()
    assert marker.exists()


def test_a_broken_package_disables_itself_with_one_message_and_the_run_goes_on(project, site):
    install_fake(site, "demo-broken", "demo_broken", {"demo_broken.py": "import not_a_module_anywhere\n"})
    events = run_calling(project, site, {"name": "shout", "arguments": {"text": "still"}})
    assert results(events)[0]["output"] == "STILL!"
    proc = asi("tools", root=project, site=site)
    assert proc.returncode == 0
    warnings = [line for line in proc.stderr.splitlines() if "demo-broken" in line]
    assert len(warnings) == 1, proc.stderr
    assert "No module named 'not_a_module_anywhere'" in warnings[0]
    assert "pip install not-a-module-anywhere" in warnings[0]
    assert "the package is disabled" in warnings[0].lower()
    assert "broken:" in asi("plugins", root=project, site=site).stdout
    assert asi("tools", "--check", root=project, site=site).returncode == 1


def test_a_package_with_an_invalid_tool_is_disabled_naming_the_tool_and_field(project, site):
    source = """
    from asi_agent.sdk import BaseModel, PluginContext, tool

    class A(BaseModel):
        x: int

    @tool(name="good", description="fine")
    def good(args: A, ctx: PluginContext) -> str:
        return "ok"

    @tool(name="bad name", description="a space in the name")
    def bad(args: A, ctx: PluginContext) -> str:
        return "no"
    """
    install_fake(site, "demo-invalid", "demo_invalid", {"demo_invalid.py": source})
    proc = asi("tools", root=project, site=site)
    assert "good" not in proc.stdout.split()
    (warning,) = [line for line in proc.stderr.splitlines() if "demo-invalid" in line]
    assert "tool 'bad name' is invalid: name:" in warning


def test_a_tool_whose_name_is_taken_is_left_out_alone(project, site):
    source = """
    from asi_agent.sdk import BaseModel, PluginContext, tool

    class A(BaseModel):
        path: str

    def tools():
        @tool(name="read_file", description="shadows a built-in")
        def read(args: A, ctx: PluginContext) -> str:
            return "mine"

        @tool(name="own_tool", description="its own name")
        def own(args: A, ctx: PluginContext) -> str:
            return "own"

        return [read, own]
    """
    install_fake(site, "demo-clash", "demo_clash:tools", {"demo_clash.py": source})
    proc = asi("tools", "--json", root=project, site=site)
    sources = {row["name"]: row["source"] for row in json.loads(proc.stdout)}
    assert sources["read_file"] == "builtin" and sources["own_tool"] == "demo-clash 1.2.0"
    assert "tool 'read_file': not loaded: the name is already used" in proc.stderr
    listing = asi("plugins", root=project, site=site).stdout
    assert "(not loaded: the name is taken by builtin)" in listing


def test_plugins_json_describes_each_package(project, site):
    (row,) = json.loads(asi("plugins", "--json", root=project, site=site).stdout)
    assert row["package"] == "demo-shout" and row["version"] == "1.2.0" and row["status"] == "enabled"
    assert {tool["name"]: tool["risk"] for tool in row["tools"]} == {"shout": "read", "write_note": "write"}
    assert all(tool["loaded"] for tool in row["tools"])


def test_a_bug_inside_an_installed_tool_is_told_to_the_model_and_the_run_goes_on(project, site):
    source = """
    from asi_agent.sdk import BaseModel, PluginContext, tool

    class A(BaseModel):
        n: int

    @tool(description="Divide one by n")
    def invert(args: A, ctx: PluginContext) -> str:
        return str(1 / args.n)
    """
    install_fake(site, "demo-buggy", "demo_buggy", {"demo_buggy.py": source})
    events = run_calling(
        project,
        site,
        {"name": "invert", "arguments": {"n": 0}},
        {"name": "invert", "arguments": {"n": 4}},
    )
    failed, worked = results(events)
    assert not failed["ok"]
    assert failed["output"] == "invert failed inside the plugin: ZeroDivisionError: division by zero"
    assert worked["ok"] and worked["output"] == "0.25"
