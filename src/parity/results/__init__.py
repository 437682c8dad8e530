"""What is published of each pair: what it found (summary.py), how each difference is shown
(presentation.py), each column's drift (drift.py), and its result with the rows that carry them
(pair_result.py)."""
