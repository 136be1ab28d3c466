"""The language of what the model reads (tool descriptions, the errors that quote them) follows the
person's locale: English unless the environment says Chinese."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from asi_cli import model_free_env

from asi_agent.backends.scripted import ScriptedBackend
from asi_agent.ui.chatsession import ChatSession
from asi_agent.ui.cli import build_parser

BAD_CALL = {"name": "read_file", "arguments": {"pth": "calc.py"}}


@pytest.mark.parametrize(
    ("lang", "description"),
    [("C.UTF-8", "File path (relative or absolute)"), ("zh_CN.UTF-8", "文件路径")],
)
def test_a_validation_error_is_in_the_users_language(tmp_path: Path, lang: str, description: str):
    model = tmp_path / "script.json"
    model.write_text(json.dumps({"native": True, "replies": [{"text": "", "tool_calls": [BAD_CALL]}, "ok"]}))
    env = {k: v for k, v in model_free_env().items() if not k.startswith("LC_")}
    env |= {"LANG": lang, "ASI_CONFIG_DIR": str(tmp_path / "user-config")}
    flags = ["--provider", "scripted", "--model", str(model), "--output-format", "json"]
    proc = subprocess.run(
        [sys.executable, "-m", "asi_agent", "run", *flags, "read it"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    error = json.loads(proc.stdout.splitlines()[-1])["tool_calls"][0]["error"]
    assert "missing required parameter 'path'" in error and description in error


@pytest.mark.parametrize(("lang", "chinese"), [("C.UTF-8", False), ("zh_CN.UTF-8", True)])
def test_the_system_prompt_asks_for_chinese_replies_only_in_a_chinese_locale(
    tmp_path, monkeypatch, lang, chinese
):
    monkeypatch.setenv("LANG", lang)
    monkeypatch.setenv("ASI_CONFIG_DIR", str(tmp_path / "user-config"))
    args = build_parser().parse_args(["chat", "--cwd", str(tmp_path)])
    chat = ChatSession.open(args, backend=ScriptedBackend([]))
    assert ("write your replies to them in Chinese" in chat.agent.system) is chinese
    assert chat.agent.system.startswith("You are asi-agent")
