"""dbt in a process of its own, for the tests that stop it: its own process group (a kill takes
its Spark JVM with it), its own metastore, warehouse, target and logs under ``folder``, the
project's vars with ``extra`` on top, and the tests' JVM options."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from tests.conftest import JVM_OPTIONS, REPO


def started_dbt(
    project: Path,
    folder: Path,
    schema: str,
    args: list[str],
    extra: dict[str, Any],
    environment: dict[str, str] | None = None,
) -> subprocess.Popen:
    settings = yaml.safe_load((project / "dbt_project.yml").read_text())["vars"]
    command = [
        str(Path(sys.executable).parent / "dbt"),
        *args,
        *("--project-dir", str(project), "--profiles-dir", str(REPO / "profiles")),
        *("--target-path", str(folder / "target"), "--log-path", str(folder / "logs")),
        *("--vars", yaml.safe_dump({**settings, **extra})),
    ]
    return subprocess.Popen(
        command,
        cwd=folder,
        env={
            **os.environ,
            **(environment or {}),
            "JAVA_TOOL_OPTIONS": JVM_OPTIONS,
            "PARITY_SCHEMA": schema,
            "PARITY_METASTORE_DIR": str(folder / "metastore_db"),
            "PARITY_WAREHOUSE_DIR": str(folder / "spark-warehouse"),
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
