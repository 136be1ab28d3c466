"""The held-out escape attempts of `escape_attempts.py`, each an end-to-end test through the real command.

Every attempt must be contained: no marker outside the sandbox, no key or data at the test's listener, no
secret in what a command printed. The set was written before the trust boundary and is not tuned to it.
"""

from __future__ import annotations

import pytest
from escape_attempts import ATTEMPTS, Attempt, attempt

from asi_agent.sandbox import find_bwrap, unavailable

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        (why := unavailable(find_bwrap())) is not None, reason=f"no sandbox on this machine: {why}"
    ),
]


@pytest.mark.parametrize("item", ATTEMPTS, ids=[a.name for a in ATTEMPTS])
def test_attempt_is_contained(item: Attempt) -> None:
    """The attempt gets nothing out (see its docstring in escape_attempts.py for what it tries)."""
    assert attempt(item) is None
