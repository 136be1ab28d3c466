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
from collections.abc import Iterator
from typing import Any

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


@contextlib.contextmanager
def span(name: str, **attributes: Any) -> Iterator[None]:
    """A span named `name` around the block (nothing when traces are off)."""
    tracer = _setup()
    if tracer is None:
        yield
        return
    with tracer.start_as_current_span(name, attributes=attributes):
        yield
