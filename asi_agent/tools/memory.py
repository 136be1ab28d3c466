"""`save_memory`: a fact remembered for later sessions (an extension tool, not in the spec).

The fact goes under the "asi-agent memories" section (created with its heading when absent) of a file the
runtime already reads into the system prompt at every start (`asi_agent.prompts`):
- scope `project`: the project's `AGENTS.md`, its first instruction file — a normal journaled write, so
  `asi-agent undo` takes it back and the policy shows its diff;
- scope `global`: `USER_PROMPT.md` in the user's configuration folder (outside the project: it asks in
  every mode), written atomically and journaled in that folder's `history/`, as the global user prompt is.
"""

from __future__ import annotations

from pathlib import Path

from asi_agent.config import user_config_dir
from asi_agent.exceptions import ToolError
from asi_agent.tools.args import SaveMemoryArgs
from asi_agent.tools.base import ToolContext
from asi_agent.tools.files.journal import Journal
from asi_agent.tools.files.ops import ChangePlanned, commit_change
from asi_agent.tools.files.textio import read_if_present, write_atomic

__all__ = ["GLOBAL_FILE", "PROJECT_FILE", "SECTION", "save_memory", "with_memory"]

SECTION = "## asi-agent memories"
"""The heading the facts are listed under."""
PROJECT_FILE = "AGENTS.md"
"""The project memory file, at the project root."""
GLOBAL_FILE = "USER_PROMPT.md"
"""The global memory file, in the user's configuration folder."""
MAX_FACT_CHARS = 1000


async def save_memory(args: SaveMemoryArgs, ctx: ToolContext) -> str:
    """Append `args.fact` to the memory file of `args.scope`, under its section."""
    fact = " ".join(args.fact.split())
    if not fact:
        raise ToolError("fact is empty; give the fact to remember as one short sentence")
    if len(fact) > MAX_FACT_CHARS:
        raise ToolError(
            f"the fact has {len(fact)} characters; keep it under {MAX_FACT_CHARS}, one short sentence"
        )
    if args.scope == "project":
        path = ctx.root.resolve() / PROJECT_FILE
        where = PROJECT_FILE
    else:
        path = user_config_dir() / GLOBAL_FILE
        where = f"the global {GLOBAL_FILE}"
    before = read_if_present(path)
    after = with_memory(before, fact)
    if after is None:
        return f"already remembered in {where}: {fact}"
    if args.scope == "project":
        commit_change(ctx, path, before, after, tool="save_memory")
    else:
        _write_global(ctx, path, before, after)
    return f'remembered in {where}, under "{SECTION[3:]}": {fact} (read at the start of every later session)'


def with_memory(before: bytes | None, fact: str) -> bytes | None:
    """The file with `- fact` added at the end of the memories section (made when absent); None when the
    section already lists that fact."""
    text = (before or b"").decode("utf-8", "replace")
    lines = text.splitlines()
    entry = f"- {fact}"
    if SECTION not in (line.rstrip() for line in lines):
        head = text.rstrip()
        return (f"{head}\n\n" if head else "").encode() + f"{SECTION}\n\n{entry}\n".encode()
    start = next(i for i, line in enumerate(lines) if line.rstrip() == SECTION)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("#")), len(lines))
    if entry in (line.rstrip() for line in lines[start + 1 : end]):
        return None
    last = max((i for i in range(start, end) if lines[i].strip()), default=start)
    inserted = [*lines[: last + 1], *([""] if last == start else []), entry, *lines[last + 1 :]]
    return ("\n".join(inserted) + "\n").encode("utf-8")


def _write_global(ctx: ToolContext, path: Path, before: bytes | None, after: bytes) -> None:
    """Write the global file atomically and journal it in the user folder's `history/` (the project's
    journal holds only project files)."""
    if ctx.dry_run:
        raise ChangePlanned(str(path), before, after)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, after)
    except OSError as exc:
        raise ToolError(f"cannot write the global {GLOBAL_FILE}: {exc.strerror or exc}") from exc
    Journal(path.parent / "history").record(
        GLOBAL_FILE, before, after, tool="save_memory", session_id=ctx.session_id
    )

