"""The extension tests' project folder."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project folder with its own user configuration folder (`.user-config`, as `asi` sets)."""
    root = tmp_path / "proj"
    (root / ".user-config").mkdir(parents=True)
    return root
