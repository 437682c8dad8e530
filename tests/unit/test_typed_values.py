"""A corrected value read back from its canonical text has that same canonical text, under every
profile a side is canonicalized at: the reference encoding (parity.reference) is the oracle."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parity.reference import canonical_text
from parity.sync.typed_values import typed_value
from tests.examples import examples

ZONES = ["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata"]
ROUNDINGS = ["truncate", "half_up", "half_even", "half_away_from_1970", "half_away_from_2000"]
INSTANTS = st.datetimes(dt.datetime(1900, 1, 1), dt.datetime(2200, 1, 1))
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**60), 2**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


def decimals(scale: int):
    return st.decimals(-(10**12), 10**12, places=scale, allow_nan=False, allow_infinity=False)


PROFILES_AND_VALUES = st.one_of(
    st.tuples(st.just({"kind": "integer"}), st.integers(-(2**63), 2**63 - 1)),
    st.integers(0, 12).flatmap(
        lambda scale: st.tuples(st.just({"kind": "decimal", "scale": scale}), decimals(scale))
    ),
    st.sampled_from([32, 64]).flatmap(
        lambda bits: st.tuples(st.just({"kind": "float", "bits": bits}), st.floats(width=bits))
    ),
    # An integer column paired with a float one.
    st.tuples(
        st.just({"kind": "float", "bits": 64, "integer": True}), st.integers(-(2**53), 2**53)
    ),
    st.tuples(st.just({"kind": "boolean"}), st.booleans()),
    st.tuples(
        st.just({"kind": "boolean_text"}),
        st.sampled_from(["true", "FALSE", " y ", "no", "1", "0", "maybe", ""]),
    ),
    st.tuples(st.just({"kind": "string"}), st.text()),
    st.tuples(st.just({"kind": "string", "padded": True}), st.text().map(str.rstrip)),
    st.tuples(st.just({"kind": "uuid"}), st.uuids().map(str)),
    st.tuples(st.just({"kind": "uuid", "bytes": True}), st.uuids().map(lambda u: u.bytes)),
    st.tuples(st.just({"kind": "date"}), st.dates()),
    st.tuples(st.just({"kind": "binary"}), st.binary()),
    st.tuples(st.sampled_from([{"kind": "json"}, {"kind": "nested"}]), JSON.map(json.dumps)),
    st.tuples(st.just({"kind": "json_text"}), JSON.map(json.dumps) | st.just("{not json")),
    st.tuples(
        st.fixed_dictionaries(
            {
                "kind": st.just("timestamp"),
                "digits": st.integers(0, 6),
                "rounding": st.sampled_from(ROUNDINGS),
            }
        ),
        INSTANTS.map(lambda t: t.replace(tzinfo=dt.UTC)),
    ),
    st.tuples(
        st.fixed_dictionaries(
            {
                "kind": st.just("timestamp_ntz"),
                "digits": st.integers(0, 6),
                "rounding": st.sampled_from(ROUNDINGS),
            },
            optional={"time_zone": st.sampled_from(ZONES)},
        ),
        INSTANTS,
    ),
)


@settings(max_examples=examples(2000), deadline=None)
@given(PROFILES_AND_VALUES)
def test_a_value_read_back_from_its_canonical_text_has_that_text(profile_and_value):
    profile, value = profile_and_value
    text = canonical_text(profile, value)
    assert canonical_text(profile, typed_value(profile, text)) == text


@pytest.mark.parametrize(
    ("profile", "text", "value"),
    [
        ({"kind": "decimal", "scale": 2}, "-0.50", Decimal("-0.50")),
        ({"kind": "float", "bits": 64}, "0x1.999999999999ap-4", 0.1),
        ({"kind": "float", "bits": 64}, "0", 0.0),
        ({"kind": "boolean"}, "0", False),
        (
            {"kind": "uuid", "bytes": True},
            "d7834478-e4d7-4acb-9599-63f2b9bca565",
            uuid.UUID("d7834478-e4d7-4acb-9599-63f2b9bca565").bytes,
        ),
        ({"kind": "json_text"}, "invalid JSON: {oops", "{oops"),
        (
            {"kind": "timestamp", "digits": 3, "rounding": "truncate"},
            "2024-03-31 01:30:00.250",
            dt.datetime(2024, 3, 31, 1, 30, 0, 250_000, tzinfo=dt.UTC),
        ),
        # The instant of a Paris wall clock, read back as that wall clock (+01:00 before the
        # spring change).
        (
            {
                "kind": "timestamp_ntz",
                "digits": 0,
                "rounding": "truncate",
                "time_zone": "Europe/Paris",
            },
            "2024-03-31 00:30:00",
            dt.datetime(2024, 3, 31, 1, 30),
        ),
        ({"kind": "integer"}, None, None),
    ],
)
def test_values_as_a_driver_takes_them(profile, text, value):
    assert typed_value(profile, text) == value


def test_nanoseconds_are_refused_not_cut():
    with pytest.raises(ValueError, match="more than 6 fractional digits"):
        typed_value(
            {"kind": "timestamp", "digits": 9, "nanos": True}, "2024-01-01 00:00:00.123456789"
        )
