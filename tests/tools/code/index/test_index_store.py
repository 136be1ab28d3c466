"""The SQLite code index: first build, incremental updates, odd files, schema changes, concurrency, size."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

from asi_agent.tools.code.index.store import SCHEMA_VERSION, CodeIndex


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def make_project(root: Path) -> None:
    write(root, "app/main.py", "from app.util import helper\n\ndef main():\n    return helper()\n")
    write(root, "app/util.py", "def helper():\n    return 1\n")
    write(root, "web/app.ts", "export class Widget { render(): void {} }\n")
    write(root, "README.md", "# Demo\nSome words.\n")


def open_index(root: Path) -> CodeIndex:
    return CodeIndex(root, root / ".asi" / "index" / "code.db")


def names(index: CodeIndex) -> set[str]:
    return {row[0] for row in index.conn.execute("SELECT qualname FROM symbols")}


def test_first_build_then_nothing_to_do(tmp_path: Path):
    make_project(tmp_path)
    index = open_index(tmp_path)
    first = index.update()
    assert (first.parsed, first.files) == (4, 4)
    assert names(index) == {"main", "helper", "Widget", "Widget.render"}
    second = index.update()
    assert (second.parsed, second.removed, second.touched) == (0, 0, 0)
    mode = index.conn.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    assert not any(row[0].startswith(".asi/") for row in index.conn.execute("SELECT path FROM files"))


def test_only_changed_files_are_reparsed(tmp_path: Path):
    make_project(tmp_path)
    index = open_index(tmp_path)
    index.update()
    write(tmp_path, "app/util.py", "def helper():\n    return 2\n\ndef extra():\n    pass\n")
    edited = index.update()
    assert (edited.parsed, edited.removed) == (1, 0)
    assert "extra" in names(index)

    write(tmp_path, "app/new.py", "class Fresh:\n    pass\n")
    added = index.update()
    assert (added.parsed, added.removed) == (1, 0)

    (tmp_path / "app" / "new.py").rename(tmp_path / "app" / "renamed.py")
    renamed = index.update()
    assert (renamed.parsed, renamed.removed) == (1, 1)
    paths = {
        row[0] for row in index.conn.execute("SELECT f.path FROM symbols s JOIN files f ON f.id = s.file_id")
    }
    assert "app/renamed.py" in paths and "app/new.py" not in paths

    (tmp_path / "web" / "app.ts").unlink()
    deleted = index.update()
    assert (deleted.parsed, deleted.removed) == (0, 1)
    assert "Widget" not in names(index)
    leftovers = index.conn.execute(
        "SELECT count(*) FROM chunks_fts WHERE rowid NOT IN (SELECT id FROM chunks)"
    ).fetchone()[0]
    assert leftovers == 0


def test_same_content_with_new_time_is_not_reparsed(tmp_path: Path):
    make_project(tmp_path)
    index = open_index(tmp_path)
    index.update()
    path = tmp_path / "app" / "util.py"
    path.write_bytes(path.read_bytes())  # new modification time, same bytes
    stats = index.update()
    assert (stats.parsed, stats.touched) in {(0, 1), (0, 0)}  # (0, 0) when the clock did not move


def test_update_of_given_files_only(tmp_path: Path):
    make_project(tmp_path)
    index = open_index(tmp_path)
    index.update()
    write(tmp_path, "app/util.py", "def renamed_helper():\n    pass\n")
    write(tmp_path, "app/main.py", "def main2():\n    pass\n")
    stats = index.update([tmp_path / "app" / "util.py"])
    assert stats.parsed == 1
    assert "renamed_helper" in names(index) and "main" in names(index)  # main.py not looked at yet


def test_non_utf8_binary_and_huge_files(tmp_path: Path):
    (tmp_path / "legacy.py").write_bytes(
        "def caf\xe9():\n    return '\xe9'\n\ndef plain():\n    pass\n".encode("latin-1")
    )
    (tmp_path / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    write(tmp_path, "big.py", "x = 1\n" * 200_000)
    index = open_index(tmp_path)
    assert index.update().files == 3
    languages = dict(index.conn.execute("SELECT path, language FROM files").fetchall())
    assert languages == {"legacy.py": "python", "image.png": "binary", "big.py": "large"}
    assert "plain" in names(index)
    text = index.conn.execute("SELECT text FROM chunks_fts").fetchone()[0]
    assert "\ufffd" in text  # undecodable bytes replaced, not fatal
    assert (
        index.conn.execute(
            "SELECT count(*) FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path != 'legacy.py'"
        ).fetchone()[0]
        == 0
    )


def test_schema_version_mismatch_rebuilds(tmp_path: Path):
    make_project(tmp_path)
    index = open_index(tmp_path)
    index.update()
    index.conn.execute("UPDATE meta SET value = 'old' WHERE key = 'schema'")
    index.close()
    reopened = open_index(tmp_path)
    assert reopened.conn.execute("SELECT count(*) FROM files").fetchone()[0] == 0
    assert reopened.conn.execute("SELECT value FROM meta").fetchone()[0] == SCHEMA_VERSION
    assert reopened.update().parsed == 4


def _generate(root: Path, count: int) -> None:
    for n in range(count):
        write(
            root,
            f"pkg{n % 20}/mod{n}.py",
            f"import os\n\nclass Model{n}:\n    def save_{n}(self):\n        return helper_{n}(os.sep)\n\n"
            f"def helper_{n}(value):\n    return value * {n}\n",
        )


def _consistency(db: Path) -> tuple[int, int, int, int, str]:
    conn = sqlite3.connect(db)
    try:
        files = conn.execute("SELECT count(*), count(DISTINCT path) FROM files").fetchone()
        chunks = conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
        fts = conn.execute("SELECT count(*) FROM chunks_fts").fetchone()[0]
        assert chunks == fts
        symbols = conn.execute("SELECT count(*) FROM symbols").fetchone()[0]
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
        return files[0], files[1], symbols, chunks, integrity
    finally:
        conn.close()


def test_two_processes_updating_at_once_leave_a_consistent_index(tmp_path: Path):
    _generate(tmp_path, 240)
    script = textwrap.dedent(
        """
        import sys
        from pathlib import Path
        from asi_agent.tools.code.index.store import CodeIndex
        root = Path(sys.argv[1])
        index = CodeIndex(root, root / ".asi" / "index" / "code.db")
        print(index.update().files)
        """
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [proc.communicate(timeout=120)[0].strip() for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0]
    assert outputs == ["240", "240"]
    files, distinct, symbols, _, integrity = _consistency(tmp_path / ".asi" / "index" / "code.db")
    assert (files, distinct, integrity) == (240, 240, "ok")
    assert symbols == 240 * 3  # class, method, function per file: nothing doubled, nothing lost


def test_two_thousand_files(tmp_path: Path):
    _generate(tmp_path, 2000)
    index = open_index(tmp_path)
    stats = index.update()
    assert (stats.parsed, stats.files) == (2000, 2000)
    row = index.conn.execute(
        "SELECT f.path, s.kind FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.name = 'helper_1234'"
    ).fetchone()
    assert row == ("pkg14/mod1234.py", "function")
    assert index.update().parsed == 0
