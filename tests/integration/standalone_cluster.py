"""A real Spark standalone cluster on 127.0.0.1: a master and workers started from pyspark's own
`bin/spark-class` (nothing downloaded), each a process of its own, whose executors are processes
of their own too.

Every service listens on 127.0.0.1 only; the master's REST submission server is off.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pyspark

from tests.conftest import JVM_OPTIONS
from tests.integration.postgres_server import free_port

SPARK_CLASS = Path(pyspark.__file__).parent / "bin" / "spark-class"
STARTUP_SECONDS = 90


@dataclass(frozen=True)
class Cluster:
    url: str
    folder: Path

    def workers_running_executors(self) -> int:
        """How many workers started an executor for an application."""
        return sum(
            "Asked to launch executor" in log.read_text(errors="replace")
            for log in self.folder.glob("worker-*.log")
        )


@contextmanager
def standalone_cluster(workers: int = 1, cores: int = 2, memory: str = "1g") -> Iterator[Cluster]:
    """Starts a master and ``workers`` workers, waits until every worker has registered, and
    yields the cluster (its master's URL); stops every process of the cluster afterwards."""
    port = free_port()
    url = f"spark://127.0.0.1:{port}"
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="parity-spark-")))
        (folder / "conf").mkdir()
        environment = {
            **os.environ,
            "SPARK_LOCAL_IP": "127.0.0.1",
            "SPARK_MASTER_OPTS": "-Dspark.master.rest.enabled=false",
            # A configuration folder of its own, so Spark's default logging (INFO) writes the
            # lines that say the cluster is up, whatever SPARK_CONF_DIR the caller set.
            "SPARK_CONF_DIR": str(folder / "conf"),
            # The tests' JVM options (tests/conftest.py) in every JVM of the cluster, executors
            # included: they inherit their worker's environment.
            "JAVA_TOOL_OPTIONS": JVM_OPTIONS,
        }
        master_log = folder / "master.log"
        stack.enter_context(
            _service(
                [
                    *("org.apache.spark.deploy.master.Master", "--host", "127.0.0.1"),
                    *("--port", str(port), "--webui-port", str(free_port())),
                ],
                master_log,
                environment,
            )
        )
        _wait_for(master_log, "I have been elected leader")
        # The workers start side by side, each JVM's start-up overlapping the others'.
        logs = [folder / f"worker-{number}.log" for number in range(workers)]
        for number, log in enumerate(logs):
            stack.enter_context(
                _service(
                    [
                        *("org.apache.spark.deploy.worker.Worker", url, "--host", "127.0.0.1"),
                        *("--cores", str(cores), "--memory", memory, "--webui-port", "0"),
                        *("--work-dir", str(folder / f"work-{number}")),
                    ],
                    log,
                    environment,
                )
            )
        for log in logs:
            _wait_for(log, "Successfully registered with master")
        yield Cluster(url, folder)


@contextmanager
def _service(arguments: list[str], log: Path, environment: dict[str, str]) -> Iterator[None]:
    """One JVM of the cluster, in a process group of its own: stopping the group also stops
    the executors a worker started."""
    with log.open("w") as output:
        process = subprocess.Popen(
            [str(SPARK_CLASS), *arguments],
            stdout=output,
            stderr=subprocess.STDOUT,
            env=environment,
            start_new_session=True,
        )
    try:
        yield
    finally:
        _stop(process)


def _stop(process: subprocess.Popen) -> None:
    for sent in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sent)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=20)
            return
        except subprocess.TimeoutExpired:
            continue


def _wait_for(log: Path, line: str) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if line in log.read_text(errors="replace"):
            return
        time.sleep(0.5)
    raise RuntimeError(f"the Spark cluster did not start: no '{line}' in {log}")
