"""Reading and writing text files without changing what the edit did not touch.

A file is decoded into `TextFile`: its text with "\\n" line ends plus everything needed to write it back
the same way (encoding, byte-order mark, line-ending style, trailing newline, permission bits).
Writes are atomic: a temporary file in the same folder, fsync, then `os.replace`, so a crash leaves
either the old or the new file, never half of one.
"""

from __future__ import annotations

import codecs
import difflib
import os
import re
import secrets
import stat
from dataclasses import dataclass, field
from pathlib import Path

from asi_agent.exceptions import ToolError
from asi_agent.tools import beneath
from asi_agent.tools.beneath import Anchored

__all__ = [
    "MAX_TEXT_BYTES",
    "TEMP_GLOB",
    "TextFile",
    "decode",
    "encode",
    "is_binary",
    "is_write_temp",
    "read_if_present",
    "read_text",
    "split_lines",
    "unified_diff",
    "write_atomic",
]

MAX_TEXT_BYTES = 20 * 1024 * 1024
"""Largest file the text tools load at all; bigger files are refused rather than risk memory."""

_SNIFF_BYTES = 8192
# Control bytes that never appear in text; tab, newlines, form feed, backspace and escape do.
_CONTROL = frozenset(range(0x20)) - {0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x1B}
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


@dataclass(frozen=True, slots=True)
class TextFile:
    """A decoded text file and how to encode it back byte-for-byte in the same style."""

    text: str
    encoding: str = "utf-8"
    newline: str = "\n"
    has_bom: bool = False
    trailing_newline: bool = True
    mode: int | None = None
    raw: bytes = field(default=b"", repr=False)
    disk: os.stat_result | None = field(default=None, repr=False, compare=False)
    """The file's status when it was read (from the descriptor it was read through)."""

    @property
    def lines(self) -> list[str]:
        """The lines, without their line ends."""
        return split_lines(self.text)

    @property
    def assumed_encoding(self) -> bool:
        """True when the file was not valid UTF-8/UTF-16 and a single-byte encoding was guessed."""
        return self.encoding in ("cp1252", "latin-1")


def split_lines(text: str) -> list[str]:
    """Split "\\n"-separated text into lines; one final newline ends the last line, it adds none."""
    if not text:
        return []
    parts = text.split("\n")
    if parts[-1] == "":
        parts.pop()
    return parts


def is_binary(data: bytes) -> bool:
    """Guess whether bytes are binary: NUL bytes or mostly control characters in the first 8 KiB."""
    if any(data.startswith(bom) for bom, _ in _BOMS):
        return False
    head = data[:_SNIFF_BYTES]
    if b"\x00" in head:
        return True
    if not head:
        return False
    controls = sum(1 for byte in head if byte in _CONTROL)
    return controls / len(head) > 0.1


def decode(data: bytes) -> tuple[str, str, bool]:
    """Decode bytes as (text, encoding, has_bom): BOM first, then UTF-8, then cp1252, then latin-1."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(encoding), encoding, True
            except UnicodeDecodeError as exc:
                raise ToolError(
                    f"the file starts with a {encoding} byte-order mark but is not valid {encoding}: {exc}"
                ) from exc
    for encoding in ("utf-8", "cp1252"):
        try:
            return data.decode(encoding), encoding, False
        except UnicodeDecodeError:
            continue
    # latin-1 maps every byte, so this never fails; cp1252 leaves five bytes undefined.
    return data.decode("latin-1"), "latin-1", False


def read_text(
    source: Path | Anchored,
    *,
    max_bytes: int = MAX_TEXT_BYTES,
    name: str | None = None,
    buffer: str | None = None,
) -> TextFile:
    """Read and decode a text file. Raises ToolError for binary or oversized files, OSError as is.

    An `Anchored` source is opened beneath its base with no link followed (the file tools' way); a plain
    path by name. `buffer`: the text an editor holds for the file (unsaved changes included), taken
    instead of the file's bytes; the file on disk still gives the permission bits."""
    label = name or (source.name if isinstance(source, Path) else source.shown())
    fd = beneath.open_regular(source) if isinstance(source, Anchored) else os.open(source, os.O_RDONLY)
    with os.fdopen(fd, "rb") as handle:
        st = os.fstat(fd)
        data = buffer.encode("utf-8") if buffer is not None else b""
        size = len(data) if buffer is not None else st.st_size
        if size > max_bytes:
            raise ToolError(
                f"{label} is {size} bytes, more than the {max_bytes}-byte limit of the text tools; "
                "use run_terminal_cmd (head, sed -n) to look at parts of it"
            )
        if buffer is None:
            data = handle.read()
    if is_binary(data):
        raise ToolError(
            f"{label} is a binary file ({len(data)} bytes); the file tools read and edit text files only"
        )
    text, encoding, has_bom = decode(data)
    newline = _dominant_newline(text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return TextFile(
        text=text,
        encoding=encoding,
        newline=newline,
        has_bom=has_bom,
        # An empty file counts as newline-terminated so that lines added to it end properly.
        trailing_newline=text == "" or text.endswith("\n"),
        mode=stat.S_IMODE(st.st_mode),
        disk=st,
        raw=data,
    )


def encode(original: TextFile, new_text: str) -> bytes:
    """Encode "\\n"-separated text like `original`: same encoding, BOM, line ends and final-newline state."""
    body = new_text.replace("\r\n", "\n").replace("\r", "\n")
    if body.endswith("\n"):
        body = body[:-1]
    if body and original.trailing_newline:
        body += "\n"
    body = body.replace("\n", original.newline)
    try:
        data = body.encode(original.encoding)
    except UnicodeEncodeError as exc:
        bad = exc.object[exc.start : exc.end]
        line = body.count(original.newline, 0, exc.start) + 1
        raise ToolError(
            f"the character {bad!r} (U+{ord(bad[0]):04X}) on line {line} cannot be written: the file is "
            f"encoded as {original.encoding}, which has no such character; use a character that "
            f"{original.encoding} can represent (e.g. an ASCII equivalent)"
        ) from exc
    if original.has_bom:
        data = _bom_for(original.encoding) + data
    return data


_TEMP_NAME = re.compile(r"\..+\.[0-9a-f]{8}\.tmp")

TEMP_GLOB = ".*." + "[0-9a-f]" * 8 + ".tmp"
"""A glob (ripgrep, fnmatch) matching the temporary files `write_atomic` creates."""


def is_write_temp(name: str) -> bool:
    """Whether a file name is one of `write_atomic`'s temporary files (`.<name>.<8 hex>.tmp`)."""
    return _TEMP_NAME.fullmatch(name) is not None


def read_if_present(path: Path) -> bytes | None:
    """A file outside the project's tools' reach (the user's own files): its bytes, or None when it does
    not exist yet; any other failure is a ToolError naming the file."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ToolError(f"cannot read {path.name}: {exc.strerror or exc}") from exc


def write_atomic(path: Path, data: bytes, mode: int | None = None) -> None:
    """Replace `path` with `data` atomically; `mode` None keeps the umask default for a new file.

    By name: for asi-agent's own files. Project files are written with `beneath.write_atomic`."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    # 0o666 lets the process umask decide the mode of new files, as any editor would.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if mode is not None:
                os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def unified_diff(before: str, after: str, name: str, *, max_lines: int = 80) -> str:
    """A unified diff (3 lines of context) of two texts, cut to `max_lines` with a note."""
    lines = list(
        difflib.unified_diff(
            split_lines(before), split_lines(after), f"a/{name}", f"b/{name}", n=3, lineterm=""
        )
    )
    if len(lines) > max_lines:
        hidden = len(lines) - max_lines
        lines = [*lines[:max_lines], f"... (diff cut: {hidden} more lines)"]
    return "\n".join(lines)


def _dominant_newline(text: str) -> str:
    """The most common line end of `text`; a file without any counts as "\\n"."""
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    best = max((lf, "\n"), (crlf, "\r\n"), (cr, "\r"), key=lambda pair: pair[0])
    return best[1] if best[0] > 0 else "\n"


def _bom_for(encoding: str) -> bytes:
    """The byte-order mark written in front of text in `encoding`."""
    return next(bom for bom, name in _BOMS if name == encoding)


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable; some filesystems refuse to open folders, which is harmless."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
