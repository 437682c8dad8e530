import datetime as dt
import hashlib
import math
import random
import struct
import uuid
from decimal import Decimal
from fractions import Fraction

from parity.reference import (
    EXACT,
    canonical_text,
    decimal_as_float,
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


def _nearest_float32(value: Decimal) -> float:
    """By exact rationals: the multiple of the float32 spacing at the value nearest to it."""
    magnitude = Fraction(value.copy_abs())
    exponent = -126
    while Fraction(2) ** (exponent + 1) <= magnitude:
        exponent += 1
    spacing = Fraction(2) ** (exponent - 23)
    return math.copysign(float(round(magnitude / spacing) * spacing), value)


def _float32_midpoint_neighbours(rng: random.Random) -> list[Decimal]:
    """Decimals just beside, and on, the midpoint between a float32 and the next."""
    single = struct.unpack("f", struct.pack("f", rng.uniform(-1e6, 1e6)))[0]
    midpoint = EXACT.add(Decimal(single), EXACT.multiply(Decimal(math.ulp(single)), 2**28))
    nudge = Decimal(1).scaleb(midpoint.adjusted() - 30)
    return [EXACT.subtract(midpoint, nudge), midpoint, EXACT.add(midpoint, nudge)]


def test_decimals_become_the_nearest_float_rounded_once():
    rng = random.Random(17)
    decimals = [
        Decimal(rng.randint(-(10**18), 10**18)).scaleb(-rng.randint(0, 38)) for _ in range(2000)
    ]
    for _ in range(500):
        decimals.extend(_float32_midpoint_neighbours(rng))
    # Subnormal float32s: 10^-38, and half the smallest (a tie, to 0) and a hair above it.
    half_smallest = Decimal(2.0**-150)
    decimals += [Decimal("1E-38"), half_smallest, EXACT.add(half_smallest, Decimal("1E-80"))]
    twice = 0
    for value in decimals:
        assert decimal_as_float(value, 64) == float(value)
        assert decimal_as_float(value, 32) == _nearest_float32(value), value
        twice += struct.unpack("f", struct.pack("f", float(value)))[0] != _nearest_float32(value)
    assert twice > 100  # the midpoints do round differently through a double
    # 1 + 2^-24 is the midpoint between 1 and the next float32; a hair above it rounds up.
    assert canonical_text({"kind": "float", "bits": 32}, Decimal("1.000000059604644775390626")) == (
        "0x1.0000020000000p+0"
    )
    assert canonical_text({"kind": "float", "bits": 64}, Decimal("0.001")) == float_text(0.001)
    assert canonical_text({"kind": "float", "bits": 32}, Decimal("-0.000")) == "0"


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


def json_of(text):
    return canonical_text({"kind": "json_text"}, text)


def test_json_numbers_are_one_value_however_written():
    spelled = ["1e25", "1.0E25", "10000000000000000000000000"]
    assert {json_of(n) for n in spelled} == {"1" + "0" * 25}
    assert json_of("[2.50, -0.0, 1.0E7, 0.1, 1.5e-7]") == "[2.5,0,10000000,0.1,0.00000015]"
    # Java 17 writes this double with a digit too many; its 15 digits read back as it.
    assert (
        json_of("2.82879384806159008E17") == json_of("2.82879384806159e17") == "282879384806159000"
    )
    # Beyond 2^53 an integer is its double: 2^53 + 1 rounds to 2^53.
    assert json_of("9007199254740993") == json_of("9007199254740992") == "0x1.0000000000000p+53"
    assert json_of("[1e400, 5e-324]") == "[Infinity,0x0.0000000000001p-1022]"


def test_json_null_members_keys_and_escapes():
    assert json_of('{"a": null, "b": [null, {"c": null}]}') == '{"b":[null,{}]}'
    # UTF-16 order: U+1F600 (a surrogate pair, D83D DE00) before U+FF5A.
    assert (
        json_of('{"\\uff5a": 1, "\\ud83d\\ude00": 2, "a": 3}')
        == '{"a":3,"\U0001f600":2,"\uff5a":1}'
    )
    assert json_of('"\\u001f\\u000b\\\\u001f\\/"') == '"\\u001F\\u000B\\\\u001f/"'


def test_text_that_is_no_json_is_marked():
    assert json_of('{"a": 1} x') == 'invalid JSON: {"a": 1} x'
    assert json_of("NaN") == "invalid JSON: NaN"


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
