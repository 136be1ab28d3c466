"""The skill router's lexical signals: BM25 over the skills' routing texts, and the share of a query's words
that no skill's text holds.

BM25 ranks alone when no embedder is installed and adds a small share to the embedding ranking otherwise
(names and rare words an embedding blurs). The second figure serves the decision: a request that names a
tool, product or technology no skill mentions anywhere is rarely one a skill serves, however close its
embedding lies to a skill about neighbouring things (an embedding knows that two build servers both do
continuous integration; it cannot tell that no skill covers the one named). The share is
weighted by inverse document frequency, so unknown names count more than unknown common words, and read
over the words in Latin script only: the skills are mostly written in English, so a Chinese request's
Chinese words are unknown to them whether a skill fits or not, while the names it carries are not.
The same share read against the leading candidates' own texts only (`Bm25.foreign`) is what the decision
weighs (`asi_agent.skills.decision`): a service beside a skill's field ("a Jenkins pipeline" by a skill
about GitHub Actions) is often named in some other skill's text, never in the candidate's.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from asi_agent.routing import tokenize

__all__ = ["Bm25"]

_K1, _B = 1.2, 0.75
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


class Bm25:
    """BM25 over the skills' routing texts, and the share of a query's words none of them holds."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.docs = [Counter(tokenize(text)) for text in texts]
        self.average = sum(sum(d.values()) for d in self.docs) / max(len(self.docs), 1) or 1.0
        self.frequency = Counter(term for d in self.docs for term in d)

    def _idf(self, term: str) -> float:
        df = self.frequency.get(term, 0)
        return math.log(1 + (len(self.docs) - df + 0.5) / (df + 0.5))

    def scores(self, query: str) -> list[float]:
        """One BM25 score per text, in order."""
        terms = Counter(tokenize(query))
        weights = {term: weight * self._idf(term) for term, weight in terms.items() if term in self.frequency}
        out = []
        for counts in self.docs:
            length, score = sum(counts.values()), 0.0
            norm = _K1 * (1 - _B + _B * length / self.average)
            for term, weight in weights.items():
                tf = counts.get(term, 0)
                if tf:
                    score += weight * tf * (_K1 + 1) / (tf + norm)
            out.append(score)
        return out

    def unknown(self, query: str) -> float:
        """The share (by inverse document frequency) of the query's Latin-script words that no text
        holds; 0 when it has none."""
        terms = [term for term in tokenize(query) if not _CJK.search(term)]
        total = sum(self._idf(term) for term in terms)
        if not total:
            return 0.0
        return sum(self._idf(term) for term in terms if term not in self.frequency) / total

    def foreign(self, query: str, docs: Sequence[int]) -> float:
        """The least, over the texts numbered `docs`, of the share (by inverse document frequency) of the
        query's Latin-script words that text does not hold; 0 when it has none or no text is given."""
        terms = [term for term in tokenize(query) if not _CJK.search(term)]
        total = sum(self._idf(term) for term in terms)
        if not total or not docs:
            return 0.0
        return min(sum(self._idf(t) for t in terms if t not in self.docs[d]) for d in docs) / total
