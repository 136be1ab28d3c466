"""Saved sessions: JSONL transcripts under `.asi/sessions/`."""

from asi_agent.session.store import Session, SessionInfo, SessionStore

__all__ = ["Session", "SessionInfo", "SessionStore"]
