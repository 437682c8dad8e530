"""The plan relation, read back: what each side of each pair runs, and the pair's settings."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import Any

from parity.values.column_rule import ColumnRule
from parity.values.masking import Masking


@dataclass(frozen=True)
class SidePlan:
    side: str
    dialect: str
    connection_env: str
    relation_name: str
    canonical_sql: str
    checksum_sql: str
    cell_sql: str
    key_names: tuple[str, ...]
    column_names: tuple[str, ...]
    # The relation's columns as its engine reports them (macros/plan/schema_snapshot.sql).
    schema_snapshot: tuple[dict[str, Any], ...] = ()
    # After how long its engine stops a query (its source's meta); None: no limit.
    statement_timeout_seconds: float | None = None

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
    # Schema findings: {kind, column_name, source_type, target_type, fails, rejected}
    # (macros/plan/schema_compatibility.sql).
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

    @property
    def config_hash(self) -> str:
        return config_hash(self.config)

    @property
    def tolerance_hash(self) -> str:
        """sha256 of the tolerance matrix as applied: each compared column's kind and options."""
        return config_hash({"columns": [asdict(rule) for rule in self.column_rules]})

    @property
    def max_row_drift_pct(self) -> float:
        return float(self.config.get("max_row_drift_pct", 0))

    @property
    def masking(self) -> Masking:
        """What the pair publishes no value of: `sensitive` (everything) or `sensitive_columns`."""
        return Masking(
            bool(self.config.get("sensitive")),
            frozenset(name.lower() for name in self.config.get("sensitive_columns") or ()),
        )

    @property
    def critical_drift_ratio(self) -> float | None:
        ratio = self.config.get("critical_drift_ratio")
        return None if ratio is None else float(ratio)

    @property
    def algorithm(self) -> str:
        return self.config["algorithm"]

    @property
    def bisection_factor(self) -> int:
        return int(self.config["bisection_factor"])

    @property
    def bisection_threshold(self) -> int:
        return int(self.config["bisection_threshold"])

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


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_hash(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def config_hash(config: dict[str, Any]) -> str:
    """sha256 of the canonical JSON of a pair's configuration, defaults included."""
    return canonical_hash(config)


def pairs_from_rows(rows: list[dict[str, Any]]) -> list[PairPlan]:
    """Groups plan rows (one per pair and side) into pairs, in pair-name order."""
    sides: dict[str, dict[str, dict[str, Any]]] = {}
    for row in rows:
        sides.setdefault(row["pair_name"], {})[row["side"]] = row
    return [
        PairPlan(
            name=name,
            source=_side_plan(by_side["source"]),
            target=_side_plan(by_side["target"]),
            config=json.loads(by_side["source"]["config_json"]),
            schema_findings=tuple(json.loads(by_side["source"].get("schema_findings") or "[]")),
            column_rules=tuple(ColumnRule.from_plan(rule) for rule in _rules(by_side)),
            gridded_columns=tuple(
                rule["column"] for rule in _rules(by_side) if rule.get("hash_grid")
            ),
            filters=canonical_json(json.loads(by_side["source"].get("filters") or "{}")),
            schema_diff=by_side["source"].get("schema_diff") or "[]",
            run_id=by_side["source"].get("run_id") or "",
        )
        for name, by_side in sorted(sides.items())
    ]


def _rules(by_side: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    return json.loads(by_side["source"].get("column_rules") or "[]")


def _side_plan(row: dict[str, Any]) -> SidePlan:
    return SidePlan(
        side=row["side"],
        dialect=row["dialect"],
        connection_env=row["connection_env"],
        relation_name=row["relation_name"],
        canonical_sql=row["canonical_sql"],
        checksum_sql=row["checksum_sql"],
        cell_sql=row["cell_sql"],
        key_names=tuple(json.loads(row["key_names"])),
        column_names=tuple(json.loads(row["column_names"])),
        schema_snapshot=tuple(json.loads(row.get("schema_snapshot") or "[]")),
        statement_timeout_seconds=float(row.get("statement_timeout_seconds") or 0) or None,
    )
