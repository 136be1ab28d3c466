"""The index's parse workers import nothing from the project: a repository's `pickle.py`, `json.py` or
`struct.py` (modules a worker imports) never runs, even from a plan-mode `codebase_search` of the real
CLI, where the index is large enough to be built by worker processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from asi_cli import model_free_env, tool_results

SHADOWS = ("pickle", "json", "struct", "codecs", "hashlib", "collections")


def test_a_repository_module_named_like_the_standard_library_never_runs(tmp_path: Path) -> None:
    root, marker = tmp_path / "project", tmp_path / "markers" / "imported"
    (root / "pkg").mkdir(parents=True)
    marker.parent.mkdir()
    for n in range(200):  # enough files for the worker pool
        (root / "pkg" / f"mod{n}.py").write_text(f"def handler_{n}(value):\n    return value + {n}\n")
    for name in SHADOWS:
        (root / f"{name}.py").write_text(f"open({str(marker)!r}, 'a').write({name!r})\n")
    (root / "encodings").mkdir()
    (root / "encodings" / "__init__.py").write_text(f"open({str(marker)!r}, 'a').write('encodings')\n")
    replies = [
        {"text": "", "tool_calls": [{"name": "codebase_search", "arguments": {"query": "handler value"}}]},
        "Searched.\nAGENT_STATUS: DONE",
    ]
    model = tmp_path / "script.json"
    model.write_text(json.dumps({"native": True, "replies": replies}))
    env = {**model_free_env(), "ASI_CONFIG_DIR": str(tmp_path / "config")}
    argv = ["run", "--provider", "scripted", "--model", str(model), "--approval", "plan"]
    # The installed command, started in the project as a person would (`python -m` would put the
    # project on asi-agent's own sys.path).
    command = Path(sys.executable).parent / "asi-agent"
    done = subprocess.run(
        [str(command), *argv, "--output-format", "json", "find the handlers"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert not marker.exists(), f"the project's {marker.read_text()} ran in a parse worker"
    session = json.loads(done.stdout.strip().splitlines()[-1])["session_id"]
    assert "handler_" in tool_results(root, session)[0]
