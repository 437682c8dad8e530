"""The names an apply gives the versions it writes and keeps beside a relation's files: the
corrected version beside the current one, and for a directory the version it replaced. A name
is what the audit row records, and what the next apply checks before it deletes a kept version:
parity deletes nothing but what its own applies named and recorded."""

from __future__ import annotations

import re

# The suffixes applies gave a name: stripped, so that every apply names its version after the
# relation's first location, not after the last apply's.
APPLIED_SUFFIXES = re.compile(r"(\.parity-(before-)?[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12})+$")


def written_name(location: str, apply_id: str) -> str:
    """Where an apply writes the corrected version of what is at ``location``."""
    return f"{base_of(location)}.parity-{apply_id}"


def previous_name(path: str, apply_id: str) -> str:
    """Where an apply keeps the version of a directory it replaced."""
    return f"{base_of(path)}.parity-before-{apply_id}"


def base_of(location: str) -> str:
    return APPLIED_SUFFIXES.sub("", location.rstrip("/"))
