"""The stream guard cuts replies that loop or run away, and leaves real work alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from asi_agent.backends.guard import StreamGuard, cut_reason
from asi_agent.messages import Usage

PACKAGE = Path(__file__).resolve().parents[2] / "asi_agent"


def stream(text: str, guard: StreamGuard, size: int = 7) -> tuple[str | None, int]:
    """Feed `text` in fragments; (the cut reason, characters fed before it)."""
    for start in range(0, len(text), size):
        reason = guard.feed(text[start : start + size])
        if reason:
            return reason, start + size
    return None, len(text)


@pytest.mark.parametrize("module", ["agent.py", "backends/openai.py", "plugins/manifest.py", "config.py"])
def test_real_source_files_are_not_taken_for_loops(module: str):
    text = (PACKAGE / module).read_text(encoding="utf-8")

    assert stream(text, StreamGuard(max_tokens=None)) == (None, len(text))


def test_a_repeated_line_is_cut_soon_after_it_starts_looping():
    intro = "Let me look at the file first.\n"
    reason, fed = stream(intro + "I will read the file now.\n" * 500, StreamGuard(max_tokens=None))

    assert reason == "repetition"
    assert fed < len(intro) + 1200 + 26 * 12  # the repeated span plus at most one check interval


def test_a_long_unit_repeated_is_cut_too():
    unit = "".join(f"row {n}: value\n" for n in range(15))  # ~200 characters repeated
    assert stream(unit * 20, StreamGuard(max_tokens=None))[0] == "repetition"


def test_varied_text_past_twice_the_limit_is_cut_as_length():
    text = "".join(f"Step {n}: still going.\n" for n in range(1000))
    reason, fed = stream(text, StreamGuard(max_tokens=100))

    assert reason == "length"
    assert 100 * 2 * 4 < fed < 100 * 2 * 4 + 64 * 4 + 300


@pytest.mark.parametrize(
    ("reason", "usage", "max_tokens", "n_ctx", "expected"),
    [
        ("stop", Usage(10, 10), 100, None, "stop"),
        ("length", Usage(10, 100), 100, None, "length"),
        ("length", Usage(10, 20), 1000, None, "context_full"),  # stopped far below the limit
        ("length", Usage(3900, 100), 100, 4096, "context_full"),  # no room left to continue
        ("length", Usage(1000, 100), 100, 4096, "length"),
        ("length", Usage(0, 0), 100, 4096, "length"),  # no usage: assume the token limit
        ("content_filter", Usage(10, 5), 100, None, "content_filter"),
        (None, Usage(), None, None, None),
        ("model_length", Usage(10, 5), 100, None, "context_full"),
        ("max_tokens", Usage(10, 100), 100, None, "length"),
    ],
)
def test_cut_reason(reason, usage, max_tokens, n_ctx, expected):
    assert cut_reason(reason, usage, max_tokens=max_tokens, n_ctx=n_ctx) == expected
