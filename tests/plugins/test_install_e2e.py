"""A plugin's whole life, offline: `asi-agent plugins new`, `asi-agent plugins install` (pip) into a new
virtual environment, its own test passing there, `asi-agent run` calling its tool (and the tool asking
the model), then `disabled_plugins` taking it away.

The new environment sees the test interpreter's packages through a `.pth` file (asi-agent, its
dependencies, pip and hatchling, the scaffold's build backend), so nothing is downloaded: pip runs with
`--no-index --no-build-isolation`. What pip installs lands in the new environment only.
"""

from __future__ import annotations

import json
import shlex
import site
import subprocess
import sys
from pathlib import Path

import pytest
from asi_cli import model_free_env

pytestmark = pytest.mark.slow  # each test builds and installs a package: ~5-8 s


def child_environment(folder: Path) -> Path:
    """A virtual environment whose Python also sees this interpreter's packages; its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120)
    python = folder / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    lines = [f"import site; site.addsitedir({path!r})" for path in site.getsitepackages()]
    (Path(purelib) / "parent-environment.pth").write_text("\n".join(lines) + "\n")
    return python


def runner(python: Path, project: Path):
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(project / ".user-config")
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"

    def run(*args: str, cwd: Path = project) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(python), *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=300, check=False
        )

    return run


def test_scaffold_install_run_and_disable(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("one two\nthree\n")
    python = child_environment(tmp_path / "venv")
    run = runner(python, project)

    made = run("-m", "asi_agent", "plugins", "new", "word-stats", "--dir", str(tmp_path))
    assert made.returncode == 0, made.stderr
    folder = tmp_path / "word-stats"
    before = run("-m", "asi_agent", "tools")
    assert "word_stats" not in before.stdout.split()

    # The next steps as `plugins new` prints them: install (with the test extra), list, test.
    install, listing, test = [shlex.split(line) for line in made.stdout.splitlines() if line.startswith("  ")]
    assert install == ["asi-agent", "plugins", "install", "-e", f"{folder}[test]"]
    assert listing == ["asi-agent", "plugins"]
    assert test == [str(python), "-m", "pytest", str(folder / "tests")]  # asi-agent's own interpreter
    installed = run("-m", "asi_agent", *install[1:], "--no-index", "--no-build-isolation")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert f"environment asi-agent runs in ({tmp_path / 'venv'})" in installed.stderr
    assert "installed plugin package word-stats 0.1.0" in installed.stdout
    assert list((tmp_path / "venv").rglob("word_stats-0.1.0.dist-info"))  # editable: its metadata only

    tested = run(*test[1:], "-q", "-p", "no:cacheprovider", cwd=tmp_path)
    assert tested.returncode == 0 and "3 passed" in tested.stdout, tested.stdout + tested.stderr

    listed = run("-m", "asi_agent", "plugins")
    assert "word-stats 0.1.0  entry point word-stats = word_stats.tools" in listed.stdout
    tools = run("-m", "asi_agent", "tools")
    assert ["word_stats", "read", "word-stats", "0.1.0"] in [
        line.split() for line in tools.stdout.splitlines()
    ]

    script = tmp_path / "script.json"
    call = {"name": "word_stats", "arguments": {"path": "notes.txt", "summary": True}}
    replies = [{"text": "", "tool_calls": [call]}, "A short list of numbers.", "3 words.\nAGENT_STATUS: DONE"]
    script.write_text(json.dumps({"native": True, "replies": replies}))
    argv = ["-m", "asi_agent", "run", "--provider", "scripted", "--model", str(script), "--yes"]
    done = run(*argv, "--output-format", "stream-json", "How many words are in notes.txt?")
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    (result,) = [event for event in events if event["type"] == "tool_result"]
    assert result["ok"], result
    assert result["output"] == "notes.txt: 3 words, 2 lines\nsummary: A short list of numbers."

    (project / ".asi" / "config.toml").write_text('disabled_plugins = ["word-stats"]\n')
    assert "word_stats" not in run("-m", "asi_agent", "tools").stdout.split()
    assert "disabled" in run("-m", "asi_agent", "plugins").stdout
    gone = run(*argv, "--output-format", "stream-json", "How many words are in notes.txt?")
    (result,) = [json.loads(line) for line in gone.stdout.splitlines() if '"tool_result"' in line]
    assert not result["ok"] and "unknown tool 'word_stats'" in result["output"]


def test_an_editable_install_follows_the_source(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    run = runner(child_environment(tmp_path / "venv"), project)
    assert run("-m", "asi_agent", "plugins", "new", "live-words", "--dir", str(tmp_path)).returncode == 0
    installed = run(
        "-m", "asi_agent", "plugins", "install", "-e", str(tmp_path / "live-words"), "--no-index",
        "--no-build-isolation",
    )  # fmt: skip
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert "--editable" in installed.stderr
    rows = [line.split() for line in run("-m", "asi_agent", "tools").stdout.splitlines()]
    assert ["live_words", "read", "live-words", "0.1.0"] in rows
    tools = tmp_path / "live-words" / "src" / "live_words" / "tools.py"
    tools.write_text(tools.read_text().replace('risk="read"', 'risk="write"'))
    rows = [line.split() for line in run("-m", "asi_agent", "tools").stdout.splitlines()]
    assert ["live_words", "write", "live-words", "0.1.0"] in rows
