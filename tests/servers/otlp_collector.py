"""A real local OTLP/HTTP trace collector: it takes `POST /v1/traces` (protobuf, as the OpenTelemetry
SDK's exporter sends it) and keeps every span it was sent.

    with OtlpCollector() as collector:
        env = {"OTEL_EXPORTER_OTLP_ENDPOINT": collector.url}
        ...  # a process exports spans
        names = [span.name for span in collector.spans]
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

from opentelemetry.proto.collector.trace.v1 import trace_service_pb2

__all__ = ["OtlpCollector"]


class OtlpCollector:
    """Spans received over OTLP/HTTP (protobuf), in the order they came."""

    def __init__(self) -> None:
        self.spans: list[Any] = []
        self.services: list[str] = []
        self._lock = threading.Lock()
        collector = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                request = trace_service_pb2.ExportTraceServiceRequest()
                request.ParseFromString(body)
                collector.keep(request)
                reply = trace_service_pb2.ExportTraceServiceResponse().SerializeToString()
                self.send_response(200 if self.path == "/v1/traces" else 404)
                self.send_header("content-type", "application/x-protobuf")
                self.send_header("content-length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._http.serve_forever, args=(0.05,), daemon=True)

    def keep(self, request: Any) -> None:
        """Keep the spans of one export request (and the service name they came from)."""
        with self._lock:
            for resource_spans in request.resource_spans:
                for attribute in resource_spans.resource.attributes:
                    if attribute.key == "service.name":
                        self.services.append(attribute.value.string_value)
                for scope in resource_spans.scope_spans:
                    self.spans.extend(scope.spans)

    @property
    def url(self) -> str:
        """The endpoint to put in `OTEL_EXPORTER_OTLP_ENDPOINT`."""
        return f"http://127.0.0.1:{self._http.server_address[1]}"

    def named(self, name: str) -> list[Any]:
        """The spans received with this name."""
        with self._lock:
            return [span for span in self.spans if span.name == name]

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.shutdown()
        self._http.server_close()
