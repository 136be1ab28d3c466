"""The run's first chat request, sent before the heavy imports; the backend adopts it when it is the same.

Most of `asi-agent run`'s start is imports (asyncio, pydantic, httpx, the tools) that a bare HTTP client
never pays. So the command line, as soon as it is parsed, sends the first chat request from here (the
standard library only). An earlier run with the same settings recorded that request in the user cache
folder (`first-request.json`) with two things cut out: the task and the system prompt. Here the new
task goes in, and the system prompt is made again for this project (`prompts.project_prompt`: the
instruction files, the user prompts, and what `git` says of the repository), the same prompt the agent is
then built with. When the backend makes its own first chat request, its method, URL, headers and body
are compared byte for byte with the request sent ahead (`FirstRequest.claim`): the same, and the
backend reads the reply already under way; different, and the request sent ahead is aborted (its
connection closed) and the real one is sent. Either way the real one is recorded for the next run. A
stale or corrupt cache costs at most one discarded request, never a wrong reply.

A recorded request is only sent again when the cheap inputs it was recorded under are all unchanged
(`run_key`): the asi-agent code, the command line without the task and `--cwd`, the model settings in the
environment, and the files that shape the request beyond its system prompt (both `config.toml` and
`moss-tools.json` files). A project without files of its own there shares the recording with every
other: its first run is sent ahead too. Secrets are never written: a credential header is recorded as
"the configured API key" and rebuilt, when sent ahead, from the places the configuration reads it
(`ASI_API_KEY`, `OPENAI_API_KEY`, the user `config.toml`, and `.asi/config.toml` in a trusted folder);
a credential from anywhere else is not recorded at all. By default only plain-HTTP servers on this
machine or a private network are sent ahead (a discarded request to a paid API would be charged); the
`prefetch` setting turns it on everywhere or off.

The cache is not trusted: before a recorded request is sent, `asi_agent.prefetch_check` makes sure it
goes to the chat endpoint of the server configured in this run and carries nothing but this run's own
request (the API key is only ever sent to that server).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from asi_agent.prefetch_check import Configured, checked_body, checked_headers, configured, same_endpoint
from asi_agent.prefetch_wire import Sent, send
from asi_agent.trust import is_trusted
from asi_agent.userdirs import user_cache_dir, user_config_dir

if TYPE_CHECKING:
    from asi_agent.prompts import ProjectPrompt

__all__ = ["NO_KEY", "FirstRequest", "cache_file", "current", "is_private", "run_key", "start"]

NO_KEY = "not-needed"
"""The API key sent when none is configured (local servers accept anything)."""
_FORMAT = 2
_KEPT = 16  # entries kept (one per set of key inputs), newest last
_LOCK_WAIT = 2.0  # seconds a finishing run waits for the cache's lock before it leaves its entry out
_SECRET_WORDS = ("auth", "key", "token", "secret", "cookie", "session", "password")
_KEY_FILES = ("config.toml", "moss-tools.json")
_PROJECT_FILES = (".asi/config.toml", "moss-tools.json")
_CODE_FILES = ("", "prefetch.py", "agent.py", "prompts.py", "backends", "backends/openai.py",
               "backends/ollama.py", "tools", "tools/catalog.py")  # fmt: skip
_TASK, _SYSTEM = "task", "system"
"""The two pieces cut out of a recorded request (the slots between its parts)."""
_KEEP: dict[str, Any] = {}
"""`_entry_of`'s answer for a request that is not a plain first one: the earlier recording is kept."""
_current: FirstRequest | None = None
_Request = tuple[str, str, Sequence[tuple[str, str]], bytes]


def current() -> FirstRequest | None:
    """The first request of this process's run, when `start` was called (the backends adopt it)."""
    return _current


def start(
    argv: Sequence[str], task: str, cwd: str, *, provider: str | None = None, base_url: str | None = None
) -> FirstRequest | None:
    """Compute the run's key and send the recorded first request ahead when the key matches and the
    request is this run's own (`prefetch_check`). `provider` and `base_url`: the command line's.

    Never fails: a missing, unreadable or corrupt cache means nothing is sent ahead.
    """
    global _current  # noqa: PLW0603 - one run per process; the backend built later takes it from here
    task = task.strip()
    root = os.path.realpath(os.path.expanduser(cwd))
    options = _settings_of(argv, task)
    trusted = "--trust" in options or is_trusted(Path(root))
    try:
        # trusting or untrusting the folder changes where the request may go: recorded apart
        key = run_key([*options, f"trusted={trusted}"], root)
        flags = {"provider": provider, "base_url": base_url}
        settings = configured(flags, root, trusted=trusted)
    except (OSError, ValueError):
        return None
    first = FirstRequest(root, task, key, settings)
    _current = first
    entry = _read_entry(cache_file(), key)
    if entry is not None:
        try:
            first.sent = _send_ahead(entry, first)
        except (OSError, ValueError, LookupError, TypeError, AttributeError):
            first.sent = None  # a damaged entry
    return first


class FirstRequest:
    """This run's first chat request: the one sent ahead, if any, and the recording for the next run."""

    def __init__(self, root: str, task: str, key: str, settings: Configured) -> None:
        self.root, self.task, self.key = root, task, key
        """The project folder, the task, and the digest of the inputs the request is recorded under."""
        self.settings = settings
        """Where this run's configuration sends its first request, with which key."""
        self.user_dir = user_config_dir()
        self.sent: Sent | None = None
        """The request sent ahead, until it is adopted or aborted."""
        self.trusted = False
        """The project folder is trusted (`--trust` or stored): only then may its config give the key."""
        self.enabled: bool | None = None
        """The `prefetch` setting: None sends ahead only to private servers, True everywhere, False never."""
        self._prompt: ProjectPrompt | None = None

    def prompt(self) -> ProjectPrompt:
        """The project's instruction files and system prompt, made once in this run: the request sent
        ahead starts with it, the agent is built with it (`prompt_for`), and the recording cuts it out."""
        if self._prompt is None:
            from asi_agent.prompts import project_prompt  # noqa: PLC0415 - only to send or record

            self._prompt = project_prompt(Path(self.root), self.user_dir)
        return self._prompt

    def prompt_for(self, root: Path, user_dir: Path, *, again: bool = False) -> ProjectPrompt | None:
        """`prompt()` (made `again` when the project may have changed since), or None for another project."""
        if (root, user_dir) != (Path(self.root), self.user_dir):
            return None
        if again:
            self._prompt = None
        return self.prompt()

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
        entry = None
        if self.enabled is not False and (self.enabled or is_private(url)):
            entry = _entry_of((method, url, headers, body), self)
            if entry is _KEEP:  # a skill or command was loaded into the message: not a plain first
                return  # request, so the earlier recording still fits the next plain one
        # A read-only cache folder: the next run simply sends nothing ahead.
        with contextlib.suppress(OSError, ValueError):
            _write_entry(cache_file(), self.key, entry)


def _settings_of(argv: Sequence[str], task: str) -> list[str]:
    """The command line as a key input: without the task, and without `--cwd` (the project folder is not
    part of the recording, and a tool that starts every run with `--cwd` would otherwise never share it)."""
    options: list[str] = []
    skip = False
    for word in argv:
        if skip or word == task or word.strip() == task or word.startswith("--cwd="):
            skip = False
            continue
        skip = word == "--cwd"
        if not skip:
            options.append(word)
    return options


def cache_file() -> str:
    """Where the first requests of earlier runs are kept: in the user cache folder (below `ASI_CONFIG_DIR`
    when that is set, so that a separate configuration has its own)."""
    return str(user_cache_dir() / "first-request.json")


def run_key(argv: Sequence[str], root: str, env: dict[str, str] | None = None) -> str:
    """A digest of the inputs a recorded first request depends on (see the module docstring)."""
    env = dict(os.environ) if env is None else env
    package = os.path.dirname(os.path.abspath(__file__))
    user = user_config_dir(env)
    parts: list[Any] = [_FORMAT, sys.version, list(argv)]
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


def _quoted(text: str, ascii_only: bool) -> str:
    return json.dumps(text, ensure_ascii=ascii_only)


def _entry_of(request: _Request, first: FirstRequest) -> dict[str, Any] | None:
    """The request as recorded: the task and the system prompt cut out, credentials replaced by a marker.

    `_KEEP` when either is not in the body exactly once (the system prompt as the start of a string: text
    mode appends the tool contract to it); None when it must not be recorded (a foreign credential).
    """
    method, url, headers, body = request
    system = first.prompt().system
    try:
        text = body.decode("utf-8")
        values = _strings(json.loads(text))
    except ValueError:
        return None
    if values.count(first.task) != 1 or sum(value.startswith(system) for value in values) != 1:
        return _KEEP
    for ascii_only in (False, True):
        cuts = ((_quoted(system, ascii_only)[:-1], _SYSTEM), (_quoted(first.task, ascii_only), _TASK))
        parts, slots = _cut(text, cuts)
        if sorted(slots) == [_SYSTEM, _TASK]:
            break
    else:
        return _KEEP
    recorded: list[list[str | None]] = []
    for name, value in headers:
        if name.lower() == "content-length":
            continue
        if not _is_secret(name):
            recorded.append([name, value])
            continue
        key = first.settings.api_key or NO_KEY
        if not value.endswith(key):
            return None  # a credential from elsewhere: never written, so nothing to send ahead
        recorded.append([name, None, value[: -len(key)]])
    entry = {"method": method, "url": url, "headers": recorded, "parts": parts, "slots": slots}
    # A request that names the project elsewhere (a plugin tool's description, say) is this project's.
    named = _quoted(first.root, ascii_only)[1:-1] in "".join(parts)
    return entry | {"ascii": ascii_only, "root": first.root if named else None}


def _cut(text: str, cuts: Sequence[tuple[str, str]]) -> tuple[list[str], list[str]]:
    """`text` cut at every occurrence of each marker: the parts, and the slot name between each two."""
    parts, slots = [text], list[str]()
    for marker, name in cuts:
        cut_parts, cut_slots = [], []
        for index, part in enumerate(parts):
            if index:
                cut_slots.append(slots[index - 1])
            head, *rest = part.split(marker)
            cut_parts.append(head)
            for piece in rest:
                cut_slots.append(name)
                cut_parts.append(piece)
        parts, slots = cut_parts, cut_slots
    return parts, slots


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
    """Store `entry` under `key` (None removes it); the file is replaced atomically.

    Runs that end at once each update their own entry: the read, change and replace happen under an
    exclusive lock (`<file>.lock`), so one run's entry never replaces another's. A lock still held
    after `_LOCK_WAIT` seconds means this run's entry is not kept (a cache: the next run sends
    nothing ahead); it never waits longer.
    """
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        from asi_agent.state import lock_within  # noqa: PLC0415 - only when a run ends

        if lock_within(fd, _LOCK_WAIT):
            _update_entries(path, key, entry)
    finally:
        os.close(fd)


def _update_entries(path: str, key: str, entry: dict[str, Any] | None) -> None:
    """The read-change-replace of `_write_entry`; the caller holds the lock."""
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
    temporary = os.path.join(os.path.dirname(path), f".first-request.{os.getpid()}.tmp")
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump({"format": _FORMAT, "entries": kept}, handle)
    os.replace(temporary, path)


def _send_ahead(entry: dict[str, Any], first: FirstRequest) -> Sent | None:
    """Send the recorded request with this run's task and system prompt in it, when it is this run's own
    request to this run's server (`prefetch_check`); anything else read back is dropped."""
    url, settings = entry["url"], first.settings
    if not isinstance(url, str) or not _may_go(url, settings) or entry.get("method") != "POST":
        return None
    if entry.get("root") not in (None, first.root):
        return None  # recorded for another project
    body = _body_of(entry, first)
    headers = checked_headers(entry["headers"], url, settings.api_key or NO_KEY)
    if body is None or headers is None:
        return None
    return send("POST", url, headers, body.encode("utf-8"), compared=_compared(headers))


def _body_of(entry: dict[str, Any], first: FirstRequest) -> str | None:
    """The recorded body with this run's system prompt and task in its slots, when it has the shape of
    this run's first request (`prefetch_check.checked_body`)."""
    parts, slots = entry["parts"], entry["slots"]
    if not isinstance(parts, list) or not all(isinstance(part, str) for part in parts):
        return None
    if not isinstance(slots, list) or sorted(slots) != [_SYSTEM, _TASK] or len(parts) != len(slots) + 1:
        return None
    ascii_only = entry["ascii"] is True
    system = first.prompt().system
    values = {_TASK: _quoted(first.task, ascii_only), _SYSTEM: _quoted(system, ascii_only)[:-1]}
    body = parts[0] + "".join(values[slot] + part for slot, part in zip(slots, parts[1:], strict=True))
    return body if checked_body(body, system, first.task) else None


def _may_go(url: str, settings: Configured) -> bool:
    """Whether a request may be sent ahead to `url`: the configured chat endpoint, over plain HTTP to a
    private server, or to any `http://` one when the `prefetch` setting says so."""
    endpoint = settings.endpoint()
    if endpoint is None or settings.prefetch is False or not same_endpoint(url, endpoint):
        return False
    return is_private(url) or (settings.prefetch is True and url.startswith("http://"))
