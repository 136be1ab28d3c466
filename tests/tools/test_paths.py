"""Path resolution: everything stays inside the project root, and protected folders are read-only."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from asi_agent.exceptions import PermissionDeniedError, ToolError
from asi_agent.tools.paths import display_path, resolve_in_project


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "src" / "a.py").write_text("x = 1\n")
    return project


def test_relative_path_resolves_under_the_root(root: Path) -> None:
    assert resolve_in_project(root, "src/a.py", write=False) == (root / "src" / "a.py").resolve()


def test_absolute_path_inside_the_root_is_allowed(root: Path) -> None:
    absolute = str(root / "src" / "a.py")
    assert resolve_in_project(root, absolute, write=True) == (root / "src" / "a.py").resolve()


def test_dotdot_inside_the_root_is_resolved(root: Path) -> None:
    assert resolve_in_project(root, "src/../src/./a.py", write=False) == (root / "src" / "a.py").resolve()


def test_dotdot_escape_is_refused(root: Path) -> None:
    with pytest.raises(PermissionDeniedError, match="outside the project root"):
        resolve_in_project(root, "../outside.txt", write=False)


def test_dotdot_escape_through_a_missing_folder_is_refused(root: Path) -> None:
    with pytest.raises(PermissionDeniedError, match="tools may only touch files inside the project"):
        resolve_in_project(root, "new/../../../etc/passwd", write=True)


def test_the_home_of_an_unknown_user_is_the_models_error(root: Path) -> None:
    """Python's Path.expanduser raises RuntimeError for `~nosuchuser`; the model gets an error it can fix."""
    with pytest.raises(ToolError, match="names no known home folder"):
        resolve_in_project(root, "~no-such-user-here/a.py", write=True)
    assert (
        resolve_in_project(root, "./~no-such-user-here/a.py", write=False)
        == root / "~no-such-user-here" / "a.py"
    )


def test_absolute_path_outside_is_refused(root: Path, tmp_path: Path) -> None:
    with pytest.raises(PermissionDeniedError, match="outside the project root"):
        resolve_in_project(root, str(tmp_path / "elsewhere.txt"), write=False)


def test_symlinked_file_pointing_outside_is_refused_for_read_and_write(root: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("secret")
    os.symlink(secret, root / "link.txt")
    for write in (False, True):
        with pytest.raises(PermissionDeniedError, match=r"link\.txt is a symbolic link .* leading outside"):
            resolve_in_project(root, "link.txt", write=write)


def test_new_file_under_a_symlinked_folder_pointing_outside_is_refused(root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside_dir"
    outside.mkdir()
    os.symlink(outside, root / "escape")
    with pytest.raises(PermissionDeniedError, match=r"lies under one\) leading outside the project root"):
        resolve_in_project(root, "escape/deeper/new.txt", write=True)


def test_symlink_inside_the_project_resolves_to_its_target(root: Path) -> None:
    os.symlink(root / "src" / "a.py", root / "alias.py")
    assert resolve_in_project(root, "alias.py", write=True) == (root / "src" / "a.py").resolve()


@pytest.mark.parametrize("raw", [".git/config", ".git/hooks/pre-commit", "sub/.git/HEAD"])
def test_writes_into_git_internals_are_refused(root: Path, raw: str) -> None:
    with pytest.raises(PermissionDeniedError, match=r"\.git/"):
        resolve_in_project(root, raw, write=True)
    assert resolve_in_project(root, raw, write=False) == (root / raw).resolve()


def test_writes_into_state_folder_are_refused(root: Path) -> None:
    with pytest.raises(PermissionDeniedError, match=r"\.asi/"):
        resolve_in_project(root, ".asi/journal/entries.jsonl", write=True)


def test_gitignore_and_github_are_writable(root: Path) -> None:
    assert resolve_in_project(root, ".gitignore", write=True).name == ".gitignore"
    assert resolve_in_project(root, ".github/workflows/ci.yml", write=True).name == "ci.yml"


def test_empty_path_is_a_tool_error(root: Path) -> None:
    with pytest.raises(ToolError, match="path is empty"):
        resolve_in_project(root, "  ", write=False)


def test_writing_the_root_itself_is_refused(root: Path) -> None:
    with pytest.raises(ToolError, match="project root directory"):
        resolve_in_project(root, ".", write=True)


def test_root_given_through_a_symlink_works(root: Path, tmp_path: Path) -> None:
    alias = tmp_path / "alias_root"
    os.symlink(root, alias)
    resolved = resolve_in_project(alias, "src/a.py", write=True)
    assert resolved == (root / "src" / "a.py").resolve()
    assert display_path(alias, resolved) == "src/a.py"


def test_display_path_is_posix_and_relative(root: Path) -> None:
    assert display_path(root, root / "src" / "a.py") == "src/a.py"
    assert display_path(root, root) == "."
