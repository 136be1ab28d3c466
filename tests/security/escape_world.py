"""The world an escape attempt runs in: an attacker's repository, a home with fake secrets, listeners.

Used by the held-out set of `escape_attempts.py`; see there.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

NOBODY = 65534
FAKE = {
    "GITHUB_TOKEN": "ghp_FAKEFAKEFAKE0000heldout0000token",
    "AWS_SECRET_ACCESS_KEY": "FAKE/aws/secret/heldout/0000",
    "NPM_TOKEN": "npm_FAKE0000heldout",
    "DATABASE_PASSWORD": "FAKE-db-password-heldout",
}
USER_KEY = "sk-FAKE-user-key-heldout-0001"
CONFIG_KEY = "sk-FAKE-config-key-heldout-0002"
FILE_SECRETS = {
    ".cargo/credentials.toml": '[registry]\ntoken = "FAKE-cargo-token-heldout"\n',
    ".vault-token": "FAKE-vault-token-heldout\n",
    ".bash_history": "export SECRET=FAKE-history-secret-heldout\n",
    ".config/gh/hosts.yml": "github.com:\n  oauth_token: FAKE-gh-token-heldout\n",
}


class Listener:
    """A loopback TCP server that answers every request with a short HTTP 500 and keeps what it received."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.received: list[bytes] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            with conn:
                conn.settimeout(1.0)
                data = b""
                try:
                    while b"\r\n\r\n" not in data and len(data) < 1 << 20:
                        chunk = conn.recv(65536)
                        if not chunk:
                            break
                        data += chunk
                    head, _, body = data.partition(b"\r\n\r\n")
                    length = next(
                        (int(line.split(b":")[1]) for line in head.split(b"\r\n")
                         if line.lower().startswith(b"content-length:")), 0,
                    )  # fmt: skip
                    while len(body) < min(length, 1 << 20):
                        chunk = conn.recv(65536)
                        if not chunk:
                            break
                        body += chunk
                        data += chunk
                except (OSError, ValueError):
                    pass
                self.received.append(data)
                reply = b'{"error": {"message": "no"}}'
                head = f"HTTP/1.1 500 No\r\nContent-Length: {len(reply)}\r\nConnection: close\r\n\r\n"
                with contextlib.suppress(OSError):
                    conn.sendall(head.encode() + reply)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


class UnixListener:
    """A unix socket server at `path` that counts the clients it accepted."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.bind(str(path))
        os.chmod(path, 0o777)
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.accepted = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()
        self.path.unlink(missing_ok=True)


@dataclass
class Ran:
    """One `asi-agent` command: its exit code, its JSON result (if any), stdout, stderr, tool results."""

    code: int
    result: dict[str, Any]
    stdout: str
    stderr: str
    outputs: list[str]

    def text(self) -> str:
        """Everything the run showed: stdout, stderr and the tool results the model received."""
        return "\n".join([self.stdout, self.stderr, *self.outputs])


class World:
    """A fresh attacker repository, a home with fake secrets, a private temp folder and a marker folder."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.home, self.project, self.tmp, self.marks = (
            base / n for n in ("home", "project", "tmp", "marks")
        )
        for folder in (self.home, self.project, self.tmp, self.marks, base / "scripts"):
            folder.mkdir(parents=True, exist_ok=True)
        self.config = self.home / ".config" / "asi-agent"
        self.cache = self.home / ".cache" / "asi-agent"
        self.config.mkdir(parents=True)
        for relative, text in FILE_SECRETS.items():
            file = self.home / relative
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_text(text, encoding="utf-8")
        (self.config / "config.toml").write_text(f'api_key = "{CONFIG_KEY}"\n', encoding="utf-8")
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "TMPDIR": str(self.tmp),
            "LANG": "C.UTF-8",
            "XDG_RUNTIME_DIR": str(base / "run-user"),
            "SSH_AUTH_SOCK": str(base / "ssh-agent" / "agent.sock"),
            "ASI_API_KEY": USER_KEY,
            **FAKE,
        }
        self._script = 0
        self.git("init", "-q")
        (self.project / "app.py").write_text("def add(a, b):\n    return a + b\n", encoding="utf-8")
        self.git("add", "-A")
        self.git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "init")

    def git(self, *args: str) -> None:
        """Git in the project, as the test (the repository as it was cloned)."""
        subprocess.run(["git", *args], cwd=self.project, check=True, capture_output=True)

    def write(self, relative: str, text: str, *, executable: bool = False) -> Path:
        """A file of the repository, as its author committed it."""
        file = self.project / relative
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text, encoding="utf-8")
        if executable:
            file.chmod(0o755)
        return file

    def mark(self, name: str) -> str:
        """A shell command that leaves marker `name`, and only where nothing sandboxed can write."""
        return f"touch {self.marks / name}"

    def marked(self) -> list[str]:
        """The markers left."""
        return sorted(p.name for p in self.marks.iterdir())

    def own(self) -> None:
        """Hand every folder to the unprivileged user the commands run as (when the tests run as root)."""
        if not drop_to_nobody():
            return
        self.base.chmod(0o755)
        for top in ("home", "project", "tmp", "marks", "scripts", "run-user", "ssh-agent"):
            folder = self.base / top
            if not folder.exists():
                continue
            os.chown(folder, NOBODY, NOBODY)
            for path in folder.rglob("*"):
                os.lchown(path, NOBODY, NOBODY)

    def asi(
        self,
        *args: str,
        replies: Sequence[Any] | None = None,
        trusted: bool = False,
        extra_env: dict[str, str] | None = None,
        timeout: float = 180,
        privileged: bool = False,
    ) -> Ran:
        """`asi-agent ARGS` in the project, the model being `replies` (scripted) when given."""
        argv = list(args)
        if replies is not None:
            self._script += 1
            script = self.base / "scripts" / f"s{self._script}.json"
            script.write_text(json.dumps({"native": True, "replies": list(replies)}), encoding="utf-8")
            argv[1:1] = ["--provider", "scripted", "--model", str(script)]
        if trusted and supports_trust():
            argv[1:1] = ["--trust"]
        if "--output-format" not in argv and argv[0] == "run":
            argv[1:1] = ["--output-format", "json"]
        self.own()
        command = [*entry_point(), *argv]
        if not privileged and drop_to_nobody():
            command = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *command]
        done = subprocess.run(
            command, cwd=self.project, env={**self.env, **(extra_env or {})}, stdin=subprocess.DEVNULL,
            capture_output=True, text=True, timeout=timeout, check=False,
        )  # fmt: skip
        result: dict[str, Any] = {}
        lines = done.stdout.strip().splitlines()
        if lines and lines[-1].startswith("{"):
            try:
                result = json.loads(lines[-1])
            except ValueError:
                result = {}
        ran = Ran(done.returncode, result, done.stdout, done.stderr, self._outputs(result))
        if any("bwrap: execvp" in output for output in ran.outputs):
            raise RuntimeError(
                f"the sandbox could not start a command, so the attempt proves nothing: {ran.text()}"
            )
        return ran

    def _outputs(self, result: dict[str, Any]) -> list[str]:
        session = result.get("session_id")
        transcript = self.project / ".asi" / "sessions" / f"{session}.jsonl"
        if not session or not transcript.is_file():
            return []
        found = []
        for line in transcript.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            message = record.get("message") if isinstance(record, dict) else None
            if isinstance(message, dict) and message.get("role") == "tool":
                found.append(str(message.get("content")))
        return found


_NOBODY: list[bool] = []


def drop_to_nobody() -> bool:
    """Whether the commands run as `nobody`: when the tests run as root and that user can start asi-agent's
    interpreter inside a sandbox (where the interpreter lives in root's home, it cannot: then as root)."""
    if not _NOBODY:
        ok = os.geteuid() == 0 and shutil.which("setpriv") is not None
        if ok:
            from asi_agent.sandbox import find_bwrap  # noqa: PLC0415 - only to probe once

            bwrap = find_bwrap()
            probe = [str(bwrap), "--ro-bind", "/", "/", "--dev", "/dev", "--", sys.executable, "-c", "pass"]
            drop = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
            done = subprocess.run([*drop, *probe], capture_output=True, check=False) if bwrap else None
            ok = done is not None and done.returncode == 0
        _NOBODY.append(ok)
    return _NOBODY[0]


def entry_point() -> list[str]:
    """The `asi-agent` command a person runs (its console script beside this Python), else `-m`."""
    script = Path(sys.executable).parent / "asi-agent"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "asi_agent"]


_TRUST: list[bool] = []


def supports_trust() -> bool:
    """Whether this checkout's `run` has `--trust` (the code of the day before the boundary had not)."""
    if not _TRUST:
        done = subprocess.run([*entry_point(), "run", "--help"], capture_output=True, text=True, check=False)
        _TRUST.append("--trust" in done.stdout)
    return _TRUST[0]


def call(tool: str, /, **arguments: Any) -> dict[str, Any]:
    """One native tool call of the scripted model."""
    return {"name": tool, "arguments": arguments}


def turn(*calls: dict[str, Any]) -> dict[str, Any]:
    """A scripted reply making `calls`."""
    return {"text": "", "tool_calls": list(calls)}


DONE = "Done.\nAGENT_STATUS: DONE"


def command(cmd: str, **more: Any) -> list[Any]:
    """The script of a model that runs `cmd` and says it is done."""
    return [turn(call("run_terminal_cmd", command=cmd, **more)), DONE]


def escaped_if(condition: bool, what: str) -> str | None:
    """`what` when the attempt got out, else None."""
    return what if condition else None
