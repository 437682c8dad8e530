"""Where the floor's time goes on a Spark side: one query at a time over the benchmark's source
table (generate it first with `make bench`), each forced by a sum of a native hash so nothing
is pruned.

    make bench BENCH=where_time_goes [BENCH_ARGS="--repeat 3"]

It times a plain scan of the compared columns, each column's canonical text alone, the whole
canonical select, the row hash over it, the checksum without grouping, and the profile (grouped
by block of 64 keys, the benchmark's key being a single integer), and prints each as a ratio to
the plain scan.
"""

from __future__ import annotations

import argparse

from pyspark.sql import functions as F

from bench.harness import SCHEMA, bench_session, rendered_pairs, timed
from parity.sides.spark import SparkSide


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    spark = bench_session("parity-where-time-goes")
    pair = rendered_pairs(
        spark,
        [
            {
                "name": "bench",
                "source": {"source": ["bench", "bench_source"]},
                "target": {"source": ["bench", "bench_target"]},
                "key": "id",
                "algorithm": "hashdiff",
            }
        ],
    )["bench"]
    side = SparkSide(spark, pair.name, pair.source)
    raw = spark.table(f"{SCHEMA}.bench_source")
    canonical = spark.sql(pair.source.canonical_sql)
    columns = [*pair.source.key_columns, *pair.source.value_columns]

    def forced(frame, *expressions):
        return lambda: frame.select(F.sum(F.xxhash64(*expressions))).first()

    queries = {"plain scan": forced(raw, *raw.columns)}
    select = canonical.columns
    for name in columns:
        queries[f"canonical {name}"] = forced(canonical, name)
    queries["canonical select"] = forced(canonical, *[c for c in select if c in columns])
    queries["row hash"] = forced(canonical, "__parity_hash")  # macros/plan/column_aliases.sql
    queries["checksum, no grouping"] = lambda: canonical.select(
        F.expr(pair.source.checksum_sql)
    ).first()
    queries["profile (floor, one side)"] = side.profile
    figures = {}
    for name, query in queries.items():
        figures[name] = min(timed(query)[0] for _ in range(repeat))
    scan = figures["plain scan"]
    print(f"\n{'query':<32} {'seconds':>8} {'x plain scan':>13}")
    for name, seconds in figures.items():
        print(f"{name:<32} {seconds:>8.2f} {seconds / scan:>13.2f}")
    spark.stop()


if __name__ == "__main__":
    main()
