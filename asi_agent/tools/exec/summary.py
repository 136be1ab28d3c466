"""Long command output summarised by the model, as the qwen-code analysis describes for its shell tool.

`run_terminal_cmd` sends at most the head and the tail of an output (`read_capped`), and keeps the whole
log in `.asi/outputs/` when it had to leave lines out. Such an output is over the budget: with
`SUMMARY_KEY` set in the session's tool state (the configuration's `output_summary`; off by default for the
embedded model), one model call summarises what was kept, and the model gets that summary, the output's
last lines and the log's path instead of the whole head and tail. A failed model call leaves the output as
it was.
"""

from __future__ import annotations

from asi_agent.exceptions import BackendError
from asi_agent.tools.base import ToolContext

__all__ = ["SUMMARY_KEY", "TAIL_KEPT", "summarised"]

SUMMARY_KEY = "asi_agent.tools.exec.summary"
"""`ctx.state`: whether long command output is summarised by the model."""
TAIL_KEPT = 20
"""Lines of the output's end kept word for word beside the summary."""
_SYSTEM = "You summarise command output for a coding agent. Be exact and brief."


async def summarised(
    ctx: ToolContext, command: str, text: str, *, log: str, elided: int, exit_code: int
) -> str:
    """`text` (the capped output), or the model's summary of it when lines had to be left out."""
    if not elided or not ctx.state.get(SUMMARY_KEY) or ctx.model is None:
        return text
    prompt = (
        f"The command `{command}` exited with code {exit_code}. Its output was long; below are its first and "
        f"last lines ({elided:,} lines in between were left out). Summarise it for a coding agent in at most "
        "15 lines: what ran, what succeeded, and every error, failing test, warning and file:line location, "
        f"quoted exactly.\n\n```\n{text}\n```"
    )
    try:
        summary = (await ctx.model.ask(prompt, system=_SYSTEM)).strip()
    except BackendError:
        return text
    if not summary:
        return text
    tail = "\n".join(text.splitlines()[-TAIL_KEPT:])
    return (
        f"The output was too long to send whole: this is the model's summary of it. The full output is in "
        f"{log} (read it with read_file, or grep_search it).\n{summary}\n\n"
        f"The last lines of the output:\n{tail}"
    )
