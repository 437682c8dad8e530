"""One line, not thirteen thousand, when another process holds the embedded metastore.

The embedded profile keeps Spark's Hive metastore in a Derby database, which one process at a
time may boot; while it does, Derby holds a POSIX lock on the database's ``dbex.lck``. A second
dbt command on the same project would have Hive retry for twenty seconds, printing Derby's stack
traces, and then fail. So before dbt-spark opens a session connection, the lock is tried: held
by another process, the command fails with one line saying the project is in use.

Derby's lock exists only once Spark has booted Derby, tens of seconds into a command: two commands
started together would both find it free. So the check first takes a lock of parity's own, an
exclusive ``flock`` on ``<metastore>.lock`` beside the metastore's directory (not in it: Derby
will not create a database in a directory that exists), and holds it for the life of the process:
whichever command takes it first runs, the other is refused at once.
"""

from __future__ import annotations

import fcntl
import re
import sys
import threading
from pathlib import Path
from typing import Any

DERBY_DATABASE = re.compile(r"^jdbc:derby:;databaseName=([^;]+)")
METASTORE_URL = "spark.hadoop.javax.jdo.option.ConnectionURL"
# The lock files this process holds, by path, open for as long as it lives: closing one would
# release its lock.
_HELD: dict[Path, Any] = {}
# dbt opens its threads' first connections at once: a flock taken through a second open file
# would conflict with the first, so one thread at a time takes it.
_TAKING = threading.Lock()


def claimed(directory: Path) -> bool:
    """Whether this process holds parity's lock of the metastore in ``directory`` (taking it if
    no process holds it); False when another process does."""
    path = directory.with_name(f"{directory.name}.lock").absolute()
    with _TAKING:
        if path in _HELD:
            return True
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = path.open("a")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.close()
            return False
        _HELD[path] = lock
        return True


def in_use(directory: Path) -> bool:
    """Whether another process has booted the Derby database in ``directory``."""
    try:
        lock = (directory / "dbex.lck").open("rb+")
    except FileNotFoundError:
        return False
    with lock:
        try:
            fcntl.lockf(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        fcntl.lockf(lock, fcntl.LOCK_UN)
        return False


def check(server_side_parameters: dict[str, Any]) -> None:
    """Raises dbt's runtime error when the profile's embedded metastore is in use elsewhere."""
    found = DERBY_DATABASE.match(str(server_side_parameters.get(METASTORE_URL, "")))
    pyspark = sys.modules.get("pyspark")
    # A session of this very process holds the lock through its own JVM: that is no conflict.
    if found is None or (pyspark and pyspark.SparkContext._active_spark_context is not None):
        return
    directory = Path(found.group(1))  # relative to the working folder, as Derby resolves it
    if not claimed(directory) or in_use(directory):
        from dbt_common.exceptions import DbtRuntimeError

        raise DbtRuntimeError(
            f"parity: the embedded metastore {directory} is in use by another process (another"
            " dbt command on this project?): wait for it to finish, or give this command its own"
            " PARITY_METASTORE_DIR and PARITY_WAREHOUSE_DIR"
        )


def register(connection_manager_class: Any) -> None:
    """Checks the metastore before dbt-spark opens a connection of the session method."""
    original = connection_manager_class.open.__func__
    if getattr(original, "_parity_metastore_check", False):
        return

    def open_checked(cls: Any, connection: Any) -> Any:
        credentials = connection.credentials
        if credentials.method == "session":
            check(dict(credentials.server_side_parameters or {}))
        return original(cls, connection)

    open_checked._parity_metastore_check = True  # type: ignore[attr-defined]
    connection_manager_class.open = classmethod(open_checked)
