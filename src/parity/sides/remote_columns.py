"""Introspection of the pair sides outside Spark, for the plan to negotiate column types."""

from __future__ import annotations

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import types as T

from parity.sides.engines import catalog_columns, connect

COLUMNS_SCHEMA = T.StructType(
    [
        # The run that listed the relation (parity_remote_relations): the plan reads only its own.
        T.StructField("run_id", T.StringType(), False),
        T.StructField("pair_name", T.StringType(), False),
        T.StructField("side", T.StringType(), False),
        T.StructField("ordinal", T.IntegerType(), False),
        T.StructField("column_name", T.StringType(), False),
        T.StructField("data_type", T.StringType(), False),
        T.StructField("nullable", T.BooleanType(), False),
    ]
)


def remote_columns(spark: SparkSession, remote_relations: DataFrame) -> DataFrame:
    rows = []
    for relation in remote_relations.orderBy("pair_name", "side").collect():
        where = f"{relation['side']} relation {relation['schema_name']}.{relation['table_name']}"
        connection = connect(
            relation["dialect"], relation["connection_env"], relation["pair_name"], where
        )
        try:
            found = catalog_columns(
                connection, relation["dialect"], relation["schema_name"], relation["table_name"]
            )
        finally:
            connection.close()
        rows.extend(
            (
                relation["run_id"],
                relation["pair_name"],
                relation["side"],
                ordinal,
                name,
                data_type.lower(),
                nullable,
            )
            for ordinal, (name, data_type, nullable) in enumerate(found)
        )
    return spark.createDataFrame(rows, COLUMNS_SCHEMA)
