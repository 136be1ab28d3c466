"""Run in the home folder by mistake (`--cwd ~`): the run says so on standard error, the chat as a warning."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from asi_cli import model_free_env

from asi_agent.assembly import broad_root


def test_the_home_folder_and_the_root_are_named_and_a_project_is_not(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    warning = broad_root(tmp_path.resolve())
    assert warning is not None and "is your home folder, not a project" in warning
    assert "--cwd PROJECT" in warning
    assert "the file system's root" in (broad_root(Path("/")) or "")
    (tmp_path / "project").mkdir()
    assert broad_root((tmp_path / "project").resolve()) is None


def test_a_run_in_the_home_folder_warns_on_standard_error(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"native": True, "replies": ["Nothing to do.\nAGENT_STATUS: DONE"]}))
    env = model_free_env()
    env.update(HOME=str(home), ASI_CONFIG_DIR=str(tmp_path / "config"))
    done = subprocess.run(
        [sys.executable, "-m", "asi_agent", "run", "--provider", "scripted", "--model", str(script),
         "--cwd", "~", "hi"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"asi-agent: warning: {home} is your home folder, not a project" in done.stderr
