"""The filters the plan accepts run on DuckDB: every ordinary predicate of
tests/filter_predicates.py for DuckDB, pasted as the plan pastes a `where`, on a small table of
orders in a DuckDB file, read through parity's own read-only session (the other engines:
tests/integration/test_filter_predicates.py)."""

from __future__ import annotations

import duckdb

from tests.filter_predicates import COLUMNS, ROWS, SQL_TABLE, remote_failures


def test_duckdb_runs_every_filter(tmp_path, monkeypatch):
    path = tmp_path / "filters.duckdb"
    with duckdb.connect(str(path)) as connection:
        connection.execute(SQL_TABLE.format(timestamp="timestamp"))
        connection.executemany(
            f"insert into filter_orders ({COLUMNS}) values (?, ?, ?, ?, ?, ?, ?)", ROWS
        )
    assert remote_failures("duckdb", str(path), monkeypatch) == {}
