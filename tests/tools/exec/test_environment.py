"""The project's own environment, detected on environments created for real in temporary folders.

uv, poetry, pipenv and hatch create their environment themselves when they are installed (on PATH);
without them the test builds the same layout with `python -m venv` where the tool would put it.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from asi_agent.exceptions import ToolError
from asi_agent.tools.args import LintCheckArgs, RunTestsArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.exec.environment import (
    detect_environment,
    hatch_env,
    pipenv_env,
    poetry_env,
    pytest_command,
)
from asi_agent.tools.exec.lint import lint_check
from asi_agent.tools.exec.testing import run_test_suite, run_tests
from asi_agent.tools.files.journal import Journal

PYTEST_STYLE = "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"


def venv(path: Path, *, with_our_packages: bool = False) -> Path:
    """A real virtual environment; optionally seeing our packages (pytest, ruff) through a .pth file."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True, timeout=120)
    if with_our_packages:
        target = next(path.glob("lib/python*/site-packages"))
        (target / "asi_test_packages.pth").write_text(site.getsitepackages()[0] + "\n")
    return path


def project(root: Path, pyproject: str = "") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    (root / "tests").mkdir(exist_ok=True)
    (root / "tests" / "test_calc.py").write_text(PYTEST_STYLE)
    if pyproject:
        (root / "pyproject.toml").write_text(pyproject)
    return root


def clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The process environment without an active virtual environment, with tool folders in tmp_path."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT")}
    return {**env, **extra}


def tool(name: str) -> str | None:
    return shutil.which(name)


def test_dot_venv_then_venv(tmp_path: Path) -> None:
    root = project(tmp_path / "p")
    env = clean_env(tmp_path)
    assert detect_environment(root, env).kind in ("PATH", "asi-agent")
    venv(root / "venv")
    found = detect_environment(root, env)
    assert (found.kind, found.prefix) == ("venv", root / "venv")
    venv(root / ".venv")
    found = detect_environment(root, env)
    assert (found.kind, found.python) == (".venv", str(root / ".venv" / "bin" / "python"))


def test_an_activated_virtual_env_wins_unless_it_is_asi_agents_own(tmp_path: Path) -> None:
    root = project(tmp_path / "p")
    venv(root / ".venv")
    active = venv(tmp_path / "elsewhere")
    found = detect_environment(root, clean_env(tmp_path, VIRTUAL_ENV=str(active)))
    assert (found.kind, found.prefix) == ("VIRTUAL_ENV", active)
    ours = detect_environment(root, clean_env(tmp_path, VIRTUAL_ENV=sys.prefix))
    assert ours.kind == ".venv"


def test_uv(tmp_path: Path) -> None:
    root = project(tmp_path / "p", '[project]\nname = "demo-uv"\nversion = "0.1.0"\ndependencies = []\n')
    env = clean_env(tmp_path)
    if tool("uv"):
        subprocess.run(["uv", "sync", "--offline", "--quiet"], cwd=root, env=env, check=True, timeout=120)
    else:
        (root / "uv.lock").write_text("version = 1\n")
        venv(root / ".venv")
    found = detect_environment(root, env)
    assert (found.kind, found.manager, found.prefix) == (".venv", "uv", root / ".venv")
    assert found.install_hint("pytest") == "`uv add --dev pytest`"
    custom = clean_env(tmp_path, UV_PROJECT_ENVIRONMENT="envs/dev")
    shutil.rmtree(root / ".venv")
    if tool("uv"):
        subprocess.run(["uv", "sync", "--offline", "--quiet"], cwd=root, env=custom, check=True, timeout=120)
    else:
        venv(root / "envs" / "dev")
    found = detect_environment(root, custom)
    assert (found.kind, found.prefix) == ("uv", root / "envs" / "dev")


def test_poetry(tmp_path: Path) -> None:
    text = '[project]\nname = "Demo_Po.x"\nversion = "0.1.0"\n\n[tool.poetry]\npackage-mode = false\n'
    root = project(tmp_path / "p", text)
    env = clean_env(
        tmp_path, POETRY_VIRTUALENVS_PATH=str(tmp_path / "pvenvs"), POETRY_CACHE_DIR=str(tmp_path / "pc")
    )
    if tool("poetry"):
        subprocess.run(
            ["poetry", "env", "use", "python3"],
            cwd=root,
            env=env,
            check=True,
            capture_output=True,
            timeout=180,
        )
    else:
        venv(tmp_path / "pvenvs" / f"demo-po-x-{_poetry_hash(root)}-py3.11")
    expected = poetry_env(root, env)
    assert expected is not None and expected.name.startswith("demo-po-x-")
    found = detect_environment(root, env)
    assert (found.kind, found.manager, found.prefix) == ("poetry", "poetry", expected)
    assert found.install_hint("pytest") == "`poetry add --group dev pytest`"


def _poetry_hash(root: Path) -> str:
    import base64  # noqa: PLC0415
    import hashlib  # noqa: PLC0415

    return base64.urlsafe_b64encode(hashlib.sha256(str(root.resolve()).encode()).digest()).decode()[:8]


def test_pipenv(tmp_path: Path) -> None:
    root = project(tmp_path / "p")
    env = clean_env(tmp_path, WORKON_HOME=str(tmp_path / "workon"), PIPENV_YES="1")
    if tool("pipenv"):
        subprocess.run(
            ["pipenv", "--python", "python3"], cwd=root, env=env, check=True, capture_output=True, timeout=300
        )
    else:
        (root / "Pipfile").write_text("[packages]\n")
        venv(pipenv_env(root, env))  # type: ignore[arg-type]
    found = detect_environment(root, env)
    assert (found.kind, found.manager) == ("pipenv", "pipenv")
    assert found.prefix is not None and found.prefix.parent == tmp_path / "workon"
    assert found.prefix.name.startswith("p-")


def test_hatch(tmp_path: Path) -> None:
    text = (
        '[project]\nname = "demo-ha"\nversion = "0.1.0"\n\n[tool.hatch.envs.default]\nskip-install = true\n'
    )
    root = project(tmp_path / "p", text)
    env = clean_env(tmp_path, HATCH_DATA_DIR=str(tmp_path / "hdata"))
    if tool("hatch"):
        subprocess.run(
            ["hatch", "env", "create"], cwd=root, env=env, check=True, capture_output=True, timeout=300
        )
    else:
        venv(hatch_env(root, env))  # type: ignore[arg-type]
    found = detect_environment(root, env)
    assert (found.kind, found.manager) == ("hatch", "hatch")
    assert found.prefix is not None and found.prefix.parts[-4:-2] == ("virtual", "demo-ha")


def test_a_declared_manager_without_its_environment_says_how_to_create_it(tmp_path: Path) -> None:
    root = project(tmp_path / "p", '[tool.poetry]\nname = "x"\n')
    found = detect_environment(
        root, clean_env(tmp_path, POETRY_VIRTUALENVS_PATH=str(tmp_path / "none"), PATH="/nonexistent")
    )
    assert found.kind == "asi-agent" and found.missing == "`poetry install`"


async def test_pytest_style_tests_in_a_venv_without_pytest_say_how_to_install_it(tmp_path: Path) -> None:
    """The issue's new-user case: never "unittest: no tests found" for pytest-style tests."""
    root = project(tmp_path / "p")
    venv(root / ".venv")
    ctx = ToolContext(root=root, journal=Journal(root / ".asi"), session_id="t")
    with pytest.raises(ToolError) as caught:
        await run_tests(RunTestsArgs(), ctx)
    message = str(caught.value)
    assert "pytest-style" in message and "pytest is not installed in .venv" in message
    assert f"`{root / '.venv' / 'bin' / 'python'} -m pip install pytest`" in message
    assert "no tests found" not in message


async def test_run_tests_and_lint_use_the_projects_environment(tmp_path: Path) -> None:
    root = project(tmp_path / "p")
    venv(root / ".venv", with_our_packages=True)
    ctx = ToolContext(root=root, journal=Journal(root / ".asi"), session_id="t")
    report = await run_test_suite(ctx)
    assert report.command[:3] == [str(root / ".venv" / "bin" / "python"), "-m", "pytest"]
    assert (report.framework, report.passed, report.failed) == ("pytest", 1, 0)
    # The project's own ruff wins over the one on PATH or beside asi-agent.
    fake = root / ".venv" / "bin" / "ruff"
    fake.write_text("#!/bin/sh\necho 'project ruff ran' >&2\nexit 2\n")
    fake.chmod(0o755)
    out = await lint_check(LintCheckArgs(path="calc.py"), ctx)
    assert "ruff failed (exit code 2): project ruff ran" in out


def test_pytest_comes_from_path_python_when_the_project_has_no_environment(tmp_path: Path) -> None:
    root = project(tmp_path / "p")
    found = detect_environment(root, clean_env(tmp_path))
    command = pytest_command(found)
    assert command is not None
    assert command[0] in (found.python, shutil.which("pytest"), sys.executable)


@pytest.mark.parametrize("system_site", [False, True])
def test_what_a_venv_can_import_is_read_from_its_files_as_its_interpreter_sees_it(
    tmp_path: Path, system_site: bool
) -> None:
    """The probe never starts the project's interpreter; its answer from pyvenv.cfg, site-packages and
    .pth folders matches what that interpreter would say."""
    root = project(tmp_path / "p")
    flags = ["--system-site-packages"] if system_site else []
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", *flags, str(root / ".venv")], check=True)
    site_dir = next((root / ".venv").glob("lib/python*/site-packages"))
    (site_dir / "extra.pth").write_text(f"# a comment\nimport os\n{tmp_path / 'extra'}\n")
    (tmp_path / "extra" / "extra_mod").mkdir(parents=True)
    (tmp_path / "extra" / "extra_mod" / "__init__.py").write_text("")
    found = detect_environment(root, clean_env(tmp_path))
    assert found.kind == ".venv"
    for module in ("pip", "extra_mod", "surely_not_installed_here"):
        code = f"import importlib.util, sys; sys.exit(0 if importlib.util.find_spec({module!r}) else 1)"
        real = subprocess.run([found.python, "-c", code], cwd=tmp_path, check=False).returncode == 0
        assert found.has_module(module) is real, module
