"""A real OTLP/HTTP receiver on 127.0.0.1, for the tests of parity's telemetry and for a look at
what a run sends: it accepts what the SDK's exporter POSTs to /v1/traces and /v1/metrics
(protobuf, gzip- or deflate-compressed or not), decodes it with OpenTelemetry's own protobuf
classes, and answers as a collector does.

    python tests/otlp_receiver.py COMMAND...

runs COMMAND with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a receiver of its own, then prints the
spans and metrics that arrived, as JSON.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.trace.v1.trace_pb2 import Status

# Each path the exporter posts to: the request it carries and the answer a collector gives.
SERVICES = {
    "/v1/traces": (ExportTraceServiceRequest, ExportTraceServiceResponse),
    "/v1/metrics": (ExportMetricsServiceRequest, ExportMetricsServiceResponse),
}
DECOMPRESS = {"gzip": gzip.decompress, "deflate": zlib.decompress, "": bytes}


class OtlpReceiver:
    """Listens on a free port of 127.0.0.1 while the block runs, keeping every request decoded."""

    def __init__(self) -> None:
        self.requests: dict[str, list[Any]] = {path: [] for path in SERVICES}
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def endpoint(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> OtlpReceiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                service = SERVICES.get(self.path)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if service is None:
                    self.send_error(404)
                    return
                request_type, response_type = service
                encoding = self.headers.get("Content-Encoding", "").strip().lower()
                request = request_type.FromString(DECOMPRESS[encoding](body))
                with receiver._lock:
                    receiver.requests[self.path].append(request)
                answer = response_type().SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args: object) -> None:  # quiet: the tests read the requests
                pass

        return Handler

    def spans(self) -> list[dict[str, Any]]:
        """Every span received, with its resource's attributes."""
        found = []
        for request in self.requests["/v1/traces"]:
            for resource_spans in request.resource_spans:
                resource = attributes(resource_spans.resource.attributes)
                for scope_spans in resource_spans.scope_spans:
                    for span in scope_spans.spans:
                        found.append(
                            {
                                "name": span.name,
                                "scope": scope_spans.scope.name,
                                "trace_id": span.trace_id.hex(),
                                "span_id": span.span_id.hex(),
                                "parent_span_id": span.parent_span_id.hex(),
                                "start": span.start_time_unix_nano,
                                "end": span.end_time_unix_nano,
                                "status": Status.StatusCode.Name(span.status.code),
                                "status_message": span.status.message,
                                "attributes": attributes(span.attributes),
                                "resource": resource,
                            }
                        )
        return found

    def metric_points(self) -> list[dict[str, Any]]:
        """Each data point of each metric, the last received of each (a cumulative point holds
        all that came before it): its value (a histogram's count and sum) and attributes."""
        last: dict[tuple, dict[str, Any]] = {}
        for request in self.requests["/v1/metrics"]:
            for resource_metrics in request.resource_metrics:
                resource = attributes(resource_metrics.resource.attributes)
                for scope_metrics in resource_metrics.scope_metrics:
                    for metric in scope_metrics.metrics:
                        kind = metric.WhichOneof("data")
                        for point in getattr(metric, kind).data_points:
                            found = {
                                "name": metric.name,
                                "unit": metric.unit,
                                "kind": kind,
                                "attributes": attributes(point.attributes),
                                "resource": resource,
                                **point_value(kind, point),
                            }
                            key = (metric.name, tuple(sorted(found["attributes"].items())))
                            last[key] = found
        return list(last.values())


def attributes(pairs) -> dict[str, Any]:
    return {pair.key: any_value(pair.value) for pair in pairs}


def any_value(value) -> Any:
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return [any_value(v) for v in value.array_value.values]
    if kind == "kvlist_value":
        return attributes(value.kvlist_value.values)
    return getattr(value, kind) if kind else None


def point_value(kind: str, point) -> dict[str, Any]:
    if kind == "histogram":
        return {"count": point.count, "sum": point.sum}
    return {"value": getattr(point, point.WhichOneof("value"))}


def main(command: list[str]) -> int:
    with OtlpReceiver() as receiver:
        environment = {
            **os.environ,
            "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint,
            "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
        }
        code = subprocess.run(command, env=environment, check=False).returncode
    received = {"spans": receiver.spans(), "metrics": receiver.metric_points()}
    print(json.dumps(received, indent=2, sort_keys=True))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
