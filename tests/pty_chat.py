"""The full-screen chat as a real process on a pseudo-terminal, for tests: started, its screen drained
(the app blocks when nobody reads its terminal), and waited on until something appears."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path


class PtyChat:
    """`asi-agent chat ARGS` on a pseudo-terminal; `screen` holds everything it has drawn."""

    def __init__(self, args: list[str], cwd: Path, env: dict[str, str]) -> None:
        env = env | {"TERM": "xterm-256color", "COLUMNS": "100", "LINES": "30"}
        self.main, child = pty.openpty()
        command = [sys.executable, "-m", "asi_agent", "chat", *args]
        self.proc = subprocess.Popen(
            command, cwd=cwd, env=env, stdin=child, stdout=child, stderr=child, close_fds=True
        )
        os.close(child)
        self.screen = bytearray()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        while True:
            try:
                data = os.read(self.main, 65536)
            except OSError:
                return
            if not data:
                return
            self.screen.extend(data)

    def wait_until(self, done: Callable[[], bool], deadline: float) -> None:
        """Wait for `done()`; fail (with the screen's end) past `deadline` or when the chat exits."""
        while not done():
            assert time.monotonic() < deadline and self.proc.poll() is None, self.screen[-2000:]
            time.sleep(0.1)

    def ready(self, timeout: float = 60) -> float:
        """Wait for the chat's greeting; the deadline it used, for later waits."""
        deadline = time.monotonic() + timeout
        self.wait_until(lambda: b"ask away" in self.screen, deadline)
        return deadline

    def type(self, keys: bytes) -> None:
        """Send keys as the person would type them."""
        os.write(self.main, keys)

    def close(self) -> None:
        """Kill the chat if it still runs, and close the terminal."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.main)
