"""The sessions running a query now, so that a stopped dbt leaves no query running on a server.

dbt runs parity's models in worker threads; when it is interrupted it asks its adapter to cancel
what runs and then waits for those threads, which would wait out a query of an hour. So each
query of a session to another engine is registered while it runs, and ``cancel_all`` (called by
the dbt start-up hook, dbt_parity.query_cancel) cancels them on their servers and refuses any
query after it: a model still going through its pairs ends at once.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

_lock = threading.Lock()
_running: dict[object, Callable[[], None]] = {}
_stopping = threading.Event()


class Stopping(RuntimeError):
    """A query asked for after dbt was interrupted."""

    def __init__(self) -> None:
        super().__init__("dbt was interrupted: parity runs no more queries")


@contextlib.contextmanager
def running(cancel: Callable[[], None]) -> Iterator[None]:
    """Registers a query while it runs, with what cancels it on its server."""
    with _lock:
        if _stopping.is_set():
            raise Stopping()
        key = object()
        _running[key] = cancel
    try:
        yield
    finally:
        with _lock:
            _running.pop(key, None)


def cancel_all() -> int:
    """Cancels every query running now, and refuses those asked for later; how many it
    cancelled."""
    _stopping.set()
    with _lock:
        cancels = list(_running.values())
    for cancel in cancels:
        # A server already gone, or a query that just ended, has nothing left to cancel.
        with contextlib.suppress(Exception):
            cancel()
    return len(cancels)
