"""The version of a corrected relation kept for undo, until the next apply that writes it: an
apply keeps the version it replaced, an undo the version it took back. The next apply that
writes the relation deletes it, once its own version is in place, and only that: the location
its audit row recorded, which parity named (or the table's location it replaced), never the
location the relation reads now or the one this apply keeps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyspark.sql import SparkSession

from parity.log import logger
from parity.plan import SidePlan
from parity.sync.decisions import Written
from parity.sync.record import APPLIED, UNDONE
from parity.sync.spark import hadoop_files
from parity.sync.spark.path_swap import directory_of
from parity.sync.spark.version_names import previous_name, written_name


@dataclass(frozen=True)
class KeptVersion:
    # The apply that wrote or replaced it, and the relation it is a version of.
    apply_id: str
    relation: str
    location: str


def kept_versions(applies: list[dict[str, Any]]) -> dict[str, KeptVersion]:
    """Each pair's kept version, from its ``applies`` that wrote or undid, oldest first: the
    previous version its last apply recorded, or, where an undo followed it, that apply's own
    version, which the undo took back."""
    kept: dict[str, KeptVersion] = {}
    swapped: dict[str, Any] = {}
    for row in applies:
        name = row["pair_name"]
        if row["outcome"] == APPLIED and row["previous_location"]:
            swapped[name] = row
            kept[name] = KeptVersion(
                row["apply_id"], row["corrected_relation"], row["previous_location"]
            )
        elif row["outcome"] == UNDONE and name in swapped:
            undone = swapped.pop(name)
            kept[name] = KeptVersion(
                undone["apply_id"],
                undone["corrected_relation"],
                written_name(undone["previous_location"], undone["apply_id"]),
            )
    return kept


def discard(
    spark: SparkSession, corrected: SidePlan, kept: KeptVersion | None, written: Written
) -> None:
    """Deletes ``kept`` once ``written`` (this apply's swap) is in place, if it is a version of
    this relation that no one reads."""
    if kept is None or kept.relation != corrected.relation_name:
        return
    path = directory_of(corrected)
    if path is not None and kept.location not in (
        written_name(path, kept.apply_id),
        previous_name(path, kept.apply_id),
    ):
        return
    in_use = (path, written.location, written.previous_location)
    if any(place and hadoop_files.same(spark, kept.location, place) for place in in_use):
        return
    if hadoop_files.delete(spark, kept.location):
        logger.info(
            "parity: deleted %s, the version of %s kept by apply %s",
            kept.location,
            corrected.relation_name,
            kept.apply_id,
        )
