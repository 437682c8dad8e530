"""A throwaway PostgreSQL cluster on 127.0.0.1, in a temporary folder, for the tests.

PostgreSQL refuses to run as root: as root, the cluster belongs to the unprivileged `postgres`
user that Debian's package creates.

The role the tests hand to parity, `parity`, is no superuser (parity refuses one unless told
otherwise): it owns the database `postgres` (so it creates the tests' tables in `public`), may
read the server's settings (its data directory, to restart it) and signal other backends (to
cut sessions off). The bootstrap superuser `parity_admin` is for the tests that need one.
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
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql


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


@dataclass(frozen=True)
class Cluster:
    """The connection URLs of a cluster, passwords included: its role `parity`, and its
    superuser."""

    url: str
    admin_url: str


@contextmanager
def postgres_server() -> Iterator[Cluster]:
    """Starts a cluster, whose roles need a password, and yields its connection URLs; stops and
    removes it afterwards. Its folder is a fresh one under the system's temporary folder, which
    the postgres user can reach (pytest's own temporary folders are private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="parity-postgres-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    data, port = folder / "data", free_port()
    # Passwords, as production servers require: the tests check they never show anywhere.
    password, admin_password = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    password_file = folder / "password"
    password_file.write_text(admin_password)
    if os.geteuid() == 0:
        shutil.chown(password_file, "postgres")
    _run(
        _bin("initdb"),
        "-D",
        str(data),
        "-U",
        "parity_admin",
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
        cluster = Cluster(
            f"postgresql://parity:{password}@127.0.0.1:{port}/postgres",
            f"postgresql://parity_admin:{admin_password}@127.0.0.1:{port}/postgres",
        )
        with psycopg.connect(cluster.admin_url, autocommit=True) as admin:
            admin.execute(
                sql.SQL("create role parity login password {}").format(sql.Literal(password))
            )
            admin.execute("grant pg_read_all_settings, pg_signal_backend to parity")
            admin.execute("alter database postgres owner to parity")
        yield cluster
    finally:
        _run(_bin("pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)


def restart(url: str) -> None:
    """Restarts the cluster behind ``url`` at once (fast: every session is cut off), on the same
    port and options, and returns once it accepts connections again."""
    with psycopg.connect(url, autocommit=True) as connection:
        (data,) = connection.execute("show data_directory").fetchone()
    # Its log where the first start put it: a server writing to pg_ctl's output would hold it
    # open, and this process would wait on it.
    log = str(Path(data).parent / "log")
    _run(_bin("pg_ctl"), "-D", data, "-l", log, "-m", "fast", "-w", "restart")
