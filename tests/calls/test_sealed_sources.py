"""The sealed sets stay sealed: the gateway's second set draws on no file the corpus or an earlier set read,
names the commit of every source, and is large enough to report (it is scored by its own script, once)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

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
EARLIER: tuple[Case, ...] = (
    *CORPUS,
    *_load(TESTS / "calls" / "sealed" / "cases.py", "calls_sealed_cases").CASES,
    *_load(TESTS / "gateway" / "sealed" / "cases.py", "gateway_sealed_cases").CASES,
)


def _file(source: str) -> str:
    """`owner/repo path` without the commit."""
    return source.split(" @ ", maxsplit=1)[0].strip()


def test_every_entry_names_its_repository_file_and_commit():
    cases: tuple[Case, ...] = SET2.CASES
    assert len(cases) >= 60
    for case in cases:
        assert re.fullmatch(r"[\w.-]+/[\w.-]+ \S+ @ [0-9a-f]{40}", case.source), case.source
        assert case.source in SET2.FAMILIES
    assert len(set(SET2.FAMILIES.values())) >= 8


def test_no_source_file_of_the_second_set_was_read_before():
    earlier = {_file(case.source) for case in EARLIER}
    for source in {_file(case.source) for case in SET2.CASES}:
        repo, path = source.split(" ", 1)
        for seen in earlier:
            seen_repo, _, seen_path = seen.partition(" ")
            assert not (repo == seen_repo and seen_path and path.startswith(seen_path)), (source, seen)


def test_the_set_holds_several_calls_text_around_calls_and_cut_off_replies():
    cases: tuple[Case, ...] = SET2.CASES
    assert sum(len(case.calls) > 1 for case in cases) >= 8
    assert sum(bool(case.calls) and bool(case.text) for case in cases) >= 5
    assert sum(case.problem and not case.calls for case in cases) >= 10
    assert sum(not case.call_like for case in cases) >= 8
