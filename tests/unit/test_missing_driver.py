"""A session whose engine's driver is not installed is not opened: the error names the package to
install and the extra of dbt-parity that brings it, and not the connection's URL."""

from __future__ import annotations

import os
import sys

import pytest

from parity.errors import ParityError
from parity.sides.connections import connect


def test_a_missing_driver_names_the_package_and_the_extra(monkeypatch):
    monkeypatch.setenv("PARITY_TEST_SESSION", "postgresql://reader@127.0.0.1/db")
    monkeypatch.setitem(sys.modules, "psycopg", None)
    with pytest.raises(ParityError) as raised:
        connect("postgres", "PARITY_TEST_SESSION", "p", "source relation t")
    assert "needs the psycopg package: pip install 'dbt-parity[postgres]'" in str(raised.value)
    assert os.environ["PARITY_TEST_SESSION"] not in str(raised.value)
