"""A second dbt command on an embedded metastore that another process holds fails at once with
one line saying the project is in use, instead of Hive's twenty seconds of Derby stack traces.
The lock that decides it, between plain Python processes: tests/unit/test_metastore_lock.py."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from dbt_parity.metastore_in_use import in_use
from tests.conftest import JVM_OPTIONS, REPO

HOLDER = """
import sys, time
from pyspark.sql import SparkSession
session = (
    SparkSession.builder.master("local[1]").enableHiveSupport()
    .config("spark.ui.enabled", "false")
    .config("spark.sql.warehouse.dir", "spark-warehouse")
    .config("spark.hadoop.javax.jdo.option.ConnectionURL",
            "jdbc:derby:;databaseName=metastore_db;create=true")
    .getOrCreate()
)
session.sql("show databases").collect()
print("holding", flush=True)
time.sleep(600)
"""


def with_test_jvm() -> dict[str, str]:
    """This process's environment, with the tests' JVM options for a subprocess's JVM
    (tests/conftest.py): the holder's, and the second command's should it start one."""
    return {**os.environ, "JAVA_TOOL_OPTIONS": JVM_OPTIONS}


def started(command: list[str], cwd: Path, ready: str) -> subprocess.Popen:
    process = subprocess.Popen(
        command, cwd=cwd, stdout=subprocess.PIPE, text=True, env=with_test_jvm()
    )
    assert process.stdout.readline().strip() == ready
    return process


def dbt_plan(folder: Path, metastore: Path) -> subprocess.Popen:
    """`dbt run --select parity_plan` of the package, in ``folder``, on ``metastore``."""
    return subprocess.Popen(
        [
            str(Path(sys.executable).parent / "dbt"),
            *("run", "--select", "parity_plan", "--project-dir", str(REPO)),
            *("--profiles-dir", str(REPO / "profiles"), "--target-path", str(folder)),
            *("--log-path", str(folder / "logs")),
        ],
        cwd=folder,
        env={
            **with_test_jvm(),
            "PARITY_METASTORE_DIR": str(metastore),
            "PARITY_WAREHOUSE_DIR": str(metastore.with_name("spark-warehouse")),
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def test_two_commands_started_together_one_is_refused_in_one_line(tmp_path):
    metastore = tmp_path / "metastore_db"
    folders = [tmp_path / "first", tmp_path / "second"]
    began = time.monotonic()
    commands = []
    for folder in folders:
        folder.mkdir()
        commands.append(dbt_plan(folder, metastore))
    try:
        outputs = []
        for command in commands:
            outputs.append((command.communicate(timeout=300)[0], time.monotonic() - began))
    finally:
        for command in commands:
            command.kill()
    said = f"parity: the embedded metastore {metastore} is in use by another"
    refused = [(output, took) for output, took in outputs if said in output]
    assert len(refused) == 1, [output[-2000:] for output, _ in outputs]
    ((output, took),) = refused
    assert "NucleusDataStoreException" not in output and len(output.splitlines()) < 40, output
    assert took < 60


def test_a_second_command_gets_one_line(tmp_path):
    holder = started([sys.executable, "-c", HOLDER], tmp_path, "holding")
    try:
        assert in_use(tmp_path / "metastore_db")
        began = time.monotonic()
        second = dbt_plan(tmp_path, tmp_path / "metastore_db")
        output = second.communicate(timeout=300)[0]
        took = time.monotonic() - began
    finally:
        holder.kill()
        holder.wait()
    assert second.returncode != 0
    assert f"parity: the embedded metastore {tmp_path / 'metastore_db'} is in use by another" in (
        output
    )
    assert "NucleusDataStoreException" not in output and len(output.splitlines()) < 40, output
    assert took < 60
