import datetime as dt
import hashlib
import math

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


def test_nanoseconds_round_by_the_coarser_rule_and_stay_at_nine_digits():
    nanos = {"digits": 6, "nanos": True}
    tie = 1_577_836_800_000_002_500  # 2020-01-01 00:00:00.0000025
    assert canonical_text({"kind": "timestamp", **nanos, "rounding": "half_even"}, tie) == (
        "2020-01-01 00:00:00.000002"
    )
    assert canonical_text(
        {"kind": "timestamp", **nanos, "rounding": "half_away_from_1970"}, tie
    ) == ("2020-01-01 00:00:00.000003")
    before = -500  # 1969-12-31 23:59:59.9999995: a tie before 1970, and a carry for half_even
    assert timestamp_text(before, 6, "half_away_from_1970", 9) == "1969-12-31 23:59:59.999999"
    assert timestamp_text(before, 6, "half_even", 9) == "1970-01-01 00:00:00.000000"
    assert timestamp_text(before, 6, "truncate", 9) == "1969-12-31 23:59:59.999999"
    assert timestamp_text(before, 9, "truncate", 9) == "1969-12-31 23:59:59.999999500"


def test_a_naive_value_in_a_zone_is_the_later_reading_in_a_gap_or_an_overlap():
    paris = {
        "kind": "timestamp_ntz",
        "digits": 6,
        "rounding": "truncate",
        "time_zone": "Europe/Paris",
    }
    read = {
        dt.datetime(2024, 7, 14, 14, 0): "2024-07-14 12:00:00.000000",
        dt.datetime(2024, 3, 31, 2, 30): "2024-03-31 01:30:00.000000",  # gap: +01:00
        dt.datetime(2024, 10, 27, 2, 30): "2024-10-27 01:30:00.000000",  # overlap: +01:00
    }
    for wall, utc in read.items():
        assert canonical_text(paris, wall) == utc
    nanos = 1_711_848_600_000_000_001  # 2024-03-31 02:30:00.000000001 in Paris, in the gap
    assert canonical_text({**paris, "digits": 9, "nanos": True}, nanos + 3_600 * 10**9) == (
        "2024-03-31 01:30:00.000000001"
    )
