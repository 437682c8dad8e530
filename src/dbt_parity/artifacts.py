"""Lets the macros read a dbt artifact an earlier command wrote, and write one of their own: a
pull-request check compares the models the build before it built (its `run_results.json`), and
leaves its summary in the target folder.

Macros cannot read or write files. This adds ``adapter.parity_artifact(path, name)``: the JSON
document at ``path`` (relative to the project; a folder means the file ``name`` in it), by
default ``name`` in the project's target folder, as ``{'problem': None, 'document': ...,
'path': ...}``, or ``{'problem': why, 'document': None, 'path': ...}`` where it cannot be read;
``adapter.parity_write_artifact(name, text)``, which writes ``text`` to ``name`` in the
target folder and returns the file's path; and ``adapter.parity_write_json(name, document)``,
which writes a document (dicts, lists, text, numbers, booleans, None) there as indented JSON.
All work on local files in dbt's process, whatever runs Spark.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

READ, WRITE, WRITE_JSON = "parity_artifact", "parity_write_artifact", "parity_write_json"


def _artifact(self: Any, path: str | None, name: str) -> dict[str, Any]:
    root = Path(self.config.project_root)
    found = root / (path or Path(self.config.target_path) / name)
    if found.is_dir():
        found = found / name
    read: dict[str, Any] = {"problem": None, "document": None, "path": str(found)}
    try:
        read["document"] = json.loads(found.read_text(encoding="utf-8"))
    except FileNotFoundError:
        read["problem"] = f"{found} does not exist"
    except (OSError, ValueError) as error:
        read["problem"] = f"{found} could not be read: {error}"
    return read


def _write_artifact(self: Any, name: str, text: str) -> str:
    folder = Path(self.config.project_root) / self.config.target_path
    folder.mkdir(parents=True, exist_ok=True)
    written = folder / name
    written.write_text(text, encoding="utf-8")
    return str(written)


def _write_json(self: Any, name: str, document: Any) -> str:
    return _write_artifact(self, name, json.dumps(document, indent=2) + "\n")


def register(adapter_class: Any) -> None:
    """Adds the methods to the adapter class and to what dbt exposes of it to Jinja."""
    if READ in adapter_class._available_:
        return
    setattr(adapter_class, READ, _artifact)
    setattr(adapter_class, WRITE, _write_artifact)
    setattr(adapter_class, WRITE_JSON, _write_json)
    adapter_class._available_ = adapter_class._available_ | {READ, WRITE, WRITE_JSON}
