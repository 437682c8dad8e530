"""Parquet files read by the library as the plan reads them: UUID columns (which Spark 4 refuses
to infer) as their 16 bytes through a view, and Spark's reason, in a line, for files it cannot
read."""

from __future__ import annotations

import uuid

import duckdb
import pytest

from parity.sides.file_views import Unreadable, read_files, register

U = uuid.UUID("d7834478-e4d7-4acb-9599-63f2b9bca565")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("file_views")
    with duckdb.connect() as connection:
        for name, select in {
            "flat": f"select 1 as id, '{U}'::uuid as u, 'a' as t",
            "nested": f"select 1 as id, {{'a': '{U}'::uuid, 'b': 2}} as s",
        }.items():
            (folder / name).mkdir()
            connection.execute(f"copy ({select}) to '{folder / name / 'part-0.parquet'}'")
    (folder / "notes").mkdir()
    (folder / "notes" / "notes.txt").write_text("hello\n")
    return folder


def test_uuid_columns_are_read_as_their_bytes_through_a_view(spark, folder):
    view = read_files(spark, "parquet", str(folder / "flat"), "__parity_test_described")
    assert (view.schema, view.uuid_columns) == ("id INT,u BINARY,t STRING", ("u",))
    assert [tuple(r) for r in spark.table("__parity_test_described").collect()] == [
        (1, bytearray(U.bytes), "a")
    ]
    # Another session (a reconciliation's) registers the same view from the plan's record of it.
    other = spark.newSession()
    register(other, view)
    assert other.table(f"`{view.view}`").first()["u"] == bytearray(U.bytes)


@pytest.mark.parametrize(
    ("name", "reasons"),
    [
        ("nested", ["[PARQUET_TYPE_ILLEGAL]", "column s holds a UUID field"]),
        ("notes", ["CANNOT_READ_FILE_FOOTER", "notes.txt is not a Parquet file"]),
        ("missing", ["[PATH_NOT_FOUND] Path does not exist"]),
    ],
)
def test_unreadable_files_say_why_in_a_line(spark, folder, name, reasons):
    with pytest.raises(Unreadable) as raised:
        read_files(spark, "parquet", str(folder / name), "__parity_test_described")
    reason = str(raised.value)
    assert all(r in reason for r in reasons) and "\n" not in reason, reason
