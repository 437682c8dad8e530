"""A second dbt command on an embedded metastore that another process holds fails at once with
one line saying the project is in use, instead of Hive's twenty seconds of Derby stack traces."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from dbt_parity.metastore_in_use import claimed, in_use
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


CHECKER = """
import sys, time
from dbt_parity.metastore_in_use import check
try:
    check({"spark.hadoop.javax.jdo.option.ConnectionURL": sys.argv[1]})
except Exception as error:
    print(" ".join(str(error).split()), flush=True)
    sys.exit(1)
print("running", flush=True)
time.sleep(float(sys.argv[2]))
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


@pytest.mark.unit
def test_threads_of_one_command_opening_at_once_all_hold_its_lock(tmp_path):
    """dbt's threads open their first connections together (`threads: 4`): each finds the lock
    its own process's, none a second process's."""
    start = threading.Barrier(8)

    def claim(_: int) -> bool:
        start.wait()
        return claimed(tmp_path / "metastore_db")

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert list(pool.map(claim, range(8))) == [True] * 8


@pytest.mark.unit
def test_of_two_commands_started_together_one_runs_and_the_other_is_refused(tmp_path):
    """Before either has booted Derby: parity's own lock decides, held while the first lives."""
    url = f"jdbc:derby:;databaseName={tmp_path / 'metastore_db'};create=true"
    checkers = [
        subprocess.Popen(
            [sys.executable, "-c", CHECKER, url, "5"], stdout=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    try:
        said = sorted(checker.stdout.readline().strip() for checker in checkers)
        codes = sorted(checker.wait(timeout=60) for checker in checkers)
    finally:
        for checker in checkers:
            checker.kill()
    refused, ran = said
    assert ran == "running" and codes == [0, 1], said
    assert f"parity: the embedded metastore {tmp_path / 'metastore_db'} is in use" in refused
    # The lock goes with the process that held it: a later command runs.
    again = subprocess.run(
        [sys.executable, "-c", CHECKER, url, "0"], capture_output=True, text=True, timeout=60
    )
    assert again.stdout.strip() == "running", again.stderr


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
