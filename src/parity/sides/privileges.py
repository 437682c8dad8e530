"""What the role a side's session logs in as may do, beyond reading the compared relation.

A read-only transaction stops the session writing, but not a superuser reading or writing the
server's files, running programs or becoming any role, nor a role with the file roles doing so:
such a role is refused unless the source's meta allows it (``allow_superuser``). A role that may
write the compared relation is only a warning: the session still cannot, but the role handed to
parity should be one that may only read.

Asked of the engine's catalogs with plain selects through the read-only session (a MySQL query
may hold no comment and no ``into``).
"""

from __future__ import annotations

from dataclasses import dataclass

from parity.sides.connections import ReadOnlyConnection

# PostgreSQL's predefined roles that read or write the server's files or run its programs.
POSTGRES_FILE_ROLES = ("pg_read_server_files", "pg_write_server_files", "pg_execute_server_program")
# What may write a relation, in the order a message names them.
POSTGRES_WRITES = ("INSERT", "UPDATE", "DELETE", "TRUNCATE")
MYSQL_POWERS = ("SUPER", "FILE")
MYSQL_WRITES = ("INSERT", "UPDATE", "DELETE")

# The session's role, whether it is a superuser, and the roles it is a member of (so may become
# with SET ROLE, or inherits) that are superusers or file roles, the former said so.
POSTGRES_ROLE_SQL = (
    "select me.rolname::text, me.rolsuper, array("
    "select case when r.rolsuper then 'superuser ' else '' end || r.rolname from pg_roles as r"
    " where r.oid <> me.oid and pg_has_role(me.oid, r.oid, 'MEMBER')"
    " and (r.rolsuper or r.rolname in ("
    + ", ".join(f"'{role}'" for role in POSTGRES_FILE_ROLES)
    + ")) order by 1)"
    " from pg_roles as me where me.rolname = current_user"
)
# The writes the role may do on the relation (schema and name: $1, $2), on the whole table or,
# for INSERT and UPDATE, on any of its columns.
POSTGRES_WRITES_SQL = (
    "select w.privilege from pg_class as c"
    " join pg_namespace as n on c.relnamespace = n.oid"
    " cross join unnest(array["
    + ", ".join(f"'{p}'" for p in POSTGRES_WRITES)
    + "]) with ordinality as w (privilege, position)"
    " where n.nspname = $1 and c.relname = $2"
    " and (has_table_privilege(c.oid, w.privilege)"
    " or (w.privilege in ('INSERT', 'UPDATE') and has_any_column_privilege(c.oid, w.privilege)))"
    " order by w.position"
)
# MySQL's account (user@host), which information_schema names 'user'@'host', and the roles
# enabled in the session. What a role may do is not in information_schema (MariaDB and MySQL list
# only the account's own grants there), and only SHOW GRANTS, which is no select, says it: a
# session with a role enabled is refused as one whose powers parity cannot tell.
MYSQL_ACCOUNT_SQL = "select current_user()"
MYSQL_ROLES_SQL = (
    "select role_name from information_schema.enabled_roles where role_name is not null order by 1"
)
# Each grantee's privileges (an account sees its own, an administrator everyone's): global, on
# the relation's database (whose name a grant may give as a LIKE pattern), on the relation, and
# on any of its columns.
MYSQL_PRIVILEGES_SQL = (
    "select grantee, privilege_type from information_schema.user_privileges"
    " union all select grantee, privilege_type from information_schema.schema_privileges"
    " where @__parity_1 like table_schema"
    " union all select grantee, privilege_type from information_schema.table_privileges"
    " where table_schema = @__parity_1 and table_name = @__parity_2"
    " union all select grantee, privilege_type from information_schema.column_privileges"
    " where table_schema = @__parity_1 and table_name = @__parity_2"
)


@dataclass(frozen=True)
class RolePowers:
    """The session's role (a MySQL account as 'user'@'host'), what of it parity refuses
    (``powers``, as a message says them: `a superuser`, `a member of pg_write_server_files`,
    `granted FILE`...), and the writes it may do on the compared relation."""

    role: str
    powers: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()

    def refusal(self, where: str, allowed: bool) -> str | None:
        """Why the side may not be read with this role, or None."""
        if not self.powers or allowed:
            return None
        return (
            f"{where}: parity refuses to read as role {self.role}, which is "
            f"{', '.join(self.powers)}: give it a role that may only read the compared relation,"
            " or set parity.allow_superuser: true in the source's meta"
        )

    def warning(self, where: str, allowed: bool) -> str | None:
        """What the plan and the report should say of this role, or None."""
        said = []
        if self.powers and allowed:
            said.append(f"is {', '.join(self.powers)} (allowed by parity.allow_superuser)")
        if self.writes:
            said.append(f"may write it ({', '.join(self.writes)})")
        if not said:
            return None
        return (
            f"{where}: role {self.role} {'; and '.join(said)}:"
            " parity only reads, and a role that may only read is the one to give it"
        )


def role_powers(connection: ReadOnlyConnection, schema: str, table: str) -> RolePowers:
    """What the session's role may do, for the relation ``schema``.``table``; nothing to say
    for DuckDB, whose database parity opens read-only and which has no roles."""
    if connection.dialect == "postgres":
        return _postgres(connection, schema, table)
    if connection.dialect == "mysql":
        return _mysql(connection, schema, table)
    return RolePowers("")


def _postgres(connection: ReadOnlyConnection, schema: str, table: str) -> RolePowers:
    ((role, superuser, members),) = connection.query(POSTGRES_ROLE_SQL)
    powers = ["a superuser"] if superuser else [f"a member of {name}" for name in members]
    writes = [write for (write,) in connection.query(POSTGRES_WRITES_SQL, [schema, table])]
    return RolePowers(role, tuple(powers), tuple(writes))


def _mysql(connection: ReadOnlyConnection, schema: str, table: str) -> RolePowers:
    ((account,),) = connection.query(MYSQL_ACCOUNT_SQL)
    user, _, host = account.rpartition("@")
    grantee = f"'{user}'@'{host}'"
    held = {
        privilege.upper()
        for name, privilege in connection.query(MYSQL_PRIVILEGES_SQL, [schema, table])
        if name == grantee
    }
    powers = [f"granted {power}" for power in MYSQL_POWERS if power in held]
    roles = [name for (name,) in connection.query(MYSQL_ROLES_SQL)]
    if roles:
        powers.append(f"in role {', '.join(roles)}, whose privileges a select cannot read")
    return RolePowers(
        grantee, tuple(powers), tuple(write for write in MYSQL_WRITES if write in held)
    )
