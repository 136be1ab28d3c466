"""The full-screen chat as a real process in a pseudo-terminal: quitting never waits for a blocked thread."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import threading
import time

from asi_cli import model_free_env
from blocking_tool import slow_project


def test_quit_while_a_tool_blocks_its_thread(project, tmp_path, user_config):
    model = slow_project(project, tmp_path)
    env = model_free_env()
    env.update(ASI_CONFIG_DIR=str(user_config), TERM="xterm-256color", COLUMNS="100", LINES="30")
    main, child = pty.openpty()
    command = [sys.executable, "-m", "asi_agent", "chat", "--provider", "scripted", "--model", str(model)]
    command.append("--trust")  # the project's own plugin tool is the one that blocks
    command.append("--yes")  # the plugin tool runs code: it would ask first
    proc = subprocess.Popen(
        command, cwd=project, env=env, stdin=child, stdout=child, stderr=child, close_fds=True
    )
    os.close(child)
    screen = bytearray()

    def drain() -> None:  # the app blocks when nobody reads its terminal
        while True:
            try:
                data = os.read(main, 65536)
            except OSError:
                return
            if not data:
                return
            screen.extend(data)

    threading.Thread(target=drain, daemon=True).start()
    try:
        deadline = time.monotonic() + 60
        while b"ask away" not in screen:
            assert time.monotonic() < deadline and proc.poll() is None, screen[-2000:]
            time.sleep(0.1)
        os.write(main, b"wait\r")
        while not (project / "started").exists():
            assert time.monotonic() < deadline and proc.poll() is None, screen[-2000:]
            time.sleep(0.1)
        os.write(main, b"\x11")  # Ctrl+Q while the tool's thread sleeps
        started = time.monotonic()
        proc.wait(timeout=60)
        assert time.monotonic() - started < 20, "the chat waited for the blocked thread"
        assert proc.returncode == 0
        assert b"Traceback" not in screen
    finally:
        proc.kill()
        os.close(main)
