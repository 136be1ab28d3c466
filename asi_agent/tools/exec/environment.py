"""The project's own Python environment: the interpreter and tools its tests and linters run with.

Looked for in this order: an activated `VIRTUAL_ENV` (unless it is asi-agent's own, outside the
project), the project's `.venv` or `venv`, then the environment of the manager the project declares
(uv: `UV_PROJECT_ENVIRONMENT`; poetry, hatch and pipenv: where they keep environments outside the
project, computed as they compute it, else asked from the tool when it is installed), then what is on
`PATH`, then asi-agent's own interpreter. Nothing is installed: a missing tool is reported with the
command that installs it.

Nothing here runs the project's code: whether an environment has a module is read from its files
(`pyvenv.cfg`, its site-packages and the folders its `.pth` files list), never by starting its
interpreter (a `.pth` file runs code at every start). Only an interpreter outside the project and
outside any virtual environment (python3 on PATH) is asked, isolated (`-I`). PATH is searched without
its relative entries and without folders inside the project. The managers' own commands (`poetry env
info`, `hatch env find`, `pipenv --venv`) are not run: they read the project's configuration and may
load its plugins; where they keep environments is computed instead.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from asi_agent.tools.exec.venvfiles import venv_has_module

__all__ = [
    "Manager",
    "PythonEnv",
    "declared_manager",
    "detect_environment",
    "hatch_env",
    "pipenv_env",
    "poetry_env",
]

Manager = Literal["uv", "poetry", "hatch", "pipenv"]
EnvKind = Literal["VIRTUAL_ENV", ".venv", "venv", "uv", "poetry", "hatch", "pipenv", "PATH", "asi-agent"]

_DANGEROUS = re.compile(r'[ $`!*@"\\\r\n\t]')
_PIPENV_DANGEROUS = re.compile(r'[ &$`!*@"()\[\]\\\r\n\t]')
_TOOL_TIMEOUT = 20.0


@dataclass(frozen=True, slots=True)
class PythonEnv:
    """Where the project's Python lives and how it was found."""

    kind: EnvKind
    python: str
    """The interpreter to run the project's code with."""
    prefix: Path | None = None
    """The virtual environment's folder; None for an interpreter on PATH or asi-agent's own."""
    manager: Manager | None = None
    """The environment manager the project declares (uv.lock, poetry.lock, Pipfile, [tool.hatch]...)."""
    missing: str = ""
    """When the manager's environment does not exist yet: the command that creates it."""
    root: Path | None = None
    """The project: an interpreter inside it is never started to answer a question."""

    @property
    def is_project_env(self) -> bool:
        """Whether this is an environment of the project (not PATH or asi-agent's own)."""
        return self.prefix is not None

    def describe(self) -> str:
        """How the model and the person read it: `.venv (uv)`, `python3 on PATH`, ..."""
        if self.prefix is not None:
            what = (
                f"{self.kind} environment {self.prefix}"
                if self.kind in ("poetry", "hatch", "pipenv")
                else str(self.kind)
            )
            return f"{what} ({self.manager})" if self.manager and self.manager != self.kind else what
        return "python3 on PATH" if self.kind == "PATH" else "asi-agent's own interpreter"

    def executable(self, name: str) -> str | None:
        """A program installed in the environment (`bin/pytest`, `bin/ruff`), or None."""
        if self.prefix is None:
            return None
        path = self.prefix / ("Scripts" if os.name == "nt" else "bin") / name
        return str(path) if path.exists() else None

    def has_module(self, module: str) -> bool:
        """Whether the environment's interpreter can import `module` (never by running a project's one)."""
        if self.prefix is not None:
            return venv_has_module(self.prefix, module)
        return _probe(self.python, module, self.root)

    def install_hint(self, package: str) -> str:
        """The command that installs `package` where the project's code runs."""
        hints = {
            "uv": f"`uv add --dev {package}`",
            "poetry": f"`poetry add --group dev {package}`",
            "pipenv": f"`pipenv install --dev {package}`",
            "hatch": f"add {package} to `dependencies` of the hatch environment ([tool.hatch.envs.default])",
        }
        if self.manager in hints:
            return hints[self.manager]
        return f"`{self.python} -m pip install {package}`"


_IMPORTABLE: set[tuple[str, str]] = set()


def _probe(python: str, module: str, root: Path | None) -> bool:
    """Whether an interpreter can import `module`: asi-agent's own is asked in-process, one of a virtual
    environment is read from its files, one in the project is never started, any other runs isolated."""
    path = Path(python)
    if os.path.abspath(python) == os.path.abspath(sys.executable):  # not resolved: a venv's python links out
        import importlib.util  # noqa: PLC0415 - only needed for this check

        return importlib.util.find_spec(module) is not None
    prefix = path.parent.parent
    if (prefix / "pyvenv.cfg").is_file():
        return venv_has_module(prefix, module)
    if not path.is_absolute() or (root is not None and path.resolve().is_relative_to(root.resolve())):
        return False
    return _imports(python, module)


def _imports(python: str, module: str) -> bool:
    """Whether an interpreter outside the project can import `module` (asked by running it isolated:
    no current folder, no PYTHON* variables, no user site; only a yes is remembered)."""
    if (python, module) in _IMPORTABLE:
        return True
    code = f"import importlib.util, sys; sys.exit(0 if importlib.util.find_spec({module!r}) else 1)"
    try:
        done = subprocess.run(
            [python, "-I", "-c", code], capture_output=True, timeout=_TOOL_TIMEOUT, check=False, cwd="/"
        )
    except (OSError, subprocess.SubprocessError):
        return False
    if done.returncode == 0:
        _IMPORTABLE.add((python, module))
    return done.returncode == 0


def detect_environment(root: Path, env: Mapping[str, str] | None = None) -> PythonEnv:
    """The project's environment, by the order of the module docstring."""
    env = os.environ if env is None else env
    root = root.resolve()
    manager = declared_manager(root)
    active = _active_venv(root, env)
    if active is not None:
        return PythonEnv("VIRTUAL_ENV", _python_in(active), active, manager, root=root)
    for name in (".venv", "venv"):
        if _python_in(root / name):
            return PythonEnv(name, _python_in(root / name), root / name, manager, root=root)
    missing = ""
    if manager is not None:
        found = _managed(manager, root, env)
        if found is not None:
            return PythonEnv(manager, _python_in(found), found, manager, root=root)
        missing = _CREATE[manager]
    path = outside_path(env.get("PATH"), root)
    python = shutil.which("python3", path=path) or shutil.which("python", path=path)
    if python:
        return PythonEnv("PATH", python, None, manager, missing, root=root)
    return PythonEnv("asi-agent", sys.executable, None, manager, missing, root=root)


def outside_path(path: str | None, root: Path) -> str:
    """PATH without relative entries ("." or empty ones) and without folders inside the project."""
    entries = (path if path is not None else os.environ.get("PATH", os.defpath)).split(os.pathsep)
    kept = [e for e in entries if os.path.isabs(e) and not Path(e).resolve().is_relative_to(root.resolve())]
    return os.pathsep.join(kept)


_CREATE: dict[Manager, str] = {
    "uv": "`uv sync`",
    "poetry": "`poetry install`",
    "hatch": "`hatch env create`",
    "pipenv": "`pipenv install --dev`",
}


def _python_in(prefix: Path) -> str:
    """The interpreter of a virtual environment folder, or "" when it holds none."""
    for candidate in (
        prefix / "bin" / "python",
        prefix / "bin" / "python3",
        prefix / "Scripts" / "python.exe",
    ):
        if candidate.exists():
            return str(candidate)
    return ""


def _active_venv(root: Path, env: Mapping[str, str]) -> Path | None:
    """The activated environment, unless it is asi-agent's own one outside the project."""
    value = env.get("VIRTUAL_ENV")
    if not value or not _python_in(Path(value)):
        return None
    prefix = Path(value).resolve()
    own = Path(sys.prefix).resolve()
    if prefix == own and not prefix.is_relative_to(root):
        return None
    return prefix


def _pyproject(root: Path) -> dict[str, Any]:
    try:
        with (root / "pyproject.toml").open("rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def declared_manager(root: Path) -> Manager | None:
    """The environment manager the project's files name: lock files first, then pyproject tables."""
    markers: list[tuple[str, Manager]] = [
        ("uv.lock", "uv"),
        ("poetry.lock", "poetry"),
        ("Pipfile", "pipenv"),
        ("hatch.toml", "hatch"),
    ]
    for name, manager in markers:
        if (root / name).is_file():
            return manager
    tool = _pyproject(root).get("tool") or {}
    for manager in ("uv", "poetry", "hatch"):
        if manager in tool:
            return manager
    return None


def _managed(manager: Manager, root: Path, env: Mapping[str, str]) -> Path | None:
    """The manager's environment of this project, where the manager keeps it."""
    if manager == "uv":
        custom = env.get("UV_PROJECT_ENVIRONMENT")
        path = (root / custom) if custom else root / ".venv"
        return path if _python_in(path) else None
    computed = {"poetry": poetry_env, "hatch": hatch_env, "pipenv": pipenv_env}[manager](root, env)
    return computed if computed is not None and _python_in(computed) else None


def _project_name(root: Path) -> str:
    data = _pyproject(root)
    name = (data.get("project") or {}).get("name") or ((data.get("tool") or {}).get("poetry") or {}).get(
        "name"
    )
    return str(name or root.name)


def _user_dir(env: Mapping[str, str], xdg: str, fallback: str) -> Path:
    base = env.get(xdg)
    return Path(base) if base else Path(env.get("HOME") or Path.home()) / fallback


def _slug(text: str, size: int = 32) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()[: size or None]).decode()[:8]


def poetry_env(root: Path, env: Mapping[str, str] | None = None) -> Path | None:
    """Where poetry keeps the project's environment: `<cache>/virtualenvs/<name>-<hash>-pyX.Y` (newest)."""
    env = os.environ if env is None else env
    folder = Path(env["POETRY_VIRTUALENVS_PATH"]) if env.get("POETRY_VIRTUALENVS_PATH") else None
    if folder is None:
        cache = (
            Path(env["POETRY_CACHE_DIR"])
            if env.get("POETRY_CACHE_DIR")
            else _user_dir(env, "XDG_CACHE_HOME", ".cache") / "pypoetry"
        )
        folder = cache / "virtualenvs"
    canonical = re.sub(r"[-_.]+", "-", _project_name(root)).lower()  # as poetry canonicalises names
    name = _DANGEROUS.sub("_", canonical)[:42]
    stem = f"{name}-{_slug(os.path.normcase(str(root.resolve())))}-py"
    found = (
        sorted(folder.glob(f"{stem}*"), key=lambda p: p.stat().st_mtime, reverse=True)
        if folder.is_dir()
        else []
    )
    return found[0] if found else None


def hatch_env(root: Path, env: Mapping[str, str] | None = None) -> Path | None:
    """Where hatch keeps the default environment: `<data>/env/virtual/<name>/<hash>/<name>`, or its `path`."""
    env = os.environ if env is None else env
    configured = (
        (((_pyproject(root).get("tool") or {}).get("hatch") or {}).get("envs") or {}).get("default") or {}
    ).get("path")
    if isinstance(configured, str):
        return root / configured
    data = (
        Path(env["HATCH_DATA_DIR"])
        if env.get("HATCH_DATA_DIR")
        else _user_dir(env, "XDG_DATA_HOME", ".local/share") / "hatch"
    )
    name = _project_name(root)
    return data / "env" / "virtual" / name / _slug(str(root.resolve())) / name


def pipenv_env(root: Path, env: Mapping[str, str] | None = None) -> Path | None:
    """Where pipenv keeps the project's environment: `$WORKON_HOME/<folder name>-<hash of Pipfile's path>`."""
    env = os.environ if env is None else env
    if env.get("PIPENV_VENV_IN_PROJECT"):
        return root / ".venv"
    home = (
        Path(env["WORKON_HOME"])
        if env.get("WORKON_HOME")
        else _user_dir(env, "XDG_DATA_HOME", ".local/share") / "virtualenvs"
    )
    name = (
        env.get("PIPENV_CUSTOM_VENV_NAME")
        or f"{_PIPENV_DANGEROUS.sub('_', root.name)[:42]}-{_slug(str(root.resolve() / 'Pipfile'), 6)}"
    )
    return home / name


def pytest_command(env: PythonEnv) -> list[str] | None:
    """How to run pytest: the project environment's, else PATH's, else ours; None when none has it.

    A project environment without pytest gets None: another environment's pytest would not see its packages.
    """
    if env.is_project_env:
        return [env.python, "-m", "pytest"] if env.has_module("pytest") else None
    # `python -m pytest` puts the project folder on sys.path, as most projects expect; the script does not.
    if env.has_module("pytest"):
        return [env.python, "-m", "pytest"]
    on_path = (
        shutil.which("pytest", path=outside_path(None, env.root)) if env.root else shutil.which("pytest")
    )
    if on_path:
        return [on_path]
    own = PythonEnv("asi-agent", sys.executable)
    return [sys.executable, "-m", "pytest"] if own.has_module("pytest") else None


def ruff_command(env: PythonEnv) -> str | None:
    """ruff of the project's environment, else on PATH, else installed beside asi-agent; None without any."""
    beside = Path(sys.executable).parent / "ruff"
    return env.executable("ruff") or shutil.which("ruff") or (str(beside) if beside.exists() else None)


def runner_has(runner: list[str], env: PythonEnv, module: str) -> bool:
    """Whether the interpreter behind a runner command (`python -m x` or a script) can import `module`."""
    python = runner[0] if len(runner) > 1 else _shebang(runner[0])
    if not python:
        return False
    return env.has_module(module) if python == env.python else _probe(python, module, env.root)


def _shebang(script: str) -> str:
    try:
        with open(script, "rb") as handle:
            first = handle.readline(512).decode("utf-8", "replace")
    except OSError:
        return ""
    return first[2:].strip().split()[0] if first.startswith("#!") and first[2:].strip() else ""


def missing_runner(tool: str, env: PythonEnv) -> str:
    """Why `tool` cannot run, and the command that installs it (never "no tests found")."""
    if env.missing:
        return (
            f"the tests need {tool}, but the project's {env.manager} environment does not exist yet: "
            f"create it with {env.missing} (with {tool} as a dev dependency: {env.install_hint(tool)})"
        )
    found = "are pytest-style" if tool == "pytest" else f"need {tool}"
    return (
        f"the project's tests {found} but {tool} is not installed in {env.describe()}; "
        f"install it with {env.install_hint(tool)}"
    )
