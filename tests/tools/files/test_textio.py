"""Text files round-trip byte for byte: encodings, BOMs, line ends, final newline, mode, atomic writes."""

from __future__ import annotations

import codecs
import os
import stat
from pathlib import Path

import pytest

from asi_agent.exceptions import ToolError
from asi_agent.tools.files.textio import encode, is_binary, read_text, split_lines, unified_diff, write_atomic


def _roundtrip(path: Path, data: bytes) -> bytes:
    """Write bytes, read them as text, encode the unchanged text again."""
    path.write_bytes(data)
    text_file = read_text(path)
    return encode(text_file, text_file.text)


@pytest.mark.parametrize(
    "data",
    [
        b"one\ntwo\n",
        b"one\r\ntwo\r\n",
        b"one\rtwo\r",
        b"no final newline",
        codecs.BOM_UTF8 + "caf\u00e9\n".encode(),
        codecs.BOM_UTF16_LE + "h\u00e9llo\r\nw\u00f6rld\r\n".encode("utf-16-le"),
        codecs.BOM_UTF16_BE + "big endian\n".encode("utf-16-be"),
        "na\u00efve caf\u00e9\n".encode("latin-1"),
        b"",
    ],
)
def test_unchanged_text_encodes_to_the_same_bytes(tmp_path: Path, data: bytes) -> None:
    assert _roundtrip(tmp_path / "f.txt", data) == data


def test_crlf_file_is_read_as_lf_and_written_as_crlf(tmp_path: Path) -> None:
    path = tmp_path / "win.txt"
    path.write_bytes(b"a\r\nb\r\n")
    text_file = read_text(path)
    assert text_file.text == "a\nb\n"
    assert text_file.newline == "\r\n"
    assert encode(text_file, "a\nX\nb\n") == b"a\r\nX\r\nb\r\n"


def test_missing_final_newline_stays_missing(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(b"a\nb")
    text_file = read_text(path)
    assert not text_file.trailing_newline
    assert encode(text_file, "a\nb\nc\n") == b"a\nb\nc"


def test_bom_is_detected_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes(codecs.BOM_UTF8 + b"x\n")
    text_file = read_text(path)
    assert text_file.has_bom
    assert text_file.text == "x\n"
    assert encode(text_file, "y\n") == codecs.BOM_UTF8 + b"y\n"


def test_utf16_is_decoded(tmp_path: Path) -> None:
    path = tmp_path / "u16.txt"
    path.write_bytes(codecs.BOM_UTF16_LE + "\u4f60\u597d\n".encode("utf-16-le"))
    text_file = read_text(path)
    assert (text_file.encoding, text_file.text) == ("utf-16-le", "\u4f60\u597d\n")


def test_non_utf8_is_decoded_as_cp1252_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "legacy.txt"
    path.write_bytes("\u20ac 5 caf\u00e9\n".encode("cp1252"))
    text_file = read_text(path)
    assert text_file.text == "\u20ac 5 caf\u00e9\n"
    assert text_file.encoding == "cp1252"
    assert text_file.assumed_encoding


def test_unencodable_character_names_it(tmp_path: Path) -> None:
    path = tmp_path / "legacy.txt"
    path.write_bytes("caf\u00e9\n".encode("latin-1"))
    text_file = read_text(path)
    with pytest.raises(ToolError, match=r"U\+4F60.*cp1252"):
        encode(text_file, "caf\u00e9\n\u4f60\n")


def test_binary_is_refused_with_size(tmp_path: Path) -> None:
    path = tmp_path / "blob.bin"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with pytest.raises(ToolError, match=r"blob.bin is a binary file \(16 bytes\)"):
        read_text(path)


def test_mostly_control_bytes_count_as_binary() -> None:
    assert is_binary(bytes(range(1, 8)) * 100)
    assert not is_binary(b"plain text\twith tabs\n")


def test_oversized_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 100)
    with pytest.raises(ToolError, match="100 bytes, more than the 10-byte limit"):
        read_text(path, max_bytes=10)


def test_write_atomic_keeps_mode_and_leaves_no_temp_file(tmp_path: Path) -> None:
    path = tmp_path / "run.sh"
    path.write_bytes(b"echo old\n")
    path.chmod(0o755)
    write_atomic(path, b"echo new\n", read_text(path).mode)
    assert path.read_bytes() == b"echo new\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o755
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.sh"]


def test_write_atomic_new_file_follows_umask(tmp_path: Path) -> None:
    path = tmp_path / "new.txt"
    old_umask = os.umask(0o022)
    try:
        write_atomic(path, b"x")
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


def test_failed_write_leaves_the_original_and_no_temp(tmp_path: Path) -> None:
    path = tmp_path / "target.txt"
    path.write_bytes(b"original\n")
    # A str where bytes belong fails inside the write, after the temporary file was created.
    with pytest.raises(TypeError):
        write_atomic(path, "not bytes", 0o644)  # type: ignore[arg-type]
    assert path.read_bytes() == b"original\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["target.txt"]


def test_split_lines_ignores_one_final_newline() -> None:
    assert split_lines("a\nb\n") == ["a", "b"]
    assert split_lines("a\n\n") == ["a", ""]
    assert split_lines("") == []


def test_unified_diff_is_capped() -> None:
    before = "".join(f"{i}\n" for i in range(200))
    diff = unified_diff(before, "", "f.txt", max_lines=20)
    lines = diff.splitlines()
    assert lines[0] == "--- a/f.txt"
    assert len(lines) == 21
    assert lines[-1].startswith("... (diff cut:")
