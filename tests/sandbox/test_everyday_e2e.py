"""Everyday work still succeeds inside the sandbox, through the real `asi-agent run` (scripted model):
a project's own venv with an editable install made offline, pytest in it, git, make and npm test."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from asi_cli import model_free_env, tool_results

from asi_agent.sandbox import find_bwrap, unavailable

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif((why := unavailable(find_bwrap())) is not None, reason=f"no sandbox here: {why}"),
]

PYPROJECT = """[build-system]
requires = []
build-backend = "backend"
backend-path = ["."]

[project]
name = "mini"
version = "0.1"
"""
BACKEND = '''"""A PEP 517/660 build backend in the project itself: an editable install needs no index."""
import base64, hashlib, os, zipfile

NAME, VERSION = "mini", "0.1"
DIST = f"{NAME}-{VERSION}.dist-info"


def _record(files):
    rows = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        rows.append(f"{name},sha256={digest},{len(data)}")
    return ("\\n".join(rows + [f"{DIST}/RECORD,,"]) + "\\n").encode()


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    files = {
        f"{NAME}.pth": (os.path.abspath(".") + "\\n").encode(),
        f"{DIST}/METADATA": f"Metadata-Version: 2.1\\nName: {NAME}\\nVersion: {VERSION}\\n".encode(),
        f"{DIST}/WHEEL": b"Wheel-Version: 1.0\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
    }
    files[f"{DIST}/RECORD"] = _record(files)
    name = f"{NAME}-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w") as wheel:
        for member, data in files.items():
            wheel.writestr(member, data)
    return name


build_wheel = build_editable


def build_sdist(sdist_directory, config_settings=None):
    raise NotImplementedError
'''
MAKEFILE = "all:\n\techo made > made.txt\n"
PACKAGE = {"name": "mini", "version": "0.1.0", "scripts": {"test": "node test.js"}}


def _base_has(*modules: str) -> bool:
    base = getattr(sys, "_base_executable", sys.executable)
    code = "; ".join(f"import {m}" for m in modules)
    return subprocess.run([base, "-c", code], capture_output=True, check=False).returncode == 0


@pytest.mark.skipif(not _base_has("pytest"), reason="the base Python has no pytest for the project's venv")
@pytest.mark.skipif(not (shutil.which("make") and shutil.which("npm")), reason="make or npm is missing")
def test_venv_editable_install_pytest_git_make_and_npm_work_inside(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "mini").mkdir(parents=True)
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (root / "backend.py").write_text(BACKEND, encoding="utf-8")
    (root / "mini" / "__init__.py").write_text("def double(x):\n    return 2 * x\n", encoding="utf-8")
    test = "from mini import double\n\ndef test_double():\n    assert double(2) == 4\n"
    (root / "test_mini.py").write_text(test, encoding="utf-8")
    (root / "Makefile").write_text(MAKEFILE, encoding="utf-8")
    (root / "package.json").write_text(json.dumps(PACKAGE), encoding="utf-8")
    (root / "test.js").write_text("console.log('js ok')\n", encoding="utf-8")
    commands = [
        f"{sys.executable} -m venv --system-site-packages .venv",
        ".venv/bin/pip install --no-index --no-build-isolation --no-deps -q -e .",
        "cd / && $OLDPWD/.venv/bin/python -c 'import mini; print(mini.double(21))'",
        ".venv/bin/python -m pytest -q -p no:cacheprovider test_mini.py",
        "git init -q && git add -A && git -c user.name=A -c user.email=a@example.org commit -qm first",
        "echo '// a change' >> test.js && git status --short && git diff --stat",
        "make",
        "npm test",
    ]
    calls = [{"name": "run_terminal_cmd", "arguments": {"command": c}} for c in commands]
    replies = [{"text": "", "tool_calls": [call]} for call in calls] + ["All done.\nAGENT_STATUS: DONE"]
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"native": True, "replies": replies}), encoding="utf-8")
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(tmp_path / "config")
    done = subprocess.run(
        [sys.executable, "-m", "asi_agent", "run", "--provider", "scripted", "--model", str(script), "--yes",
         "--output-format", "json", "build and test"],
        cwd=root, env=env, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["sandbox"] == "bubblewrap", done.stderr
    outputs = tool_results(root, result["session_id"])
    assert len(outputs) == len(commands)
    for command, output in zip(commands, outputs, strict=True):
        assert output.rstrip().endswith("exit code: 0"), f"{command}\n{output}"
    assert "42" in outputs[2]  # installed: importable from anywhere
    assert "1 passed" in outputs[3]
    assert "M test.js" in outputs[5] and "1 file changed" in outputs[5]
    assert (root / "made.txt").read_text(encoding="utf-8") == "made\n"
    assert "js ok" in outputs[7]
