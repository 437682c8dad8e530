"""The OpenTelemetry SDK at work for one run: providers of its own, never the process's global
ones (dbt runs in the same process and may set those itself), each sending through the SDK's
OTLP/HTTP exporter, which reads the standard OTEL_ variables (endpoint, headers, timeout,
compression, temporality) as it would for any program; the resource reads OTEL_SERVICE_NAME
(`parity` unless set) and OTEL_RESOURCE_ATTRIBUTES.

The run is one span, `parity run`, and each pair a span under it, from the moment its
reconciliation starts to the moment its result is known. Pairs reconciled at once run in threads
of their own, where no span is current: each pair's span is given the run's as its parent. Its
metrics are recorded as its result is known; closing the run sends everything left, then stops
the exporters' threads.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from opentelemetry import metrics, trace
from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader
from opentelemetry.sdk.resources import SERVICE_NAME, OTELResourceDetector, Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.trace import Span, Status, StatusCode
from pyspark.sql import SparkSession

from parity.plan import PairPlan
from parity.results.pair_result import PairResult
from parity.telemetry import readings

SCOPE = "parity"
# A pair takes from a fraction of a second to hours: the SDK's default buckets are milliseconds'.
DURATION_BUCKETS = (0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 10800)


class Emitter:
    """One run's spans and metrics; the run's span starts with it, and ends when it is closed."""

    def __init__(self, signals: tuple[str, ...], pairs: list[PairPlan]) -> None:
        resource = _resource()
        tracers: trace.TracerProvider = trace.NoOpTracerProvider()
        meters: metrics.MeterProvider = metrics.NoOpMeterProvider()
        # Those that send, each shut down when the run closes (not at the process's exit).
        self._sending: list[TracerProvider | MeterProvider] = []
        if "traces" in signals:
            tracers = TracerProvider(resource=resource, shutdown_on_exit=False)
            tracers.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
            self._sending.append(tracers)
        if "metrics" in signals:
            reader = PeriodicExportingMetricReader(OTLPMetricExporter())
            meters = MeterProvider([reader], resource=resource, shutdown_on_exit=False)
            self._sending.append(meters)
        self._tracer = tracers.get_tracer(SCOPE)
        meter = meters.get_meter(SCOPE)
        self._differences = meter.create_counter(
            "parity.differences", "{row}", "Differing rows found, by kind (parity_summary)"
        )
        self._within_tolerance = meter.create_counter(
            "parity.within_tolerance_values", "{value}", "Differing values within tolerance"
        )
        self._row_drift = meter.create_gauge(
            "parity.row_drift", "%", "Rows missing or extra on either side, of the larger side"
        )
        self._duration = meter.create_histogram(
            "parity.pair.duration",
            "s",
            "Time to reconcile a pair (elapsed_seconds)",
            explicit_bucket_boundaries_advisory=DURATION_BUCKETS,
        )
        # The run's id is dbt's invocation id, which every pair of the plan carries.
        run: readings.Attributes = {"parity.pairs": len(pairs)}
        if pairs:
            run["parity.run_id"] = pairs[0].run_id
        self._run = self._tracer.start_span("parity run", attributes=run)
        self._run_context = trace.set_span_in_context(self._run)
        self._not_complete: list[str] = []
        self._lock = threading.Lock()

    # run.py's Reconcile, spelled out: run.py imports this module only when asked to emit.
    def traced(
        self, reconcile: Callable[[SparkSession, PairPlan], PairResult]
    ) -> Callable[[SparkSession, PairPlan], PairResult]:
        """``reconcile`` with each pair's reconciliation a span of the run's."""

        def observed(spark: SparkSession, pair: PairPlan) -> PairResult:
            span = self._tracer.start_span(
                f"parity pair {pair.name}",
                context=self._run_context,
                attributes={readings.PAIR: pair.name},
            )
            try:
                result = reconcile(spark, pair)
                self._record(span, result)
                return result
            finally:
                span.end()

        return observed

    def _record(self, span: Span, result: PairResult) -> None:
        span.set_attributes(readings.span_attributes(result))
        if result.status != "complete":  # its reason is published: made publishable already
            span.set_status(Status(StatusCode.ERROR, result.status_reason))
            with self._lock:
                self._not_complete.append(result.pair_name)
        pair = {readings.PAIR: result.pair_name}
        self._duration.record(result.elapsed_seconds, pair)
        if not readings.compared(result):
            return
        for kind, rows in readings.differences(result).items():
            self._differences.add(rows, {**pair, "parity.difference.kind": kind})
        self._within_tolerance.add(result.within_tolerance_values, pair)
        if result.row_drift_pct is not None:
            self._row_drift.set(result.row_drift_pct, pair)

    def close(self) -> None:
        """Ends the run's span and sends what is left; a shutdown flushes what its provider
        holds and joins its exporter's thread, so nothing is lost and no thread outlives the
        run."""
        if self._not_complete:
            self._run.set_status(
                Status(StatusCode.ERROR, f"not complete: {', '.join(sorted(self._not_complete))}")
            )
        self._run.end()
        for provider in self._sending:
            provider.shutdown()


def _resource() -> Resource:
    """The standard variables' resource, named `parity` unless they name the service."""
    named = SERVICE_NAME in OTELResourceDetector().detect().attributes
    return Resource.create({} if named else {SERVICE_NAME: SCOPE})
