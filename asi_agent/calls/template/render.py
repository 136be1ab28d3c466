"""Rendering a model's chat template the way inference servers do: jinja2, sandboxed, with the helpers
Hugging Face's `apply_chat_template` gives templates (`raise_exception`, `strftime_now`, a `tojson` that
keeps non-ASCII text).

Templates come from model servers and model files, so they only ever run in an
`ImmutableSandboxedEnvironment`; a template that fails to render raises `TemplateError`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

__all__ = ["TemplateError", "render_turns"]

_MAX_TEMPLATE = 200_000


class TemplateError(ValueError):
    """The chat template cannot be used: it does not parse or fails to render the probe turns."""


def _raise(message: str) -> None:
    raise TemplateError(message)


def _tojson(value: Any, indent: int | None = None, ensure_ascii: bool = False, **kwargs: Any) -> str:
    """Hugging Face's `tojson`: JSON, non-ASCII kept, optionally indented; jinja's own escapes HTML."""
    separators = kwargs.get("separators")
    sort_keys = bool(kwargs.get("sort_keys", False))
    return json.dumps(
        value, indent=indent, ensure_ascii=ensure_ascii, separators=separators, sort_keys=sort_keys
    )


def _environment() -> Any:
    from jinja2 import Undefined  # noqa: PLC0415 - jinja2 loads only when a template is learned
    from jinja2.ext import loopcontrols  # noqa: PLC0415
    from jinja2.sandbox import ImmutableSandboxedEnvironment  # noqa: PLC0415

    class ServerHelper(Undefined):
        """A helper the serving program gives its own templates (Functionary's
        `generate_schema_from_functions`): called, it writes nothing."""

        def __call__(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
            return ""

        def __getattr__(self, name: str) -> Any:
            if name in ("unsafe_callable", "alters_data", "jinja_pass_arg"):  # asked before a call
                return False
            return super().__getattr__(name)

    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols], undefined=ServerHelper
    )
    env.filters["tojson"] = _tojson
    env.globals["raise_exception"] = _raise
    env.globals["strftime_now"] = lambda fmt: datetime.now().strftime(fmt)
    return env


def render_turns(
    template: str,
    messages: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]] = (),
    **extra: Any,
) -> str:
    """The template rendered for `messages` (and `tools`), no generation prompt; TemplateError on failure."""
    if len(template) > _MAX_TEMPLATE:
        raise TemplateError(f"the chat template is {len(template)} characters long (at most {_MAX_TEMPLATE})")
    from jinja2 import TemplateError as JinjaError  # noqa: PLC0415

    try:
        compiled = _environment().from_string(template)
        return str(
            compiled.render(
                messages=list(messages),
                tools=list(tools) or None,
                add_generation_prompt=False,
                bos_token="",
                eos_token="",
                **extra,
            )
        )
    except TemplateError:
        raise
    except (JinjaError, TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError) as exc:
        raise TemplateError(f"the chat template failed to render: {exc}") from exc
