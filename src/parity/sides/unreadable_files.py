"""A file Spark cannot read, named with the pair, the side and Spark's reason.

Spark fails a read at the first bad file it meets, deep inside a job, with a Java stack trace
naming neither pair nor side. Its message names the file; a file relation's name holds its path
(format.`path`), so the file says whose it is.
"""

from __future__ import annotations

import re

from parity.errors import ParityError
from parity.plan import PairPlan, SidePlan
from parity.sides.published_errors import published

FAILED_FILE = re.compile(r"error while reading file (\S+?)\.?\s")
CAUSE = re.compile(r"^Caused by: [\w.$]+: (.*)$", re.M)
FILE_RELATION = re.compile(r"^(?:parquet|json)\.`(.*)`$", re.S)


def unreadable_file(pair: PairPlan, error: Exception) -> ParityError | None:
    """The ParityError for a Spark error that names a file it could not read, else None."""
    text = str(error)
    failed = FAILED_FILE.search(text)
    if failed is None:
        return None
    path = failed.group(1)
    owners = [s for s in (pair.source, pair.target) if _owns(s, path)] or [pair.source, pair.target]
    sides = " or ".join(f"{s.side} relation {s.relation_name}" for s in owners)
    causes = CAUSE.findall(text)
    # The cause may quote the file's content (a malformed record): published as any engine's.
    reason = f": {published(causes[-1])}" if causes else ""
    return ParityError(pair.name, f"{sides}: Spark cannot read the file {path}{reason}")


def _owns(side: SidePlan, path: str) -> bool:
    relation = FILE_RELATION.match(side.relation_name)
    if relation is None:
        return False
    root = relation.group(1).replace("``", "`").rstrip("/")
    # Spark names files as URIs (file:///...), the relation as declared.
    return root.removeprefix("file:").lstrip("/") in path.removeprefix("file:").lstrip("/")
