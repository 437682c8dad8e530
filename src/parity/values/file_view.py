"""A temporary view over files read with a given schema: how Spark reads Parquet files whose
UUID columns it cannot infer (sides/file_views.py). The plan records it; every session that
reads the files registers the same view from it."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class FileView:
    view: str
    format: str
    path: str
    # The files' schema in Spark's DDL.
    schema: str
    # The columns of logical type UUID, read as their 16 bytes.
    uuid_columns: tuple[str, ...]

    @classmethod
    def of(cls, format: str, path: str, schema: str, uuid_columns: tuple[str, ...]) -> FileView:
        # Named after what it reads: wherever it is registered, the name means one definition.
        digest = hashlib.sha256(json.dumps([format, path, schema]).encode()).hexdigest()[:16]
        return cls(f"__parity_files_{digest}", format, path, schema, uuid_columns)

    def as_plan(self) -> dict[str, Any]:
        return {**asdict(self), "uuid_columns": list(self.uuid_columns)}

    @classmethod
    def from_plan(cls, fields: dict[str, Any]) -> FileView:
        return cls(**{**fields, "uuid_columns": tuple(fields["uuid_columns"])})
