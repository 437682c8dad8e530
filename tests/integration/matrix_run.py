"""The type, time, MySQL, decimal and decimal-against-float matrices (type_matrix.py,
time_matrix.py, mysql_matrix.py, decimal_matrix.py, decimal_float_matrix.py) written into their
engines and reconciled in one dbt run, in a copy of the demo of their own: each matrix's test
module reads its own pairs' results from that run (run_results.PublishedRun): the matrices'
pairs (whose names differ) in one run cost about what one matrix's run did. The variables naming
each engine's database are set through ``patch``, for as long as its caller keeps them."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyspark.sql import SparkSession

from tests.integration import (
    decimal_float_matrix,
    decimal_matrix,
    mysql_matrix,
    time_matrix,
    type_matrix,
)
from tests.integration.dbt_project_copy import DbtProject, error_text
from tests.integration.remote_tables import reconcile
from tests.integration.run_results import PublishedRun
from tests.integration.test_decimal_float_pairs import matrix_pairs as decimal_float_pairs
from tests.integration.test_decimal_matrix import matrix_pairs as decimal_pairs
from tests.integration.test_mysql_matrix import matrix_pairs as mysql_pairs
from tests.integration.test_time_matrix import matrix_pairs as time_pairs
from tests.integration.test_type_matrix import matrix_pairs as type_pairs


def reconcile_matrices(
    spark: SparkSession,
    postgres_url: str,
    mariadb_url: str,
    folder: Path,
    patch: pytest.MonkeyPatch,
) -> PublishedRun:
    project = DbtProject.copy_of_demo(folder / "project", "parity_matrices")
    schema = project.schema
    spark.sql(f"create schema if not exists {schema}")

    type_matrix.write_spark_table(spark, schema)
    type_matrix.copy_to_postgres(spark, schema, postgres_url)
    database = type_matrix.copy_to_duckdb(spark, schema, _folder(folder / "type_matrix"))
    patch.setenv(type_matrix.PG_ENV, postgres_url)
    patch.setenv(type_matrix.DUCKDB_ENV, str(database))
    project.write("models/matrix_sources.yml", type_matrix.SOURCES)

    database, parquet = time_matrix.write_duckdb(_folder(folder / "time_matrix"))
    time_matrix.write_postgres(postgres_url)
    patch.setenv(time_matrix.PG_ENV, postgres_url)
    patch.setenv(time_matrix.DUCKDB_ENV, str(database))
    time_matrix.write_spark(spark, schema, parquet)
    project.write("models/time_sources.yml", time_matrix.SOURCES)
    project.write("models/ns_files.yml", time_matrix.write_ns_file(folder / "ns"))

    mysql_matrix.write_spark_table(spark, schema)
    mysql_matrix.copy_to_mysql(mariadb_url)
    mysql_matrix.copy_to_postgres(postgres_url)
    patch.setenv(mysql_matrix.MYSQL_ENV, mariadb_url)
    patch.setenv(mysql_matrix.PG_ENV, postgres_url)
    project.write("models/mysql_matrix_sources.yml", mysql_matrix.SOURCES)

    decimal_matrix.write_spark_tables(spark, schema)
    decimal_matrix.copy_to_postgres(postgres_url)
    database = decimal_matrix.copy_to_duckdb(spark, schema, _folder(folder / "decimals"))
    patch.setenv(decimal_matrix.PG_ENV, postgres_url)
    patch.setenv(decimal_matrix.DUCKDB_ENV, str(database))
    project.write("models/decimal_sources.yml", decimal_matrix.SOURCES)

    decimal_float_matrix.write_spark_tables(spark, schema)
    decimal_float_matrix.copy_to_postgres(postgres_url)
    database = decimal_float_matrix.copy_to_duckdb(
        spark, schema, _folder(folder / "decimal_floats")
    )
    patch.setenv(decimal_float_matrix.PG_ENV, postgres_url)
    patch.setenv(decimal_float_matrix.DUCKDB_ENV, str(database))
    project.write("models/decimal_float_sources.yml", decimal_float_matrix.SOURCES)

    pairs = [
        *type_pairs(),
        *time_pairs(),
        *mysql_pairs(),
        *decimal_pairs(),
        *decimal_float_pairs(),
    ]
    names = [pair["name"] for pair in pairs]
    assert len(set(names)) == len(names), "the matrices' pair names must differ"
    result = reconcile(project, pairs)
    assert result.success, error_text(result)
    return PublishedRun.read(spark, schema)


def _folder(path: Path) -> Path:
    path.mkdir(parents=True)
    return path
