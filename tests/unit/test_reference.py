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
