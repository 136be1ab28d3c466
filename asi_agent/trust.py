"""Trusted project folders: which folders may configure asi-agent beyond narrowing what the user chose.

A project folder is untrusted until the person trusts it (`asi-agent trust [PATH]`, the chat's question,
`--trust` for one run). The decisions live in the user's configuration folder (`trusted-folders.json`,
private, written atomically), keyed by each folder's real path; a trusted folder covers every folder
below it, so trusting `~/work` trusts each project in it. Standard library only: `run` reads it before
anything heavy is imported (to decide whether the project's API key may be sent ahead).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from asi_agent.userdirs import user_config_dir

__all__ = [
    "TRUST_FILE", "ProjectTrust", "inside_project", "is_trusted", "trust_folder", "trusted_by",
    "trusted_folders", "untrust_folder", "untrusted_notice",
]  # fmt: skip

TRUST_FILE = "trusted-folders.json"
"""The file in the user's configuration folder that lists the trusted folders."""


@dataclass
class ProjectTrust:
    """How far one run trusts its project folder, and what the folder supplied that was left out."""

    trusted: bool = False
    """The folder's own files are read in full (True), or may only narrow the user's configuration."""
    ignored: list[str] = field(default_factory=list)
    """What the untrusted folder supplied and was not used, one phrase each (file: key or item)."""
    approval: str | None = None
    """Untrusted: the approval mode the project's config asks for, used only where it is stricter."""
    policy: str | None = None
    """Untrusted: the policy the project's config names, of which only deny and ask rules are used."""
    sandbox_off: str | None = None
    """Who turned the sandbox off (`--no-sandbox`, `user config FILE`, ...), None when it is on."""


def inside_project(path: Path, project: Path) -> bool:
    """Whether `path`, its links resolved, lies inside the project folder (or is it): a repository's link
    to a file of the person's (a key, a private note) does not, whatever its name inside the folder."""
    real, root = os.path.realpath(path), os.path.realpath(project)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def trusted_folders(config_dir: Path | None = None) -> list[Path]:
    """The trusted folders as stored (real paths), in the order they were trusted; [] when none are."""
    path = (config_dir or user_config_dir()) / TRUST_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError):
        return []  # unreadable or damaged: nothing is trusted (the safe reading); `trust` rewrites it
    folders = data.get("trusted") if isinstance(data, dict) else None
    if not isinstance(folders, list):
        return []
    return [Path(item) for item in folders if isinstance(item, str) and os.path.isabs(item)]


def trusted_by(root: Path, config_dir: Path | None = None) -> Path | None:
    """The stored folder that makes `root` trusted (itself or a folder above it), or None."""
    real = Path(os.path.realpath(root))
    for folder in trusted_folders(config_dir):
        if real == folder or folder in real.parents:
            return folder
    return None


def is_trusted(root: Path, config_dir: Path | None = None) -> bool:
    """Whether the person trusted `root` or a folder above it (the stored decisions only, not `--trust`)."""
    return trusted_by(root, config_dir) is not None


def trust_folder(path: Path, config_dir: Path | None = None) -> tuple[Path, bool]:
    """Store `path` (by its real path) as trusted; returns it and whether it was newly added."""
    real = Path(os.path.realpath(path))
    folders = trusted_folders(config_dir)
    if real in folders:
        return real, False
    _write(config_dir or user_config_dir(), [*folders, real])
    return real, True


def untrust_folder(path: Path, config_dir: Path | None = None) -> tuple[Path, bool]:
    """Remove `path` (by its real path) from the trusted folders; returns it and whether it was listed."""
    real = Path(os.path.realpath(path))
    folders = trusted_folders(config_dir)
    if real not in folders:
        return real, False
    _write(config_dir or user_config_dir(), [folder for folder in folders if folder != real])
    return real, True


def untrusted_notice(root: Path, ignored: list[str]) -> str:
    """The one message that says what an untrusted folder supplied and was ignored, and how to trust it."""
    listed = "; ".join(ignored)
    return (
        f"{root} is not a trusted folder, so its own settings can only narrow yours; ignored: {listed}. "
        f"If you trust this repository, run `asi-agent trust {root}` (or pass --trust for one run)"
    )


def _write(config_dir: Path, folders: list[Path]) -> None:
    """Replace the trust file at once (a temporary file renamed over it), readable by the user alone."""
    config_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    text = json.dumps({"trusted": [str(folder) for folder in folders]}, indent=2) + "\n"
    handle, temporary = tempfile.mkstemp(prefix=".trusted-", dir=config_dir)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            os.fchmod(stream.fileno(), 0o600)
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, config_dir / TRUST_FILE)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
