"""The one-entry memo: remade when its key changes, reused while the key stays equal."""

from __future__ import annotations

from asi_agent.memo import LastValue


def test_an_equal_key_reuses_the_value_and_a_changed_key_remakes_it():
    made: list[list[str]] = []

    def make(tools: list[str]) -> str:
        made.append(tools)
        return ",".join(tools)

    memo = LastValue(make)

    assert memo(["a", "b"]) == "a,b"
    assert memo(["a", "b"]) == "a,b"  # a new list, equal to the last: not made again
    assert memo(["a"]) == "a"
    assert memo(["a", "b"]) == "a,b"  # only the last key is remembered
    assert made == [["a", "b"], ["a"], ["a", "b"]]
