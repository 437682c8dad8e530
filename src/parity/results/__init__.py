"""What is published of each pair: the summary with its differences nested (summary.py), how each
difference is shown (presentation.py), and each column's drift (drift.py)."""
