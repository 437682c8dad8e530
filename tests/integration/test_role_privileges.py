"""The role a side's session logs in as is checked when the plan opens the side: a superuser, or a
role that may reach the server's files (PostgreSQL's file roles, MySQL's FILE or SUPER, a MySQL
role whose privileges a select cannot read), is refused, naming the pair, the side, the relation
and the role, unless the source's meta sets `allow_superuser: true`; a role that may write the
compared relation is a warning in the plan and the report, and the pair runs; a role that may
only read is said nothing of. Every case is a source of its own, read through a variable of its
own, and every pair is one of a single run."""

from __future__ import annotations

import json
import secrets
from urllib.parse import urlsplit

import psycopg
import pytest
import yaml
from psycopg import sql

from tests.integration.dbt_project_copy import error_text
from tests.integration.mariadb_server import client
from tests.integration.remote_tables import reconcile, remote_pair
from tests.integration.run_results import PublishedRun, planned_problem

# PostgreSQL roles by case: what each is granted besides SELECT on the compared table (the
# superuser cases log in as the cluster's own superuser).
POSTGRES_ROLES = {
    "pg_filer": "grant pg_write_server_files to {role}",
    "pg_writer": "grant insert on public.orders to {role}",
    "pg_reader": None,
}
# MariaDB accounts by case: what each is granted besides SELECT on the compared table.
MYSQL_ACCOUNTS = {
    "my_filer": ["grant file on *.* to {account}"],
    "my_writer": ["grant insert, update, delete on parity.* to {account}"],
    "my_reader": [],
    "my_roled": [
        "grant parity_loader to {account}",
        "set default role parity_loader for {account}",
    ],
}
# Cases whose source meta allows a superuser, and the case whose login they share.
ALLOWED = {"pg_super_allowed": "pg_super", "my_filer_allowed": "my_filer"}
MYSQL_TABLE = "create table parity.priced (id int primary key, amount decimal(10, 2))"


def variable(case: str) -> str:
    return f"PARITY_TEST_ROLE_{case.upper()}"


def sources(cases: list[str]) -> str:
    """One source per case, each read through its own variable."""
    declared = []
    for case in cases:
        postgres = case.startswith("pg_")
        meta = {
            "dialect": "postgres" if postgres else "mysql",
            "connection_env": variable(case),
        }
        if case in ALLOWED:
            meta["allow_superuser"] = True
        declared.append(
            {
                "name": f"role_{case}",
                "schema": "public" if postgres else "parity",
                "meta": {"parity": meta},
                "tables": [{"name": "orders" if postgres else "priced"}],
            }
        )
    return yaml.safe_dump({"version": 2, "sources": declared})


def login(url: str, user: str, password: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{user}:{password}@{parts.hostname}:{parts.port}{parts.path}"


def postgres_roles(admin_url: str) -> dict[str, str]:
    """The PostgreSQL cases' URLs, their roles created (again) by the superuser."""
    urls = {"pg_super": admin_url}
    with psycopg.connect(admin_url, autocommit=True) as admin:
        for case, grant in POSTGRES_ROLES.items():
            role, password = f"parity_{case}", secrets.token_urlsafe(12)
            admin.execute(sql.SQL("drop role if exists {}").format(sql.Identifier(role)))
            admin.execute(
                sql.SQL("create role {} login password {}").format(
                    sql.Identifier(role), sql.Literal(password)
                )
            )
            admin.execute(
                sql.SQL("grant select on public.orders to {}").format(sql.Identifier(role))
            )
            if grant:
                admin.execute(grant.format(role=role))
            urls[case] = login(admin_url, role, password)
    return urls


def mysql_accounts(admin_url: str) -> dict[str, str]:
    """The MariaDB cases' URLs, the compared table and the accounts created by the
    administrator."""
    urls = {}
    with client(admin_url) as admin, admin.cursor() as cursor:
        cursor.execute("drop table if exists parity.priced")
        cursor.execute(MYSQL_TABLE)
        cursor.execute("insert into parity.priced values (1, 1.50), (2, 20.00), (3, NULL)")
        cursor.execute("drop role if exists parity_loader")
        cursor.execute("create role parity_loader")
        cursor.execute("grant insert on parity.priced to parity_loader")
        for case, grants in MYSQL_ACCOUNTS.items():
            user, password = f"parity_{case}", secrets.token_urlsafe(12)
            account = f"'{user}'@'127.0.0.1'"
            cursor.execute(f"drop user if exists {account}")
            cursor.execute(f"create user {account} identified by %s", (password,))
            cursor.execute(f"grant select on parity.priced to {account}")
            for grant in grants:
                cursor.execute(grant.format(account=account))
            urls[case] = login(admin_url, user, password)
    return urls


@pytest.fixture(scope="module")
def checked(scratch, spark, remote_legacy, postgres_admin_url, mariadb_admin_url):
    """Every case's pair reconciled in one run: the run, what it logged, and the plan's
    problems and warnings by pair."""
    urls = {**postgres_roles(postgres_admin_url), **mysql_accounts(mariadb_admin_url)}
    urls.update({case: urls[shared] for case, shared in ALLOWED.items()})
    cases = sorted(urls)
    # Each case's side against the same table read by a role that may only read: the pairs that
    # run pass.
    pairs = [
        {
            "name": case,
            "source": {"source": [f"role_{case}", table]},
            "target": {"source": [f"role_{reader}", table]},
            "key": key,
        }
        for case in cases
        for reader, table, key in [
            ("pg_reader", "orders", "order_id")
            if case.startswith("pg_")
            else ("my_reader", "priced", "id")
        ]
    ]
    logged: list[str] = []
    try:
        with pytest.MonkeyPatch.context() as environment:
            for case, url in urls.items():
                environment.setenv(variable(case), url)
            scratch.write("models/role_sources.yml", sources(cases))
            result = reconcile(scratch, pairs, logged)
    finally:
        (scratch.path / "models/role_sources.yml").unlink()
    assert result.success, error_text(result)
    plan = {
        row["pair_name"]: row
        for row in spark.sql(
            f"select pair_name, problem, warnings from {scratch.schema}.parity_plan"
        ).collect()
    }
    summaries, _, _ = PublishedRun.read(spark, scratch.schema).of(pairs)
    return {
        "logged": logged,
        "problems": {name: row["problem"] for name, row in plan.items()},
        "warnings": {name: json.loads(row["warnings"]) for name, row in plan.items()},
        "summaries": summaries,
        "schema": scratch.schema,
        "dbt_log": (scratch.path / "logs" / "dbt.log").read_text(),
    }


REFUSED = {
    "pg_super": ("public.orders", "role parity_admin, which is a superuser"),
    "pg_filer": (
        "public.orders",
        "role parity_pg_filer, which is a member of pg_write_server_files",
    ),
    "my_filer": ("parity.priced", "role 'parity_my_filer'@'127.0.0.1', which is granted FILE"),
    "my_roled": (
        "parity.priced",
        "role 'parity_my_roled'@'127.0.0.1', which is in role parity_loader,"
        " whose privileges a select cannot read",
    ),
}


@pytest.mark.parametrize("case", REFUSED)
def test_a_superuser_or_a_file_role_is_refused_at_plan_time(checked, spark, case):
    relation, role = REFUSED[case]
    assert planned_problem(spark, checked["schema"], case) == (
        f"parity pair '{case}': source relation {relation}: parity refuses to read as {role}:"
        " give it a role that may only read the compared relation, or set"
        " parity.allow_superuser: true in the source's meta"
    )
    summary = checked["summaries"][case]
    assert summary["status"] == "error" and role in summary["status_reason"]
    assert f"  not reconciled: source relation {relation}: parity refuses" in "\n".join(
        checked["logged"]
    )


@pytest.mark.parametrize(
    ("case", "said"),
    [
        (
            "pg_super_allowed",
            "role parity_admin is a superuser (allowed by parity.allow_superuser)",
        ),
        (
            "my_filer_allowed",
            "role 'parity_my_filer'@'127.0.0.1' is granted FILE (allowed by"
            " parity.allow_superuser)",
        ),
    ],
)
def test_allow_superuser_accepts_it_and_says_so(checked, case, said):
    assert checked["problems"][case] == ""
    assert checked["summaries"][case]["passed"]
    (warning,) = checked["warnings"][case]
    assert warning.startswith(
        f"source relation {'public.orders' if 'pg' in case else 'parity.priced'}: {said}"
    )


@pytest.mark.parametrize(
    ("case", "said"),
    [
        ("pg_writer", "source relation public.orders: role parity_pg_writer may write it (INSERT)"),
        (
            "my_writer",
            "source relation parity.priced: role 'parity_my_writer'@'127.0.0.1' may write it"
            " (INSERT, UPDATE, DELETE)",
        ),
    ],
)
def test_a_role_that_may_write_is_a_warning_in_the_plan_and_the_report(checked, case, said):
    assert checked["problems"][case] == ""
    assert checked["summaries"][case]["passed"]
    warning = f"{said}: parity only reads, and a role that may only read is the one to give it"
    assert checked["warnings"][case] == [warning]
    logged = checked["logged"]
    # The report, under the pair's verdict.
    verdict = next(
        n for n, line in enumerate(logged) if line.startswith(f"parity pair '{case}': PASS")
    )
    assert logged[verdict + 1] == f"  warning: {warning}"
    # And the plan's own line, a warning in dbt's log.
    line = f"parity pair '{case}': {warning}"
    assert line in logged
    assert [
        found
        for found in checked["dbt_log"].splitlines()
        if found.endswith(line) and "[warn" in found
    ]


@pytest.mark.parametrize("case", ["pg_reader", "my_reader"])
def test_a_role_that_may_only_read_is_said_nothing_of(checked, case):
    assert checked["problems"][case] == "" and checked["warnings"][case] == []
    assert checked["summaries"][case]["passed"]
    assert not [
        line for line in checked["logged"] if "warning:" in line and f"parity_{case}" in line
    ]


def test_allow_superuser_must_be_a_boolean(scratch, remote_legacy):
    declared = yaml.safe_load(sources(["pg_reader"]))
    declared["sources"][0]["meta"]["parity"]["allow_superuser"] = "yes"
    try:
        scratch.write("models/role_sources.yml", yaml.safe_dump(declared))
        result = reconcile(
            scratch, [remote_pair("bad", "role_pg_reader", {"ref": "legacy_orders"})]
        )
    finally:
        (scratch.path / "models/role_sources.yml").unlink()
    assert not result.success
    assert (
        "source role_pg_reader.orders: parity.allow_superuser must be true or false, not 'yes'"
        in (error_text(result))
    )
