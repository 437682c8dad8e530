"""A throwaway PostgreSQL cluster on 127.0.0.1, in a temporary folder, for the tests.

PostgreSQL refuses to run as root: as root, the cluster belongs to the unprivileged `postgres`
user that Debian's package creates.
"""

from __future__ import annotations

import glob
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def _bin(program: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{program}"))
    if not found:
        raise RuntimeError(
            "PostgreSQL's server programs are missing: run `make test`, which installs them"
        )
    return found[-1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _run(*command: str) -> None:
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run([*as_postgres, *command], check=True, capture_output=True)


@contextmanager
def postgres_server() -> Iterator[str]:
    """Starts a cluster, whose user `parity` needs a password, and yields its connection URL
    (password included); stops and removes it afterwards. Its folder is a fresh one under the
    system's temporary folder, which the postgres user can reach (pytest's own temporary
    folders are private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="parity-postgres-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    data, port = folder / "data", free_port()
    # A password, as production servers require: the tests check it never shows anywhere.
    password = secrets.token_urlsafe(16)
    password_file = folder / "password"
    password_file.write_text(password)
    if os.geteuid() == 0:
        shutil.chown(password_file, "postgres")
    _run(
        _bin("initdb"),
        "-D",
        str(data),
        "-U",
        "parity",
        "--auth=scram-sha-256",
        f"--pwfile={password_file}",
        "-E",
        "UTF8",
        "--locale=C.UTF-8",
    )
    password_file.unlink()
    options = f"-h 127.0.0.1 -p {port} -k {folder} -c fsync=off"
    _run(_bin("pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w", "start")
    try:
        yield f"postgresql://parity:{password}@127.0.0.1:{port}/postgres"
    finally:
        _run(_bin("pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)


def restart(url: str) -> None:
    """Restarts the cluster behind ``url`` at once (fast: every session is cut off), on the same
    port and options, and returns once it accepts connections again."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        (data,) = connection.execute("show data_directory").fetchone()
    # Its log where the first start put it: a server writing to pg_ctl's output would hold it
    # open, and this process would wait on it.
    log = str(Path(data).parent / "log")
    _run(_bin("pg_ctl"), "-D", data, "-l", log, "-m", "fast", "-w", "restart")
