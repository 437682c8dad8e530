"""A second dbt command on an embedded metastore that another process holds fails at once with
one line saying the project is in use, instead of Hive's twenty seconds of Derby stack traces."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

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

LOCKER = """
import fcntl, sys, time
lock = open(sys.argv[1], "rb+")
fcntl.lockf(lock, fcntl.LOCK_EX)
print("locked", flush=True)
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


@pytest.mark.unit
def test_a_lock_held_by_another_process_is_seen(tmp_path):
    assert not in_use(tmp_path / "no_metastore")
    (tmp_path / "dbex.lck").write_bytes(b"")
    assert not in_use(tmp_path)
    locker = started([sys.executable, "-c", LOCKER, str(tmp_path / "dbex.lck")], tmp_path, "locked")
    try:
        assert in_use(tmp_path)
    finally:
        locker.kill()
        locker.wait()
    assert not in_use(tmp_path)


def test_a_second_command_gets_one_line(tmp_path):
    holder = started([sys.executable, "-c", HOLDER], tmp_path, "holding")
    try:
        assert in_use(tmp_path / "metastore_db")
        began = time.monotonic()
        second = subprocess.run(
            [
                str(Path(sys.executable).parent / "dbt"),
                *("run", "--select", "parity_plan", "--project-dir", str(REPO)),
                *("--profiles-dir", str(REPO / "profiles"), "--target-path", str(tmp_path)),
                *("--log-path", str(tmp_path / "logs")),
            ],
            cwd=tmp_path,
            env={
                **with_test_jvm(),
                "PARITY_METASTORE_DIR": str(tmp_path / "metastore_db"),
                "PARITY_WAREHOUSE_DIR": str(tmp_path / "spark-warehouse"),
            },
            capture_output=True,
            text=True,
            timeout=300,
        )
        took = time.monotonic() - began
    finally:
        holder.kill()
        holder.wait()
    output = second.stdout + second.stderr
    assert second.returncode != 0
    assert f"parity: the embedded metastore {tmp_path / 'metastore_db'} is in use by another" in (
        output
    )
    assert "NucleusDataStoreException" not in output and len(output.splitlines()) < 40, output
    assert took < 60
