"""A user's dbt project, copied to a temporary folder and run with dbt in this process."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from dbt.cli.main import dbtRunner, dbtRunnerResult
from dbt.contracts.graph.manifest import Manifest

from tests.conftest import REPO

LEFT_BEHIND = shutil.ignore_patterns(
    "target", "dbt_packages", "logs", "spark-warehouse", "metastore_db", "package-lock.yml"
)


class DbtProject:
    def __init__(self, path: Path, schema: str) -> None:
        self.path = path
        self.schema = schema

    @classmethod
    def copy_of_demo(cls, destination: Path, schema: str) -> DbtProject:
        shutil.copytree(REPO / "demo", destination, ignore=LEFT_BEHIND)
        # Installed from the repository by path, exactly as a user's packages.yml would.
        (destination / "packages.yml").write_text(
            yaml.safe_dump({"packages": [{"local": str(REPO)}]})
        )
        project = cls(destination, schema)
        assert project.dbt("deps").success
        return project

    def write(self, relative: str, text: str) -> None:
        target = self.path / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)

    def dbt(
        self,
        *args: str,
        vars: dict[str, Any] | None = None,
        logged: list[str] | None = None,
        after_model: dict[str, Callable[[], None]] | None = None,
        manifest: Manifest | None = None,
    ) -> dbtRunnerResult:
        """Runs dbt on the project; ``logged`` collects the messages macros log, and
        ``after_model`` runs a function as soon as the model it names is built, before the next
        model starts (dbt calls its callbacks in the thread that runs the model). Given a
        ``manifest`` (what `dbt parse` returns), dbt runs on it without parsing the project."""
        os.environ["PARITY_SCHEMA"] = self.schema
        command = [*args, "--project-dir", str(self.path), "--profiles-dir", str(REPO / "profiles")]
        if vars is not None:
            command += ["--vars", yaml.safe_dump(vars)]
        callbacks = [] if logged is None else [lambda event: _collect(event, logged)]
        if after_model:
            callbacks.append(lambda event: _after_model(event, after_model))
        return dbtRunner(manifest=manifest, callbacks=callbacks).invoke(command)

    def demo_vars(self, **extra: Any) -> dict[str, Any]:
        settings = yaml.safe_load((self.path / "dbt_project.yml").read_text())["vars"]
        return {**settings, "orders_rows": 3000, **extra}


def error_text(result: dbtRunnerResult) -> str:
    """Everything dbt said went wrong, whether at parse time or in a node."""
    parts = [str(result.exception or "")]
    for node_result in getattr(result.result, "results", None) or []:
        parts.append(str(node_result.message or ""))
    return "\n".join(parts)


def _after_model(event: Any, actions: dict[str, Callable[[], None]]) -> None:
    if event.info.name == "NodeFinished" and event.data.node_info.node_name in actions:
        actions[event.data.node_info.node_name]()


def _collect(event: Any, logged: list[str]) -> None:
    if event.info.name in ("JinjaLogInfo", "JinjaLogDebug"):
        logged.append(event.data.msg)
