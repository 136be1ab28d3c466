"""`Sandbox`: how one run's commands are contained, and the bubblewrap command line that does it."""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from asi_agent.config_sections import SANDBOX_PROTECTED
from asi_agent.sandbox.environ import filtered_environment
from asi_agent.sandbox.limits import Limits
from asi_agent.sandbox.mounts import PLACEHOLDERS, code_folders, host_sockets, protected_paths
from asi_agent.userdirs import user_cache_dir, user_config_dir

__all__ = ["KIND", "Sandbox", "Scratch", "sandbox_for"]

KIND = "bubblewrap"
_TMP = Path("/tmp")
_TOOL_CACHES = {
    "pip": "PIP_CACHE_DIR", "uv": "UV_CACHE_DIR", "go-build": "GOCACHE", "pre-commit": "PRE_COMMIT_HOME",
}  # fmt: skip
"""Tools that keep their cache under `~/.cache`, and the variable that says where, for sharing one alone."""


class Scratch:
    """The run's private temporary folder, mounted as `/tmp` in every command: made at the first
    command, removed when the program ends."""

    def __init__(self) -> None:
        self._path: Path | None = None
        self._lock = threading.Lock()

    def path(self) -> Path:
        """The folder on the host (made on first use)."""
        with self._lock:
            if self._path is None:
                self._path = Path(tempfile.mkdtemp(prefix="asi-agent-tmp-")).resolve()
                atexit.register(shutil.rmtree, self._path, ignore_errors=True)
            return self._path


@dataclass(frozen=True, slots=True)
class Sandbox:
    """How the commands of one run are contained."""

    binary: Path
    root: Path
    writable: tuple[Path, ...]
    """Folders besides the project that commands may write (caches, configured ones), existing ones."""
    hidden: tuple[Path, ...]
    network: bool = False
    protected: tuple[str, ...] = SANDBOX_PROTECTED
    """Project paths (relative to its root) that stay read-only; `.asi/` always does."""
    env: tuple[str, ...] = ()
    """Environment variables (names or globs) commands get besides the ordinary ones."""
    limits: Limits = field(default_factory=Limits)
    scratch: Scratch = field(default_factory=Scratch, compare=False)
    lingering: list[list[Path]] = field(default_factory=list, compare=False)
    """Placeholders made for processes started with `wrap` (MCP servers, plugins), released by `release`."""

    def wrap(
        self,
        argv: Sequence[str],
        *,
        cwd: Path,
        network: bool | None = None,
        writable: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        extra_env: Mapping[str, str] | None = None,
    ) -> list[str]:
        """The command line that runs `argv` in `cwd` inside the sandbox (`network` overrides the default;
        `writable` adds folders, as a plugin's manifest entry declares them). `env` is the environment the
        process would have outside (default: asi-agent's own), of which it gets the allowed part;
        `extra_env` is set as given (a manifest's own variables). Placeholders it makes stay until
        `release` (the end of the run's session); `wrapped` removes them with the process."""
        args, held = self._command(
            argv, cwd=cwd, network=network, writable=writable, env=env, extra=extra_env
        )
        self.lingering.append(held)
        return args

    async def release(self) -> None:
        """Remove the placeholders of the processes `wrap` started, once they have ended (the session's
        cleanup, after its MCP servers and plugin processes stopped): none is left in the project."""
        while self.lingering:
            PLACEHOLDERS.release(self.lingering.pop())

    @contextlib.contextmanager
    def wrapped(
        self,
        argv: Sequence[str],
        *,
        cwd: Path,
        network: bool | None = None,
        env: Mapping[str, str] | None = None,
    ) -> Iterator[list[str]]:
        """`wrap`, for a process that ends before the block does: its placeholders go with it."""
        args, held = self._command(argv, cwd=cwd, network=network, writable=(), env=env, extra=None)
        try:
            yield args
        finally:
            PLACEHOLDERS.release(held)

    def _command(
        self,
        argv: Sequence[str],
        *,
        cwd: Path,
        network: bool | None,
        writable: Sequence[str],
        env: Mapping[str, str] | None,
        extra: Mapping[str, str] | None,
    ) -> tuple[list[str], list[Path]]:
        args = [str(self.binary), "--new-session", "--die-with-parent", "--unshare-pid"]
        if not (self.network if network is None else network):
            args.append("--unshare-net")
        args += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        masked = self._masked()
        scratch = self.scratch.path()  # the private /tmp, also at its own path (`shared_temp`)
        args += ["--bind", str(scratch), "/tmp", "--bind", str(scratch), str(scratch)]
        home = Path.home().resolve()  # a home under /tmp is mounted back read-only (when there is one)
        args += _ro(folder for folder in (home,) if folder.is_relative_to(_TMP) and folder.is_dir())
        args += [arg for folder in masked[1:] for arg in ("--tmpfs", str(folder))]
        added = [folder for folder in map(_path, writable) if folder.is_dir()]
        writes = [*self.writable, *added, self.root]
        for folder in writes:
            args += ["--bind", str(folder), str(folder)]
        seen = [Path.home().resolve(), *writes]  # what of the host's /tmp is mounted back
        sockets = [s for s in host_sockets(masked[1:]) if not s.is_relative_to(_TMP) or _inside(s, seen)]
        args += [arg for sock in sockets for arg in ("--ro-bind", "/dev/null", str(sock))]
        held: list[Path] = []
        args += self._project(held)
        args += _ro(f for f in code_folders(self.root) if not any(w.is_relative_to(f) for w in writes))
        args += self._secrets()
        args += self._environment(cwd, env, extra)
        args += ["--chdir", str(cwd), "--", *self.limits.launcher(), *argv]
        return args, held

    def _masked(self) -> list[Path]:
        """Folders replaced by an empty one: /tmp (by the private one), the runtime folders of the user's
        session (sockets of D-Bus, the agents, Wayland…) and the ssh agent's folder."""
        found = [_TMP, Path("/run/user"), Path("/var/run/user")]
        for variable in ("XDG_RUNTIME_DIR", "SSH_AUTH_SOCK"):
            raw = os.environ.get(variable, "")
            folder = Path(raw) if variable == "XDG_RUNTIME_DIR" else Path(raw).parent
            if raw.startswith("/") and folder.is_dir() and not _holds(folder, self.root, Path.home()):
                found.append(folder.resolve())
        kept = dict.fromkeys(folder.resolve() for folder in found[1:] if folder.is_dir())
        return [_TMP, *(folder for folder in kept if folder != _TMP)]

    def _project(self, held: list[Path]) -> list[str]:
        """Read-only mounts inside the project: `.asi/`, and the protected paths (placeholders held for
        the missing ones that must not be created)."""
        protected = [name for name in self.protected if name]
        found, missing = protected_paths(self.root, protected)
        state = self.root / ".asi"
        with contextlib.suppress(OSError):  # a read-only project: nothing can be written in it anyway
            state.mkdir(exist_ok=True)
        if state.is_dir():
            found.insert(0, state)
        for path in missing:
            if PLACEHOLDERS.hold(path):
                held.append(path)
                found.append(path)
        return _ro(found)

    def _secrets(self) -> list[str]:
        args: list[str] = []
        for secret in self.hidden:
            if _holds(secret, self.root):
                continue
            if secret.is_dir():
                args += ["--tmpfs", str(secret)]
            elif secret.exists():
                args += ["--ro-bind", "/dev/null", str(secret)]
        return args

    def _environment(
        self, cwd: Path, env: Mapping[str, str] | None, extra: Mapping[str, str] | None
    ) -> list[str]:
        values = filtered_environment(os.environ if env is None else env, self.env)
        values.update(TMPDIR="/tmp", PWD=str(cwd))
        values.update(self._caches(Path(values.get("HOME") or Path.home()), values.get("XDG_CACHE_HOME")))
        values.update(extra or {})
        return ["--clearenv", *(arg for name, value in values.items() for arg in ("--setenv", name, value))]

    def _caches(self, home: Path, cache_home: str | None) -> dict[str, str]:
        """Where package managers cache: in the private /tmp, unless the person shares the user's cache
        (`[sandbox] caches`), whole (`~/.cache`) or for one tool (`~/.cache/pip`: `PIP_CACHE_DIR`)."""
        shared = _path(cache_home or str(home / ".cache"))
        if _inside(shared, self.writable):
            return {}
        found = {"XDG_CACHE_HOME": "/tmp/.cache"}  # a private cache: the user's cannot be poisoned
        for name, variable in _TOOL_CACHES.items():
            if _inside(shared / name, self.writable):
                found[variable] = str(shared / name)
        if not _inside(_path(str(home / ".npm")), self.writable):
            found["npm_config_cache"] = "/tmp/.npm"
        return found

    def shared_temp(self) -> Path:
        """A folder of the host that commands see at the same path and may write (the run's private
        /tmp): where the runtime puts the files it shares with a command, such as a test report."""
        return self.scratch.path()

    def with_network(self) -> Sandbox:
        """The same sandbox with the network open."""
        return replace(self, network=True)

    def describe(self) -> str:
        """One line for `run`'s first stderr line: what commands may write, and what they cannot reach."""
        writes = "project, private /tmp" + (", configured folders" if self.writable else "")
        network = "network open" if self.network else "no network"
        return (
            f"sandbox: {KIND} (writes: {writes}; read-only: git config and hooks, agent settings; {network}; "
            "hidden: secrets, secret variables, host sockets)"
        )


def _ro(paths: Iterator[Path] | Sequence[Path]) -> list[str]:
    return [arg for path in paths for arg in ("--ro-bind", str(path), str(path))]


def _inside(path: Path, folders: Sequence[Path]) -> bool:
    return any(path.is_relative_to(folder) for folder in folders)


def _holds(folder: Path, *paths: Path) -> bool:
    """Whether `folder` is one of `paths` or one of their parents."""
    return any(path.resolve().is_relative_to(folder.resolve()) for path in paths)


def sandbox_for(
    root: Path,
    *,
    binary: Path,
    network: bool,
    writable: Sequence[str],
    caches: Sequence[str],
    hidden: Sequence[str],
    protected: Sequence[str] = SANDBOX_PROTECTED,
    env: Sequence[str] = (),
    limits: Limits | None = None,
) -> Sandbox:
    """The sandbox of a project: the configured lists, `~` expanded, kept when they exist; asi-agent's
    own configuration and cache folders are always hidden."""
    folders = [_path(raw) for raw in (*caches, *writable)]
    kept = tuple(dict.fromkeys(f for f in folders if f.is_dir()))
    secrets = [*(_path(raw) for raw in hidden), _path(str(user_config_dir())), _path(str(user_cache_dir()))]
    return Sandbox(
        binary, root.resolve(), kept, tuple(dict.fromkeys(secrets)), network, tuple(protected), tuple(env),
        limits or Limits(),
    )  # fmt: skip


def _path(raw: str) -> Path:
    return Path(os.path.expanduser(raw)).resolve()
