"""The value types every layer shares, and which import nothing of parity's: the segment grid
(keyspace.py), rows and their differences (rows.py), a side's profile and checksums
(profile.py), a compared column's rule (column_rule.py) and what a pair masks (masking.py)."""
