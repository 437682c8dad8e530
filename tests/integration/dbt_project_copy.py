"""A user's dbt project, copied to a temporary folder and run with dbt in this process."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml
from dbt.cli.main import dbtRunner, dbtRunnerResult
from dbt.contracts.graph.manifest import Manifest

from tests.conftest import REPO

LEFT_BEHIND_NAMES = (
    "target",
    "dbt_packages",
    "logs",
    "spark-warehouse",
    "metastore_db",
    "package-lock.yml",
)
LEFT_BEHIND = shutil.ignore_patterns(*LEFT_BEHIND_NAMES)


class DbtProject:
    def __init__(self, path: Path, schema: str) -> None:
        self.path = path
        self.schema = schema
        self._manifests: dict[str, Manifest] = {}

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

    @contextmanager
    def file(self, relative: str, text: str) -> Iterator[None]:
        """A file of the project for as long as the block runs: the tests that share a project
        (the scratch copy) find it as it was, whatever failed in the block."""
        self.write(relative, text)
        try:
            yield
        finally:
            (self.path / relative).unlink(missing_ok=True)

    def dbt(
        self,
        *args: str,
        vars: dict[str, Any] | None = None,
        logged: list[str] | None = None,
        after_model: dict[str, Callable[[], None]] | None = None,
        manifest: Manifest | None = None,
        parse_once: bool = False,
    ) -> dbtRunnerResult:
        """Runs dbt on the project; ``logged`` collects the messages macros log, and
        ``after_model`` runs a function as soon as the model it names is built, before the next
        model starts (dbt calls its callbacks in the thread that runs the model). Given a
        ``manifest`` (what `dbt parse` returns), dbt runs on it without parsing the project;
        with ``parse_once``, on the manifest of `parsed`."""
        if parse_once and manifest is None and vars is not None:
            manifest = self.parsed(vars)
        command = [*args, "--project-dir", str(self.path), "--profiles-dir", str(REPO / "profiles")]
        if vars is not None:
            command += ["--vars", yaml.safe_dump(vars)]
        callbacks = [] if logged is None else [lambda event: _collect(event, logged)]
        if after_model:
            callbacks.append(lambda event: _after_model(event, after_model))
        # The profile reads the project's schema; other commands of the session find it as it was.
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("PARITY_SCHEMA", self.schema)
            return dbtRunner(manifest=manifest, callbacks=callbacks).invoke(command)

    def parsed(self, vars: dict[str, Any]) -> Manifest | None:
        """The project as `dbt parse` reads it with ``vars``, parsed once for as long as its files,
        its vars but the pairs, and the relations the pairs name stay the same (parsing the plan
        makes each named relation one of its dependencies); None when the parse fails, so the
        command parses itself and fails as a user sees it. Parsing is a quarter of a one-pair
        run, and the models read the pairs again when they compile, checking them as they do
        (test_configuration_errors.py)."""
        unpaired = {name: value for name, value in vars.items() if name != "parity"}
        key = f"{self._files_digest()} {yaml.safe_dump(unpaired)} {_relations_named(vars)}"
        if key not in self._manifests:
            result = self.dbt("parse", vars=vars)
            if not result.success:
                return None
            self._manifests[key] = result.result
        return self._manifests[key]

    def _files_digest(self) -> str:
        """The project's own files (its sources, models, tests and settings), by content."""
        digest = hashlib.sha256()
        for folder, subfolders, files in os.walk(self.path):
            subfolders[:] = sorted(d for d in subfolders if d not in LEFT_BEHIND_NAMES)
            for name in sorted(set(files) - set(LEFT_BEHIND_NAMES)):
                path = Path(folder, name)
                digest.update(f"{path.relative_to(self.path)}\0".encode() + path.read_bytes())
        return digest.hexdigest()

    def demo_vars(self, **extra: Any) -> dict[str, Any]:
        settings = yaml.safe_load((self.path / "dbt_project.yml").read_text())["vars"]
        return {**settings, "orders_rows": 3000, **extra}


def _relations_named(vars: dict[str, Any]) -> list[str]:
    """The relations the pairs name, each side as its `ref` or `source`."""
    pairs = (vars.get("parity") or {}).get("pairs") or []
    sides = [pair.get(side) for pair in pairs for side in ("source", "target")]
    named = {
        json.dumps({k: side[k] for k in ("ref", "source") if k in side}, sort_keys=True)
        for side in sides
        if isinstance(side, dict)
    }
    return sorted(named)


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
    if event.info.name in ("JinjaLogInfo", "JinjaLogDebug", "JinjaLogWarning"):
        logged.append(event.data.msg)
