"""How long a session's query runs on once cancelled, as an interrupted dbt cancels it."""

from __future__ import annotations

import contextlib
import threading
import time

from parity.sides.connections import QueryError, ReadOnlyConnection


def stopped_within(connection: ReadOnlyConnection, sql: str) -> float:
    """Seconds between cancelling ``sql`` a second after it started and its query ending
    (the query fails; the wait for it is bounded)."""
    ended: list[float] = []

    def run() -> None:
        with contextlib.suppress(QueryError):
            connection.query(sql)
        ended.append(time.monotonic())

    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(1)
    cancelled = time.monotonic()
    connection.cancel()
    worker.join(timeout=30)
    assert ended, "the query ran on"
    return ended[0] - cancelled
