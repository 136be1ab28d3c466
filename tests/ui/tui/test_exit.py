"""The full-screen chat as a real process in a pseudo-terminal: quitting never waits for a blocked thread."""

from __future__ import annotations

import time

from asi_cli import model_free_env
from blocking_tool import slow_project
from pty_chat import PtyChat


def test_quit_while_a_tool_blocks_its_thread(project, tmp_path, user_config):
    model = slow_project(project, tmp_path)
    env = model_free_env()
    args = ["--provider", "scripted", "--model", str(model)]
    args.append("--trust")  # the project's own plugin tool is the one that blocks
    args.append("--yes")  # the plugin tool runs code: it would ask first
    env.update(ASI_CONFIG_DIR=str(user_config))
    chat = PtyChat(args, project, env)
    try:
        deadline = chat.ready()
        chat.type(b"wait\r")
        chat.wait_until((project / "started").exists, deadline)
        chat.type(b"\x11")  # Ctrl+Q while the tool's thread sleeps
        started = time.monotonic()
        chat.proc.wait(timeout=60)
        assert time.monotonic() - started < 20, "the chat waited for the blocked thread"
        assert chat.proc.returncode == 0
        assert b"Traceback" not in chat.screen
    finally:
        chat.close()
