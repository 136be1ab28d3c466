"""A folder swapped for a link to the outside in a tight loop never carries a tool's read or write out.

A separate process (`link_swapper.py`) trades the project's `sub/` with a link to the test's own
`outside/` folder atomically, over and over, while hundreds of real tool calls run on files under
`sub/`: create_file, replace_text, read_file, delete_file (to the trash and permanently), reapply and
undo. Every call must either do its work inside the project or fail with an error the model can act
on; `outside/` must end exactly as it began (a decoy `f.txt` as the project has one, no new file), and
no read may return the decoy's content.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Awaitable, Iterator
from pathlib import Path

import pytest

from asi_agent.exceptions import ModelFixableError, UserError
from asi_agent.tools.args import CreateFileArgs, DeleteFileArgs, ReadFileArgs, ReapplyArgs, ReplaceTextArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.edit import replace_text
from asi_agent.tools.files.history import reapply
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.files.ops import create_file, delete_file, read_file

SWAPPER = Path(__file__).with_name("link_swapper.py")
DECOY = "OUTSIDE-DECOY: must never be read, changed or deleted\n"
ROUNDS = 60


@pytest.fixture(params=["openat2", "walk"])
def walk(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Which way paths are walked in this run of the test."""
    if request.param == "walk":
        monkeypatch.setenv("ASI_NO_OPENAT2", "1")
    else:
        monkeypatch.delenv("ASI_NO_OPENAT2", raising=False)
    return str(request.param)


class Race:
    """The project, the outside folder and the swapper between them."""

    def __init__(self, base: Path) -> None:
        self.root, self.outside = (base / "project").resolve(), base / "outside"
        (self.root / "sub").mkdir(parents=True)
        self.outside.mkdir()
        (self.outside / "f.txt").write_text(DECOY, encoding="utf-8")
        (self.root / "sub" / "f.txt").write_text("alpha\n", encoding="utf-8")
        self.before = self.snapshot()
        self.stop = base / "stop"
        self.ctx = ToolContext(root=self.root, journal=Journal(self.root / ".asi"), session_id="race")

    def snapshot(self) -> dict[str, str]:
        """What the outside folder holds, name by name."""
        return {p.name: p.read_text(encoding="utf-8") for p in sorted(self.outside.iterdir())}

    @property
    def state(self) -> Path:
        """The project's `.asi/` folder."""
        return self.root / ".asi"


@pytest.fixture
def race(tmp_path: Path) -> Iterator[Race]:
    race = Race(tmp_path)
    swapper = subprocess.Popen(
        [sys.executable, str(SWAPPER), str(race.root / "sub"), str(race.outside), str(race.stop)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert swapper.stdout is not None and swapper.stdout.readline() == "swapping\n"
    yield race
    race.stop.touch()
    out, _ = swapper.communicate(timeout=30)
    assert swapper.returncode == 0 and int(out.split()[1]) > 1000  # it really swapped, many times


async def _outcome(results: Counter[str], call: Awaitable[str]) -> str:
    """Await one call; an error the model can act on is counted, anything else fails the test."""
    try:
        out = await call
    except ModelFixableError as exc:
        results[type(exc).__name__] += 1
        return ""
    results["ok"] += 1
    return out


async def test_tool_calls_racing_a_link_swap_never_touch_the_outside(walk: str, race: Race) -> None:
    ctx, results = race.ctx, Counter[str]()
    for i in range(ROUNDS):
        new = CreateFileArgs(path=f"sub/new-{i}.txt", content=f"MARKER {i}\n")
        await _outcome(results, create_file(new, ctx))
        text = await _outcome(results, read_file(ReadFileArgs(path="sub/f.txt"), ctx))
        assert "OUTSIDE-DECOY" not in text
        for old, replacement in (("alpha", "beta"), ("beta", "alpha")):
            edit = ReplaceTextArgs(path="sub/f.txt", oldText=old, newText=replacement)
            await _outcome(results, replace_text(edit, ctx))
        gone = CreateFileArgs(path="sub/gone.txt", content="x\n", overwrite=True)
        await _outcome(results, create_file(gone, ctx))
        await _outcome(results, delete_file(DeleteFileArgs(path="sub/gone.txt", permanent=i % 2 == 0), ctx))
        await _outcome(results, reapply(ReapplyArgs(index=i % 3), ctx))
        try:
            ctx.journal.undo(race.root, 1)
            results["undo ok"] += 1
        except UserError:
            results["undo refused"] += 1
        assert race.snapshot() == race.before, f"round {i}: the outside folder changed ({results})"
    # The race was real: calls met the link (when checked, or swapped in after) and others did their work.
    assert results["ok"] >= 5 and results["PermissionDeniedError"] + results["LinkOnPathError"] > 0, results
    for trashed in race.state.glob("trash/**/*"):
        assert trashed.is_dir() or trashed.read_text(encoding="utf-8") != DECOY
