"""parity's lock on an embedded metastore, between plain Python processes (no JVM, no dbt
command): a lock another process holds is seen, the threads of one command all hold their own
process's, and of two commands started together one runs and the other is refused, the lock going
with the process that held it. (dbt commands on a metastore in use:
tests/integration/test_metastore_in_use.py.)"""

from __future__ import annotations

import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from dbt_parity.metastore_in_use import claimed, in_use

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


def started(command: list[str], cwd: Path, ready: str) -> subprocess.Popen:
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == ready
    return process


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


def test_threads_of_one_command_opening_at_once_all_hold_its_lock(tmp_path):
    """dbt's threads open their first connections together (`threads: 4`): each finds the lock
    its own process's, none a second process's."""
    start = threading.Barrier(8)

    def claim(_: int) -> bool:
        start.wait()
        return claimed(tmp_path / "metastore_db")

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert list(pool.map(claim, range(8))) == [True] * 8


def test_of_two_commands_started_together_one_runs_and_the_other_is_refused(tmp_path):
    """Before either has booted Derby: parity's own lock decides, held while the first lives.
    The one that runs holds it until the test kills it, once both have said what they do."""
    url = f"jdbc:derby:;databaseName={tmp_path / 'metastore_db'};create=true"
    checkers = [
        subprocess.Popen(
            [sys.executable, "-c", CHECKER, url, "600"], stdout=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    try:
        said = [checker.stdout.readline().strip() for checker in checkers]
        # The refused one exits; the one running is still running (no exit code), its lock held.
        codes = [
            checker.poll() if line == "running" else checker.wait(timeout=60)
            for checker, line in zip(checkers, said, strict=True)
        ]
    finally:
        for checker in checkers:
            checker.kill()
            checker.wait()
    by_line = sorted(zip(said, codes, strict=True), key=lambda line_code: line_code[0])
    (refused, refused_code), (ran, ran_code) = by_line
    assert ran == "running" and ran_code is None and refused_code == 1, said
    assert f"parity: the embedded metastore {tmp_path / 'metastore_db'} is in use" in refused
    # The lock goes with the process that held it, killed above: a later command runs.
    again = subprocess.run(
        [sys.executable, "-c", CHECKER, url, "0"], capture_output=True, text=True, timeout=60
    )
    assert again.stdout.strip() == "running", again.stderr
