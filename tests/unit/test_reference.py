import hashlib

from parity.reference import row_hash, row_string


def test_row_string_is_unambiguous():
    assert row_string(["ab", "c"]) != row_string(["a", "bc"])
    assert row_string([None]) != row_string(["-"]) != row_string([""])
    assert row_string(["1:a"]) != row_string(["1", "a"])
    assert row_string(["café ☕"]) == "6:café ☕"


def test_row_hash_is_the_lower_60_bits_of_md5():
    digest = hashlib.md5(b"1:1-0:").hexdigest()
    assert row_hash(["1", None, ""]) == int(digest, 16) & (2**60 - 1)
