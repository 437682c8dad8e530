"""How differing rows are found: hashdiff's drill-down over the segment grid
(values/keyspace.py), joindiff inside Spark, and the multiset comparison both follow
(rowdiff.py)."""
