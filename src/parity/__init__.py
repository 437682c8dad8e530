"""parity: divide-hash-and-conquer table reconciliation across engines, from dbt on Spark."""

__version__ = "0.1.0"
