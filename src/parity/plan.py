"""The plan relation, read back: what each side of each pair runs, and the pair's settings, as the
plan's macros decided them (defaults filled, algorithm chosen): nothing here decides again."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from parity.values.column_rule import ColumnRule
from parity.values.file_view import FileView
from parity.values.masking import Masking


@dataclass(frozen=True)
class SidePlan:
    side: str
    dialect: str
    # Read through the Spark session (a Spark relation or files), else through its own engine.
    in_session: bool
    connection_env: str
    relation_name: str
    canonical_sql: str
    # For a joindiff pair, the first pass's select (macros/plan/native_select.sql): each row's
    # canonical key and its native hash; empty for a hashdiff pair.
    native_sql: str
    checksum_sql: str
    # For a side in another engine, its queries, rendered whole with bound parameters
    # (macros/plan/remote_queries.sql); empty for a side in Spark.
    profile_sql: str
    # Where the dialect numbers blocks: the profile by block of 32 keys (a single integer key)
    # or by block of hashed positions (any other key); else empty.
    blocks_sql: str
    # With blocks_sql of an integer key, else empty: the least and greatest key, and the rows
    # with a NULL key; the blocks of one range of keys (for a side spread over several
    # sessions).
    bounds_sql: str
    blocks_between_sql: str
    duplicates_sql: str
    checksums_sql: str
    rows_sql: str
    # For a single integer key where the dialect lists keys: the rows of listed keys; else empty.
    rows_of_keys_sql: str
    key_names: tuple[str, ...]
    column_names: tuple[str, ...]
    # The canonical select's column names, the same on both sides of a pair
    # (macros/plan/column_aliases.sql).
    key_columns: tuple[str, ...]
    value_columns: tuple[str, ...]
    position_column: str
    # The key is its own position (a single integer key): segments are key ranges, and blocks of
    # consecutive positions hold consecutive keys (a pair-level field, the same on both sides).
    key_is_position: bool
    native_hash_column: str
    # The relation's columns as its engine reports them (macros/plan/schema_snapshot.sql).
    schema_snapshot: tuple[dict[str, Any], ...] = ()
    # What each matched column (keys, then compared columns) is canonicalized as on this side:
    # its negotiated profile (macros/plan/negotiate_profile.sql), which an apply reads values
    # back by (sync/typed_values.py).
    column_profiles: tuple[dict[str, Any], ...] = ()
    # The same columns' canonical text as SQL of the side's dialect over the relation itself
    # (its columns by name): what an apply reads the rows it corrects by.
    canonical_columns: tuple[str, ...] = ()
    # After how long its engine stops a query (its source's meta, an hour by default); None: no
    # limit.
    statement_timeout_seconds: float | None = None
    # The files and directories a DuckDB side's session may read (its source's meta): what its
    # database's views read; the session reads nothing else.
    allowed_paths: tuple[str, ...] = ()
    # How many sessions at once a side outside Spark may use (source meta parity.connections).
    connections: int = 1
    # For a side in another engine: its first keys held by more than one row, with their rows
    # (asked only for a duplicate-key error); else empty.
    duplicate_examples_sql: str = ""
    # The aggregate that sums the exact row hashes of a side whose rows hash on a tolerance's
    # grid (the first pass's exact checksum, which a re-run compares); "": checksum_sql's.
    exact_checksum_sql: str = ""
    # A PostgreSQL side's change fingerprint as the plan read it (JSON of kind, digest and
    # detail: sides/pg_fingerprint.py); "" for other engines.
    fingerprint: str = ""
    # For files Spark reads only with a schema (Parquet UUID columns): the temporary view the
    # side's SQL selects from, registered in the session before it runs (sides/file_views.py).
    file_view: FileView | None = None

    @property
    def schema_hash(self) -> str:
        """sha256 of the canonical JSON of the snapshot, hashed as configurations are."""
        return canonical_hash(list(self.schema_snapshot))


@dataclass(frozen=True)
class PairPlan:
    name: str
    source: SidePlan
    target: SidePlan
    config: dict[str, Any]
    # `auto` resolved: joindiff for two sides in the Spark session, else hashdiff.
    algorithm: str
    # Schema findings: {kind, column_name, source_type, target_type, fails, rejected}
    # (macros/plan/schema_findings.sql).
    schema_findings: tuple[dict[str, Any], ...] = ()
    # Per compared column, in order: its kind and resolved tolerance.
    column_rules: tuple[ColumnRule, ...] = ()
    # The compared columns that segment checksums hash on their tolerance's grid
    # (macros/tolerance/hash_grid.sql).
    gridded_columns: tuple[str, ...] = ()
    # The filters each side's SQL applies, as canonical JSON ("{}" when it compares every row).
    filters: str = "{}"
    # One row per column and change (macros/plan/schema_diff.sql), as JSON.
    schema_diff: str = "[]"
    # The run (dbt invocation) that rendered this plan: only it may publish what is computed
    # from it (models/history/parity_run_results.sql).
    run_id: str = ""
    # Why the plan could not plan the pair (a side it could not read, a column a side lacks):
    # the pair is an error when it is reconciled, with this reason; nothing else was planned.
    problem: str = ""
    # What the plan says of the pair's sides all the same, each naming its side and relation (a
    # role that may write the relation it reads): logged, and printed by the report.
    warnings: tuple[str, ...] = ()
    # The pair's state as the last published run left it (macros/plan/previous_states.sql):
    # the hashes and input fingerprints of the result it published, with the run that computed
    # it and that result's status and state hash; or {"missing": why} when there is none to use.
    previous_state: dict[str, Any] = field(default_factory=dict)

    @property
    def config_hash(self) -> str:
        return config_hash(self.config)

    @property
    def tolerance_hash(self) -> str:
        """sha256 of the tolerance matrix as applied: each compared column's kind and options."""
        return config_hash({"columns": [asdict(rule) for rule in self.column_rules]})

    @property
    def max_row_drift_pct(self) -> float:
        return float(self.config["max_row_drift_pct"])

    @property
    def masking(self) -> Masking:
        """What the pair publishes no value of: `sensitive` (everything) or `sensitive_columns`."""
        return Masking(
            self.config["sensitive"],
            frozenset(name.lower() for name in self.config["sensitive_columns"]),
        )

    @property
    def critical_drift_ratio(self) -> float | None:
        ratio = self.config["critical_drift_ratio"]
        return None if ratio is None else float(ratio)

    @property
    def max_differences(self) -> int | None:
        limit = self.config["max_differences"]
        return None if limit is None else int(limit)

    @property
    def within_tolerance_examples(self) -> int | None:
        """How many values within tolerance per column the pair lists; None (`all`): every one."""
        examples = self.config["within_tolerance_examples"]
        return None if examples == "all" else int(examples)

    @property
    def limited(self) -> bool:
        """Whether a limit may stop the pair early: critical_drift_ratio or max_differences."""
        return self.critical_drift_ratio is not None or self.max_differences is not None

    @property
    def bisection_factor(self) -> int:
        return int(self.config["bisection_factor"])

    @property
    def bisection_threshold(self) -> int:
        return int(self.config["bisection_threshold"])

    @property
    def retries(self) -> int:
        """How many times a side outside Spark runs a query again after a passing failure."""
        return int(self.config["retries"])

    @property
    def retry_seconds(self) -> float:
        """How long after a query's first failure a retry may still start."""
        return float(self.config["retry_seconds"])

    @property
    def enforce_key(self) -> str:
        return self.config["enforce_key"]

    @property
    def schema_compatible(self) -> bool:
        """No schema finding is rejected by the pair's compatibility mode: its data is compared."""
        return not any(f["rejected"] for f in self.schema_findings)

    @property
    def schema_failed(self) -> bool:
        return any(f["fails"] for f in self.schema_findings)


# The state of a pair the plan gave none for (a plan rendered without its column).
NO_STATE = '{"missing": "no earlier published result"}'


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_hash(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


# A pair's options that say how its target is corrected, not how it is compared: a change of
# them changes no result, so no result's config_hash.
NOT_COMPARED = ("sync",)


def config_hash(config: dict[str, Any]) -> str:
    """sha256 of the canonical JSON of a pair's configuration, defaults included."""
    return canonical_hash({k: v for k, v in config.items() if k not in NOT_COMPARED})


def pairs_from_rows(rows: list[dict[str, Any]]) -> list[PairPlan]:
    """The pairs of the plan's rows (one per pair), in pair-name order."""
    return [_pair_plan(row) for row in sorted(rows, key=lambda row: row["pair_name"])]


def _pair_plan(row: dict[str, Any]) -> PairPlan:
    rules = json.loads(row["column_rules"])
    return PairPlan(
        name=row["pair_name"],
        source=_side_plan(row, "source"),
        target=_side_plan(row, "target"),
        config=json.loads(row["config_json"]),
        algorithm=row["algorithm"],
        schema_findings=tuple(json.loads(row["schema_findings"])),
        column_rules=tuple(ColumnRule.from_plan(rule) for rule in rules),
        gridded_columns=tuple(rule["column"] for rule in rules if rule.get("hash_grid")),
        filters=canonical_json(json.loads(row["filters"])),
        schema_diff=row["schema_diff"],
        run_id=row["run_id"],
        problem=row["problem"],
        warnings=tuple(json.loads(row["warnings"])),
        previous_state=json.loads(row.get("previous_state") or NO_STATE),
    )


def _side_plan(row: dict[str, Any], side: str) -> SidePlan:
    def field(name: str) -> Any:
        return row[f"{side}_{name}"]

    return SidePlan(
        side=side,
        dialect=field("dialect"),
        in_session=field("in_session") == "true",
        connection_env=field("connection_env"),
        relation_name=field("relation_name"),
        canonical_sql=field("canonical_sql"),
        native_sql=field("native_sql"),
        checksum_sql=field("checksum_sql"),
        exact_checksum_sql=field("exact_checksum_sql"),
        fingerprint=field("fingerprint"),
        profile_sql=field("profile_sql"),
        blocks_sql=field("blocks_sql"),
        bounds_sql=field("bounds_sql"),
        blocks_between_sql=field("blocks_between_sql"),
        duplicates_sql=field("duplicates_sql"),
        duplicate_examples_sql=field("duplicate_examples_sql"),
        checksums_sql=field("checksums_sql"),
        rows_sql=field("rows_sql"),
        rows_of_keys_sql=field("rows_of_keys_sql"),
        key_names=tuple(json.loads(field("key_names"))),
        column_names=tuple(json.loads(field("column_names"))),
        key_columns=tuple(json.loads(row["key_columns"])),
        value_columns=tuple(json.loads(row["value_columns"])),
        position_column=row["position_column"],
        key_is_position=row["key_is_position"] == "true",
        native_hash_column=row["native_hash_column"],
        schema_snapshot=tuple(json.loads(field("schema_snapshot"))),
        column_profiles=tuple(json.loads(field("column_profiles"))),
        canonical_columns=tuple(json.loads(field("canonical_columns"))),
        statement_timeout_seconds=timeout_seconds(field("statement_timeout_seconds")),
        allowed_paths=allowed_paths(field("allowed_paths")),
        connections=int(field("connections") or 1),
        file_view=_file_view(field("file_view")),
    )


def _file_view(text: str) -> FileView | None:
    return FileView.from_plan(json.loads(text)) if text else None


def timeout_seconds(text: str | None) -> float | None:
    """A statement timeout as the plan's macros write it: seconds, or empty (or 0) for no
    limit."""
    return (float(text) or None) if text else None


def allowed_paths(text: str | None) -> tuple[str, ...]:
    """The paths a side's session may read, as the plan's macros write them: a JSON list."""
    return tuple(json.loads(text)) if text else ()
