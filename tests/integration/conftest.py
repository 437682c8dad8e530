from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import PACKAGE_ANALYSES, dbt_on_package
from tests.integration.dbt_project_copy import DbtProject
from tests.integration.mariadb_server import mariadb_server
from tests.integration.matrix_run import reconcile_matrices
from tests.integration.postgres_server import postgres_server
from tests.integration.remote_tables import (
    DUCKDB_ENV,
    POSTGRES_ENV,
    SOURCES,
    copy_to_duckdb,
    copy_to_postgres,
)
from tests.integration.run_results import PublishedRun


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


@pytest.fixture(scope="session")
def postgres_cluster():
    """A PostgreSQL server on 127.0.0.1 that lives as long as the test session."""
    with postgres_server() as cluster:
        yield cluster


@pytest.fixture(scope="session")
def postgres_url(postgres_cluster) -> str:
    """The URL of the server's role `parity`, no superuser, owner of the database `postgres`."""
    return postgres_cluster.url


@pytest.fixture(scope="session")
def postgres_admin_url(postgres_cluster) -> str:
    """The URL of the server's superuser, for the tests that need one."""
    return postgres_cluster.admin_url


@pytest.fixture(scope="session")
def mariadb_cluster():
    """A MariaDB server (the mysql dialect) on 127.0.0.1 that lives as long as the test session."""
    with mariadb_server() as cluster:
        yield cluster


@pytest.fixture(scope="session")
def mariadb_url(mariadb_cluster) -> str:
    """The URL of the server's user `parity`, who may do anything in the database `parity`."""
    return mariadb_cluster.url


@pytest.fixture(scope="session")
def mariadb_admin_url(mariadb_cluster) -> str:
    """The URL of the server's user `parity_admin`, who may do anything (create users)."""
    return mariadb_cluster.admin_url


@pytest.fixture(scope="session")
def remote_legacy(scratch, spark, tmp_path_factory, postgres_url):
    """The scratch project's legacy orders copied into DuckDB and PostgreSQL, both declared as
    sources of the project."""
    table = f"{scratch.schema}.legacy_orders"
    database = copy_to_duckdb(spark, table, tmp_path_factory.mktemp("duckdb"))
    copy_to_postgres(spark, table, postgres_url)
    with pytest.MonkeyPatch.context() as patch, scratch.file("models/legacy_sources.yml", SOURCES):
        patch.setenv(DUCKDB_ENV, str(database))
        patch.setenv(POSTGRES_ENV, postgres_url)
        yield postgres_url


@pytest.fixture(scope="session")
def matrices(spark, postgres_url, mariadb_url, tmp_path_factory) -> PublishedRun:
    """The type, time, MySQL and decimal matrices, reconciled in one dbt run (matrix_run.py)."""
    with pytest.MonkeyPatch.context() as patch:
        yield reconcile_matrices(
            spark, postgres_url, mariadb_url, tmp_path_factory.mktemp("matrices"), patch
        )


@pytest.fixture(scope="session")
def analyses(spark, tmp_path_factory) -> dict[str, dict[str, str]]:
    """Every analysis of the package, as `dbt compile` renders it in this process, in the tests'
    session, by folder and name; dbt writes only to a temporary folder."""
    compiled = dbt_on_package(
        tmp_path_factory.mktemp("analyses"),
        "compile",
        "--select",
        "path:analyses",
        *PACKAGE_ANALYSES,
    )
    rendered: dict[str, dict[str, str]] = {}
    for result in compiled.result.results:
        path = Path(result.node.original_file_path)
        rendered.setdefault(path.parent.name, {})[path.stem] = result.node.compiled_code
    return rendered


@pytest.fixture(scope="session")
def canonical_selects(analyses) -> dict[str, str]:
    """The canonical select of every dialect (analyses/canonical_select/<dialect>.sql)."""
    return analyses["canonical_select"]


@pytest.fixture(scope="session")
def remote_queries(analyses) -> dict[str, str]:
    """The queries parity sends a side of each engine it connects to
    (analyses/remote_queries/<dialect>_queries.sql), by dialect."""
    return {name.removesuffix("_queries"): sql for name, sql in analyses["remote_queries"].items()}
