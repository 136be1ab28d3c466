"""The project's `.asi/` folder: created on first use, with a `.gitignore` of `*` so git never shows it."""

from __future__ import annotations

from pathlib import Path

__all__ = ["ensure_state_dir"]


def ensure_state_dir(state_dir: Path, *parts: str) -> Path:
    """Create `state_dir` (ignored by git) and the folder `parts` below it; return that folder."""
    state_dir.mkdir(parents=True, exist_ok=True)
    ignore = state_dir / ".gitignore"
    if not ignore.exists():
        ignore.write_text("*\n", encoding="utf-8")
    folder = state_dir.joinpath(*parts)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
