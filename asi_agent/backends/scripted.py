"""A backend that plays back scripted replies, for tests and demos; it records what it was sent.

Script file (`ScriptedBackend.from_file`)::

    {"native": true,
     "replies": ["I will read the file.",
                 {"text": "", "tool_calls": [{"name": "read_file", "arguments": {"path": "a.py"}}]},
                 "All done.\\nAGENT_STATUS: DONE"]}

With `"native": false` the backend reports no native tool support, so the agent uses text mode and
the replies carry their calls as text (`[TOOL_CALL]read_file[ARGS]{"path": "a.py"}`). With
`"planner": true` it asks for the runtime's planner (grounding), as the local models do; the plan of
each request is kept in `plans`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError, field_validator

from asi_agent.backends.base import NO_OPTIONS, BackendBase, DeltaCallback, RequestOptions, ToolSchema
from asi_agent.backends.guide import TurnPlan
from asi_agent.exceptions import BackendError, ConfigError
from asi_agent.messages import Completion, Message, RawCall, Usage

__all__ = ["ScriptedBackend", "ScriptedBackendConfig", "ScriptedCall", "ScriptedReply"]

_CHUNKS = 3


class ScriptedCall(BaseModel):
    """A native tool call in a scripted reply."""

    model_config = ConfigDict(extra="forbid")

    name: str
    """Tool name."""
    arguments: dict[str, Any] | str = Field(default_factory=dict)
    """Arguments, as a mapping or as a JSON string (passed on exactly as written)."""
    id: str | None = None
    """Call id; None gives the call no id, as Ollama does."""


class ScriptedReply(BaseModel):
    """One reply of the script: text and/or native tool calls."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    text: str = ""
    """The reply's text, streamed to `on_delta`."""
    calls: list[ScriptedCall] = Field(
        default_factory=list, validation_alias=AliasChoices("calls", "tool_calls")
    )
    """Native tool calls (`tool_calls` in script files)."""


class _ScriptFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    native: bool = True
    planner: bool = False
    replies: list[ScriptedReply]

    @field_validator("replies", mode="before")
    @classmethod
    def _text_replies(cls, value: Any) -> Any:
        # A bare string is a text reply; converting first keeps error locations free of union noise.
        if isinstance(value, list):
            return [{"text": item} if isinstance(item, str) else item for item in value]
        return value


class ScriptedBackendConfig(BaseModel):
    """Settings of a scripted backend loaded from a file."""

    model_config = ConfigDict(extra="forbid")

    script: Path
    """JSON script: `{"native": bool, "replies": [str | {"text", "tool_calls"}]}`."""
    native: bool | None = None
    """Override the script's `native` flag; None keeps the script's."""


class ScriptedBackend(BackendBase):
    """Answers each request with the next scripted reply; `requests` keeps what every request carried."""

    def __init__(
        self,
        replies: Sequence[ScriptedReply | str],
        *,
        native: bool = True,
        model_name: str = "scripted",
        planner: bool = False,
        images: bool = False,
    ) -> None:
        """`images`: the model reads images (so `read_file` of one sends it, as to a vision model)."""
        self._images = images
        self._replies = [ScriptedReply(text=r) if isinstance(r, str) else r for r in replies]
        self._native = native
        self._planner = planner
        self.plans: list[TurnPlan | None] = []
        self.options: list[RequestOptions] = []
        self._model_name = model_name
        self._used = 0
        self.requests: list[tuple[list[Message], list[ToolSchema] | None]] = []

    @classmethod
    def from_file(cls, path: Path | str, *, native: bool | None = None) -> ScriptedBackend:
        """Load a JSON script; `native` overrides the file's flag."""
        path = Path(path)
        try:
            script = _ScriptFile.model_validate_json(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"cannot read the script {path}: {exc.strerror}") from exc
        except ValidationError as exc:
            problem = exc.errors()[0]
            where = ".".join(str(part) for part in problem["loc"]) or "(top level)"
            raise ConfigError(f"bad script {path}: {where}: {problem['msg']}") from exc
        native = script.native if native is None else native
        return cls(script.replies, native=native, model_name=path.stem, planner=script.planner)

    @classmethod
    def from_config(cls, config: ScriptedBackendConfig) -> ScriptedBackend:
        """Build from a `ScriptedBackendConfig`."""
        return cls.from_file(config.script, native=config.native)

    @property
    def model_name(self) -> str:
        """The name "scripted", or the script file's stem."""
        return self._model_name

    @property
    def remaining(self) -> int:
        """Replies not played yet."""
        return len(self._replies) - self._used

    @property
    def wants_planner(self) -> bool:
        """The `planner` flag of the script."""
        return self._planner

    async def supports_native_tools(self) -> bool:
        """The `native` flag of the script."""
        return self._native

    async def accepts_images(self) -> bool:
        """The `images` flag (off by default: images are then described to the model in words)."""
        return self._images

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSchema] | None = None,
        *,
        on_delta: DeltaCallback | None = None,
        plan: TurnPlan | None = None,
        options: RequestOptions = NO_OPTIONS,
    ) -> Completion:
        """Record the request (its options in `options`) and play the next reply."""
        self.requests.append((list(messages), [dict(t) for t in tools] if tools is not None else None))
        self.plans.append(plan)
        self.options.append(options)
        if self._used >= len(self._replies):
            raise BackendError(f"scripted backend has no reply left ({self._used} used)")
        reply = self._replies[self._used]
        self._used += 1
        if on_delta is not None:
            for chunk in _chunks(reply.text):
                on_delta(chunk)
        calls = tuple(RawCall(id=call.id, name=call.name, arguments=call.arguments) for call in reply.calls)
        prompt = sum(len(m.content) for m in messages) + len(json.dumps(list(tools or [])))
        usage = Usage(prompt // 4, len(reply.text) // 4)
        return Completion(reply.text, calls, usage, "tool_calls" if calls else "stop")

    async def aclose(self) -> None:
        """Nothing to release."""


def _chunks(text: str) -> list[str]:
    size = max(1, -(-len(text) // _CHUNKS))
    return [text[i : i + size] for i in range(0, len(text), size)]
