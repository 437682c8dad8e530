"""Lets the macros read a dbt artifact an earlier command wrote (its `run_results.json`): a
pull-request check compares the models the build before it built.

Macros cannot read files. This adds ``adapter.parity_artifact(path, name)``: the JSON document at
``path`` (relative to the project; a folder means the file ``name`` in it), by default ``name`` in
the project's target folder, as ``{'problem': None, 'document': ...}``, or ``{'problem': why,
'document': None}`` where it cannot be read. It reads a local file in dbt's process, whatever
runs Spark.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

METHOD = "parity_artifact"


def _artifact(self: Any, path: str | None, name: str) -> dict[str, Any]:
    root = Path(self.config.project_root)
    found = root / (path or Path(self.config.target_path) / name)
    if found.is_dir():
        found = found / name
    try:
        return {"problem": None, "document": json.loads(found.read_text(encoding="utf-8"))}
    except FileNotFoundError:
        return {"problem": f"{found} does not exist", "document": None}
    except (OSError, ValueError) as error:
        return {"problem": f"{found} could not be read: {error}", "document": None}


def register(adapter_class: Any) -> None:
    """Adds the method to the adapter class and to what dbt exposes of it to Jinja."""
    if METHOD in adapter_class._available_:
        return
    setattr(adapter_class, METHOD, _artifact)
    adapter_class._available_ = adapter_class._available_ | {METHOD}
