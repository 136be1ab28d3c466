"""What an OpenAI-compatible server's failures mean, each said in one line with what to do next.

A lost or silent connection, and every HTTP error status: retryable ones become `TransientError`s; an
unknown model lists the models the server offers (by the `openai` SDK, loaded only then).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx2

from asi_agent.backends.chat_http import StatusError, not_an_api
from asi_agent.backends.probe import looks_like_context_overflow
from asi_agent.backends.retry import (
    RETRYABLE_STATUSES,
    TransientError,
    connection_failure,
    looks_like_tools_unsupported,
    parse_retry_after,
)
from asi_agent.exceptions import BackendError, ContextOverflowError, ToolsUnsupportedError
from asi_agent.prefetch import NO_KEY

if TYPE_CHECKING:
    from asi_agent.backends.openai import OpenAIBackendConfig

__all__ = ["connection_problem", "status_problem"]

_SET_URL = "set --base-url / ASI_BASE_URL"


def connection_problem(
    config: OpenAIBackendConfig, exc: httpx2.RequestError, *, mid_reply: bool
) -> BackendError:
    """A failed connection or a silent server, said with what to check."""
    url = config.base_url
    if isinstance(exc, httpx2.TimeoutException):
        waited = f"{config.idle_timeout:g} s (idle_timeout)"
        if mid_reply:
            return BackendError(f"the model server at {url} stopped sending its reply for {waited}")
        return BackendError(
            f"the model server at {url} did not answer within {waited}; "
            f"is it overloaded? raise the timeout or {_SET_URL}"
        )
    reason = connection_failure(exc)
    if mid_reply:
        return BackendError(f"the model server at {url} dropped the connection mid-reply ({reason})")
    return BackendError(f"cannot reach the model server at {url} ({reason}); is it running? {_SET_URL}")


async def status_problem(config: OpenAIBackendConfig, exc: StatusError, *, has_tools: bool) -> Exception:
    """An HTTP error status as what it means: retry later, a refused key, an unknown model, a prompt
    too long, tools not accepted, or a rejected request."""
    status, url, message = exc.status, config.base_url, exc.message
    if status in RETRYABLE_STATUSES:
        error = BackendError(f"the model server at {url} answered {status} ({message}); try again later")
        return TransientError(error, parse_retry_after(exc.headers))
    if status in (401, 403):
        return BackendError(
            f"the model server at {url} refused the API key ({status}: {message}); "
            "set ASI_API_KEY or OPENAI_API_KEY"
        )
    if (status == 404 or exc.code == "model_not_found") and not exc.html:
        return await _unknown_model(config, message)
    if status in (400, 413) and looks_like_context_overflow(message):
        return ContextOverflowError(f"the prompt does not fit the model's context window ({message})")
    if status == 400 and has_tools and looks_like_tools_unsupported(message):
        return ToolsUnsupportedError(
            f"the model server at {url} does not accept native tool definitions ({message}); "
            "use --tool-mode text"
        )
    rejected = f"the model server at {url} rejected the request ({status}: {message})"
    # a web page is not an API's error object: another server, or a base URL without its /v1
    page = not_an_api(url, f"it answered {status} with a web page")
    return BackendError(page if exc.html else rejected)


async def _unknown_model(config: OpenAIBackendConfig, message: str) -> BackendError:
    model, url = config.model, config.base_url
    names = await _model_names(config)
    if names:
        return BackendError(
            f"model '{model}' is not available at {url}; the server offers: {', '.join(names)}. "
            "Set --model / ASI_MODEL"
        )
    return BackendError(
        f"the model server at {url} answered 404 for model '{model}' ({message}); check --model / "
        f"ASI_MODEL and --base-url (OpenAI-compatible URLs usually end in /v1)"
    )


async def _model_names(config: OpenAIBackendConfig) -> list[str]:
    """The models the server lists, by the `openai` SDK (loaded only here); [] when it lists none."""
    import openai  # noqa: PLC0415 - half a second of imports, only after a 404

    timeout = min(10.0, config.idle_timeout)
    key = config.api_key or NO_KEY
    try:
        async with openai.AsyncOpenAI(
            api_key=key, base_url=config.base_url, max_retries=0, timeout=timeout
        ) as client:
            page = await client.models.list()
            return sorted(item.id for item in page.data)
    except openai.APIError:
        return []
