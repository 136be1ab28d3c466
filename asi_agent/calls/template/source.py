"""Where a model's chat template comes from: a file the person named, else the backend (llama.cpp's
`/props`, Ollama's `/api/show`, a local GGUF's `tokenizer.chat_template`)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from asi_agent.calls.template.learn import learn_shape
from asi_agent.calls.template.shape import CallShape

if TYPE_CHECKING:
    from asi_agent.backends.base import Backend

__all__ = ["shape_for"]

log = logging.getLogger("asi_agent.calls.template")


async def shape_for(backend: Backend, configured: str | None) -> CallShape | None:
    """The call shape learned from the configured template text, else from the backend's template
    (`Backend.chat_template`); None when there is no template or its calls cannot be learned (the named
    dialects then read)."""
    template = configured
    if template is None:
        template = await backend.chat_template()
    if not template:
        return None
    shape = learn_shape(template)
    if shape is None:
        log.info("the chat template does not render tool calls in a form that could be learned")
    else:
        log.info("call dialect learned from the chat template: %s", shape)
    return shape
