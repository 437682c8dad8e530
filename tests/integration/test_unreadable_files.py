"""A file Spark cannot read among good ones makes the pair an error naming the pair, the side and
the file, in a line, whichever algorithm met it."""

from __future__ import annotations

import shutil

import pytest
import yaml

from tests.integration.damaged_files import damaged_orders
from tests.integration.remote_tables import reconcile
from tests.integration.run_results import pair_error

SOURCES_FILE = "models/corrupt_sources.yml"
ALGORITHMS = ["joindiff", "hashdiff"]


@pytest.fixture(scope="module")
def corrupt_copy(scratch, spark, tmp_path_factory):
    """The damaged copy, and one run of a pair against it by each algorithm."""
    folder = tmp_path_factory.mktemp("corrupt") / "orders"
    damaged = damaged_orders(spark, f"{scratch.schema}.legacy_orders", folder)
    sources = {"version": 2, "sources": [damaged]}
    scratch.write(SOURCES_FILE, yaml.safe_dump(sources))
    pairs = [
        {
            "name": f"damaged_{algorithm}",
            "source": {"ref": "legacy_orders"},
            "target": {"source": ["damaged", "orders"]},
            "key": "order_id",
            "algorithm": algorithm,
        }
        for algorithm in ALGORITHMS
    ]
    try:
        assert reconcile(scratch, pairs).success
        yield folder
    finally:
        (scratch.path / SOURCES_FILE).unlink()
        shutil.rmtree(folder)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_a_corrupt_file_is_named_with_its_pair_and_side(scratch, spark, corrupt_copy, algorithm):
    message = pair_error(spark, scratch.schema, f"damaged_{algorithm}")
    assert f"parity pair 'damaged_{algorithm}': target relation parquet.`{corrupt_copy}`" in message
    assert "Spark cannot read the file" in message and "part-99999.parquet" in message
    assert "is not a Parquet file" in message
    assert "collectToPython" not in message and "\n" not in message, message
