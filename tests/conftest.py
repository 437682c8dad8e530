"""One SparkSession for the whole test session, shared with every in-process dbt invocation."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyspark.sql import SparkSession

from parity.embedded import embedded_session

REPO = Path(__file__).resolve().parents[1]

# Not UTC, and with DST: canonical timestamps must not depend on the session time zone.
SESSION_TIME_ZONE = "America/New_York"


@pytest.fixture(scope="session")
def spark(tmp_path_factory: pytest.TempPathFactory) -> SparkSession:
    session = embedded_session(
        tmp_path_factory.mktemp("spark"),
        "parity-tests",
        **{"spark.sql.shuffle.partitions": "4", "spark.sql.session.timeZone": SESSION_TIME_ZONE},
    )
    yield session
    session.stop()
