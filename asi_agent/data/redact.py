"""`--redact`: absolute paths, user names, e-mail addresses and secrets out of exported samples.

Everything is replaced by a visible mark (`<project>`, `<path>`, `<user>`, `<email>`, `<secret>`), so the
sample keeps its shape and a reader sees that something was removed.
"""

from __future__ import annotations

import getpass
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["Redactor", "find_secrets"]

_SECRETS = (
    re.compile(r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}"),  # OpenAI / Anthropic style keys
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}"),  # GitHub tokens
    re.compile(r"\bgithub_pat_[A-Za-z0-9_]{20,}"),
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),  # AWS access key ids
    re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"),  # Slack tokens
    re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"),  # Google API keys
    re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),  # JWTs
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S),
)
_ASSIGNED = re.compile(
    r"(?i)\b([\w-]*(?:api[_-]?key|token|secret|password|passwd|access[_-]?key)[\w-]*)"
    r"(\s*[:=]\s*|\"\s*:\s*\")(['\"]?)(?!<secret>)([^\s'\"(){}\[\]$<>]{6,}+)(?![(\[])"
)
"""A value assigned to a secret-like name; a call, an index, a variable or a mark is code, not a value."""
_BEARER = re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/-]{12,}=*")
_EMAIL = re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b")
_POSIX_PATH = re.compile(r"(?<![\w.:/~<>-])/(?:[\w.@+-]+/)*[\w.@+-]+/?")
_WINDOWS_PATH = re.compile(r"\b[A-Za-z]:\\(?:[^\\\s\"']+\\)*[^\\\s\"']*")


class Redactor:
    """Replaces private details in every string of a sample (tool schemas are left alone)."""

    def __init__(self, *, project_roots: Sequence[Path] = (), user_names: Sequence[str] = ()) -> None:
        self.roots = sorted({str(r) for r in project_roots if str(r) not in ("", "/")}, key=len, reverse=True)
        names = {*user_names, _current_user()}
        self.users = [
            re.compile(rf"\b{re.escape(n)}\b") for n in sorted(names - {"", "root"}, key=len, reverse=True)
        ]

    def text(self, value: str) -> str:
        """One string, redacted."""
        for root in self.roots:
            value = value.replace(root, "<project>")
        for pattern in _SECRETS:
            value = pattern.sub("<secret>", value)
        value = _ASSIGNED.sub(lambda m: f"{m[1]}{m[2]}{m[3]}<secret>", value)
        value = _BEARER.sub(r"\1<secret>", value)
        value = _EMAIL.sub("<email>", value)
        value = _POSIX_PATH.sub(_path_mark, value)
        value = _WINDOWS_PATH.sub("<path>", value)
        for user in self.users:
            value = user.sub("<user>", value)
        return value

    def sample(self, data: Any, *, key: str = "") -> Any:
        """A whole sample (any JSON value), redacted; `tools` stays as the registry wrote it."""
        if key in ("tools", "rejected_tools"):
            return data
        if isinstance(data, str):
            return self.text(data)
        if isinstance(data, list):
            return [self.sample(item) for item in data]
        if isinstance(data, dict):
            return {k: self.sample(v, key=k) for k, v in data.items()}
        return data


def find_secrets(text: str) -> list[str]:
    """The secrets `--redact` would remove from `text`, each cut to its first characters (for a report)."""
    found = [m[0] for pattern in _SECRETS for m in pattern.finditer(text)]
    found += [m[4] for m in _ASSIGNED.finditer(text)]
    found += [m[0] for m in _BEARER.finditer(text)]
    return [secret[:8] + "…" for secret in found]


def _path_mark(match: re.Match[str]) -> str:
    """Absolute paths of two or more parts become `<path>`; `/` alone and `/tmp`-like words stay."""
    text = match[0]
    return "<path>" if text.strip("/").count("/") >= 1 else text


def _current_user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return ""
