"""Finding the repository with the `git` program (gitpython is never imported)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import git

PROBE = """
import sys
from pathlib import Path
from asi_agent.vcs.repo import open_repo
repo = open_repo(Path(sys.argv[1]))
print(repo is not None, "git" in sys.modules)
"""


def probe(folder: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(folder)], capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.strip()


def test_a_folder_outside_any_repository_has_none(tmp_path: Path) -> None:
    assert probe(tmp_path) == "False False"


def test_a_repository_is_found_from_its_root_and_from_a_subfolder(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q")
    (tmp_path / "src" / "deep").mkdir(parents=True)

    assert probe(tmp_path) == "True False"
    assert probe(tmp_path / "src" / "deep") == "True False"
