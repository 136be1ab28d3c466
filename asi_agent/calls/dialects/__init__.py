"""Every dialect models write tool calls in, each a small reader behind one `Dialect` interface.

`DIALECTS` lists them in the order their contracts are offered; `dialect_for_model` picks one from a model
name (for `call_format = "auto"`); `get_dialect` resolves a `--call-format` value.
"""

from __future__ import annotations

import functools

from asi_agent.calls.dialects.asi import ASI
from asi_agent.calls.dialects.base import Dialect, ReadContext, Span
from asi_agent.calls.dialects.command_r import COMMAND_R
from asi_agent.calls.dialects.deepseek import DEEPSEEK
from asi_agent.calls.dialects.function_tag import FUNCTION_TAG
from asi_agent.calls.dialects.functionary import FUNCTIONARY
from asi_agent.calls.dialects.functiongemma import FUNCTIONGEMMA
from asi_agent.calls.dialects.glm import GLM
from asi_agent.calls.dialects.harmony import HARMONY
from asi_agent.calls.dialects.hermes import HERMES
from asi_agent.calls.dialects.hunyuan import HUNYUAN
from asi_agent.calls.dialects.json_prose import JSON_PROSE
from asi_agent.calls.dialects.k2 import K2
from asi_agent.calls.dialects.kimi import KIMI
from asi_agent.calls.dialects.llama import LLAMA
from asi_agent.calls.dialects.mistral import MISTRAL
from asi_agent.calls.dialects.plamo import PLAMO
from asi_agent.calls.dialects.pythonic import PYTHONIC
from asi_agent.calls.dialects.qwen_xml import QWEN_XML
from asi_agent.calls.dialects.token_args import TOKEN_ARGS
from asi_agent.calls.dialects.tool_tag import TOOL_TAG
from asi_agent.calls.dialects.wrappers import WRAPPERS
from asi_agent.calls.dialects.xml_param import XML_PARAM

__all__ = [
    "CALL_FORMATS",
    "DIALECTS",
    "READERS",
    "Dialect",
    "ReadContext",
    "Span",
    "dialect_for_model",
    "get_dialect",
]

DIALECTS: tuple[Dialect, ...] = (
    ASI,
    HERMES,
    QWEN_XML,
    GLM,
    MISTRAL,
    LLAMA,
    PYTHONIC,
    FUNCTION_TAG,
    WRAPPERS,
    DEEPSEEK,
    KIMI,
    HARMONY,
    FUNCTIONGEMMA,
    FUNCTIONARY,
    COMMAND_R,
    JSON_PROSE,
)
"""Every dialect a contract can be written in; all of them read every reply, whatever the contract
asked for."""

READERS: tuple[Dialect, ...] = (*DIALECTS, TOKEN_ARGS, XML_PARAM, PLAMO, TOOL_TAG, HUNYUAN, K2)
"""Every reader: the dialects, then forms only read (Solar Open 2's argument tokens, MiniCPM 5's named
parameters, PLaMo 3's request tokens, Code World Model's `<tool: …>` blocks, Hunyuan HY v3's
`<tool_sep>` calls, K2's `<ifm|tool_call>` tokens), which no contract teaches: a model writes them on
its own."""

_BY_NAME = {dialect.name: dialect for dialect in DIALECTS}
CALL_FORMATS: tuple[str, ...] = ("auto", *_BY_NAME)
"""The values `call_format` and `--call-format` accept."""

# More specific names first: "qwen3-coder" before "qwen3", "llama-4" before "llama-3".
_DETECT_ORDER = (QWEN_XML, PYTHONIC, FUNCTIONGEMMA, FUNCTIONARY, FUNCTION_TAG, *DIALECTS)


def get_dialect(name: str) -> Dialect:
    """The dialect called `name` (one of `CALL_FORMATS` but "auto"); KeyError otherwise."""
    return _BY_NAME[name]


@functools.lru_cache(maxsize=64)
def dialect_for_model(model: str) -> Dialect:
    """The dialect a model was trained on, judged from its name; the ASI forms when it is unknown.
    Remembered per name: the gateway asks for every request of the same model."""
    lowered = model.lower().replace("_", "-")
    for dialect in _DETECT_ORDER:
        if any(fragment in lowered for fragment in dialect.models):
            return dialect
    return ASI
