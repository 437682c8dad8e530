"""An apply killed while it writes leaves its target as it was, on every engine it writes to:
PostgreSQL and MariaDB end the transaction of a client gone, DuckDB never wrote a transaction
that did not commit, and a Spark table is not pointed at a version whose write did not finish,
nor a directory of Parquet files swapped for one.
dbt runs in a process of its own, on a metastore of its own; each target's apply is killed
where killed_targets.py says (held by a trigger at its first update, or seen in its
transaction or its write), and then one apply of every pair corrects them all."""

from __future__ import annotations

import contextlib
import os
import signal
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from parity.sync.spark.version_names import previous_name
from tests.integration.correction_tables import TARGET
from tests.integration.killed_targets import (
    DuckdbTarget,
    KilledTarget,
    MariadbTarget,
    ParquetPathTarget,
    PostgresTarget,
    SparkTarget,
)
from tests.integration.separate_dbt import started_dbt
from tests.integration.test_stopped_runs import waited

SCHEMA = "parity_killed"
ENGINES = ["postgres", "mariadb", "duckdb", "spark", "parquet"]


@pytest.fixture(scope="module")
def targets(spark, postgres_url, mariadb_url, mariadb_admin_url, tmp_path_factory):
    folder = tmp_path_factory.mktemp("killed")
    return folder, [
        PostgresTarget(postgres_url),
        MariadbTarget(mariadb_url, mariadb_admin_url),
        DuckdbTarget(folder),
        SparkTarget(spark, folder / "spark-warehouse", SCHEMA),
        ParquetPathTarget(spark, folder),
    ]


@dataclass
class Outcome:
    target: KilledTarget
    # The rows once its apply was killed, then the next apply's record and the rows it left.
    killed: list[tuple]
    record: dict[str, Any] = field(default_factory=dict)
    corrected: list[tuple] = field(default_factory=list)


@pytest.fixture(scope="module")
def applies(scratch, spark, targets) -> dict[str, Outcome]:
    """Each target's apply killed in turn, then one apply of every pair."""
    folder, killed = targets
    environment = {name: value for t in killed for name, value in t.environment.items()}
    pairs = [t.pair for t in killed]

    def dbt(*args: str, **more: Any):
        extra = {"parity": {"pairs": pairs}, **more}
        return started_dbt(scratch.path, folder, SCHEMA, list(args), extra, environment)

    def apply(**asked: Any):
        return dbt("run", "--select", "parity_applies", parity_apply={**asked, "write": True})

    files: dict[str, str] = {}
    for target in killed:
        files.update(target.files)
        target.prepare()
    with ExitStack() as stack:
        for path, text in files.items():
            stack.enter_context(scratch.file(path, text))
        models = " ".join(Path(path).stem for path in files if path.endswith(".sql"))
        assert dbt("run", "--select", f"{models} parity_remote_relations+").wait(600) == 0

        outcomes = {t.engine: Outcome(t, _killed(apply(pair=t.name), t)) for t in killed}
        for target in killed:
            target.release()
        assert apply(pairs=[t.name for t in killed]).wait(600) == 0
        records = _records(spark, folder)
        for outcome in outcomes.values():
            outcome.record = records[outcome.target.name]
            outcome.corrected = outcome.target.rows(outcome.record)
        yield outcomes


def _killed(started, target: KilledTarget) -> list[tuple]:
    """The target's rows once its apply was killed where it lands, and the engine let go."""
    try:
        landed = waited(target.landed, 300, target.poll)
        assert landed, f"the {target.engine} apply never came where its kill lands"
        os.killpg(started.pid, signal.SIGKILL)
        assert waited(target.released, 30), f"{target.engine} kept what the killed apply held"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(started.pid, signal.SIGKILL)
        started.wait(timeout=30)
    assert not target.finished(), f"the kill came after the {target.engine} apply had finished"
    return target.rows({})


def _records(spark, folder: Path) -> dict[str, dict[str, Any]]:
    """The last apply's record of each pair, read by its files (parity_applies is in the
    separate dbt's catalog)."""
    history = folder / "spark-warehouse" / f"{SCHEMA}.db" / "parity_applies"
    rows = spark.read.parquet(str(history)).collect()
    return {r["pair_name"]: r.asDict() for r in rows}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_killed_apply_leaves_the_target_as_it_was(applies, engine):
    outcome = applies[engine]
    assert outcome.killed == outcome.target.before


@pytest.mark.parametrize("engine", ENGINES)
def test_the_next_apply_corrects_it_whole(applies, engine):
    target, record = applies[engine].target, applies[engine].record
    # Every correction found the rows as the run saw them: none was done already, none clashed.
    assert (record["outcome"], record["reason"], record["conflicts"]) == ("applied", "", 0)
    # Orders 2, 3, 7 and 10 (and the DuckDB target's many more) updated.
    updates = 4 + len(target.target_rows) - len(TARGET)
    assert (record["inserts"], record["deletes"], record["updates"]) == (4, 3, updates)
    assert applies[engine].corrected == target.corrected


@pytest.mark.parametrize("engine", ["spark", "parquet"])
def test_a_killed_spark_apply_leaves_its_half_written_version_unread(applies, engine):
    """The version the killed apply was writing stays beside the table or directory,
    unfinished; it was never swapped in, and the next apply wrote a version of its own."""
    target, record = applies[engine].target, applies[engine].record
    # The files' own location is the one it replaced (moved aside: the table is managed, and a
    # directory's path is where the next version goes).
    kept = previous_name(str(target.location), record["apply_id"])
    assert record["previous_location"].removeprefix("file:") == kept
    (left,) = [v for v in target.written() if not (v / "_SUCCESS").exists()]
    assert Path(record["location"].removeprefix("file:")) != left
