"""Value types of the command lines (`run`, `chat`, `acp`): argparse only, so `--help` stays instant."""

from __future__ import annotations

import argparse

__all__ = ["positive", "seconds"]


def positive(value: str) -> int:
    """A whole number of at least 1."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {number}")
    return number


def seconds(value: str) -> float:
    """A number of seconds above 0."""
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {value!r}") from None
    if not number > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, got {value}")
    return number
