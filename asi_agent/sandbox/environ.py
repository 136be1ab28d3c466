"""The environment of a sandboxed process: an allow-list, never the whole environment of asi-agent.

A command gets the ordinary variables (`ORDINARY`: where programs are, who and where the user is, the
language, the terminal, the toolchains' homes) and the names the person configured (`[sandbox] env`).
A configured glob never lets through a name that looks like a secret (key, token, password, credential…)
or a way out (an agent or bus socket, a display); a name written out in full always goes through, as the
person's explicit choice.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Mapping

__all__ = ["ORDINARY", "filtered_environment", "looks_secret"]

ORDINARY = (
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "LC_*", "TERM", "TZ", "PWD", "TMPDIR",
    "HOSTNAME", "COLUMNS", "LINES", "EDITOR", "VISUAL", "PAGER", "GIT_PAGER", "NO_COLOR", "CI",
    "GIT_TERMINAL_PROMPT", "VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "PYTHONPATH",
    "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONIOENCODING", "PYENV_ROOT", "PYENV_VERSION",
    "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_DIRS",
    "XDG_CONFIG_DIRS", "GOPATH", "GOROOT", "CARGO_HOME", "RUSTUP_HOME", "JAVA_HOME", "NVM_DIR", "NODE_PATH",
    "LD_LIBRARY_PATH", "PKG_CONFIG_PATH", "MANPATH", "SOURCE_DATE_EPOCH",
)  # fmt: skip
"""Variables every sandboxed command gets (when set): `LC_*` is a glob."""

_SECRET = re.compile(r"KEY|TOKEN|SECRET|PASS|CRED|PRIVATE|COOKIE|SESSION|AUTH(?!OR)|SIGNATURE", re.IGNORECASE)
_WAY_OUT = re.compile(
    r"_SOCK$|SOCKET|AGENT|DBUS|DISPLAY|XAUTHORITY|XDG_RUNTIME_DIR|DOCKER_HOST|KRB5CCNAME", re.IGNORECASE
)


def looks_secret(name: str) -> bool:
    """Whether a variable's name says it holds a secret or leads to a socket outside the sandbox."""
    return bool(_SECRET.search(name) or _WAY_OUT.search(name))


def filtered_environment(env: Mapping[str, str], configured: Iterable[str] = ()) -> dict[str, str]:
    """The variables of `env` a sandboxed command may see: the ordinary ones, the configured names, and
    the configured globs' matches that do not look like secrets."""
    exact = {name for name in configured if not _is_glob(name)}
    globs = [name for name in configured if _is_glob(name)]
    kept = {}
    for name, value in env.items():
        ordinary = name in exact or name in _ORDINARY_NAMES or name.startswith("LC_")
        if ordinary or (any(fnmatch.fnmatchcase(name, glob) for glob in globs) and not looks_secret(name)):
            kept[name] = value
    return kept


def _is_glob(name: str) -> bool:
    return any(mark in name for mark in "*?[")


_ORDINARY_NAMES = frozenset(name for name in ORDINARY if not _is_glob(name))
