"""Which failures a retry may get past, decided from the driver's own error, here raised by real
failures of real servers: a session cut off, a lock not granted, a deadlock and a server not
reachable now are transient; a statement timeout, a refused query and a wrong password are not
(retrying them would fail the same way)."""

from __future__ import annotations

import threading

import psycopg
import pytest

from parity.errors import ParityError
from parity.sides.connections import ConnectFailed, QueryError, connect, transient
from tests.integration.mariadb_server import client


def session(url, monkeypatch, dialect="postgres", timeout=None):
    monkeypatch.setenv("PARITY_TEST_SESSION", url)
    return connect(dialect, "PARITY_TEST_SESSION", "p", "source relation t", timeout)


def failure(connection, sql: str) -> QueryError:
    with pytest.raises(QueryError) as raised:
        connection.query(sql)
    return raised.value


# PostgreSQL.


def test_postgres_session_cut_off_is_transient(postgres_url, monkeypatch):
    connection = session(postgres_url, monkeypatch)
    try:
        ((pid,),) = connection.query("select pg_backend_pid()")
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute("select pg_terminate_backend(%s)", (pid,))
        cut = failure(connection, "select 1")
        assert cut.transient and "terminating connection" in str(cut)
        # Whatever the session says next, it is still a lost session.
        assert failure(connection, "select 1").transient
    finally:
        connection.close()


def test_postgres_timeout_and_refused_query_are_not_transient(postgres_url, monkeypatch):
    connection = session(postgres_url, monkeypatch, timeout=0.2)
    try:
        stopped = failure(connection, "select pg_sleep(2)")
        assert not stopped.transient and "statement timeout of 0.2 s" in str(stopped)
        assert not failure(connection, "select 1 / 0").transient
        assert connection.query("select 1") == [(1,)]
    finally:
        connection.close()


@pytest.fixture
def contended(postgres_url):
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute("create table if not exists public.contended (id int primary key)")
        connection.execute("insert into public.contended values (1), (2) on conflict do nothing")
    return postgres_url


def test_postgres_lock_not_granted_is_transient(contended):
    with (
        psycopg.connect(contended) as holder,
        psycopg.connect(contended, options="-c lock_timeout=100") as waiter,
    ):
        holder.execute("lock table public.contended in access exclusive mode")
        with pytest.raises(psycopg.errors.LockNotAvailable) as raised:
            waiter.execute("select * from public.contended")
        holder.rollback()
    assert transient(raised.value)


def test_postgres_deadlock_is_transient(contended):
    """Two sessions each lock one row, then want the other's: the server cancels one."""
    raised: list[Exception] = []
    locked = threading.Barrier(2)

    def lock(first: int, second: int) -> None:
        with psycopg.connect(contended) as connection:
            connection.execute("select * from public.contended where id = %s for update", (first,))
            locked.wait()
            try:
                connection.execute(
                    "select * from public.contended where id = %s for update", (second,)
                )
            except psycopg.Error as error:
                raised.append(error)

    threads = [threading.Thread(target=lock, args=order) for order in ((1, 2), (2, 1))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    (deadlock,) = raised
    assert isinstance(deadlock, psycopg.errors.DeadlockDetected) and transient(deadlock)


def test_postgres_unreachable_now_is_transient_wrong_password_is_not(postgres_url, monkeypatch):
    closed = postgres_url.rsplit(":", 1)[0] + ":1/postgres"
    with pytest.raises(ConnectFailed) as refused:
        session(closed, monkeypatch)
    assert refused.value.transient and isinstance(refused.value, ParityError)
    password = postgres_url.split("//", 1)[1].split("@", 1)[0].split(":", 1)[1]
    with pytest.raises(ConnectFailed) as denied:
        session(postgres_url.replace(password, "wrong-password"), monkeypatch)
    assert not denied.value.transient and "authentication failed" in str(denied.value)


# MySQL (MariaDB).


def test_mysql_session_cut_off_is_transient(mariadb_url, monkeypatch):
    connection = session(mariadb_url, monkeypatch, "mysql")
    try:
        ((thread,),) = connection.query("select connection_id()")
        with client(mariadb_url) as admin, admin.cursor() as cursor:
            cursor.execute(f"kill {int(thread)}")
        cut = failure(connection, "select 1")
        assert cut.transient
        assert failure(connection, "select 1").transient
    finally:
        connection.close()


def test_mysql_timeout_and_refused_query_are_not_transient(mariadb_url, monkeypatch):
    connection = session(mariadb_url, monkeypatch, "mysql", timeout=0.2)
    try:
        stopped = failure(connection, "select sleep(2)")
        assert not stopped.transient and "statement timeout of 0.2 s" in str(stopped)
        assert not failure(connection, "select * from no_such_table").transient
    finally:
        connection.close()


def test_mysql_unreachable_now_is_transient_wrong_password_is_not(mariadb_url, monkeypatch):
    with pytest.raises(ConnectFailed) as refused:
        session(mariadb_url.rsplit(":", 1)[0] + ":1/parity", monkeypatch, "mysql")
    assert refused.value.transient
    password = mariadb_url.split("//", 1)[1].split("@", 1)[0].split(":", 1)[1]
    with pytest.raises(ConnectFailed) as denied:
        session(mariadb_url.replace(password, "wrong-password"), monkeypatch, "mysql")
    assert not denied.value.transient and "authentication failed" in str(denied.value)
