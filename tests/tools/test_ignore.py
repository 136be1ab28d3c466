"""The project walker and its ignore rules, on real temporary trees (with and without git)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from asi_agent.tools.ignore import is_ignored, iter_project_entries, iter_project_files


def _tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _rels(root: Path, **kwargs: Path) -> list[str]:
    real = root.resolve()
    return [path.relative_to(real).as_posix() for path in iter_project_files(root, **kwargs)]


def test_always_ignored_folders_and_venvs_are_skipped(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "src/app.py": "",
            ".git/config": "",
            ".asi/sessions/x.jsonl": "",
            "node_modules/lib/index.js": "",
            "web/node_modules/dep/index.js": "",
            ".venv/lib/site.py": "",
            "venv/lib/site.py": "",
            "env312/pyvenv.cfg": "",
            "env312/lib/x.py": "",
            "src/__pycache__/app.cpython-311.pyc": "",
            ".mypy_cache/x.json": "",
            ".github/workflows/ci.yml": "",
            "dist/pkg.whl": "",
        },
    )
    assert _rels(tmp_path) == [".github/workflows/ci.yml", "dist/pkg.whl", "src/app.py"]


def test_gitignore_outside_a_git_repository_with_nesting_and_negation(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            ".gitignore": "*.log\n!keep.log\n/top.txt\nbuild/\n",
            "a.log": "",
            "keep.log": "",
            "top.txt": "",
            "sub/top.txt": "",
            "build/out.o": "",
            "sub/build/out.o": "",
            "sub/.gitignore": "*.tmp\n!important.log\n",
            "sub/x.tmp": "",
            "sub/important.log": "",
            "sub/other.log": "",
            "other/x.tmp": "",
        },
    )
    assert _rels(tmp_path) == [
        ".gitignore",
        "keep.log",
        "other/x.tmp",
        "sub/.gitignore",
        "sub/important.log",
        "sub/top.txt",
    ]


def test_gitignore_inside_a_git_repository_and_info_exclude(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    _tree(tmp_path, {".gitignore": "secret.txt\n", "secret.txt": "", "main.py": "", "notes.md": ""})
    (tmp_path / ".git" / "info").mkdir(exist_ok=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("notes.md\n", encoding="utf-8")
    assert _rels(tmp_path) == [".gitignore", "main.py"]
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    # The walker agrees with git itself about what is untracked-and-not-ignored.
    assert sorted(line[3:] for line in status.stdout.splitlines()) == [".gitignore", "main.py"]


def test_start_folder_uses_the_ignore_files_above_it(tmp_path: Path) -> None:
    _tree(tmp_path, {".gitignore": "*.log\n", "pkg/a.py": "", "pkg/a.log": "", "other.py": ""})
    assert _rels(tmp_path, start=Path("pkg")) == ["pkg/a.py"]
    assert _rels(tmp_path, start=tmp_path / "pkg") == ["pkg/a.py"]
    with pytest.raises(ValueError, match="not inside the project root"):
        list(iter_project_files(tmp_path / "pkg", start=tmp_path))


def test_entries_are_depth_first_in_name_order_with_depth_limit(tmp_path: Path) -> None:
    _tree(tmp_path, {"b.txt": "", "a/x.py": "", "a/deep/y.py": "", "c/z.py": ""})
    entries = list(iter_project_entries(tmp_path))
    assert [(e.rel, e.is_dir, e.depth) for e in entries] == [
        ("a", True, 1),
        ("a/deep", True, 2),
        ("a/deep/y.py", False, 3),
        ("a/x.py", False, 2),
        ("b.txt", False, 1),
        ("c", True, 1),
        ("c/z.py", False, 2),
    ]
    shallow = [e.rel for e in iter_project_entries(tmp_path, max_depth=1)]
    assert shallow == ["a", "b.txt", "c"]


def test_symlinks_to_folders_are_not_followed_and_outside_targets_dropped(tmp_path: Path) -> None:
    root = tmp_path / "project"
    outside = tmp_path / "outside.txt"
    outside.write_text("x", encoding="utf-8")
    _tree(root, {"real/a.py": ""})
    os.symlink(root / "real", root / "loop")
    os.symlink(root / "real" / "a.py", root / "alias.py")
    os.symlink(outside, root / "escape.txt")
    assert _rels(root) == ["alias.py", "real/a.py"]


def test_is_ignored_matches_the_walker(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            ".gitignore": "*.log\n!keep.log\ncache/\n",
            "sub/.gitignore": "!again.log\n",
            "a.log": "",
            "keep.log": "",
            "sub/again.log": "",
            "cache/data.bin": "",
            "node_modules/x.js": "",
            "env/pyvenv.cfg": "",
            "env/lib.py": "",
            "src/ok.py": "",
        },
    )
    walked = set(_rels(tmp_path))
    for rel in ["a.log", "keep.log", "sub/again.log", "cache/data.bin", "node_modules/x.js", "env/lib.py"]:
        assert is_ignored(tmp_path, Path(rel)) == (rel not in walked), rel
    assert is_ignored(tmp_path, Path("cache"))
    assert not is_ignored(tmp_path, tmp_path / "src" / "ok.py")
    assert is_ignored(tmp_path, tmp_path.parent / "elsewhere.py")
    # A changed ignore file is read again, not served from the cache.
    (tmp_path / ".gitignore").write_text("src/\n", encoding="utf-8")
    assert is_ignored(tmp_path, Path("src/ok.py"))
    assert not is_ignored(tmp_path, Path("a.log"))


def test_many_files_are_walked_completely(tmp_path: Path) -> None:
    _tree(tmp_path, {".gitignore": "*.skip\n"})
    for index in range(3000):
        folder = tmp_path / f"pkg{index % 30}"
        folder.mkdir(exist_ok=True)
        suffix = "skip" if index % 10 == 0 else "py"
        (folder / f"m{index}.{suffix}").touch()
    files = _rels(tmp_path)
    assert len(files) == 1 + 2700
    assert files == sorted(files, key=lambda rel: rel.split("/"))
