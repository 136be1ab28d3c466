"""A one-entry memo: a value made again only when what it is made from changes (compared by equality).

Each turn of a run hands over the same tools again as new lists; comparing them costs far less than
encoding or reading them again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["LastValue"]

K = TypeVar("K")
V = TypeVar("V")


class LastValue(Generic[K, V]):
    """`make(key)`, remembered for the last key only."""

    def __init__(self, make: Callable[[K], V]) -> None:
        self._make = make
        self._last: tuple[K, V] | None = None

    def __call__(self, key: K) -> V:
        """The value of `key`: the remembered one when `key` equals the last key, else made now."""
        last = self._last
        if last is None or last[0] != key:
            last = self._last = (key, self._make(key))
        return last[1]
