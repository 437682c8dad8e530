"""Canonical text read back into the value a column of the corrected side holds, as a DB-API
driver (or PySpark) takes it: the inverse of the encoding (docs/canonical-encoding.md) under the
side's negotiated profile. Writing it back gives the same canonical text, which is what makes a
corrected pair compare equal; what the text does not keep (a JSON document's spacing and null
members, the wall clock of an hour a zone repeats) is not restored."""

from __future__ import annotations

import datetime as dt
import re
import uuid
import zoneinfo
from decimal import Decimal
from typing import Any

# A string column paired with a JSON one holds text that is no JSON document as this and itself.
INVALID_JSON = "invalid JSON: "
FLOAT_WORDS = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}
BOOLEAN_TEXT = {"1": "true", "0": "false"}
# In canonical JSON, a string, or a number written as no JSON number is: a double's hexadecimal
# text, or a number beyond the double range.
JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|(-?0x[0-9a-f.]+p[+-]\d+)|(-?Infinity)')


def typed_value(profile: dict[str, Any], text: str | None) -> Any:
    """The value whose canonical text under ``profile`` is ``text``."""
    if text is None:
        return None
    kind = profile["kind"]
    if kind == "integer":
        return int(text)
    if kind == "decimal":
        return Decimal(text)
    if kind == "float":
        number = FLOAT_WORDS[text] if text in FLOAT_WORDS else float.fromhex(text)
        # An integer column paired with a float one: the float is integral where it came from one.
        return int(number) if profile.get("integer") else number
    if kind == "boolean":
        return text == "1"
    if kind == "boolean_text":
        return BOOLEAN_TEXT.get(text, text)
    if kind == "uuid":
        return uuid.UUID(text).bytes if profile.get("bytes") else text
    if kind == "date":
        return dt.date.fromisoformat(text)
    if kind in ("timestamp", "timestamp_ntz"):
        return _timestamp(profile, text)
    if kind == "binary":
        return bytes.fromhex(text)
    if kind == "json_text" and text.startswith(INVALID_JSON):
        return text.removeprefix(INVALID_JSON)
    if kind in ("json", "json_text", "nested"):
        return JSON_TOKEN.sub(_json_number, text)
    if kind == "string":
        return text
    raise ValueError(f"no typed value for kind {kind!r}")


def _timestamp(profile: dict[str, Any], text: str) -> dt.datetime:
    """A zoned column's instant, or a naive column's wall clock: in the zone it was written in,
    where the pair names one, else the text's own."""
    digits = len(text) - 20 if len(text) > 19 else 0
    if digits > 6:
        raise ValueError(f"{text}: a timestamp of more than 6 fractional digits")
    instant = dt.datetime.fromisoformat(text)
    if profile["kind"] == "timestamp":
        return instant.replace(tzinfo=dt.UTC)
    zone = profile.get("time_zone")
    if zone is None:
        return instant
    return instant.replace(tzinfo=dt.UTC).astimezone(zoneinfo.ZoneInfo(zone)).replace(tzinfo=None)


def _json_number(match: re.Match[str]) -> str:
    """A canonical JSON number as JSON: the shortest decimal that reads back as the double, or
    one beyond the double range for an infinity; a string as it is."""
    hexadecimal, infinity = match.groups()
    if hexadecimal:
        return repr(float.fromhex(hexadecimal))
    if infinity:
        return infinity.replace("Infinity", "1e999")
    return match.group(0)
