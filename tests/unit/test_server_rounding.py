"""How a MySQL-family server stored a finer fraction of a second, from its version and mode."""

from __future__ import annotations

import pytest

from parity.sides.remote_columns import fraction_rounding

MARIADB = "10.11.18-MariaDB-0+deb12u1"
MYSQL = "8.0.40"


@pytest.mark.parametrize(
    ("version", "sql_mode", "rule"),
    [
        (MARIADB, "STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION", "truncate"),
        (MARIADB, "STRICT_TRANS_TABLES,TIME_ROUND_FRACTIONAL", "half_up"),
        (MYSQL, "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES", "half_up"),
        (MYSQL, "TIME_TRUNCATE_FRACTIONAL", "truncate"),
        (MYSQL, "", "half_up"),
    ],
)
def test_the_server_mode_decides_the_rule(version, sql_mode, rule):
    assert fraction_rounding(version, sql_mode) == rule
