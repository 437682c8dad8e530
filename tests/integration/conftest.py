from __future__ import annotations

import pytest

from tests.integration.dbt_project_copy import DbtProject


@pytest.fixture(scope="session")
def demo(spark, tmp_path_factory) -> DbtProject:
    """The demo project at 3,000 rows, built once: every pair reconciled and tested."""
    project = DbtProject.copy_of_demo(tmp_path_factory.mktemp("demo") / "project", "parity_demo")
    project.build_result = project.dbt("build", vars=project.demo_vars())
    return project


@pytest.fixture(scope="session")
def scratch(spark, tmp_path_factory) -> DbtProject:
    """A copy of the demo in a schema of its own, with only the compared tables built, for tests
    that reconfigure pairs."""
    project = DbtProject.copy_of_demo(
        tmp_path_factory.mktemp("scratch") / "project", "parity_scratch"
    )
    built = project.dbt(
        "run", "--select", "legacy_orders lakehouse_orders", vars=project.demo_vars()
    )
    assert built.success
    return project
