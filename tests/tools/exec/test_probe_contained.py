"""The environment probe never starts the project's interpreter outside the sandbox.

The project's `.venv` holds a `.pth` file that records, in a marker outside the project, the pid
namespace of every interpreter that starts with it. A real `asi-agent run` finds that environment and
runs the project's tests with it: the tests may run it (inside the sandbox, another pid namespace), but
the probe deciding whether pytest is installed must not (it would run in asi-agent's own namespace).
"""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
from pathlib import Path

import pytest
from asi_cli import model_free_env, tool_results

from asi_agent.sandbox import find_bwrap, unavailable

pytestmark = pytest.mark.skipif((why := unavailable(find_bwrap())) is not None, reason=f"no sandbox: {why}")


def test_a_pth_file_in_the_projects_venv_never_runs_outside_the_sandbox(tmp_path: Path) -> None:
    root, marker = tmp_path / "project", tmp_path / "markers" / "started"
    (root / "tests").mkdir(parents=True)
    marker.parent.mkdir()
    (root / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    (root / "tests" / "test_calc.py").write_text(
        "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"
    )
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")], check=True, timeout=120
    )
    packages = next((root / ".venv").glob("lib/python*/site-packages"))
    (packages / "asi_test_packages.pth").write_text(site.getsitepackages()[0] + "\n")  # pytest, from ours
    (packages / "zz_marker.pth").write_text(
        f"import os; open({str(marker)!r}, 'a').write(os.readlink('/proc/self/ns/pid') + '\\n')\n"
    )
    replies = [
        {"text": "", "tool_calls": [{"name": "run_tests", "arguments": {}}]},
        "Ran them.\nAGENT_STATUS: DONE",
    ]
    model = tmp_path / "script.json"
    model.write_text(json.dumps({"native": True, "replies": replies}))
    env = {**model_free_env(), "ASI_CONFIG_DIR": str(tmp_path / "config")}
    env.pop("VIRTUAL_ENV", None)
    argv = [
        "run",
        "--provider",
        "scripted",
        "--model",
        str(model),
        "--yes",
        "--output-format",
        "json",
        "test",
    ]
    done = subprocess.run(
        [str(Path(sys.executable).parent / "asi-agent"), *argv],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    session = json.loads(done.stdout.strip().splitlines()[-1])["session_id"]
    assert "1 passed" in tool_results(root, session)[0]
    ours = os.readlink("/proc/self/ns/pid")
    started = marker.read_text().splitlines() if marker.exists() else []
    assert ours not in started, "the project's interpreter was started outside the sandbox"
