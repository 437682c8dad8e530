"""OpenTelemetry spans and metrics of each run, sent live as its pairs are reconciled, only when
the standard OTEL_ variables name a receiver (run.py); what a pair's result says in them
(readings.py); the SDK's providers and exporters at work for one run (emitter.py)."""
