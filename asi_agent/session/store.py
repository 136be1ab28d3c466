"""Transcripts: one JSONL file per session, appended after every step, readable back to resume."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from asi_agent.exceptions import UserError
from asi_agent.messages import Message
from asi_agent.state import append_line, ensure_state_dir

__all__ = ["Session", "SessionInfo", "SessionStore"]


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """One line of `asi-agent sessions`."""

    id: str
    started: str
    task: str
    status: str


class Session:
    """An open transcript. Every record is a JSON object with a `type` and a `time`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.id = path.stem

    def append(self, kind: str, **fields: Any) -> None:
        """Append one record in one write, so a crash loses at most the step in progress and two
        processes continuing the same session never mix their lines."""
        record = {"type": kind, "time": datetime.now(UTC).isoformat(timespec="milliseconds"), **fields}
        append_line(self.path, json.dumps(record, ensure_ascii=False))

    def add_message(self, message: Message) -> None:
        """Append a chat message."""
        self.append("message", message=message.to_dict())

    def records(self) -> Iterator[dict[str, Any]]:
        """Every record, oldest first; a torn last line (crash mid-write) is skipped."""
        with self.path.open(encoding="utf-8") as handle:
            for line in handle:
                try:
                    yield json.loads(line)
                except json.JSONDecodeError:
                    continue

    def meta(self) -> dict[str, Any]:
        """The session's first `meta` record (id, folder, and the settings it was started with)."""
        return next((r for r in self.records() if r.get("type") == "meta"), {})

    def settings(self) -> dict[str, Any]:
        """The provider, model, tool mode and policy the session was started with (what `resume` reuses)."""
        found = self.meta().get("settings")
        return {k: v for k, v in found.items() if v is not None} if isinstance(found, dict) else {}

    def messages(self) -> list[Message]:
        """The conversation so far, to continue it (a `compacted` record replaces what came before)."""
        found: list[Message] = []
        for record in self.records():
            if record.get("type") == "message":
                found.append(Message.from_dict(record["message"]))
            elif record.get("type") == "compacted":
                found = [Message.from_dict(m) for m in record.get("messages") or ()]
        return found


class SessionStore:
    """The `.asi/sessions/` folder of one project."""

    def __init__(self, state_dir: Path) -> None:
        self.folder = state_dir / "sessions"

    def create(self, **meta: Any) -> Session:
        """Start a new session with a unique id that sorts in the order sessions were started.

        The id is the time to the second and the microsecond as six hex digits; the file is claimed
        atomically, so a name another process took first moves on to the next microsecond.
        """
        ensure_state_dir(self.folder.parent, self.folder.name)
        now = datetime.now(UTC)
        stamp, tick = now.strftime("%Y%m%d-%H%M%S"), now.microsecond
        while True:
            path = self.folder / f"{stamp}-{tick:06x}.jsonl"
            try:
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
                break
            except FileExistsError:
                tick += 1
        session = Session(path)
        session.append("meta", session_id=session.id, **meta)
        return session

    def open(self, session_id: str) -> Session:
        """An existing session, or a UserError listing how to find one."""
        path = self.folder / f"{session_id}.jsonl"
        if "/" in session_id or not path.is_file():
            raise UserError(f"no session '{session_id}' in {self.folder}; `asi-agent sessions` lists them")
        return Session(path)

    def list(self) -> list[SessionInfo]:
        """Saved sessions, newest first (a child agent's transcript belongs to its parent's: not listed)."""
        if not self.folder.is_dir():
            return []
        found = [Session(p) for p in sorted(self.folder.glob("*.jsonl"), reverse=True)]
        return [self._info(session) for session in found if not session.meta().get("parent")]

    @staticmethod
    def _info(session: Session) -> SessionInfo:
        started, task, status = "", "", "unfinished"
        for record in session.records():
            if record.get("type") == "meta" and not started:
                started = record.get("time", "")
            elif record.get("type") == "message" and not task and record["message"].get("role") == "user":
                task = _first_line(record["message"].get("content") or "")
            elif record.get("type") == "finished":
                status = str(record.get("status", status))
            elif record.get("type") == "interrupted":
                status = "INTERRUPTED"
        return SessionInfo(session.id, started, task, status)


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0][:80] if text.strip() else ""
