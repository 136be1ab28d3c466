"""Fixtures shared by the tool tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal


@pytest.fixture
def ctx(tmp_path: Path) -> ToolContext:
    """A tool context on an empty project folder with its own journal."""
    root = tmp_path / "project"
    root.mkdir()
    return ToolContext(root=root, journal=Journal(root / ".asi"), session_id="test")
