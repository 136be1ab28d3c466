"""A corpus of model replies with the calls they make, taken from public parsers' test suites and chat
templates. Every case names its source (repository and file); `templates.py` writes real call sets the way
each model family's chat template renders them; `learned.py` has them rendered by real templates of families
no hand-written reader knows.
"""

from __future__ import annotations

from corpus.case import Case
from corpus.learned import CASES as LEARNED
from corpus.suites_a import CASES as SUITES_A
from corpus.suites_b import CASES as SUITES_B
from corpus.templates import CASES as TEMPLATES

CASES: tuple[Case, ...] = (*SUITES_A, *SUITES_B, *TEMPLATES, *LEARNED)

__all__ = ["CASES", "Case"]
