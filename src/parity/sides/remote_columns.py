"""Introspection of the pair sides outside Spark, for the plan to negotiate column types.

A side that cannot be read (its variable unset, its engine unreachable, its catalog refusing
the query, a role parity refuses to read as) is one row with the reason (``problem``): the plan
makes that pair an error of its own and plans every other pair. What the plan and the report
should say of a side's role (it may write the relation) is its first row's ``warning``; a
PostgreSQL relation's change fingerprint (sides/pg_fingerprint.py), read through the same
session before any of its rows, is its first row's ``fingerprint``."""

from __future__ import annotations

from pyspark.sql import DataFrame, Row, SparkSession
from pyspark.sql import types as T

from parity.errors import ParityError
from parity.log import logger
from parity.plan import allowed_paths, timeout_seconds
from parity.sides.connections import QueryError, ReadOnlyConnection, connect
from parity.sides.pg_fingerprint import postgres_fingerprint
from parity.sides.privileges import role_powers
from parity.sides.published_errors import the_run

# Each engine's columns of one table (its schema and name bound as the first and second
# parameters), in order, as (name, declared type with its precision, whether it may hold NULL).
# MySQL's schema is its database; column_type spells the precision and `unsigned`.
CATALOG_SQL = {
    "duckdb": (
        "select column_name, data_type, is_nullable = 'YES' from information_schema.columns"
        " where table_schema = $1 and table_name = $2 order by ordinal_position"
    ),
    "mysql": (
        "select column_name, column_type, is_nullable = 'YES' from information_schema.columns"
        " where table_schema = @__parity_1 and table_name = @__parity_2"
        " order by ordinal_position"
    ),
    "postgres": (
        "select a.attname, format_type(a.atttypid, a.atttypmod), not a.attnotnull"
        " from pg_attribute as a"
        " join pg_class as c on a.attrelid = c.oid"
        " join pg_namespace as n on c.relnamespace = n.oid"
        " where n.nspname = $1 and c.relname = $2 and a.attnum > 0 and not a.attisdropped"
        " order by a.attnum"
    ),
}

# What an engine's server says of how it stores values, where the declared type does not: a
# MySQL-family server's version and its default SQL mode.
SERVER_SQL = {"mysql": "select version(), @@global.sql_mode"}
# What a session's own problem (opening it, asking its server) is said of, before it is said of
# each relation read through it.
SESSION = "the session"

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
        # How the engine rounded a finer fraction of a second into this column's, where its
        # server decides it rather than its type (a timestamp rounding rule); else NULL.
        T.StructField("rounding", T.StringType(), True),
        # Why the relation's columns could not be read, on its only row; else NULL.
        T.StructField("problem", T.StringType(), True),
        # What to say of the side's role (it may write the relation), on its first row; else NULL.
        T.StructField("warning", T.StringType(), True),
        # A PostgreSQL relation's change fingerprint (JSON), on its first row; else NULL.
        T.StructField("fingerprint", T.StringType(), True),
    ]
)


def remote_columns(spark: SparkSession, remote_relations: DataFrame) -> DataFrame:
    rows = []
    relations = remote_relations.orderBy("pair_name", "side").collect()
    # An engine's reason in a problem is published (sides/published_errors.py): it shows no
    # secret of any relation's variable, and may quote the names the plan publishes.
    names = [
        name
        for r in relations
        for name in (r["pair_name"], r["schema_name"], r["table_name"], _relation(r))
    ]
    with the_run([r["connection_env"] for r in relations], names):
        for group in _by_connection(relations):
            rows.extend(_group_columns(group))
    return spark.createDataFrame(rows, COLUMNS_SCHEMA)


def _by_connection(relations: list[Row]) -> list[list[Row]]:
    """The relations by the session that reads them: the same engine, variable and session
    settings share one, opened once per run however many pairs read through it."""
    groups: dict[tuple, list[Row]] = {}
    for relation in relations:
        settings = ("dialect", "connection_env", "statement_timeout_seconds", "allowed_paths")
        groups.setdefault(tuple(relation[name] for name in settings), []).append(relation)
    return list(groups.values())


def _group_columns(relations: list[Row]) -> list[tuple]:
    """The rows of relations read through one session. A session that cannot be opened, or
    whose server cannot say how it rounds, is every relation's problem, logged once with every
    pair that reads through it."""
    first = relations[0]
    try:
        connection = connect(
            first["dialect"],
            first["connection_env"],
            first["pair_name"],
            SESSION,
            timeout_seconds(first["statement_timeout_seconds"]),
            allowed_paths(first["allowed_paths"]),
        )
    except ParityError as error:
        return _failed(relations, error)
    try:
        try:
            rounding = server_rounding(connection)
        except QueryError as error:
            return _failed(
                relations,
                ParityError(
                    first["pair_name"], f"{SESSION}: cannot read its server's settings: {error}"
                ),
            )
        return [row for relation in relations for row in _columns(connection, relation, rounding)]
    finally:
        connection.close()


def _failed(relations: list[Row], error: ParityError) -> list[tuple]:
    """Each relation's one row with the session's problem, said once in the log."""
    reason = str(error).removeprefix(f"parity pair '{error.pair_name}': {SESSION}: ")
    pairs = ", ".join(f"'{name}'" for name in dict.fromkeys(r["pair_name"] for r in relations))
    logger.error("parity: %s; not planned: pairs %s", reason, pairs)
    return [_problem_row(relation, f"{_where(relation)}: {reason}") for relation in relations]


def _columns(connection: ReadOnlyConnection, relation: Row, rounding: str | None) -> list[tuple]:
    """The relation's rows of columns, what to say of its role on the first; or its one row
    with the problem."""
    owner = (relation["run_id"], relation["pair_name"], relation["side"])
    try:
        found, warning = _read(connection, relation, _where(relation))
    except ParityError as error:
        reason = str(error).removeprefix(f"parity pair '{relation['pair_name']}': ")
        logger.error("parity pair '%s': %s", relation["pair_name"], reason)
        return [_problem_row(relation, reason)]
    if warning:
        logger.warning("parity pair '%s': %s", relation["pair_name"], warning)
    fingerprint = None
    if connection.dialect == "postgres":
        fingerprint = postgres_fingerprint(
            connection, relation["schema_name"], relation["table_name"]
        )
    return [
        (
            *owner,
            ordinal,
            name,
            data_type.lower(),
            nullable,
            rounding,
            None,
            warning if ordinal == 0 else None,
            fingerprint if ordinal == 0 else None,
        )
        for ordinal, (name, data_type, nullable) in enumerate(found)
    ]


def _problem_row(relation: Row, problem: str) -> tuple:
    return (
        relation["run_id"],
        relation["pair_name"],
        relation["side"],
        0,
        "",
        "",
        False,
        None,
        problem,
        None,
        None,
    )


def _where(relation: Row) -> str:
    return f"{relation['side']} relation {_relation(relation)}"


def _relation(relation: Row) -> str:
    return f"{relation['schema_name']}.{relation['table_name']}"


def _read(
    connection: ReadOnlyConnection, relation: Row, where: str
) -> tuple[list[tuple[str, str, bool]], str | None]:
    """The relation's columns and what to say of the session's role; a role parity refuses is
    the side's problem, before any column is read."""
    schema, table = relation["schema_name"], relation["table_name"]
    allowed = relation["allow_superuser"] == "true"
    step = "read what its role may do"
    try:
        powers = role_powers(connection, schema, table)
        refusal = powers.refusal(where, allowed)
        if refusal:
            raise ParityError(relation["pair_name"], refusal)
        step = "read its columns"
        return catalog_columns(connection, schema, table), powers.warning(where, allowed)
    except QueryError as error:
        raise ParityError(relation["pair_name"], f"{where}: cannot {step}: {error}") from error


def catalog_columns(
    connection: ReadOnlyConnection, schema: str, table: str
) -> list[tuple[str, str, bool]]:
    found = connection.query(CATALOG_SQL[connection.dialect], [schema, table])
    return [(name, data_type, bool(nullable)) for name, data_type, nullable in found]


def server_rounding(connection: ReadOnlyConnection) -> str | None:
    """The rule by which the server rounds a finer fraction of a second it stores, where the
    server rather than the type decides (MySQL's family), else None."""
    if connection.dialect not in SERVER_SQL:
        return None
    ((version, sql_mode),) = connection.query(SERVER_SQL[connection.dialect])
    return fraction_rounding(version, sql_mode)


def fraction_rounding(version: str, sql_mode: str) -> str:
    """MySQL rounds half up unless its mode has TIME_TRUNCATE_FRACTIONAL; MariaDB truncates
    unless its mode has TIME_ROUND_FRACTIONAL. The server's default mode is the best evidence of
    how its stored values were rounded (a client may have set another for its own session)."""
    modes = set(sql_mode.upper().split(","))
    if "mariadb" in version.lower():
        return "half_up" if "TIME_ROUND_FRACTIONAL" in modes else "truncate"
    return "truncate" if "TIME_TRUNCATE_FRACTIONAL" in modes else "half_up"
