"""Whether a run emits OpenTelemetry, and the reconciliation of each pair as a run sees it.

The standard variables decide, as they would for any OpenTelemetry SDK: a signal (traces,
metrics) is sent when OTEL_EXPORTER_OTLP_ENDPOINT or the signal's own endpoint variable names a
receiver, unless OTEL_SDK_DISABLED is true or OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER is
`none`. Without them nothing of OpenTelemetry is imported (emitter.py holds every import of the
SDK): a run that sends nothing pays nothing.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from pyspark.sql import SparkSession

from parity.log import logger
from parity.plan import PairPlan
from parity.results.pair_result import PairResult

SIGNALS = ("traces", "metrics")
# The protocol of the one exporter parity installs (the `telemetry` extra); gRPC would need
# grpcio, a compiled client of its own.
PROTOCOL = "http/protobuf"

# What reconciles one pair: reconcile.reconcile_pair.
Reconcile = Callable[[SparkSession, PairPlan], PairResult]


def signals() -> tuple[str, ...]:
    """The signals the environment asks a run to send, none unless a receiver is named."""
    if os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return ()
    return tuple(signal for signal in SIGNALS if _sent(signal))


def _sent(signal: str) -> bool:
    upper = signal.upper()
    named = os.environ.get(f"OTEL_EXPORTER_OTLP_{upper}_ENDPOINT") or os.environ.get(
        "OTEL_EXPORTER_OTLP_ENDPOINT"
    )
    if not named or os.environ.get(f"OTEL_{upper}_EXPORTER", "").strip().lower() == "none":
        return False
    protocol = (
        os.environ.get(f"OTEL_EXPORTER_OTLP_{upper}_PROTOCOL")
        or os.environ.get("OTEL_EXPORTER_OTLP_PROTOCOL")
        or PROTOCOL
    ).strip()
    if protocol != PROTOCOL:
        logger.warning(
            "parity: OpenTelemetry %s not sent: the protocol asked is %s, parity sends %s only",
            signal,
            protocol,
            PROTOCOL,
        )
        return False
    return True


@contextmanager
def observed_run(pairs: list[PairPlan]) -> Iterator[Callable[[Reconcile], Reconcile]]:
    """The run's telemetry while its pairs are reconciled: a wrapper that makes a pair's
    reconciliation a span of the run's (and its metrics), or leaves it as it is when nothing is
    to be sent. Everything is sent before the block is left."""
    sent = signals()
    if not sent:
        yield _untouched
        return
    try:
        from parity.telemetry.emitter import Emitter
    except ImportError as missing:  # variables meant for another tool must not stop a run
        logger.warning(
            "parity: OpenTelemetry not sent: %s (install dbt-parity[telemetry])", missing
        )
        yield _untouched
        return
    emitter = Emitter(sent, pairs)
    try:
        yield emitter.traced
    finally:
        emitter.close()


def _untouched(reconcile: Reconcile) -> Reconcile:
    return reconcile
