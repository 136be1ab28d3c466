"""Backend for Claude through the Anthropic Messages API, with the official `anthropic` SDK (imported
when the backend is built, never by `asi-agent --help`).

Native tool calling: tools go as `{name, description, input_schema}`, calls come back as `tool_use`
blocks, results go back as `tool_result` blocks (`is_error` for a failed call) in a user turn.
`max_tokens` is always sent (the API requires it). Thinking blocks are never read for calls: their text
comes back as `<think>` reasoning, which the runtime shows apart and never acts on. Every failure is a
one-line `BackendError` (the key never appears in it); the SDK retries what can be retried.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from asi_agent.backends.base import NO_OPTIONS, BackendBase, DeltaCallback, RequestOptions, ToolSchema
from asi_agent.backends.guide import TurnPlan
from asi_agent.exceptions import BackendError, ContextOverflowError
from asi_agent.messages import Completion, Image, Message, RawCall, Usage

__all__ = ["AnthropicBackend", "AnthropicBackendConfig", "to_anthropic"]

_FINISH = {"end_turn": "stop", "stop_sequence": "stop", "tool_use": "tool_calls", "max_tokens": "length"}
_FINISH |= {"refusal": "content_filter", "model_context_window_exceeded": "context_full"}


class AnthropicBackendConfig(BaseModel):
    """Settings of `AnthropicBackend`."""

    model_config = ConfigDict(extra="forbid")

    model: str
    """Model name, e.g. `claude-sonnet-4-5`."""
    base_url: str | None = None
    """API address without `/v1` (None: Anthropic's; `ANTHROPIC_BASE_URL` is honoured by the SDK)."""
    api_key: str | None = None
    """API key; None reads `ANTHROPIC_API_KEY`."""
    max_tokens: int = Field(default=4096, gt=0)
    """Always sent: the Messages API requires it."""
    request_timeout: float = Field(default=600.0, gt=0)
    """Seconds a whole request may take."""
    max_retries: int = Field(default=3, ge=0)
    """Retries of failed requests (the SDK's, with its backoff)."""
    temperature: float | None = None
    """Sampling temperature; None leaves the API's default."""
    stream: bool = True
    """Stream replies (text reaches `on_delta` as it arrives)."""


def _tool(schema: ToolSchema) -> dict[str, Any]:
    function = schema.get("function", schema)
    return {
        "name": function["name"],
        "description": str(function.get("description") or ""),
        "input_schema": dict(function.get("parameters") or {"type": "object"}),
    }


def _source(image: Image) -> dict[str, str]:
    """An image block's source: its bytes, or the http(s) address the API fetches it from."""
    if image.url:
        return {"type": "url", "url": image.url}
    return {"type": "base64", "media_type": image.media_type, "data": image.data}


def _blocks(message: Message) -> list[dict[str, Any]]:
    images = [{"type": "image", "source": _source(image)} for image in message.images]
    if message.role == "tool":
        content: str | list[dict[str, Any]] = message.content
        if images:  # a result may hold images beside its text
            content = [{"type": "text", "text": message.content}, *images]
        block = {"type": "tool_result", "tool_use_id": message.tool_call_id or "", "content": content}
        return [block | ({} if message.ok else {"is_error": True})]
    blocks: list[dict[str, Any]] = (
        [{"type": "text", "text": message.content}] if message.content.strip() else []
    )
    blocks += images
    blocks += [
        {"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments} for c in message.tool_calls
    ]
    return blocks


def to_anthropic(messages: Sequence[Message]) -> tuple[str, list[dict[str, Any]]]:
    """The system text and the Messages API turns: tool results as user turns, same-role turns merged
    (the API wants user and assistant to alternate)."""
    system = "\n\n".join(m.content for m in messages if m.role == "system" and m.content)
    turns: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "system":
            continue
        role = "assistant" if message.role == "assistant" else "user"
        blocks = _blocks(message)
        if not blocks:
            continue
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"] += blocks
        else:
            turns.append({"role": role, "content": blocks})
    return system, turns


class AnthropicBackend(BackendBase):
    """Claude through the Messages API."""

    def __init__(self, config: AnthropicBackendConfig) -> None:
        import anthropic  # noqa: PLC0415 - the SDK loads only when this provider is chosen

        self.config = config
        self._sdk = anthropic
        key = config.api_key or os.environ.get("ANTHROPIC_API_KEY")
        if not key:
            raise BackendError("no Anthropic API key: set ANTHROPIC_API_KEY (or api_key / ASI_API_KEY)")
        self._client = anthropic.AsyncAnthropic(
            api_key=key,
            base_url=config.base_url,
            timeout=config.request_timeout,
            max_retries=config.max_retries,
        )

    @property
    def model_name(self) -> str:
        """The configured model."""
        return self.config.model

    async def supports_native_tools(self) -> bool:
        """Claude calls tools natively."""
        return True

    async def accepts_images(self) -> bool:
        """Claude reads images (image blocks, also inside a tool result)."""
        return True

    def _request(
        self, messages: Sequence[Message], tools: Sequence[ToolSchema] | None, options: RequestOptions
    ) -> dict[str, Any]:
        system, turns = to_anthropic(messages)
        max_tokens = options.limit(self.config.max_tokens)
        request: dict[str, Any] = {"model": self.config.model, "max_tokens": max_tokens}
        request["messages"] = turns
        if system:
            request["system"] = system
        if tools:
            request["tools"] = [_tool(t) for t in tools]
            if options.tool_choice is not None:
                request["tool_choice"] = anthropic_tool_choice(options.tool_choice)
        if self.config.temperature is not None:  # not a named parameter of every SDK version's stream()
            request["extra_body"] = {"temperature": self.config.temperature}
        return request

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSchema] | None = None,
        *,
        on_delta: DeltaCallback | None = None,
        plan: TurnPlan | None = None,
        options: RequestOptions = NO_OPTIONS,
    ) -> Completion:
        """One Messages request (streamed when configured); `plan` is not used (no constrained decoding);
        `options` may set this request's `max_tokens` and (with tools) its `tool_choice`."""
        request = self._request(messages, tools, options)
        try:
            if self.config.stream:
                async with self._client.messages.stream(**request) as stream:
                    async for text in stream.text_stream:
                        if on_delta is not None:
                            on_delta(text)
                    reply = await stream.get_final_message()
            else:
                reply = await self._client.messages.create(**request)
        except self._sdk.APIStatusError as exc:
            raise self._status_error(exc) from None
        except self._sdk.APIConnectionError as exc:
            where = self.config.base_url or "the Anthropic API"
            raise BackendError(f"cannot reach {where} ({type(exc).__name__}); check --base-url") from None
        return _completion(reply)

    def _status_error(self, exc: Any) -> BackendError:
        message = str(getattr(exc, "message", "") or exc)
        if exc.status_code == 401:
            return BackendError("the Anthropic API refused the key (401): check ANTHROPIC_API_KEY")
        if exc.status_code == 404:
            return BackendError(
                f"the Anthropic API does not know model {self.config.model!r} (404): check --model"
            )
        if exc.status_code == 400 and "prompt is too long" in message:
            return ContextOverflowError(f"the conversation no longer fits the model's context: {message}")
        return BackendError(f"the Anthropic API answered {exc.status_code}: {message}")

    async def aclose(self) -> None:
        """Close the HTTP client."""
        await self._client.close()


def anthropic_tool_choice(choice: str) -> dict[str, str]:
    """A tool choice in the Messages API form (`required` is `any` there)."""
    if choice in ("auto", "none"):
        return {"type": choice}
    if choice == "required":
        return {"type": "any"}
    return {"type": "tool", "name": choice}


def _completion(reply: Any) -> Completion:
    """The SDK's `Message` as a Completion: text blocks joined, thinking as `<think>` reasoning before
    them, `tool_use` blocks as native calls."""
    texts, thoughts, calls = [], [], []
    for block in reply.content:
        if block.type == "text":
            texts.append(block.text)
        elif block.type == "thinking":
            thoughts.append(block.thinking)
        elif block.type == "tool_use":
            calls.append(RawCall(block.id, block.name, dict(block.input or {})))
    text = "".join(texts)
    if thoughts:
        text = f"<think>{''.join(thoughts)}</think>{text}"
    usage = Usage(reply.usage.input_tokens, reply.usage.output_tokens)
    finish = _FINISH.get(str(reply.stop_reason), "stop")
    return Completion(text, tuple(calls), usage, finish)
