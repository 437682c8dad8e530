"""Correcting a pair's target from a published run: the apply's request, the guards that refuse
it, and the record each apply leaves (models/apply/parity_applies.py)."""
