"""`make lint` lints the demo's models with the demo project: sqlfluff, run from demo/, reads the
settings of demo/.sqlfluff on top of the package's, and its dbt templater compiles the demo."""

from __future__ import annotations

from pathlib import Path

from sqlfluff.core import FluffConfig

from tests.conftest import REPO


def test_lint_templates_the_demo_models_with_the_demo_project(monkeypatch):
    # As `make lint` runs it: from demo/, so the dbt templater compiles the demo, not the package
    # (sqlfluff skips a model it cannot find in the project, with a warning and no failure).
    monkeypatch.chdir(REPO / "demo")
    config = FluffConfig.from_path("models")
    assert config.get("templater") == "dbt" and config.get("dialect") == "sparksql"
    project_dir = config.get("project_dir", section=["templater", "dbt"])
    assert Path(project_dir).resolve() == REPO / "demo"
