"""Small pieces of the chats: the user config written by the first run, the git branch, input history."""

from __future__ import annotations

import tomllib

import pytest
from pydantic import ValidationError

from asi_agent.config import load_config
from asi_agent.ui.chatsession import git_branch
from asi_agent.ui.firstrun import needs_setup, write_user_config
from asi_agent.ui.history import InputHistory


def test_first_run_config_merges_and_loads(tmp_path, monkeypatch):
    monkeypatch.setenv("ASI_CONFIG_DIR", str(tmp_path / "cfg"))
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "config.toml").write_text("max_turns = 12\n\n[ollama]\nnum_ctx = 4096\n")
    path = write_user_config({"provider": "openai", "base_url": 'http://h/"v1"', "api_key": "k", "model": ""})
    saved = tomllib.loads(path.read_text())
    assert saved == {
        "max_turns": 12,
        "ollama": {"num_ctx": 4096},
        "provider": "openai",
        "base_url": 'http://h/"v1"',
        "api_key": "k",
    }
    config = load_config(tmp_path, env={})
    assert config.provider == "openai" and not needs_setup(config)


def test_invalid_choice_is_never_written(tmp_path, monkeypatch):
    monkeypatch.setenv("ASI_CONFIG_DIR", str(tmp_path / "cfg"))
    with pytest.raises(ValidationError):
        write_user_config({"provider": "nonsense"})
    assert not (tmp_path / "cfg" / "config.toml").exists()


def test_git_branch_from_head(tmp_path):
    assert git_branch(tmp_path) == ""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/feature/chat\n")
    assert git_branch(tmp_path) == "feature/chat"
    (tmp_path / ".git" / "HEAD").write_text("0123456789abcdef0123456789abcdef01234567\n")
    assert git_branch(tmp_path) == "01234567"


def test_git_branch_of_a_worktree(tmp_path):
    real = tmp_path / "repo" / ".git" / "worktrees" / "wt"
    real.mkdir(parents=True)
    (real / "HEAD").write_text("ref: refs/heads/side\n")
    work = tmp_path / "wt"
    work.mkdir()
    (work / ".git").write_text(f"gitdir: {real}\n")
    assert git_branch(work) == "side"


def test_history_skips_repeats_and_survives_a_torn_line(tmp_path):
    history = InputHistory(tmp_path)
    for text in ["one", "one", "two", "  "]:
        history.add(text)
    with (tmp_path / ".asi" / "chat_history").open("a") as handle:
        handle.write('"torn')
    again = InputHistory(tmp_path)
    assert again.entries == ["one", "two"]
    assert again.previous() == "two" and again.previous() == "one" and again.previous() is None
    assert again.next() == "two" and again.next() == ""
