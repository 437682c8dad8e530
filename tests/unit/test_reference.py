import datetime as dt
import hashlib
import math
import uuid

from parity.reference import (
    canonical_text,
    epoch_micros,
    float_text,
    row_hash,
    row_string,
    timestamp_text,
)


def test_row_string_is_unambiguous():
    assert row_string(["ab", "c"]) != row_string(["a", "bc"])
    assert row_string([None]) != row_string(["-"]) != row_string([""])
    assert row_string(["1:a"]) != row_string(["1", "a"])
    assert row_string(["café ☕"]) == "6:café ☕"


def test_row_hash_is_the_lower_60_bits_of_md5():
    digest = hashlib.md5(b"1:1-0:").hexdigest()
    assert row_hash(["1", None, ""]) == int(digest, 16) & (2**60 - 1)


def test_floats_are_exact_hexadecimal():
    assert float_text(0.1) == "0x1.999999999999ap-4"
    assert float_text(-0.0) == float_text(0.0) == "0"
    assert float_text(5e-324) == "0x0.0000000000001p-1022"
    assert float_text(1e25) != float_text(1e25 + 2**31)
    assert float_text(0.1, 32) == "0x1.99999a0000000p-4"
    assert float_text(math.nan) == "NaN" and float_text(-math.inf) == "-Infinity"


def test_coarser_timestamps_follow_the_storing_engines_rule():
    carry = epoch_micros(dt.datetime(2020, 1, 1, 0, 0, 5, 999600))
    assert timestamp_text(carry, 3, "half_away_from_2000") == "2020-01-01 00:00:06.000"
    assert timestamp_text(carry, 3, "truncate") == "2020-01-01 00:00:05.999"
    tie = epoch_micros(dt.datetime(1999, 12, 31, 23, 59, 59, 500))
    assert timestamp_text(tie, 3, "half_away_from_2000") == "1999-12-31 23:59:59.000"
    assert timestamp_text(tie, 3, "half_away_from_1970") == "1999-12-31 23:59:59.001"
    assert timestamp_text(tie, 0, "half_up") == "1999-12-31 23:59:59"
    before = epoch_micros(dt.datetime(1969, 12, 31, 23, 59, 59, 500))
    assert timestamp_text(before, 3, "half_away_from_1970") == "1969-12-31 23:59:59.000"
    assert timestamp_text(before, 3, "half_up") == "1969-12-31 23:59:59.001"


def test_uuids_are_lower_case_text_from_text_or_bytes():
    value = uuid.UUID("D7834478-E4D7-4ACB-9599-63F2B9BCA565")
    expected = "d7834478-e4d7-4acb-9599-63f2b9bca565"
    for held in (str(value).upper(), value, value.bytes, bytearray(value.bytes)):
        assert canonical_text({"kind": "uuid"}, held) == expected
