"""Fixtures of the web tools' tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project folder; its user configuration goes beside it (see `ext_run.write_user_config`)."""
    root = tmp_path / "project"
    root.mkdir()
    return root
