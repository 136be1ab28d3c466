"""The sealed sets stay sealed: each of the gateway's later sets draws on no file the corpus or an earlier
set read, names the commit of every source, and is large enough to report (each is scored by its own
script, once)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest
from corpus import CASES as CORPUS
from corpus.case import Case

TESTS = Path(__file__).resolve().parent.parent


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SET2 = _load(TESTS / "gateway" / "sealed2" / "cases.py", "gateway_sealed2_cases")
SET3 = _load(TESTS / "gateway" / "sealed3" / "cases.py", "gateway_sealed3_cases")
SET4 = _load(TESTS / "gateway" / "sealed4" / "cases.py", "gateway_sealed4_cases")
BEFORE_SET2: tuple[Case, ...] = (
    *CORPUS,
    *_load(TESTS / "calls" / "sealed" / "cases.py", "calls_sealed_cases").CASES,
    *_load(TESTS / "gateway" / "sealed" / "cases.py", "gateway_sealed_cases").CASES,
)
BEFORE_SET3: tuple[Case, ...] = (*BEFORE_SET2, *SET2.CASES)
BEFORE_SET4: tuple[Case, ...] = (*BEFORE_SET3, *SET3.CASES, *SET3.SEEN_FAMILY_CASES)
SETS = {
    "second": (SET2, SET2.CASES, BEFORE_SET2),
    "third": (SET3, (*SET3.CASES, *SET3.SEEN_FAMILY_CASES), BEFORE_SET3),
    "fourth": (SET4, (*SET4.CASES, *SET4.SEEN_FAMILY_CASES), BEFORE_SET4),
}
FIRST_SET_FAMILIES = {"jamba", "internlm2", "phi4mini", "olmo3", "gigachat3", "hunyuan"}
"""The first gateway set's families (its cases name them by source file)."""
CORPUS_FAMILIES = {
    "granite",
    "nemotron",
    "mistral",
    "lfm2",
    "qwen",
    "hermes",
    "llama",
    "deepseek",
    "glm",
    "kimi",
}
"""Families the call corpus holds (its suites and the chat templates it renders), among them those the
fourth set reports apart."""


def _file(source: str) -> str:
    """`owner/repo path` without the commit."""
    return source.split(" @ ", maxsplit=1)[0].strip()


@pytest.mark.parametrize("name", SETS)
def test_every_entry_names_its_repository_file_and_commit(name: str):
    module, cases, _ = SETS[name]
    assert len(cases) >= 60
    for case in cases:
        assert re.fullmatch(r"[\w.-]+/[\w.-]+ \S+ @ [0-9a-f]{40}", case.source), case.source
        assert case.source in module.FAMILIES
    # Few families are left that nothing here used: the fourth set's headline holds two, the rest of its
    # replies come from families seen before and are reported apart.
    assert len({module.FAMILIES[case.source] for case in module.CASES}) >= (2 if name == "fourth" else 8)


@pytest.mark.parametrize("name", SETS)
def test_no_source_file_of_a_later_set_was_read_before(name: str):
    _, cases, before = SETS[name]
    earlier = {_file(case.source) for case in before}
    for source in {_file(case.source) for case in cases}:
        repo, path = source.split(" ", 1)
        for seen in earlier:
            seen_repo, _, seen_path = seen.partition(" ")
            assert not (repo == seen_repo and seen_path and path.startswith(seen_path)), (source, seen)


def test_the_third_sets_headline_holds_no_family_an_earlier_set_named():
    earlier = {*SET2.FAMILIES.values(), "laguna", "poolside"}
    headline = {SET3.FAMILIES[case.source] for case in SET3.CASES}
    assert not headline & earlier
    assert {SET3.FAMILIES[case.source] for case in SET3.SEEN_FAMILY_CASES} <= SET3.SEEN_FAMILIES


def _family(label: str) -> str:
    return label.removesuffix(" (seen family)").split(" ")[0]


def test_the_fourth_sets_headline_is_new_and_its_other_families_were_seen():
    earlier = {
        *FIRST_SET_FAMILIES,
        *map(_family, SET2.FAMILIES.values()),
        *map(_family, SET3.FAMILIES.values()),
    }
    headline = {_family(SET4.FAMILIES[case.source]) for case in SET4.CASES}
    assert not headline & (earlier | CORPUS_FAMILIES)
    seen = {SET4.FAMILIES[case.source] for case in SET4.SEEN_FAMILY_CASES}
    assert seen <= SET4.SEEN_FAMILIES
    assert {_family(label) for label in seen} <= earlier | CORPUS_FAMILIES


@pytest.mark.parametrize("name", SETS)
def test_the_set_holds_several_calls_text_around_calls_and_cut_off_replies(name: str):
    # The fourth set is counted whole (its headline is small); the earlier sets by their headline.
    cases: tuple[Case, ...] = SETS[name][1] if name == "fourth" else SETS[name][0].CASES
    assert sum(len(case.calls) > 1 for case in cases) >= 8
    assert sum(bool(case.calls) and bool(case.text) for case in cases) >= 5
    assert sum(case.problem and not case.calls for case in cases) >= 10
    assert sum(not case.call_like for case in cases) >= (5 if name == "fourth" else 8)
