"""Fixtures of the chat tests: a project folder and a private user config folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from chat_helpers import BUGGY, chat_args


@pytest.fixture(autouse=True)
def user_config(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every chat test gets an empty user config folder and no model settings from the environment."""
    folder = tmp_path_factory.mktemp("user-config")
    monkeypatch.setenv("ASI_CONFIG_DIR", str(folder))
    for name in (
        "ASI_PROVIDER",
        "ASI_MODEL",
        "ASI_BASE_URL",
        "ASI_API_KEY",
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OLLAMA_HOST", "http://127.0.0.1:9")  # nothing answers there
    return folder


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "calc"
    root.mkdir()
    (root / "calc.py").write_text(BUGGY)
    (root / "README.md").write_text("# calc\n")
    return root


@pytest.fixture
def chat_args_no_model(project: Path):
    """`asi-agent chat --cwd PROJECT` with nothing configured."""
    return chat_args(project)
