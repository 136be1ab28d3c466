"""Helpers of the sandbox tests."""

from __future__ import annotations

from pathlib import Path


def sleeps(tag: str) -> list[int]:
    """The pids of the `sleep TAG` processes alive on this machine (TAG unique to one test)."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if cmdline.read_bytes().split(b"\0")[:2] == [b"sleep", tag.encode()]:
                found.append(int(cmdline.parent.name))
        except OSError:
            continue
    return found
