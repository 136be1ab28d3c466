"""The corpus of real replies (tests/calls/corpus): every dialect read, nothing dropped in silence."""

from __future__ import annotations

from collections import Counter

import pytest
from corpus import CASES, Case
from corpus.case import judge

from asi_agent.calls import parse_reply


def run(case: Case) -> tuple[bool, bool]:
    reply = parse_reply(case.reply, case.schemas())
    calls = [(call.name, call.arguments) for call in reply.calls]
    return judge(case, calls, len(reply.problems), reply.text)


def test_corpus_is_large_and_every_case_names_its_source():
    assert len(CASES) >= 300
    assert all(" " in case.source and "/" in case.source for case in CASES)
    suites = [
        case
        for case in CASES
        if "models/templates/" not in case.source and "chat_template" not in case.source
    ]
    assert len(suites) >= 250, "most cases come from the parsers' own test suites"
    assert sum(case.problem for case in CASES) >= 40, "malformed replies the way real models fail"


def test_at_least_97_percent_parse_exactly_and_none_vanish():
    results = [run(case) for case in CASES]
    exact = sum(ok for ok, _ in results)
    silent = [case.reply[:80] for case, (_, dropped) in zip(CASES, results, strict=True) if dropped]
    assert exact / len(CASES) >= 0.97, f"{exact}/{len(CASES)} exact"
    assert silent == []


def test_every_family_of_the_corpus_is_mostly_read():
    misses: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    for case in CASES:
        totals[case.source] += 1
        misses[case.source] += not run(case)[0]
    assert all(misses[source] <= max(1, totals[source] // 8) for source in totals), misses


@pytest.mark.parametrize(
    "case", [case for case in CASES if case.problem], ids=lambda case: case.reply[:40].replace("\n", " ")
)
def test_every_malformed_reply_is_reported(case):
    reply = parse_reply(case.reply, case.schemas())
    assert reply.problems, case.reply
