"""Helpers of the sandbox tests."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from asi_cli import model_free_env, tool_results


def sleeps(tag: str) -> list[int]:
    """The pids of the `sleep TAG` processes alive on this machine (TAG unique to one test)."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if cmdline.read_bytes().split(b"\0")[:2] == [b"sleep", tag.encode()]:
                found.append(int(cmdline.parent.name))
        except OSError:
            continue
    return found


Ran = tuple[dict[str, Any], str, str]


class Probe:
    """A project, a home with a planted key, a temp folder and an outside folder, all the test's own;
    `run` drives the real `asi-agent run` (scripted model, yolo) through one or more commands."""

    def __init__(self, base: Path) -> None:
        self.base = base
        names = ("project", "home", "tmp")
        self.root, self.home, self.temp = (base / name for name in names)
        # Under the home folder: visible (read-only) inside; the rest of the host's /tmp is not seen at all.
        self.outside = self.home / "outside"
        self.config = self.home / ".config" / "asi-agent"  # visible inside, were it not hidden
        for folder in (self.root, self.home / ".ssh", self.temp, self.outside, self.config):
            folder.mkdir(parents=True, exist_ok=True)
        (self.home / ".ssh" / "id_rsa").write_text("FAKE-PRIVATE-KEY-FOR-A-TEST\n", encoding="utf-8")
        (self.root / "link").symlink_to(self.outside)
        self.env: dict[str, str] = {}
        self.python = sys.executable
        """The interpreter asi-agent runs on."""

    def configure(self, text: str) -> None:
        """The user's config.toml."""
        (self.config / "config.toml").write_text(text, encoding="utf-8")

    def run_all(
        self, commands: Sequence[str | dict[str, Any]], *flags: str
    ) -> tuple[dict[str, Any], list[str], str]:
        """Run each command (or `run_terminal_cmd` arguments) through the agent, in order; the JSON
        result, each tool output, stderr."""
        script = self.base / "script.json"
        arguments = [{"command": command} if isinstance(command, str) else command for command in commands]
        calls = [{"name": "run_terminal_cmd", "arguments": given} for given in arguments]
        replies = [{"text": "", "tool_calls": [call]} for call in calls] + ["Done.\nAGENT_STATUS: DONE"]
        script.write_text(json.dumps({"native": True, "replies": replies}), encoding="utf-8")
        env = model_free_env()
        env.update(ASI_CONFIG_DIR=str(self.config), HOME=str(self.home), TMPDIR=str(self.temp), **self.env)
        argv = ["run", "--provider", "scripted", "--model", str(script), "--yes", "--output-format", "json"]
        done = subprocess.run(
            [self.python, "-m", "asi_agent", *argv, *flags, "probe"],
            cwd=self.root, env=env, capture_output=True, text=True, timeout=180, check=False,
        )  # fmt: skip
        assert done.stdout.strip(), done.stderr
        result = json.loads(done.stdout.strip().splitlines()[-1])
        return result, tool_results(self.root, result["session_id"]), done.stderr

    def run(self, command: str, *flags: str) -> Ran:
        """Run `command` through the agent; returns the JSON result, the tool's output and stderr."""
        result, outputs, stderr = self.run_all([command], *flags)
        return result, "\n".join(outputs), stderr


@contextmanager
def unix_server(path: Path) -> Iterator[Path]:
    """A unix socket listener at `path`, outside any sandbox, answering 'hello' to every client."""
    path.parent.mkdir(parents=True, exist_ok=True)
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(path))
    listener.listen()
    listener.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            with conn:
                conn.sendall(b"hello\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield path
    finally:
        stop.set()
        thread.join()
        listener.close()
        path.unlink(missing_ok=True)
