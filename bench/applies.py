"""Benchmark: an apply of a run's corrections against rewriting the whole table, per engine the
apply writes to, in one run on one machine.

    python -m bench.applies [--rows 1000000] [--differences 10000]
                            [--engines postgres duckdb mariadb spark] [--profile] [--output FILE]

A pair is generated (bench/generate.py): a source of N rows and a target differing from it in
D rows (a quarter only in the source, a quarter only in the target, half changed), as Parquet
tables in the session's catalog. The target is copied, keyed by a primary key, into each engine
asked for (a throwaway PostgreSQL server and MariaDB server on 127.0.0.1, a DuckDB file; the
Spark target is the generated table itself), with a copy of the source beside it. One pair per
engine, the Spark source against that engine's target with a `sync` block, is reconciled by one
`dbt run --full-refresh` of parity's models (the narrowest command that publishes the run and
its corrections; in full, or the same tables generated again would keep an earlier run's result,
applied already). Then, per engine:

- parity's apply: `dbt run --select parity_applies --vars '{parity_apply: {pair: p, write:
  true}}'`, in this process, timed whole (dbt's parse included), its model alone (dbt's
  run_results), `apply_corrections` and the write itself (the writer's call), each timed from
  outside (the same functions the model calls, wrapped); beside it the statements the SQL
  writer ran, by kind, their round trips and seconds;
- the rewrite a user would otherwise run, from the source's copy in the same engine: a new
  table created from it (`create table ... as select`, its key added) and swapped in; and
  truncating the table and inserting the source's rows again (PostgreSQL, DuckDB, MariaDB); in
  Spark, `insert overwrite` from the source table;
- after each, the target against the source's copy in the same engine: its row count and an
  order-independent checksum (the sum of the lower 60 bits of each row's MD5), which must be
  equal, so speed never buys a wrong answer.

Rows written: the apply's inserts, deletes and updates (parity_applies), against the N rows a
rewrite writes; a Spark apply rewrites the whole table beside itself (sync/spark/writer.py), so
its rows rewritten are the table's. The first statement of each kind the SQL writer ran (the
per-key select, an update, a delete) is explained once the apply is done (PostgreSQL and DuckDB:
`explain analyze`, rolled back; MariaDB: `explain`). --profile writes each apply's cProfile
statistics (`apply_corrections`, the write within it) to
bench/results/applies-<rows>-<engine>.prof and prints its costliest calls. Figures go to
bench/results/applies-<rows>.json.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import shutil
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack, closing
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import duckdb
import psycopg
from dbt.cli.main import dbtRunner
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

import parity.sync.apply as apply_module
from bench.generate import write_pair
from bench.harness import PROJECT, RESULTS, SCHEMA, bench_session, timed
from bench.to_postgres import copy_table
from parity.sync.sql.sessions import WRITE_SESSIONS
from tests.integration.mariadb_server import client, mariadb_server
from tests.integration.postgres_server import postgres_server

ENGINES = ("postgres", "duckdb", "mariadb", "spark")
# Each engine's target as the benchmark project declares it (bench/project/models/sources.yml),
# the variable holding the apply's connection, and the parity dialect it writes.
TARGETS = {
    "postgres": (["bench_pg", "bench_target"], "PARITY_BENCH_PG_URL", "postgres"),
    "duckdb": (["bench_duckdb", "bench_target"], "PARITY_BENCH_DUCKDB", "duckdb"),
    "mariadb": (["bench_mariadb", "bench_target"], "PARITY_BENCH_MARIADB_URL", "mysql"),
    "spark": (["bench", "bench_target"], None, None),
}
COLUMNS = "id, customer_id, status, amount, discount, ordered_at, note"
# The generated table in each engine's own types, keyed as a production table is.
DUCKDB_TABLE = """
create table {name} (id bigint primary key, customer_id integer, status varchar,
    amount decimal(12, 2), discount double, ordered_at timestamptz, note varchar)
"""
# MariaDB's TIMESTAMP is its zoned type; NULL and without a default, it is never set for a row
# that does not name it (as tests/integration/test_apply_sql.py declares it).
MARIADB_TABLE = """
create table {name} (id bigint primary key, customer_id int, status varchar(16),
    amount decimal(12, 2), discount double, ordered_at timestamp(6) null default null,
    note varchar(32))
"""
MARIADB_ROWS_PER_INSERT = 5_000
# Per engine, a table's row count and the sum of the lower 60 bits of the MD5 of each row's text:
# the same rows, in any order, give the same pair.
CHECKSUMS = {
    "postgres": "select count(*), sum(cast(cast('x' || substring(md5(cast(t as text)), 18, 15)"
    " as bit(60)) as bigint)) from {table} as t",
    "duckdb": "select count(*), sum(cast('0x' || substring(md5(cast(t as varchar)), 18, 15)"
    " as bigint)) from {table} as t",
    "mariadb": "select count(*), sum(cast(conv(substring(md5(concat_ws('|', id, customer_id,"
    " status, amount, discount, ordered_at, ifnull(note, '<null>'))), 18, 15), 16, 10)"
    " as unsigned)) from {table}",
    "spark": "select count(*), sum(cast(conv(substring(md5(to_json(struct(*))), 18, 15), 16, 10)"
    " as decimal(38, 0))) from {table}",
}


def main() -> None:
    options = _options()
    spark = bench_session("parity-bench-applies")
    _forget_spark_target(spark)
    planted = write_pair(spark, SCHEMA, options.rows, options.differences)
    figures: dict[str, Any] = {
        "rows": options.rows,
        "differences": planted.differences,
        "engines": {},
    }
    if not dbtRunner().invoke(["deps", "--quiet", *PROJECT]).success:
        raise SystemExit("dbt deps failed for the benchmark project")
    with ExitStack() as stack:
        engines, loaded = {}, {}
        for name in options.engines:
            seconds, engines[name] = timed(lambda n=name: _engine(n, spark, stack))
            loaded[name] = round(seconds, 2)
        pairs = [_pair(name, options.differences) for name in engines]
        # In full: the same generated tables again would keep the last result, and its run, whose
        # corrections an earlier apply wrote.
        build = ["run", "--select", "parity_remote_relations+", "--full-refresh"]
        seconds, _ = timed(lambda: _dbt(build, pairs))
        figures["build_seconds"] = round(seconds, 2)
        found = _found(spark)
        for name, engine in engines.items():
            if found[name] != options.differences:
                raise SystemExit(f"the run found {found[name]} differing rows of {name}'s pair")
            figures["engines"][name] = {
                "load_seconds": loaded[name],
                **_measure(spark, engine, pairs, options),
            }
            print(_line(name, figures["engines"][name]), flush=True)
    _forget_spark_target(spark)
    spark.stop()
    output = options.output or RESULTS / f"applies-{options.rows}.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(figures, indent=2) + "\n")
    _print(figures, output)


def _forget_spark_target(spark: SparkSession) -> None:
    """The Spark target dropped, with its folder and the versions an apply left beside it: an
    apply points the table at another folder, where the other benchmarks' generated table
    would not be written, and leaves the one it replaced."""
    spark.sql(f"drop table if exists {SCHEMA}.bench_target")
    for folder in (RESULTS / "work" / "warehouse" / f"{SCHEMA}.db").glob("bench_target*"):
        shutil.rmtree(folder)


class Engine:
    """One engine's target beside a copy of the source: what loads them, rewrites the target
    from the copy, and reads each one's checksum."""

    name = ""
    # The rewrite from the source's copy: a new table swapped in (PostgreSQL's and DuckDB's DDL
    # in the one transaction), and the table emptied and filled again.
    swapped = (
        "create table bench_target_new as select * from bench_source",
        "alter table bench_target_new add primary key (id)",
        "drop table bench_target",
        "alter table bench_target_new rename to bench_target",
    )
    refilled = ("truncate bench_target", "insert into bench_target select * from bench_source")

    def run(self, *statements: str) -> list[tuple]:
        """The statements in one transaction; the last one's rows."""
        raise NotImplementedError

    def checksum(self, table: str) -> tuple[int, int]:
        (row,) = self.run(CHECKSUMS[self.name].format(table=table))
        return int(row[0]), int(row[1])

    def rewrites(self) -> dict[str, Callable[[], None]]:
        return {
            "create table as select, swap": lambda: self.run(*self.swapped),
            "truncate, insert": lambda: self.run(*self.refilled),
        }

    # Where the apply writes (its connection's URL or file), and how the engine explains a
    # statement (PostgreSQL and DuckDB run it, MariaDB does not).
    location = ""
    explained = ""

    def explain(self, statement: str, params: list[Any]) -> list[str]:
        """The plan of one of the SQL writer's statements, through a write session as the
        apply opens one (its parameters bound as the writer binds them), rolled back."""
        session = WRITE_SESSIONS[TARGETS[self.name][2]]
        connection = session.connect(self.location)
        try:
            if session.begin:
                session.run(connection, session.begin, [])
            rows = session.run(connection, f"{self.explained} {statement}", params)
            connection.rollback()
        finally:
            connection.close()
        # DuckDB's rows are (kind, plan); PostgreSQL's one line each; MariaDB's one per table.
        lines = [row[1] if self.name == "duckdb" else " ".join(map(str, row)) for row in rows]
        return [line for text in lines for line in text.splitlines()]


class Postgres(Engine):
    name = "postgres"
    explained = "explain (analyze, buffers)"

    def __init__(self, spark: SparkSession, url: str) -> None:
        self.url = self.location = url
        for table in ("bench_source", "bench_target"):
            copy_table(spark, SCHEMA, url, table)

    def run(self, *statements: str) -> list[tuple]:
        """The statements in one transaction; the last one's rows."""
        with psycopg.connect(self.url) as connection:
            rows = [connection.execute(s) for s in statements][-1]
            return rows.fetchall() if rows.description else []


class DuckDB(Engine):
    name = "duckdb"
    explained = "explain analyze"

    def __init__(self, spark: SparkSession, path: str) -> None:
        self.path = self.location = path
        with duckdb.connect(path) as connection:
            connection.execute("set TimeZone = 'UTC'")
            for table in ("bench_source", "bench_target"):
                files = spark.table(f"{SCHEMA}.{table}").inputFiles()
                connection.execute(DUCKDB_TABLE.format(name=table))
                connection.execute(
                    f"insert into {table} select {COLUMNS} from read_parquet(?) order by id",
                    [files],
                )
            connection.execute("checkpoint")

    def run(self, *statements: str) -> list[tuple]:
        # Opened for each use: an apply opens the file to write, which only one connection may.
        with duckdb.connect(self.path) as connection:
            connection.execute("begin transaction")
            rows = [connection.execute(s) for s in statements][-1].fetchall()
            connection.execute("commit")
            return rows


class MariaDB(Engine):
    name = "mariadb"
    # MariaDB's columns: id, select_type, table, type, possible_keys, key, key_len, ref, rows,
    # Extra.
    explained = "explain"

    def __init__(self, spark: SparkSession, url: str) -> None:
        self.url = self.location = url
        for table in ("bench_source", "bench_target"):
            self._load(spark, table)

    def _load(self, spark: SparkSession, table: str) -> None:
        """The table with multi-row inserts, a slice at a time; timestamps as UTC text."""
        rows = (
            spark.table(f"{SCHEMA}.{table}")
            .selectExpr(
                "id",
                "customer_id",
                "status",
                "cast(amount as string)",
                "discount",
                "date_format(ordered_at, 'yyyy-MM-dd HH:mm:ss.SSSSSS')",
                "note",
            )
            .orderBy("id")
            .toLocalIterator()
        )
        marks = ", ".join(["%s"] * 7)
        with closing(client(self.url)) as connection, connection.cursor() as cursor:
            cursor.execute("set time_zone = '+00:00'")
            cursor.execute(f"drop table if exists {table}")
            cursor.execute(MARIADB_TABLE.format(name=table))
            batch: list[tuple] = []
            for row in rows:
                batch.append(tuple(row))
                if len(batch) == MARIADB_ROWS_PER_INSERT:
                    cursor.executemany(f"insert into {table} values ({marks})", batch)
                    batch.clear()
            if batch:
                cursor.executemany(f"insert into {table} values ({marks})", batch)
            cursor.execute(f"analyze table {table}")

    def run(self, *statements: str) -> list[tuple]:
        with closing(client(self.url)) as connection, connection.cursor() as cursor:
            cursor.execute("set time_zone = '+00:00'")
            for statement in statements:
                cursor.execute(statement)
            return list(cursor.fetchall())

    # MariaDB's DDL commits as it runs: the swap is one atomic `rename table`, truncate is not
    # undone by a failed insert.
    swapped = (
        "drop table if exists bench_target_old",
        "create table bench_target_new as select * from bench_source",
        "alter table bench_target_new add primary key (id)",
        "rename table bench_target to bench_target_old, bench_target_new to bench_target",
        "drop table bench_target_old",
    )


class Spark(Engine):
    name = "spark"

    def __init__(self, spark: SparkSession) -> None:
        self.spark = spark

    def checksum(self, table: str) -> tuple[int, int]:
        (row,) = self.spark.sql(CHECKSUMS["spark"].format(table=f"{SCHEMA}.{table}")).collect()
        return int(row[0]), int(row[1])

    def rewrites(self) -> dict[str, Callable[[], None]]:
        return {
            "insert overwrite": lambda: self.spark.sql(
                f"insert overwrite table {SCHEMA}.bench_target select * from {SCHEMA}.bench_source"
            )
        }


def _engine(name: str, spark: SparkSession, stack: ExitStack) -> Engine:
    """The engine's server started (as the tests start theirs) and its tables loaded."""
    variable = TARGETS[name][1]
    if name == "postgres":
        os.environ[variable] = stack.enter_context(postgres_server()).url
        return Postgres(spark, os.environ[variable])
    if name == "mariadb":
        os.environ[variable] = stack.enter_context(mariadb_server()).url
        return MariaDB(spark, os.environ[variable])
    if name == "duckdb":
        folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="parity-applies-"))
        os.environ[variable] = str(Path(folder) / "bench.duckdb")
        return DuckDB(spark, os.environ[variable])
    return Spark(spark)


def _pair(engine: str, differences: int) -> dict:
    target, variable, _ = TARGETS[engine]
    sync: dict[str, Any] = {"max_corrections": max(differences, 1)}
    if variable:
        sync["apply_connection_env"] = variable
    return {
        "name": f"apply_{engine}",
        "source": {"source": ["bench", "bench_source"]},
        "target": {"source": target},
        "key": ["id"],
        "sync": sync,
    }


def _dbt(command: list[str], pairs: list[dict], **variables: Any):
    """dbt in this process (the same Spark session), the benchmark project's pairs in its vars."""
    settings = json.dumps({"parity": {"pairs": pairs}, **variables})
    result = dbtRunner().invoke([*command, "--quiet", *PROJECT, "--vars", settings])
    if not result.success:
        raise SystemExit(f"dbt {' '.join(command)} failed: {result.exception}")
    return result


def _found(spark: SparkSession) -> dict[str, int]:
    """Each pair's differing rows as the run published them."""
    summary = spark.table(f"{SCHEMA}.parity_summary").collect()
    return {r["pair_name"].removeprefix("apply_"): r["differing_rows"] for r in summary}


@dataclass
class Watch:
    """The apply's own function, its writer's call and the SQL writer's statements, timed from
    outside as the apply model makes them: the same functions, wrapped for the benchmark."""

    profile: Path | None
    dialect: str | None
    seconds: dict[str, float] = field(default_factory=dict)
    statements: dict[str, dict[str, Any]] = field(default_factory=dict)
    first: dict[str, tuple[str, list[Any]]] = field(default_factory=dict)

    def timed(self, name: str, call: Callable, profiled: bool = False) -> Callable:
        """``call`` timed under ``name``; with ``profiled`` and --profile, profiled too."""

        def timed_call(*arguments: Any) -> Any:
            started = time.perf_counter()
            try:
                if not (profiled and self.profile):
                    return call(*arguments)
                profiler = cProfile.Profile()
                try:
                    return profiler.runcall(call, *arguments)
                finally:
                    profiler.dump_stats(self.profile)
            finally:
                self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - started

        return timed_call

    def run(self, run: Callable) -> Callable:
        def timed_run(connection: Any, sql: str, params: Any) -> Any:
            started = time.perf_counter()
            try:
                return run(connection, sql, params)
            finally:
                kind = sql.split(None, 1)[0].lower()
                counted = self.statements.setdefault(
                    kind, {"count": 0, "round_trips": 0, "seconds": 0.0}
                )
                counted["count"] += 1
                # A MySQL statement's parameters are set by a statement of their own first.
                counted["round_trips"] += 2 if params and self.dialect == "mysql" else 1
                counted["seconds"] += time.perf_counter() - started
                self.first.setdefault(kind, (sql, list(params)))

        return timed_run


def _measure(
    spark: SparkSession, engine: Engine, pairs: list[dict], options: argparse.Namespace
) -> dict:
    name = engine.name
    profile = RESULTS / f"applies-{options.rows}-{name}.prof" if options.profile else None
    dialect = TARGETS[name][2]
    watch = Watch(profile, dialect)
    # The model imports apply_corrections as it runs; the apply calls its writer by its name in
    # the apply's module.
    wrapped = ("apply_corrections", "write_corrections", "write_spark_corrections")
    writers = {n: getattr(apply_module, n) for n in wrapped}
    session = WRITE_SESSIONS.get(dialect) if dialect else None
    for writer, write in writers.items():
        as_named = "apply" if writer == "apply_corrections" else "write"
        setattr(apply_module, writer, watch.timed(as_named, write, writer == "apply_corrections"))
    if session:
        WRITE_SESSIONS[dialect] = replace(session, run=watch.run(session.run))
    try:
        request = {"pair": f"apply_{name}", "write": True}
        seconds, result = timed(
            lambda: _dbt(["run", "--select", "parity_applies"], pairs, parity_apply=request)
        )
    finally:
        for writer, write in writers.items():
            setattr(apply_module, writer, write)
        if session:
            WRITE_SESSIONS[dialect] = session
    (node,) = [r for r in result.result.results if r.node.name == "parity_applies"]
    record = (
        spark.table(f"{SCHEMA}.parity_applies")
        .where(F.col("pair_name") == f"apply_{name}")
        .orderBy(F.desc("applied_at"))
        .first()
    )
    if record["outcome"] != "applied" or record["conflicts"]:
        raise SystemExit(f"{name}'s apply: {record['outcome']}, {record['reason']}")
    source = engine.checksum("bench_source")
    apply = {
        "seconds": round(seconds, 2),
        "model_seconds": round(node.execution_time, 2),
        "apply_corrections_seconds": round(watch.seconds["apply"], 2),
        "write_seconds": round(watch.seconds["write"], 2),
        "inserts": record["inserts"],
        "deletes": record["deletes"],
        "updates": record["updates"],
        "rows_written": record["inserts"] + record["deletes"] + record["updates"],
        "statements": {
            kind: {
                "count": c["count"],
                "round_trips": c["round_trips"],
                "seconds": round(c["seconds"], 2),
            }
            for kind, c in watch.statements.items()
        },
        "correct": engine.checksum("bench_target") == source,
    }
    if name == "spark":  # the whole table written beside the current one
        apply["rows_rewritten"] = engine.checksum("bench_target")[0]
    # Each kind of statement the SQL writer ran, its first one explained, once the apply is done
    # (its row changed since: what counts is how the engine finds it).
    apply["explained"] = {
        kind: {"sql": statement, "plan": engine.explain(statement, params)}
        for kind, (statement, params) in watch.first.items()
        if kind in ("select", "update", "delete")
    }
    if profile:
        apply["profile"] = str(profile)
        print(f"\n{name}: the apply (apply_corrections), its costliest calls (cumulative)")
        pstats.Stats(str(profile)).sort_stats("cumulative").print_stats(30)
    rewrites = {}
    for title, rewrite in engine.rewrites().items():
        seconds, _ = timed(rewrite)
        rewrites[title] = {
            "seconds": round(seconds, 2),
            "rows_written": source[0],
            "correct": engine.checksum("bench_target") == source,
        }
    return {
        "apply": apply,
        "rewrites": rewrites,
        "apply_over_rewrite": {
            t: round(apply["seconds"] / r["seconds"], 2) for t, r in rewrites.items()
        },
        "write_over_rewrite": {
            t: round(apply["write_seconds"] / r["seconds"], 2) for t, r in rewrites.items()
        },
        "correct": apply["correct"] and all(r["correct"] for r in rewrites.values()),
    }


def _line(name: str, figures: dict) -> str:
    apply = figures["apply"]
    rewrites = ", ".join(f"{t} {r['seconds']:.2f}s" for t, r in figures["rewrites"].items())
    return (
        f"{name}: apply {apply['seconds']:.2f}s (model {apply['model_seconds']:.2f}s,"
        f" apply_corrections {apply['apply_corrections_seconds']:.2f}s, write"
        f" {apply['write_seconds']:.2f}s, {apply['rows_written']:,} rows); {rewrites};"
        f" correct: {figures['correct']}"
    )


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--differences", type=int, default=10_000, help="planted in the target")
    parser.add_argument("--engines", nargs="+", default=list(ENGINES), choices=ENGINES)
    parser.add_argument("--profile", action="store_true", help="cProfile each apply's write")
    parser.add_argument("--output", type=Path)
    return parser.parse_args()


def _print(figures: dict, output: Path) -> None:
    print(
        f"\nparity's apply against rewriting the whole table: {figures['rows']:,} rows,"
        f" {figures['differences']:,} differences; the reconciling dbt run took"
        f" {figures['build_seconds']:.2f}s"
    )
    header = (
        f"  {'engine':9s}{'apply s':>9s}{'model s':>9s}{'write s':>9s}{'rewrite':>31s}"
        f"{'rewrite s':>11s}{'apply/rewrite':>15s}{'write/rewrite':>15s}{'rows, apply':>13s}"
        f"{'rows, rewrite':>15s}  correct"
    )
    print(header)
    for name, engine in figures["engines"].items():
        apply = engine["apply"]
        for title, rewrite in engine["rewrites"].items():
            print(
                f"  {name:9s}{apply['seconds']:9.2f}{apply['model_seconds']:9.2f}"
                f"{apply['write_seconds']:9.2f}{title:>31s}{rewrite['seconds']:11.2f}"
                f"{engine['apply_over_rewrite'][title]:15.2f}"
                f"{engine['write_over_rewrite'][title]:15.2f}{apply['rows_written']:13,}"
                f"{rewrite['rows_written']:15,}  {apply['correct'] and rewrite['correct']}"
            )
        statements = ", ".join(
            f"{kind} {c['count']:,} ({c['round_trips']:,} round trips, {c['seconds']:.2f}s)"
            for kind, c in apply["statements"].items()
        )
        if statements:
            print(f"  {'':9s}the apply's statements: {statements}")
        if "rows_rewritten" in apply:
            print(f"  {'':9s}the apply rewrote the table: {apply['rows_rewritten']:,} rows")
    print(f"figures written to {output}")


if __name__ == "__main__":
    main()
