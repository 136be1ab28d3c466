"""Through the real CLI: a sandboxed background command swapping a folder for a link to the outside, in a
tight loop, never makes the file tools write there.

`asi-agent run --yes` with the scripted model starts `link_swapper.py` with run_terminal_cmd in the
background (inside the sandbox, where the project is writable, so it can swap the project's `sub/` with
a link to the test's own `outside/` folder), then makes a hundred file calls on `sub/` — create_file of
new marker files, replace_text and delete_file of an existing one — and stops the swapper. The outside
folder must end as it began; the calls either worked inside the project or told the model why not.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from asi_cli import model_free_env, tool_results

from asi_agent.sandbox import find_bwrap, unavailable

pytestmark = pytest.mark.skipif(
    (why := unavailable(find_bwrap())) is not None, reason=f"no sandbox on this machine: {why}"
)

SWAPPER = Path(__file__).parents[1] / "tools" / "files" / "link_swapper.py"
DECOY = "OUTSIDE-DECOY\n"
TURNS = 15


def _call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"name": name, "arguments": arguments}


def _script(outside: Path) -> dict[str, Any]:
    """Start the swapper, make 100 file calls on sub/ in 10 replies, stop the swapper."""
    start = f"{sys.executable} link_swapper.py sub {outside} stop > swapper.out 2>&1"
    replies: list[Any] = [
        {"text": "", "tool_calls": [_call("run_terminal_cmd", command=start, is_background=True)]},
        {"text": "", "tool_calls": [_call("run_terminal_cmd", command="sleep 0.5")]},
    ]
    for turn in range(TURNS):
        calls = [_call("create_file", path=f"sub/m-{turn}-{i}.txt", content=f"MARK {i}\n") for i in range(7)]
        calls.append(_call("replace_lines", path="sub/f.txt", startLine=1, endLine=1, newText=f"v{turn + 1}"))
        calls.append(_call("create_file", path=f"sub/d-{turn}.txt", content="x\n"))
        calls.append(_call("delete_file", path=f"sub/d-{turn}.txt"))
        replies.append({"text": "", "tool_calls": calls})
    replies.append({"text": "", "tool_calls": [_call("create_file", path="stop", content="")]})
    show = _call("run_terminal_cmd", command="sleep 1; cat swapper.out")
    replies.append({"text": "", "tool_calls": [show]})
    replies.append("Done.\nAGENT_STATUS: DONE")
    return {"native": True, "replies": replies}


@pytest.mark.parametrize("walk", ["openat2", "walk"])
def test_file_calls_racing_a_sandboxed_link_swapper_never_write_outside(tmp_path: Path, walk: str) -> None:
    root, outside = tmp_path / "project", tmp_path / "outside"
    (root / "sub").mkdir(parents=True)
    outside.mkdir()
    (outside / "f.txt").write_text(DECOY, encoding="utf-8")
    (root / "sub" / "f.txt").write_text("v0\n", encoding="utf-8")
    shutil.copy(SWAPPER, root / "link_swapper.py")
    script = tmp_path / "script.json"
    script.write_text(json.dumps(_script(outside.resolve())), encoding="utf-8")
    env = model_free_env()
    env.update(ASI_CONFIG_DIR=str(tmp_path / "config"), HOME=str(tmp_path / "home"))
    if walk == "walk":
        env["ASI_NO_OPENAT2"] = "1"
    argv = ["run", "--provider", "scripted", "--model", str(script), "--yes", "--max-turns", "40"]
    done = subprocess.run(
        [sys.executable, "-m", "asi_agent", *argv, "--output-format", "json", "race"],
        cwd=root, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.stdout.strip(), done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["sandbox"] == "bubblewrap"
    assert sorted(p.name for p in outside.iterdir()) == ["f.txt"]
    assert (outside / "f.txt").read_text(encoding="utf-8") == DECOY
    outputs = tool_results(root, result["session_id"])
    assert "swapped" in outputs[-1] and "swapping" in outputs[-1], outputs[-1]  # the swapper ran, and ended
    assert all("OUTSIDE-DECOY" not in out for out in outputs)
    calls = result["tool_calls"][2:-2]
    refused = [c for c in calls if not c["ok"]]
    assert len(calls) == 10 * TURNS and refused, calls  # the race was met...
    # ...and every refusal says why: the link, a path that kept changing, or a file not created.
    reasons = ("symbolic link", "kept changing", "does not exist")
    assert all(any(reason in c["error"] for reason in reasons) for c in refused), refused
    written = sorted(p.name for p in (root / "sub").glob("m-*.txt"))
    assert written, "no create_file worked: the race test proves nothing"
    for name in written:
        assert (root / "sub" / name).read_text(encoding="utf-8").startswith("MARK ")
