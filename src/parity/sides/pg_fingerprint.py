"""A PostgreSQL table's change fingerprint from the server's statistics counters, which costs no
scan: the rows its transactions inserted, updated and deleted (pg_stat_user_tables' n_tup_ins,
n_tup_upd, n_tup_del: aborted ones too, so they only ever grow), with the relation's file node
(TRUNCATE, VACUUM FULL, CLUSTER and a rewriting ALTER give it a new one), the server's start
(a crash resets the counters) and the database's stats_reset (when the counters were reset).

It is refused (`none`, with the reason: the pair then falls back on its first pass's
checksums) wherever a change could leave it as it was:
- a server before PostgreSQL 15, whose statistics collector could drop messages;
- a server in recovery: a replica does not count the changes it replays;
- track_counts off, or set for a role or database (ALTER ROLE/DATABASE ... SET): nothing, or
  not every session's changes, counted (a superuser's own `SET track_counts = off` in a session
  is the limit: no other session can see it);
- anything but an ordinary table (a view, materialized view, partitioned or foreign table,
  whose rows change without their own counters moving), and unlogged or temporary tables (an
  unlogged table is emptied by a crash recovery, which no counter records);
- a prepared transaction in the database: its changes were counted when made and become
  visible when it commits, later;
- while counts may still be pending in another backend: PostgreSQL 15+ backends flush their
  counters at most once a second (PGSTAT_MIN_INTERVAL), retry every 10 s when idle
  (PGSTAT_IDLE_INTERVAL) and at the latest after 60 s (PGSTAT_MAX_INTERVAL; see
  src/backend/utils/activity/pgstat.c), and a transaction still open has changes to come. So
  any other backend of the database that is not idle, or whose state changed within the
  window, refuses it; so does a backend whose state pg_stat_activity hides (another role's,
  without pg_read_all_stats). A backend that exits flushes its counters before it leaves
  pg_stat_activity.
parity's own sessions are read-only and are not counted: they are recognised by their
application_name (sides/connections.py sets it where the URL sets none). The limit of that:
another program that names itself the same is not counted either; a URL that sets its own
application_name makes parity's other sessions count as active (the safe way).

Read through the plan's session (sides/remote_columns.py), before any of the table is read:
a change made after it is seen by the pair's scan and by the next run's fingerprint, so the
fingerprint may only cost a comparison, never keep a stale result.
"""

from __future__ import annotations

import json

from parity.plan import canonical_hash
from parity.sides.connections import PARITY_APPLICATION, QueryError, ReadOnlyConnection
from parity.sides.fingerprints import InputFingerprint

# PGSTAT_MAX_INTERVAL (60 s), with a margin for the flush itself.
FLUSH_WINDOW_SECONDS = 65
# relkind and relpersistence of an ordinary, permanent table.
ORDINARY, PERMANENT = "r", "p"
KINDS = {
    "v": "a view",
    "m": "a materialized view",
    "p": "a partitioned table",
    "f": "a foreign table",
}

SERVER_SQL = (
    "select current_setting('server_version_num')::int, pg_is_in_recovery(),"
    " current_setting('track_counts'),"
    " (select count(*) from pg_db_role_setting, unnest(setconfig) as setting"
    " where setting ilike 'track_counts=%')"
)
TABLE_SQL = (
    "select c.relkind, c.relpersistence, pg_relation_filenode(c.oid),"
    " pg_stat_get_tuples_inserted(c.oid), pg_stat_get_tuples_updated(c.oid),"
    " pg_stat_get_tuples_deleted(c.oid), pg_postmaster_start_time()::text,"
    " (select stats_reset::text from pg_stat_database where datname = current_database())"
    " from pg_class as c join pg_namespace as n on c.relnamespace = n.oid"
    " where n.nspname = $1 and c.relname = $2"
)
# Other backends of the database that may hold counts not yet flushed (a process that reports
# no state counts as one), and those whose state is hidden; prepared transactions of the
# database. Autovacuum changes no tuple counter. A hidden session's backend_type is NULL too.
HIDDEN = "'<insufficient privilege>'"
ACTIVITY_SQL = (
    f"select count(*) filter (where query is distinct from {HIDDEN}"
    " and (state is distinct from 'idle'"
    f" or state_change > now() - interval '{FLUSH_WINDOW_SECONDS} seconds')),"
    f" count(*) filter (where query = {HIDDEN}),"
    " (select count(*) from pg_prepared_xacts where database = current_database())"
    " from pg_stat_activity"
    " where datname = current_database() and pid <> pg_backend_pid()"
    " and backend_type is distinct from 'autovacuum worker'"
    " and application_name is distinct from $1"
)


def postgres_fingerprint(connection: ReadOnlyConnection, schema: str, table: str) -> str:
    """The table's fingerprint as the plan carries it (JSON: kind, digest, detail); never
    raises."""
    try:
        found = _fingerprint(connection, schema, table)
    except QueryError as error:
        found = InputFingerprint.none(f"cannot read its statistics counters: {error}")
    return json.dumps({"kind": found.kind, "digest": found.digest, "detail": found.detail})


def _fingerprint(connection: ReadOnlyConnection, schema: str, table: str) -> InputFingerprint:
    ((version, recovering, track_counts, set_apart),) = connection.query(SERVER_SQL)
    if version < 150000:
        return InputFingerprint.none(
            f"PostgreSQL {version // 10000} before 15: its statistics collector could drop counts"
        )
    if recovering:
        return InputFingerprint.none("a server in recovery: a replica counts no replayed change")
    if track_counts != "on":
        return InputFingerprint.none("track_counts is off: the server counts no change")
    if set_apart:
        return InputFingerprint.none(
            "track_counts is set for a role or database: another session may count no change"
        )
    found = connection.query(TABLE_SQL, [schema, table])
    if not found:
        return InputFingerprint.none(f"missing: no table {schema}.{table}")
    kind, persistence, filenode, inserted, updated, deleted, started, reset = found[0]
    if kind != ORDINARY:
        return InputFingerprint.none(
            f"{KINDS.get(kind, f'relkind {kind}')}: its rows change without its counters"
        )
    if persistence != PERMANENT:
        return InputFingerprint.none(
            "an unlogged table: a crash empties it, uncounted"
            if persistence == "u"
            else "a temporary table: its session's end empties it, uncounted"
        )
    ((busy, hidden, prepared),) = connection.query(ACTIVITY_SQL, [PARITY_APPLICATION])
    if prepared:
        return InputFingerprint.none(
            f"{prepared} prepared transaction(s) in the database: their changes are not yet seen"
        )
    if hidden:
        return InputFingerprint.none(
            f"pg_stat_activity hides the state of {hidden} session(s) of other roles (no"
            " pg_read_all_stats): their changes may not be counted yet"
        )
    if busy:
        return InputFingerprint.none(
            f"{busy} other session(s) of the database active, in a transaction or active within"
            f" {FLUSH_WINDOW_SECONDS} s: their changes may not be counted yet"
        )
    description = {
        "filenode": filenode,
        "inserted": inserted,
        "updated": updated,
        "deleted": deleted,
        "server_started": started,
        "stats_reset": reset,
    }
    return InputFingerprint(
        "pg_stats",
        canonical_hash(description),
        f"statistics counters: {inserted} inserted, {updated} updated, {deleted} deleted",
    )
