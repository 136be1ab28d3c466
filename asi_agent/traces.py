"""OpenTelemetry spans, when the optional `otel` extra is installed and the standard `OTEL_*` variables
ask for traces; otherwise every span is a no-op that imports nothing.

`OTEL_TRACES_EXPORTER=otlp` (or `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` set)
exports over OTLP/HTTP; `OTEL_TRACES_EXPORTER=console` writes the spans to standard error.
`OTEL_SERVICE_NAME` names the service (default `asi-agent`).
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any, cast

__all__ = ["enabled", "span"]

_tracer: Any = None
_checked = False


def _exporter() -> Any:
    kind = os.environ.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    endpoint = os.environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") or os.environ.get(
        "OTEL_EXPORTER_OTLP_ENDPOINT"
    )
    if kind == "none" or (not kind and not endpoint):
        return None
    if kind == "console":
        from opentelemetry.sdk.trace.export import ConsoleSpanExporter  # noqa: PLC0415

        return ConsoleSpanExporter(out=sys.stderr)
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter  # noqa: PLC0415

    return OTLPSpanExporter()


def _setup() -> Any:
    """The tracer, or None when traces are not asked for or the extra is missing."""
    global _tracer, _checked  # noqa: PLW0603 - configured once per process, on first use
    if _checked:
        return _tracer
    _checked = True
    try:
        exporter = _exporter()
        if exporter is None:
            return None
        from opentelemetry import trace  # noqa: PLC0415
        from opentelemetry.sdk.resources import Resource  # noqa: PLC0415
        from opentelemetry.sdk.trace import TracerProvider  # noqa: PLC0415
        from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: PLC0415
    except ImportError:
        print("asi-agent: OTEL_* asks for traces but the otel extra is not installed", file=sys.stderr)
        return None
    name = os.environ.get("OTEL_SERVICE_NAME") or "asi-agent"
    provider = TracerProvider(resource=Resource.create({"service.name": name}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    _tracer = trace.get_tracer("asi_agent")
    return _tracer


def enabled() -> bool:
    """Whether spans are exported."""
    return _setup() is not None


_NO_SPAN = contextlib.nullcontext()


def span(name: str, **attributes: Any) -> contextlib.AbstractContextManager[Any]:
    """A span named `name` around the block (nothing when traces are off: a shared empty context, a
    fraction of the cost of a generator-based one on every gateway request)."""
    tracer = _setup()
    if tracer is None:
        return _NO_SPAN
    return cast(
        contextlib.AbstractContextManager[Any], tracer.start_as_current_span(name, attributes=attributes)
    )


class RunSpans:
    """Spans of one agent run built from its events: `agent.run` around it, `model.request` from the
    moment the model is asked (the run's start, the end of a turn's last tool call) to its reply, and
    `tool.call` from a call's start to its end. Does nothing when traces are off."""

    def __init__(self, task: str) -> None:
        """Open the run's span (and the first model request's)."""
        self._tracer = _setup()
        self._open: dict[str, Any] = {}
        self._run: Any = None
        self._model: Any = None
        if self._tracer is not None:
            self._run = self._tracer.start_span("agent.run", attributes={"task.chars": len(task)})
            self._model = self._child("model.request", {})

    def _child(self, name: str, attributes: dict[str, Any]) -> Any:
        from opentelemetry import trace  # noqa: PLC0415 - only when traces are on

        return self._tracer.start_span(
            name, context=trace.set_span_in_context(self._run), attributes=attributes
        )

    def event(self, event: object) -> None:
        """Advance the spans with one agent event."""
        if self._tracer is None:
            return
        kind = type(event).__name__
        if kind == "AssistantReplied" and self._model is not None:
            usage = getattr(event, "usage", None)
            if usage is not None:
                self._model.set_attribute("tokens.prompt", usage.prompt_tokens)
                self._model.set_attribute("tokens.completion", usage.completion_tokens)
            self._model.end()
            self._model = None
        elif kind == "ToolStarted":
            call = getattr(event, "call")  # noqa: B009 - events are typed by name here to stay import-free
            self._open[call.id] = self._child("tool.call", {"tool.name": call.name, "tool.call_id": call.id})
        elif kind == "ToolFinished":
            span = self._open.pop(getattr(event, "call").id, None)  # noqa: B009
            if span is not None:
                span.set_attribute("tool.result", str(getattr(event, "result", "")))
                span.end()
            if not self._open and self._model is None:
                self._model = self._child("model.request", {})

    def end(self, status: str) -> None:
        """Close every open span; the run's carries its final status."""
        if self._tracer is None:
            return
        for span in [*self._open.values(), *([self._model] if self._model is not None else [])]:
            span.end()
        self._open.clear()
        self._model = None
        self._run.set_attribute("run.status", status)
        self._run.end()
