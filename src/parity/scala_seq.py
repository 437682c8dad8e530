"""A Scala sequence's items in Python, for code that reads what Spark's JVM returns."""

from __future__ import annotations

from typing import Any


def scala_items(sequence: Any) -> list[Any]:
    """The sequence's items, walked once with its own iterator: indexing a Scala list walks it
    each time, and iterating it as a Python object ends on an exception raised in the JVM, which
    PySpark converts (11 ms each time)."""
    items, walked = [], sequence.iterator()
    while walked.hasNext():
        items.append(walked.next())
    return items
