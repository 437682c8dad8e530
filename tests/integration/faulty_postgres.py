"""Faults on the tests' real PostgreSQL server: a view of the legacy orders whose reads a test
slows down, and a watcher that cuts parity's sessions off in the middle of a query.

The view's `note` goes through a function that sleeps as the one-row table parity_test_faults
says: `every_row` seconds for each row any query reads, and, only in queries that list cells or
keys (checksums and rows, never the first pass), `listed_row` seconds more per row and
`slow_key_seconds` more for the row of `slow_key`. parity canonicalizes a value only in the rows
of the cells it lists, so a query's sleep grows with the rows it selects, as a slow engine's
would.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import psycopg

VIEW = "faulty_orders"
# The queries that list cells (parameter 5) or keys (parameter 1, an array of keys).
LISTING = r"\$5|any\(cast\(\$1"

SETUP = [
    "create table if not exists public.parity_test_faults (every_row float8 not null default 0,"
    " listed_row float8 not null default 0, slow_key bigint, slow_key_seconds float8 not null"
    " default 0)",
    "truncate public.parity_test_faults",
    "insert into public.parity_test_faults default values",
    # Declared stable, so that the view is merged into parity's query and the note is read only
    # where parity reads it (a volatile function would make PostgreSQL read every row first).
    f"""
    create or replace function public.parity_test_slowed(note text, order_id bigint)
    returns text language plpgsql stable as $$
    declare
        faults public.parity_test_faults;
        owed float8;
    begin
        select * into faults from public.parity_test_faults;
        owed := coalesce(nullif(current_setting('parity_test.owed', true), ''), '0')::float8
            + faults.every_row + case when current_query() ~ '{LISTING}' then faults.listed_row
            + case when order_id = faults.slow_key then faults.slow_key_seconds else 0 end
            else 0 end;
        -- pg_sleep waits whole milliseconds at least: short waits are owed until they add up.
        if owed >= 0.002 then
            perform pg_sleep(owed);
            owed := 0;
        end if;
        perform set_config('parity_test.owed', owed::text, true);
        return note;
    end $$
    """,
    f"""
    create or replace view public.{VIEW} as
    select order_id, customer_id, status, amount, fx_rate, discount, is_gift, ordered_at,
        ship_date, public.parity_test_slowed(note, order_id) as note
    from public.orders
    """,
]


def create_faulty_view(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as connection:
        for statement in SETUP:
            connection.execute(statement)


def set_faults(
    url: str,
    every_row: float = 0,
    listed_row: float = 0,
    slow_key: int | None = None,
    slow_key_seconds: float = 0,
) -> None:
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(
            "update public.parity_test_faults set every_row = %s, listed_row = %s,"
            " slow_key = %s, slow_key_seconds = %s",
            (every_row, listed_row, slow_key, slow_key_seconds),
        )


# What each of parity's queries starts with (pg_stat_activity keeps only a query's first 1 kB):
# a hashed key's first pass (by key, then by hashed block), a checksums pass.
FIRST_PASS = "select case when"
CHECKSUMS = "select div("


@contextmanager
def watching(
    url: str, starts: list[str], act: Callable[[psycopg.Connection, int], None]
) -> Iterator[list[str]]:
    """While the block runs, a thread watches the server's active queries and acts once on the
    first that starts with each of ``starts``, in that order: ``act(connection, pid)``. Yields
    the queries it acted on, by their start."""
    acted: list[str] = []
    stop = threading.Event()

    def watch() -> None:
        waiting = list(starts)
        while waiting and not stop.is_set():
            try:
                with psycopg.connect(url, autocommit=True) as connection:
                    while waiting and not stop.is_set():
                        found = connection.execute(
                            "select pid from pg_stat_activity where state = 'active'"
                            " and pid <> pg_backend_pid() and starts_with(query, %s)",
                            (waiting[0],),
                        ).fetchone()
                        if found:
                            acted.append(waiting.pop(0))
                            act(connection, found[0])
                        time.sleep(0.01)
            except psycopg.OperationalError:  # the server is restarting: look again
                time.sleep(0.1)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield acted
    finally:
        stop.set()
        watcher.join(timeout=120)


def terminate(connection: psycopg.Connection, pid: int) -> None:
    connection.execute("select pg_terminate_backend(%s)", (pid,))
