"""A throwaway MariaDB server on 127.0.0.1, in a temporary folder, for the tests.

MariaDB, Debian's MySQL-compatible server, stands for the `mysql` dialect here. It runs as the
unprivileged `mysql` user that Debian's package creates; its users need a password and are
created by the server's init file at start-up, before it accepts connections: `parity`, which the
tests hand to parity, and `parity_admin`, which may do anything (for the tests that create
users).
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pymysql

from tests.integration.postgres_server import Cluster, free_port

INSTALL_DB, SERVER = "/usr/bin/mariadb-install-db", "/usr/sbin/mariadbd"
# Durability costs the tests time and buys them nothing: the server is thrown away.
NO_FSYNC = [
    "--innodb-flush-log-at-trx-commit=0",
    "--innodb-doublewrite=0",
    "--innodb-flush-method=nosync",
    "--innodb-buffer-pool-size=64M",
    "--skip-log-bin",
]


def _as_mysql() -> dict[str, object]:
    """As root, the server's own process runs as `mysql` (no runuser between: the test stops
    and reaps the server itself)."""
    return {"user": "mysql", "group": "mysql", "extra_groups": []} if os.geteuid() == 0 else {}


def _wait_for(url: str, server: subprocess.Popen, log: Path) -> None:
    """Until the user `parity` logs in: the server listens before it has run its init file."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"MariaDB did not start: {log.read_text()[-2000:]}")
        try:
            client(url, connect_timeout=1).close()
            return
        except pymysql.err.OperationalError:
            time.sleep(0.2)
    raise RuntimeError("MariaDB did not accept its user within 60 s")


@contextmanager
def mariadb_server() -> Iterator[Cluster]:
    """Starts a server, whose user `parity` owns the database `parity`, and yields its users'
    connection URLs (passwords included); stops and removes it afterwards."""
    if not os.path.exists(SERVER):
        raise RuntimeError("MariaDB's server is missing: run `make test`, which installs it")
    folder = Path(tempfile.mkdtemp(prefix="parity-mariadb-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "mysql")
    data, port, log = folder / "data", free_port(), folder / "server.err"
    subprocess.run(
        [
            INSTALL_DB,
            "--no-defaults",
            f"--datadir={data}",
            "--skip-test-db",
            "--auth-root-authentication-method=socket",
        ],
        check=True,
        capture_output=True,
        **_as_mysql(),
    )
    # A password, as production servers require: the tests check it never shows anywhere.
    password, admin_password = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    init = folder / "init.sql"
    init.write_text(
        "create database parity character set utf8mb4;\n"
        f"create user 'parity'@'127.0.0.1' identified by '{password}';\n"
        "grant all on parity.* to 'parity'@'127.0.0.1';\n"
        f"create user 'parity_admin'@'127.0.0.1' identified by '{admin_password}';\n"
        "grant all on *.* to 'parity_admin'@'127.0.0.1' with grant option;\n"
    )
    if os.geteuid() == 0:
        shutil.chown(init, "mysql")
    server = subprocess.Popen(
        [
            SERVER,
            "--no-defaults",
            f"--datadir={data}",
            "--bind-address=127.0.0.1",
            f"--port={port}",
            f"--socket={folder / 'socket'}",
            f"--pid-file={folder / 'pid'}",
            f"--log-error={log}",
            f"--init-file={init}",
            "--character-set-server=utf8mb4",
            # MariaDB's default mode, which truncates a finer fraction of a second it stores.
            "--sql-mode=STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION",
            *NO_FSYNC,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        **_as_mysql(),
    )
    url = f"mysql://parity:{password}@127.0.0.1:{port}/parity"
    try:
        _wait_for(url, server, log)
        init.unlink()
        yield Cluster(url, f"mysql://parity_admin:{admin_password}@127.0.0.1:{port}/parity")
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        shutil.rmtree(folder, ignore_errors=True)


def client(url: str, **options: Any) -> pymysql.connections.Connection:
    """A plain client session (the tests' own, to write and read tables) to a URL of the server."""
    parts = urlsplit(url)
    return pymysql.connect(
        host=parts.hostname,
        port=parts.port,
        user=unquote(parts.username),
        password=unquote(parts.password),
        database=parts.path.lstrip("/"),
        charset="utf8mb4",
        autocommit=True,
        **options,
    )
