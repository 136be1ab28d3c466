"""The run's first chat request, sent before the heavy imports; the backend adopts it when it is the same.

Most of `asi-agent run`'s start is imports (asyncio, pydantic, httpx, the SDKs) that a bare HTTP client
never pays. So the command line, as soon as it is parsed, sends the first chat request from here (the
standard library only): the previous run recorded that request in `.asi/cache/first-request.json`, with
the task cut out, and the new task goes in its place. When the backend makes its own first chat request,
its method, URL, headers and body are compared byte for byte with the request sent ahead
(`FirstRequest.claim`): the same, and the backend reads the reply already under way; different, and the
request sent ahead is aborted (its connection closed) and the real one is sent. Either way the real one
is recorded for the next run. A stale or corrupt cache costs at most one discarded request, never a
wrong reply.

A recorded request is only sent again when the cheap inputs it was recorded under are all unchanged
(`run_key`): the asi-agent code, the command line without the task, the project folder, the model
settings in the environment, and the files that go into the request (configuration, instruction files,
user prompts, plugin manifests, the git HEAD and index). Secrets are never written: a credential header
is recorded as "the configured API key" and rebuilt, when sent ahead, from the places the configuration
reads it (`ASI_API_KEY`, `OPENAI_API_KEY`, `.asi/config.toml`, the user `config.toml`); a credential from
anywhere else is not recorded at all. By default only plain-HTTP servers on this machine or a private
network are sent ahead (a discarded request to a paid API would be charged); the `prefetch` setting
turns it on everywhere or off.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from asi_agent.prefetch_wire import Sent, send

__all__ = [
    "CACHE_FILE", "NO_KEY", "FirstRequest", "configured_api_key", "current", "is_private", "run_key", "start",
]  # fmt: skip

CACHE_FILE = os.path.join(".asi", "cache", "first-request.json")
"""Where, below the project root, the first requests of earlier runs are kept."""
NO_KEY = "not-needed"
"""The API key sent when none is configured (local servers accept anything)."""
_FORMAT = 1
_KEPT = 8  # entries kept (one per set of key inputs), newest last
_SECRET_WORDS = ("auth", "key", "token", "secret", "cookie", "session", "password")
_KEY_FILES = ("config.toml", "USER_PROMPT.md", "moss-tools.json")
_PROJECT_FILES = (
    ".asi/config.toml", ".asi/USER_PROMPT.md", "moss-tools.json", ".git/HEAD", ".git/index",
    "AGENTS.md", "CLAUDE.md", "GEMINI.md", "QWEN.md", ".cursorrules", ".github/copilot-instructions.md",
)  # fmt: skip
_CODE_FILES = ("", "prefetch.py", "agent.py", "prompts.py", "backends", "backends/openai.py",
               "backends/ollama.py", "tools", "tools/catalog.py")  # fmt: skip
_current: FirstRequest | None = None
_Request = tuple[str, str, Sequence[tuple[str, str]], bytes]


def current() -> FirstRequest | None:
    """The first request of this process's run, when `start` was called (the backends adopt it)."""
    return _current


def start(argv: Sequence[str], task: str, cwd: str) -> FirstRequest | None:
    """Compute the run's key and send the recorded first request ahead when the key matches.

    Never fails: a missing, unreadable or corrupt cache means nothing is sent ahead.
    """
    global _current  # noqa: PLW0603 - one run per process; the backend built later takes it from here
    task = task.strip()
    root = os.path.realpath(os.path.expanduser(cwd))
    options = [word for word in argv if word != task and word.strip() != task]
    try:
        key = run_key(options, root)
    except (OSError, ValueError):
        return None
    first = FirstRequest(root, options, task)
    _current = first
    entry = _read_entry(os.path.join(root, CACHE_FILE), key)
    if entry is not None:
        try:
            first.sent = _send_ahead(entry, task, root)
        except (OSError, ValueError, LookupError, TypeError, AttributeError):
            first.sent = None  # a damaged entry
    return first


class FirstRequest:
    """This run's first chat request: the one sent ahead, if any, and the recording for the next run."""

    def __init__(self, root: str, options: Sequence[str], task: str) -> None:
        self.root, self.options, self.task = root, list(options), task
        self.sent: Sent | None = None
        """The request sent ahead, until it is adopted or aborted."""
        self.enabled: bool | None = None
        """The `prefetch` setting: None sends ahead only to private servers, True everywhere, False never."""

    def claim(self, method: str, url: str, headers: Sequence[tuple[str, str]], body: bytes) -> Sent | None:
        """The request sent ahead when it is exactly this one (else it is aborted); records this one."""
        sent, self.sent = self.sent, None
        self._record(method, url, headers, body)
        if sent is not None and sent.same(method, url, _compared(headers), body):
            return sent
        if sent is not None:
            sent.abort()
        return None

    def _record(self, method: str, url: str, headers: Sequence[tuple[str, str]], body: bytes) -> None:
        path = os.path.join(self.root, CACHE_FILE)
        entry = None
        if self.enabled is not False and (self.enabled or is_private(url)):
            entry = _entry_of((method, url, headers, body), self.task, self.root)
        if entry is not None:
            entry["anywhere"] = bool(self.enabled)
        # A read-only project: the next run simply sends nothing ahead.
        with contextlib.suppress(OSError, ValueError):
            # The key of the inputs as they are now, once the request was made from them: making it
            # can change one (git refreshes its index file while reading the status for the prompt),
            # and the next run starts from them as they are now.
            _write_entry(path, run_key(self.options, self.root), entry)


def run_key(argv: Sequence[str], root: str, env: dict[str, str] | None = None) -> str:
    """A digest of the inputs a recorded first request depends on (see the module docstring)."""
    env = dict(os.environ) if env is None else env
    package = os.path.dirname(os.path.abspath(__file__))
    user = _user_dir(env)
    parts: list[Any] = [_FORMAT, sys.version, list(argv), root]
    parts.append(sorted((k, v) for k, v in env.items() if k.startswith(("ASI_", "OPENAI_", "OLLAMA_"))))
    parts += [_stamp(os.path.join(package, name)) for name in _CODE_FILES]
    parts += [_stamp(os.path.join(user, name)) for name in _KEY_FILES]
    parts += [_stamp(os.path.join(root, name)) for name in _PROJECT_FILES]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def is_private(url: str) -> bool:
    """Whether `url` is plain HTTP to this machine or a private network (by address; names: localhost)."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if parts.scheme != "http" or not host:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    import ipaddress  # noqa: PLC0415 - only when there is a request to judge

    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False  # a host name: it may be anywhere (`prefetch = true` says it is near)
    return address.is_loopback or address.is_private or address.is_link_local


def configured_api_key(root: str, env: dict[str, str] | None = None) -> str | None:
    """The API key as the configuration finds it: environment, then project, then user config.toml."""
    env = dict(os.environ) if env is None else env
    for var in ("ASI_API_KEY", "OPENAI_API_KEY"):
        if env.get(var):
            return env[var]
    import tomllib  # noqa: PLC0415 - only for a request that carries a key

    for path in (os.path.join(root, ".asi", "config.toml"), os.path.join(_user_dir(env), "config.toml")):
        try:
            with open(path, "rb") as handle:
                value = tomllib.load(handle).get("api_key")
        except (OSError, ValueError):
            continue
        if isinstance(value, str) and value:
            return value
    return None


def _user_dir(env: dict[str, str]) -> str:
    if env.get("ASI_CONFIG_DIR"):
        return env["ASI_CONFIG_DIR"]
    import platformdirs  # noqa: PLC0415 - what config.user_config_dir uses, without pydantic

    return platformdirs.user_config_dir("asi-agent")


def _stamp(path: str) -> list[int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return [info.st_mtime_ns, info.st_size, info.st_ino]


def _is_secret(name: str) -> bool:
    low = name.lower()
    return any(word in low for word in _SECRET_WORDS)


def _compared(headers: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Headers as compared: lower-case names, sorted, without Content-Length (it follows the body)."""
    return sorted((name.lower(), value) for name, value in headers if name.lower() != "content-length")


def _quoted(task: str, ascii_only: bool) -> str:
    return json.dumps(task, ensure_ascii=ascii_only)


def _entry_of(request: _Request, task: str, root: str) -> dict[str, Any] | None:
    """The request as recorded: the body split where the task was, credentials replaced by a marker."""
    method, url, headers, body = request
    try:
        text = body.decode("utf-8")
        values = _strings(json.loads(text))
    except ValueError:
        return None
    for ascii_only in (False, True):
        parts = text.split(_quoted(task, ascii_only))
        # Only whole JSON strings equal to the task are cut out, and all of them.
        if len(parts) > 1 and len(parts) - 1 == values.count(task):
            break
    else:
        return None
    recorded: list[list[str | None]] = []
    for name, value in headers:
        if name.lower() == "content-length":
            continue
        if not _is_secret(name):
            recorded.append([name, value])
            continue
        key = configured_api_key(root) or NO_KEY
        if not value.endswith(key):
            return None  # a credential from elsewhere: never written, so nothing to send ahead
        recorded.append([name, None, value[: -len(key)]])
    return {"method": method, "url": url, "headers": recorded, "parts": parts, "ascii": ascii_only}


def _strings(value: Any) -> list[str]:
    """Every string value in a JSON document (not the keys)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return []


def _read_entry(path: str, key: str) -> dict[str, Any] | None:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != _FORMAT:
        return None
    entries = data.get("entries")
    entry = entries.get(key) if isinstance(entries, dict) else None
    return entry if isinstance(entry, dict) else None


def _write_entry(path: str, key: str, entry: dict[str, Any] | None) -> None:
    """Store `entry` under `key` (None removes it); the file is replaced atomically."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        entries = data["entries"] if data.get("format") == _FORMAT else {}
        entries = entries if isinstance(entries, dict) else {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        entries = {}
    if entries.get(key) == entry:
        return
    entries.pop(key, None)
    if entry is not None:
        entries[key] = entry
    kept = dict(list(entries.items())[-_KEPT:])
    from pathlib import Path  # noqa: PLC0415 - only when something is recorded

    from asi_agent.state import ensure_state_dir  # noqa: PLC0415

    folder = ensure_state_dir(Path(path).parent.parent, "cache")
    temporary = folder / f".first-request.{os.getpid()}.tmp"
    temporary.write_text(json.dumps({"format": _FORMAT, "entries": kept}), encoding="utf-8")
    os.replace(temporary, path)


def _send_ahead(entry: dict[str, Any], task: str, root: str) -> Sent | None:
    """Send the recorded request with `task` in it, when it may go to its server."""
    url = str(entry["url"])
    if not (is_private(url) or (entry.get("anywhere") is True and url.startswith("http://"))):
        return None
    parts = entry["parts"]
    if not isinstance(parts, list) or not all(isinstance(part, str) for part in parts):
        return None
    body = _quoted(task, bool(entry["ascii"])).join(parts).encode("utf-8")
    headers: list[tuple[str, str]] = []
    for item in entry["headers"]:
        name, value = str(item[0]), item[1]
        if value is None:
            value = str(item[2]) + (configured_api_key(root) or NO_KEY)
        headers.append((name, str(value)))
    return send(str(entry["method"]), url, headers, body, compared=_compared(headers))
