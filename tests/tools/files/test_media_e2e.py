"""`read_file` of PDFs (text, page ranges, scans) and images, through the real `asi-agent run`."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from asi_cli import tool_results
from ext_run import json_run
from pdf_fixture import make_pdf


def _read(path: str, start: int | None = None, end: int | None = None) -> dict[str, object]:
    arguments: dict[str, object] = {"path": path}
    arguments |= {"startLine": start} if start else {}
    arguments |= {"endLine": end} if end else {}
    return {"name": "read_file", "arguments": arguments}


def _png(width: int, height: int) -> bytes:
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + header
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk))


def test_a_pdf_is_read_as_text_by_page_range_and_a_scan_is_named(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "docs").mkdir(parents=True)
    pages = [f"Page {n} says MARKER-{n}" for n in range(1, 26)]
    pages[2] = ""  # page 3 has no text layer
    (root / "docs" / "manual.pdf").write_bytes(make_pdf(pages))
    (root / "logo.png").write_bytes(_png(64, 32))
    calls = [_read("docs/manual.pdf"), _read("docs/manual.pdf", 24, 30), _read("logo.png")]

    result = json_run(root, calls)

    first, tail, image = tool_results(root, result["session_id"])
    assert [call["ok"] for call in result["tool_calls"]] == [True, True, True]
    assert first.startswith(
        "docs/manual.pdf (PDF, 25 pages, pages 1–20)\n--- page 1 ---\nPage 1 says MARKER-1"
    )
    assert "--- page 3 ---\n(no text on this page: it may be a scanned image)" in first
    assert "MARKER-20" in first and "MARKER-21" not in first
    assert first.endswith("[showing pages 1–20 of 25; call read_file with startLine=21 to read more]")
    assert tail.splitlines() == [
        "docs/manual.pdf (PDF, 25 pages, pages 24–25)",
        "--- page 24 ---",
        "Page 24 says MARKER-24",
        "--- page 25 ---",
        "Page 25 says MARKER-25",
    ]
    assert image.startswith("logo.png is an image (PNG, 33 bytes, 64×32 pixels).")
    assert "does not read images, so it is not shown to you" in image  # the scripted model reads none


def test_a_broken_pdf_and_a_page_past_the_end_are_errors_to_fix(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "bad.pdf").write_bytes(b"not a pdf at all")
    (root / "one.pdf").write_bytes(make_pdf(["only page"]))

    result = json_run(root, [_read("bad.pdf"), _read("one.pdf", 2)])

    errors = [call["error"] for call in result["tool_calls"]]
    assert "bad.pdf is not a readable PDF" in errors[0]
    assert "startLine=2 is past the end: one.pdf has 1 page (" in errors[1]
