"""A stopped dbt leaves no query of parity's running on another engine.

Interrupted (Ctrl-C, SIGINT), dbt asks its adapter to cancel the queries its connections run,
then waits for its worker threads; dbt-spark's session connections cannot cancel, and parity's
own sessions to PostgreSQL, MySQL or DuckDB are not dbt's. So the adapter's cancel first cancels
those (parity.sides.sessions_in_flight). Terminated (SIGTERM, which dbt leaves to Python's
default: the process ends at once), the process cancels them before it ends. Killed (SIGKILL),
nothing runs: PostgreSQL ends the query of a client gone within a second
(client_connection_check_interval); MySQL's runs until its statement timeout.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import Any

IN_FLIGHT = "parity.sides.sessions_in_flight"


def cancel_parity_queries() -> None:
    # Imported only by a process that opened a session: none, nothing to cancel.
    sessions = sys.modules.get(IN_FLIGHT)
    if sessions is not None:
        sessions.cancel_all()


def _terminated(signum: int, frame: Any) -> None:
    cancel_parity_queries()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def register(connection_manager_class: Any) -> None:
    """Cancels parity's queries when dbt cancels its connections, and on SIGTERM where nothing
    else handles it."""
    original = connection_manager_class.cancel_open
    if not getattr(original, "_parity_cancel", False):

        def cancel_open(self: Any) -> Any:
            cancel_parity_queries()
            return original(self)

        cancel_open._parity_cancel = True  # type: ignore[attr-defined]
        connection_manager_class.cancel_open = cancel_open
    # A handler can only be set from the main thread, which is where dbt imports its plugins.
    if (
        threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    ):
        signal.signal(signal.SIGTERM, _terminated)
