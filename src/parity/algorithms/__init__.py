"""How differing rows are found: hashdiff's drill-down over the segment grid
(values/keyspace.py); joindiff's first pass of native hashes by key (key_hashes.py) and its
multiset comparison of canonical rows in Spark (canonical_join.py); and the multiset
comparison they all follow (rowdiff.py)."""
