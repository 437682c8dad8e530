"""The sides of a pair: what the algorithms ask of one (side.py), and the sides that answer it, in
the Spark session (spark.py) or in another engine through DB-API (sql.py, with its read-only
sessions in connections.py); a file a Spark side cannot read is named by unreadable_files.py."""
