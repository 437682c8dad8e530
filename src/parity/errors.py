"""The one error type users see: it always names the pair, and the side or column at fault."""


class ParityError(RuntimeError):
    """A pair cannot be reconciled as configured; nothing of it is written."""

    def __init__(self, pair_name: str, problem: str) -> None:
        super().__init__(f"parity pair '{pair_name}': {problem}")
        self.pair_name = pair_name
