"""`bash scripts/demo.sh` ends saying how to reach `asi-agent`, which it installs in a .venv not on PATH.

The script runs in a copy of the repository's layout whose `.venv` is already set up (its python is this
interpreter, its `asi-agent` this package), so the demo skips the installation and runs the real agent on
the embedded model.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from asi_cli import model_free_env

from asi_agent.backends.local import find_embedded_model

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(find_embedded_model() is None, reason="the embedded model is not installed")


def test_the_demo_says_how_to_reach_asi_agent(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "scripts").mkdir(parents=True)
    shutil.copy(REPO / "scripts" / "demo.sh", root / "scripts" / "demo.sh")
    shutil.copytree(REPO / "examples" / "hello", root / "examples" / "hello")
    bin_dir = root / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name, run in (("python", ""), ("asi-agent", " -m asi_agent")):
        (bin_dir / name).write_text(f'#!/bin/sh\nexec "{sys.executable}"{run} "$@"\n')
        (bin_dir / name).chmod(0o755)
    env = model_free_env()
    env["ASI_CONFIG_DIR"] = str(tmp_path / "user-config")
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if ".venv" not in p)
    proc = subprocess.run(
        ["bash", str(root / "scripts" / "demo.sh")],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert "== using the installed .venv" in proc.stderr
    venv = root.resolve() / ".venv"
    assert f"== asi-agent is in {venv}/bin, not on your PATH: run {venv}/bin/asi-agent" in proc.stderr
    assert f"source {venv}/bin/activate" in proc.stderr
    assert proc.stderr.rstrip().endswith("(then: asi-agent --help)")
