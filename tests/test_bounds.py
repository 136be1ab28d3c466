"""The loop breaker: which sequences of calls and results it stops, and what the refused calls say."""

from __future__ import annotations

from asi_agent.bounds import LoopBreaker
from asi_agent.events import ToolFinished
from asi_agent.messages import ToolCall
from asi_agent.toolrun import Outcome


def _call(n: int, path: str = "a.py") -> ToolCall:
    return ToolCall(f"c{n}", "read_file", {"path": path})


def _screen(breaker: LoopBreaker, call: ToolCall) -> list[Outcome]:
    return [item for item in breaker.screen([Outcome(call, True, "")]) if isinstance(item, Outcome)]


def test_third_identical_call_after_two_identical_results_is_refused():
    breaker = LoopBreaker()
    for n in (1, 2):
        assert breaker.screen([Outcome(_call(n), True, "x")])[0].output == "x"
        breaker.observe(ToolFinished(_call(n), True, "same text"))
    refused = _screen(breaker, _call(3))
    assert not refused[0].ok and refused[0].output.startswith("not run: stopped a loop")
    assert breaker.reason and "3 times in a row" in breaker.reason


def test_different_results_or_another_call_in_between_reset_the_count():
    breaker = LoopBreaker()
    breaker.observe(ToolFinished(_call(1), True, "first"))
    breaker.observe(ToolFinished(_call(2), True, "changed"))
    assert _screen(breaker, _call(3))[0].ok
    breaker.observe(ToolFinished(_call(3), True, "changed"))
    breaker.observe(ToolFinished(_call(4, "b.py"), True, "changed"))
    assert _screen(breaker, _call(5))[0].ok and breaker.reason is None


def test_limit_is_configurable():
    breaker = LoopBreaker(limit=2)
    breaker.observe(ToolFinished(_call(1), False, "ERROR"))
    assert not _screen(breaker, _call(2))[0].ok
