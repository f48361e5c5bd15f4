"""Types of the compiled exhaustive search (native/src/python.rs)."""

RELAX_BUDGET: int
RELAX_MEMO: int

def exact(lengths: list[int], reserves: list[list[int]], cards: list[int], max_states: int,
          seconds: float | None = None, relax_budget: int = ...) -> tuple[str, list[tuple[str, int, int]], int]: ...
