"""The loop breaker: which sequences of calls and results it stops, and what the refused calls say."""

from __future__ import annotations

from asi_agent.bounds import LoopBreaker
from asi_agent.events import ToolFinished
from asi_agent.messages import ToolCall
from asi_agent.toolrun import Outcome
from asi_agent.toolrun import refused as refusal


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


def _finished(call: ToolCall, output: str, *, ok: bool = True) -> ToolFinished:
    return ToolFinished(call, ok, output)


def test_two_calls_taking_turns_with_the_same_results_are_a_loop():
    breaker = LoopBreaker()
    read = ToolCall("r", "read_file", {"path": "a.py"})
    write = ToolCall("w", "replace_text", {"path": "a.py", "oldText": "a", "newText": "b"})
    for _ in range(2):
        assert _screen(breaker, read)[0].ok
        breaker.observe(_finished(read, "a.py (1 lines)"))
        assert _screen(breaker, write)[0].ok
        breaker.observe(_finished(write, "ERROR: oldText was not found", ok=False))
    refused = _screen(breaker, read)
    assert not refused[0].ok
    assert breaker.reason == (
        "stopped a loop: the model went round the same 2 calls 3 times (read_file, replace_text), "
        "with the same results each round"
    )


def test_a_cycle_that_makes_progress_is_not_a_loop():
    breaker = LoopBreaker()
    read = ToolCall("r", "read_file", {"path": "a.py"})
    write = ToolCall("w", "replace_lines", {"path": "a.py", "startLine": 1, "endLine": 1, "newText": "x"})
    for n in range(4):
        breaker.observe(_finished(read, f"a.py, version {n}"))
        breaker.observe(_finished(write, f"Replaced, version {n + 1}"))
    assert _screen(breaker, read)[0].ok and breaker.reason is None


def test_a_call_the_policy_refused_twice_is_not_run_a_third_time():
    breaker = LoopBreaker()
    write = ToolCall("w", "create_file", {"path": "x.txt", "content": "hi"})
    for n in range(2):
        assert _screen(breaker, write)[0].ok
        breaker.observe(refusal(write, "nobody can answer").finished())
        breaker.observe(_finished(ToolCall(f"r{n}", "read_file", {"path": f"{n}.py"}), "text"))
    refused = _screen(breaker, write)
    assert not refused[0].ok and breaker.reason is not None
    assert "a call the policy had refused 2 times again (create_file" in breaker.reason
