"""Undoing a pair's last apply to a relation outside Spark: the rows it replaced, kept beside the
relation (sql/kept_rows.py), put back in one transaction, but only if every key it changed still
holds its rows as the apply left them; else nothing is touched."""

from __future__ import annotations

from typing import Any

from parity.plan import PairPlan, SidePlan
from parity.sides.published_errors import published
from parity.sync.decisions import CorrectedColumns
from parity.sync.record import PLANNED, REFUSED, UNDONE
from parity.sync.sql.kept_rows import AFTER, APPLY, kept_relation, relation_columns, state_hash
from parity.sync.sql.key_rows import KeyRows
from parity.sync.sql.sessions import writing


def undone_in_place(
    pair: PairPlan, corrected: SidePlan, last: dict[str, Any], write: bool
) -> tuple[str, str]:
    """The outcome of undoing ``last``, the pair's last apply, and why."""
    apply = last["apply_id"]
    with writing(pair, corrected, "the undo of") as (session, connection):
        key_rows = KeyRows(CorrectedColumns(pair, corrected), corrected, session)
        relation, kept = corrected.relation_name, kept_relation(corrected.relation_name, session)
        if session.begin:
            session.run(connection, session.begin, [])
        if session.lock:
            session.run(connection, session.lock.format(relation=relation), [])
        try:
            columns = relation_columns(session, connection, relation)
            markers = session.run(
                connection,
                f"select {session.quoted(AFTER)}, {', '.join(key_rows.keys)} from {kept}"
                f" where {session.quoted(APPLY)} = {session.mark(1)}"
                f" and {session.quoted(AFTER)} is not null",
                [apply],
            )
        except session.errors() as error:  # no such table, or the engine's own trouble: say which
            reason = published(str(error))
            return (
                REFUSED,
                f"the rows apply {apply} replaced could not be read from {kept}: {reason}",
            )
        if not markers:
            return REFUSED, f"the rows apply {apply} replaced are no longer kept in {kept}"
        if relation_columns(session, connection, kept) != [APPLY, AFTER, *columns]:
            changed = f"{relation}'s columns changed since apply {apply}"
            return REFUSED, f"{changed}: it was left as it is"
        for after, *key in markers:
            if state_hash([row for _, row in key_rows.rows(connection, key)]) != after:
                return (
                    REFUSED,
                    f"{relation} changed since apply {apply} (the rows of key"
                    f" {', '.join(map(str, key))}): it was left as it is",
                )
        if not write:
            return PLANNED, f"would restore the rows of {len(markers)} keys apply {apply} replaced"
        for _, *key in markers:
            session.run(connection, f"delete from {relation} where {key_rows.matching(1)}", key)
        names = ", ".join(session.quoted(name) for name in columns)
        session.run(
            connection,
            f"insert into {relation} ({names}) select {names} from {kept}"
            f" where {session.quoted(APPLY)} = {session.mark(1)}"
            f" and {session.quoted(AFTER)} is null",
            [apply],
        )
        session.run(connection, f"delete from {kept}", [])
        connection.commit()
    return UNDONE, f"restored the rows of {len(markers)} keys apply {apply} replaced"
