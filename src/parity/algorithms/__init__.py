"""How differing rows are found: the segment grid of the key space (keyspace.py), hashdiff's
drill-down over it, joindiff inside Spark, and the multiset comparison both follow (rowdiff.py)."""
