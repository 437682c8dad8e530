"""The targets a killed apply is tested on, one per engine, each with where its kill lands: what
the test waits for before it kills dbt (the apply held, or seen mid-way), what the engine must
let go of afterwards, what shows the apply had not finished, and the table's rows. Each holds
correction_tables' TARGET, to be corrected to its SOURCE (the DuckDB one many rows more)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg

from tests.integration.correction_tables import NOON, SOURCE, TARGET, model
from tests.integration.mariadb_server import client
from tests.integration.remote_tables import engine_sources
from tests.integration.test_apply_parquet_paths import files_sources
from tests.integration.test_apply_spark import ordered, rows_of
from tests.integration.test_apply_sql import CORRECTED, SCHEMAS, Target, expected, filled


def pair(name: str, target: dict[str, Any], source: str, **sync: Any) -> dict[str, Any]:
    return {
        "name": name,
        "source": {"ref": source},
        "target": target,
        "key": ["id", "region"],
        "enforce_key": "warn",
        "tolerance": {"columns": {"amount": {"abs_tol": 0.01}}},
        "sync": sync,
    }


class KilledTarget:
    """What every target shares; an engine's class says where its kill lands."""

    engine: str
    # How often the test looks whether the apply is where the kill lands, in seconds: a hold
    # keeps it there; a moment seen in passing is looked for often.
    poll = 0.5

    def __init__(self, source_rows=SOURCE, target_rows=TARGET) -> None:
        self.name = f"killed_{self.engine}"
        self.source = "correction_source" if source_rows is SOURCE else f"{self.name}_source"
        self.target_rows = target_rows
        self.before = self.shown(target_rows)
        # The source's rows, but for order 6's amount, within its tolerance: never corrected.
        self.corrected = self.shown(CORRECTED + source_rows[len(SOURCE) :])
        # The project's files beside the scratch project's, by path.
        self.files = {f"models/{self.source}.sql": model(source_rows)}
        self.environment: dict[str, str] = {}

    @staticmethod
    def shown(rows) -> list[tuple]:
        """correction_tables' rows as ``rows`` returns them."""
        raise NotImplementedError

    def prepare(self) -> None:
        """The table as the run will find it, and what holds the apply."""

    def landed(self) -> bool:
        """Before the kill: the apply is where its kill lands."""
        raise NotImplementedError

    def released(self) -> bool:
        """After the kill: the engine let go of what the apply held."""
        return True

    def finished(self) -> bool:
        """After the kill: whether the apply got past its commit (its swap) first. Held by a
        trigger at an update, it cannot have."""
        return False

    def release(self) -> None:
        """Lets the next apply through."""

    def rows(self, applied: dict[str, Any]) -> list[tuple]:
        """The table's rows, as the apply ``applied`` (its record, or {}) left it."""
        raise NotImplementedError


class SqlTarget(KilledTarget):
    """The table `corrected` outside Spark, read and written through one variable."""

    shown = staticmethod(expected)

    def __init__(self, location: str, **rows: Any) -> None:
        super().__init__(**rows)
        self.location = location
        variable = f"PARITY_TEST_KILLED_{self.engine.upper()}"
        self.environment = {variable: location}
        self.pair = pair(
            self.name,
            {"source": [self.name, "corrected"]},
            self.source,
            apply_connection_env=variable,
            max_corrections=len(self.target_rows) + len(SOURCE),
        )
        schema = SCHEMAS[self.dialect]
        sources = engine_sources(self.name, self.dialect, variable, schema, ["corrected"])
        self.files[f"models/{self.name}_sources.yml"] = sources

    @property
    def dialect(self) -> str:
        return "mysql" if self.engine == "mariadb" else self.engine

    def prepare(self) -> None:
        filled(self.dialect, self.location, self.target_rows)

    def rows(self, applied: dict[str, Any]) -> list[tuple]:
        return Target(self.dialect, self.location).held()


class PostgresTarget(SqlTarget):
    """Held by a trigger at its first update, after its deletes and with the relation locked.
    The server ends a gone client's query and transaction within a second: the apply's session
    sets client_connection_check_interval (sync/sql/sessions.py)."""

    engine = "postgres"
    HOLD = """
    drop function if exists hold cascade;
    create function hold() returns trigger language plpgsql as
    $$ begin perform pg_sleep(300); return new; end $$;
    create trigger held before update on corrected for each row execute function hold();
    """
    HELD = (
        "select count(*) from pg_stat_activity"
        " where state = 'active' and wait_event = 'PgSleep' and pid <> pg_backend_pid()"
        " and query ilike 'update %corrected%'"
    )

    def prepare(self) -> None:
        super().prepare()
        self._run(self.HOLD)

    def landed(self) -> bool:
        return self._run(self.HELD) == 1

    def released(self) -> bool:
        return self._run(self.HELD) == 0

    def release(self) -> None:
        self._run("drop trigger held on corrected")

    def _run(self, sql: str) -> int | None:
        with psycopg.connect(self.location, autocommit=True) as connection:
            cursor = connection.execute(sql)
            return cursor.fetchone()[0] if cursor.description else None


class MariadbTarget(SqlTarget):
    """Held by a trigger that sleeps at its first update, after its deletes and with the rows
    of the keys it read locked. MariaDB ends a sleep whose client is gone within five seconds,
    and rolls its transaction back: no transaction is left open on the server (which its
    administrator sees; `parity` sees only its own sessions)."""

    engine = "mariadb"
    HOLD = "create trigger held before update on corrected for each row do sleep(300)"
    SLEEPING = "select count(*) from information_schema.processlist where state = 'User sleep'"
    OPEN = "select count(*) from information_schema.innodb_trx"

    def __init__(self, url: str, admin_url: str) -> None:
        super().__init__(url)
        self.admin_url = admin_url

    def prepare(self) -> None:
        super().prepare()
        self._run(self.location, self.HOLD)

    def landed(self) -> bool:
        return self._run(self.location, self.SLEEPING) == 1

    def released(self) -> bool:
        return self._run(self.admin_url, self.OPEN) == 0

    def release(self) -> None:
        self._run(self.location, "drop trigger held")

    @staticmethod
    def _run(url: str, sql: str) -> int | None:
        connection = client(url)
        try:
            with connection.cursor() as cursor:
                cursor.execute(sql)
                return cursor.fetchone()[0] if cursor.description else None
        finally:
            connection.close()


# Rows of the DuckDB target whose label the source writes otherwise: an update each, enough that
# the apply's transaction lasts seconds (about 2 ms a correction), which the kill lands in.
MANY = range(100, 1600)


class DuckdbTarget(SqlTarget):
    """Killed as soon as the apply holds the database file open to write (the lock it takes,
    in /proc/locks), and so is in its transaction, which it begins at once and which lasts
    seconds. DuckDB writes a transaction's changes to the file's write-ahead log only at its
    commit: no `.wal` beside the file, and the file as it was, show the kill came before it."""

    engine = "duckdb"
    poll = 0.02

    def __init__(self, folder: Path) -> None:
        filler = [(i, "us", "1.0000000000", "s", None, NOON) for i in MANY]
        super().__init__(
            str(folder / "target.duckdb"),
            source_rows=SOURCE + filler,
            target_rows=TARGET + [(*r[:3], "t", *r[4:]) for r in filler],
        )
        self.file = Path(self.location)
        self.log = self.file.with_name(self.file.name + ".wal")

    def prepare(self) -> None:
        super().prepare()
        self.as_prepared = self._stat()

    def landed(self) -> bool:
        return "WRITE" in self._locks()

    def released(self) -> bool:
        return not self._locks()

    def finished(self) -> bool:
        return self.log.exists() or self._stat() != self.as_prepared

    def _stat(self) -> tuple[int, int]:
        stat = self.file.stat()
        return stat.st_size, stat.st_mtime_ns

    def _locks(self) -> str:
        """The kinds of the locks held on the database file (`READ`, `WRITE`)."""
        inode = f":{self.file.stat().st_ino} "
        lines = Path("/proc/locks").read_text().splitlines()
        return " ".join(line.split()[3] for line in lines if inode in line)


class WrittenBesideTarget(KilledTarget):
    """Parquet files Spark corrects, killed as soon as the apply begins writing the corrected
    version beside them (the directory `<location>.parity-<apply id>`), before it swaps that
    version in; a version whose write finished holds `_SUCCESS`, and so does one a swap begun
    moved aside (written by Spark too). Read by its files, as the apply left them."""

    poll = 0.02
    shown = staticmethod(ordered)

    def __init__(self, spark, folder: Path) -> None:
        super().__init__()
        self.spark = spark
        self.location = folder / self.name

    def landed(self) -> bool:
        return bool(self.written())

    def finished(self) -> bool:
        return any((version / "_SUCCESS").exists() for version in self.written())

    def written(self) -> list[Path]:
        """The versions applies wrote beside the files, or moved aside from their place."""
        return list(self.location.parent.glob(f"{self.name}.parity-*"))

    def rows(self, applied: dict[str, Any]) -> list[tuple]:
        location = applied.get("location") or str(self.location)
        return rows_of(self.spark, f"parquet.`{location}`")


class SparkTarget(WrittenBesideTarget):
    """A Parquet table in the session's catalog, its version swapped in by pointing the table
    at it. The table is read by its files: its catalog is the separate dbt's, which no other
    process opens; the next apply reads it through the catalog, and its record names the
    location it replaced."""

    engine = "spark"

    def __init__(self, spark, warehouse: Path, schema: str) -> None:
        super().__init__(spark, warehouse / f"{schema}.db")
        self.pair = pair(self.name, {"ref": self.name}, self.source, max_corrections=len(TARGET))
        self.files[f"models/{self.name}.sql"] = model(TARGET)


class ParquetPathTarget(WrittenBesideTarget):
    """A directory of Parquet files (read as parquet.`path`), its version swapped in by renames:
    the directory moved aside (`<path>.parity-before-<apply id>`), the version into its place."""

    engine = "parquet"

    def __init__(self, spark, folder: Path) -> None:
        super().__init__(spark, folder / "files")
        self.pair = pair(
            self.name, {"source": [self.name, "orders"]}, self.source, max_corrections=len(TARGET)
        )
        paths = {"orders": str(self.location)}
        self.files[f"models/{self.name}.yml"] = files_sources(self.name, paths)

    def prepare(self) -> None:
        self.spark.sql(model(TARGET)).write.parquet(str(self.location))
