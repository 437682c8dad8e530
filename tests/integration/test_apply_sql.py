"""Corrections applied to a PostgreSQL, DuckDB or MariaDB target: in one transaction through the
apply's own connection, a row a writer changed since the run left alone as a conflict, the same
run never applied twice, and the next build finding the pair in parity."""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import duckdb
import psycopg
import pytest

from tests.integration.applies import applied as apply_pair
from tests.integration.applies import summary as pair_summary
from tests.integration.correction_tables import SOURCE, TARGET, WIDE, model, notes_shown
from tests.integration.mariadb_server import client
from tests.integration.remote_tables import engine_sources

READ_ENV, WRITE_ENV = "PARITY_TEST_APPLY_READ", "PARITY_TEST_APPLY_WRITE"
TABLE = """
create table corrected (
    id integer,
    region text,
    amount numeric(38, 10),
    label text,
    note text,
    placed_at timestamptz
)
"""
# MariaDB's TIMESTAMP is its zoned type; NULL and without a default, it is never set for a row
# that does not name it.
MARIADB_TABLE = TABLE.replace("region text", "region varchar(8)").replace(
    "timestamptz", "timestamp(6) null default null"
)
# Each row with its instant as microseconds since the epoch, however the engine returns it.
HELD = {
    "postgres": "select id, region, amount, label, note,"
    " (extract(epoch from placed_at) * 1000000)::bigint from corrected",
    "duckdb": "select id, region, amount, label, note, epoch_us(placed_at) from corrected",
    "mysql": "select id, region, amount, label, note,"
    " cast(unix_timestamp(placed_at) * 1000000 as signed) from corrected",
}
# Each row as text, byte for byte, NULL and '' apart.
DUMPED = {
    "postgres": "select corrected::text from corrected",
    "duckdb": "select cast(corrected as varchar) from corrected",
    "mysql": "select json_array(id, region, amount, label, note, placed_at) from corrected",
}
SCHEMAS = {"postgres": "public", "duckdb": "main", "mysql": "parity"}
MARKS = {"postgres": "%s", "duckdb": "?", "mysql": "%s"}


def pair(engine: str, name: str = "to", **options: Any) -> dict[str, Any]:
    return {
        "name": f"{name}_{engine}",
        "source": {"ref": "correction_source"},
        "target": {"source": [f"apply_{engine}", "corrected"]},
        "key": ["id", "region"],
        "enforce_key": "warn",
        "tolerance": {"columns": {"amount": {"abs_tol": 0.01}}},
        "sync": {"apply_connection_env": WRITE_ENV, "max_corrections": 100},
        **options,
    }


def with_amount(row: tuple, amount: str) -> tuple:
    return (*row[:2], amount, *row[3:])


# The source's rows, but for the amount of order 6, within its tolerance: never corrected.
CORRECTED = [with_amount(r, "60.0100000000") if r[0] == 6 else r for r in SOURCE]


def typed(row: tuple) -> tuple:
    id_, region, amount, label, note, micros = row
    placed_at = dt.datetime(1970, 1, 1, tzinfo=dt.UTC) + dt.timedelta(microseconds=micros)
    return (id_, region, Decimal(amount), label, note, placed_at)


def ordered(rows) -> list[tuple]:
    return sorted((tuple(r) for r in rows), key=lambda r: (r[0], r[1], r[3] or ""))


def expected(rows) -> list[tuple]:
    return ordered((*r[:2], Decimal(r[2]), *r[3:]) for r in rows)


@contextlib.contextmanager
def connected(engine: str, target: str, read_only: bool = False) -> Iterator[Any]:
    """A connection that commits what it did, and is closed (a DuckDB file is one process's
    while open; opened to write, it changes the file, and so its fingerprint, as it closes)."""
    if engine == "postgres":
        with psycopg.connect(target, autocommit=True) as connection:
            yield connection.cursor()
    elif engine == "mysql":
        connection = client(target)
        try:
            with connection.cursor() as cursor:
                cursor.execute("set time_zone = '+00:00'")
                yield cursor
        finally:
            connection.close()
    else:
        connection = duckdb.connect(target, read_only=read_only)
        try:
            yield connection
        finally:
            connection.close()


def filled(engine: str, location: str, rows) -> None:
    """The table `corrected` made anew on the engine, holding ``rows`` (correction_tables.py)."""
    with connected(engine, location) as cursor:
        cursor.execute("drop table if exists corrected")
        cursor.execute(MARIADB_TABLE if engine == "mysql" else TABLE)
        marks = ", ".join([MARKS[engine]] * 6)
        values = [typed(r) for r in rows]
        if engine == "mysql":
            values = [(*r[:5], r[5].replace(tzinfo=None)) for r in values]
        cursor.executemany(f"insert into corrected values ({marks})", values)


class Target:
    def __init__(self, engine: str, location: str) -> None:
        self.engine, self.location = engine, location

    def held(self) -> list[tuple]:
        with connected(self.engine, self.location, read_only=True) as cursor:
            cursor.execute(HELD[self.engine])
            return ordered(cursor.fetchall())

    def dumped(self) -> list[str]:
        with connected(self.engine, self.location, read_only=True) as cursor:
            cursor.execute(DUMPED[self.engine])
            return sorted(row[0] for row in cursor.fetchall())

    def change(self, sql: str) -> None:
        with connected(self.engine, self.location) as connection:
            connection.execute(sql)

    def reset(self) -> None:
        """The table holds the target's rows again, as first made."""
        filled(self.engine, self.location, TARGET)


@pytest.fixture(scope="module", params=["postgres", "duckdb", "mysql"])
def target(request, scratch, spark, tmp_path_factory) -> Iterator[Target]:
    engine = request.param
    if engine == "duckdb":
        location = str(tmp_path_factory.mktemp("apply") / "target.duckdb")
    else:
        location = request.getfixturevalue(
            f"{'postgres' if engine == 'postgres' else 'mariadb'}_url"
        )
    Target(engine, location).reset()
    sources = engine_sources(f"apply_{engine}", engine, READ_ENV, SCHEMAS[engine], ["corrected"])
    with (
        scratch.file("models/correction_source.sql", model(SOURCE)),
        scratch.file(f"models/apply_{engine}_sources.yml", sources),
        pytest.MonkeyPatch.context() as environment,
    ):
        environment.setenv(READ_ENV, location)
        environment.setenv(WRITE_ENV, location)
        built = scratch.dbt("run", "--select", "correction_source", vars=scratch.demo_vars())
        assert built.success
        yield Target(engine, location)


def applied(scratch, spark, declared: dict, logged=None, **request) -> dict[str, Any]:
    return apply_pair(scratch, spark, [declared], declared["name"], logged, **request)


def summary(scratch, spark, declared: dict) -> dict[str, Any]:
    return pair_summary(scratch, spark, [declared], declared["name"])


def test_applied_corrections_leave_the_pair_in_parity(target, scratch, spark):
    engine = target.engine
    first = summary(scratch, spark, pair(engine))
    assert not first["passed"] and first["differing_rows"] == 11
    # A writer changes one row the run found differing, before the apply reads it.
    target.change("update corrected set amount = 71.00 where id = 7")

    # The relation changed since the run (DuckDB: its database file; PostgreSQL and MariaDB:
    # its rows' checksum, read again): refused, unless forced; forced, the compare-and-set
    # leaves the row changed alone.
    refused = applied(scratch, spark, pair(engine), write=True)
    assert refused["outcome"] == "refused" and refused["conflicts"] is None
    assert refused["reason"].startswith("its target relation")
    assert "changed since run" in refused["reason"]
    assert ("(its rows' checksum)" in refused["reason"]) == (engine != "duckdb")
    done = applied(scratch, spark, pair(engine), write=True, force=True)
    assert (done["outcome"], done["mode"], done["run_id"]) == ("applied", "write", first["run_id"])
    # Key 4, both copies of 9 and a second copy of 11 in; 5 and two copies of 8 out; 2, 3 and
    # 10 changed; 7 kept.
    assert (done["inserts"], done["deletes"], done["updates"]) == (4, 3, 3)
    assert done["conflicts"] == 1 and '["7","us"]' in done["reason"]
    changed = [with_amount(r, "71.0000000000") if r[0] == 7 else r for r in CORRECTED]
    assert target.held() == expected(changed)

    again = applied(scratch, spark, pair(engine), write=True)
    assert again["outcome"] == "unchanged" and again["reason"].startswith(
        f"run {first['run_id']}'s corrections were applied by apply {done['apply_id']}"
    )
    assert target.held() == expected(changed)

    # The next build finds only the row changed since; once that is applied, nothing.
    second = summary(scratch, spark, pair(engine))
    assert (second["passed"], second["value_mismatch_rows"], second["differing_rows"]) == (
        False,
        1,
        1,
    )
    assert applied(scratch, spark, pair(engine), write=True)["updates"] == 1
    assert target.held() == expected(CORRECTED)
    assert summary(scratch, spark, pair(engine))["passed"]


def test_a_dry_run_writes_nothing(target, scratch, spark):
    before = target.held()
    planned = applied(scratch, spark, pair(target.engine))
    assert planned["mode"] == "dry_run" and planned["outcome"] in ("planned", "unchanged")
    assert target.held() == before


def test_an_undo_restores_the_rows_the_apply_replaced(target, scratch, spark):
    """With a note the pair never publishes: the apply reads it from the source at apply time,
    the undo gets the relation's own back."""
    engine = target.engine
    hidden = pair(engine, "hidden", sensitive_columns=["note"])
    target.reset()
    as_made = target.dumped()
    summary(scratch, spark, hidden)
    # A dry run shows the statements' shapes, each with the rows it is run for, and no value.
    shapes = applied(scratch, spark, hidden)["statements"]
    q = "`" if engine == "mysql" else '"'
    relation = f"{q}{SCHEMAS[engine]}{q}.{q}corrected{q}"
    # Deletes; an update per set of columns (placed_at; label and note; label; amount); inserts.
    assert len(shapes.splitlines()) == 6
    assert shapes.startswith(f"3 rows: delete from {relation} where ")
    assert f"\n1 row: update {relation} set {q}amount{q} = " in shapes
    assert f"\n4 rows: insert into {relation} ({q}id{q}, {q}region{q}, " in shapes
    assert "ü☕" not in shapes and WIDE not in shapes
    logged: list[str] = []
    done = applied(scratch, spark, hidden, logged, write=True)
    assert (done["outcome"], done["inserts"], done["deletes"], done["updates"]) == (
        "applied",
        4,
        3,
        4,
    )
    assert done["previous_location"] == f"{relation[:-1]}__parity_undo{q}"
    assert target.held() == expected(CORRECTED)
    # The notes written are in no result, history or log line.
    assert not notes_shown(spark, scratch.schema, hidden["name"], logged)

    planned = applied(scratch, spark, hidden, undo=True)
    assert planned["outcome"] == "planned" and "rows of 9 keys" in planned["reason"]
    # A row the apply wrote, changed since: nothing is undone.
    target.change("update corrected set label = 'z' where id = 4")
    refused = applied(scratch, spark, hidden, undo=True, write=True)
    assert refused["outcome"] == "refused" and "changed since apply" in refused["reason"]
    assert "4, us" in refused["reason"]
    target.change("update corrected set label = 'ü☕' where id = 4")

    undone = applied(scratch, spark, hidden, undo=True, write=True)
    assert undone["outcome"] == "undone", undone["reason"]
    assert target.dumped() == as_made
    again = applied(scratch, spark, hidden, undo=True, write=True)
    assert (
        again["outcome"] == "refused" and f"undone by apply {undone['apply_id']}" in again["reason"]
    )
