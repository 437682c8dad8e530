"""Why a pair is compared again names only what happened: a run with a wrong PostgreSQL password
does not claim the pair's tolerance or schemas changed, and the run after it, with the right
password, says that the last run failed and why, nothing more."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import POSTGRES_ENV, reconcile, remote_pair
from tests.integration.run_results import PublishedRun

PAIR = remote_pair(
    "reasons_pg",
    "legacy_pg",
    {"ref": "lakehouse_orders"},
    enforce_key="warn",
    tolerance={"columns": {"amount": {"abs_tol": 0.01}}},
)


def wrong_password(url: str) -> str:
    parts = urlsplit(url)
    netloc = f"{parts.username}:not-the-password@{parts.hostname}:{parts.port}"
    return urlunsplit(parts._replace(netloc=netloc))


@pytest.fixture(scope="module")
def reasons(scratch, spark, remote_legacy) -> list[dict]:
    """The pair's summary row after a run that completed, a run with a wrong password, and a
    run with the right one again."""
    rows = []
    for password in ("right", "wrong", "right"):
        with pytest.MonkeyPatch.context() as environment:
            if password == "wrong":
                environment.setenv(POSTGRES_ENV, wrong_password(remote_legacy))
            result = reconcile(scratch, [PAIR])
        assert result.success, error_text(result)
        summaries, _, _ = PublishedRun.read(spark, scratch.schema).of([PAIR])
        rows.append(summaries[PAIR["name"]])
    return rows


def test_a_run_that_cannot_connect_names_no_change_that_did_not_happen(reasons):
    _, failed, _ = reasons
    assert (failed["status"], failed["run_mode"]) == ("error", "compared"), failed
    assert "password authentication failed" in failed["status_reason"], failed
    assert failed["run_mode_reason"] == "this run's plan could not plan it"


def test_the_run_after_a_failed_one_says_it_failed_and_why(reasons):
    first, failed, again = reasons
    assert first["status"] == "complete", first
    assert (again["status"], again["run_mode"]) == ("complete", "compared"), again
    reason = again["run_mode_reason"]
    assert reason == f"its last run failed: {failed['status_reason'].splitlines()[0]}"
    assert "tolerance" not in reason and "schema" not in reason
