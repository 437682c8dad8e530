"""Each algorithm as one pipeline from opened sides to one Outcome: its passes, the key
constraints, the circuit breaker and the summary of what it found."""
