"""The chats' streamed text without its `AGENT_STATUS` line, however the reply is cut into deltas."""

from __future__ import annotations

import pytest

from asi_agent.statusline import StatusFilter

CASES = [
    ("Fixed add.\nAGENT_STATUS: DONE", "Fixed add."),
    ("Done. AGENT_STATUS: DONE", "Done."),
    ("a\n\n**AGENT_STATUS: CONTINUE**\n", "a"),
    ("line1\nline2\n\nagent_status: stop.", "line1\nline2"),
    ("AGENT_STATUS: DONE", ""),
    ("- item\n- AGENT_STATUS is a word here\nok", "- item\n- AGENT_STATUS is a word here\nok"),
    ("Agent status: fine", "Agent status: fine"),
    ("code:\n    indented  \n  x", "code:\n    indented  \n  x"),
    ("MY_AGENT_STATUS: DONE is a name", "MY_AGENT_STATUS: DONE is a name"),
]


def streamed(text: str, size: int) -> str:
    status = StatusFilter()
    shown = [status.feed(text[i : i + size]) for i in range(0, len(text), size)]
    return "".join(shown) + status.finish()


@pytest.mark.parametrize(("reply", "shown"), CASES)
@pytest.mark.parametrize("size", [1, 2, 3, 7, 1000])
def test_status_line_is_never_shown(reply: str, shown: str, size: int) -> None:
    assert streamed(reply, size) == shown


def test_text_goes_out_as_it_arrives() -> None:
    status = StatusFilter()
    assert status.feed("Hello wor") == "Hello wor"
    assert status.feed("ld and AGENT_") == "ld and"
    assert status.feed("STATUS: DONE") == ""
    assert status.finish() == ""
    assert status.feed("Next reply") == "Next reply", "finish() starts the next reply afresh"


def test_a_long_line_is_not_held_back() -> None:
    status = StatusFilter()
    out = "".join(status.feed("x " * 10) for _ in range(2000))
    assert len(out) >= 39_990
