"""Types of the compiled exhaustive search (native/src/python.rs)."""

RELAX_BUDGET: int
RELAX_MEMO: int
RELAX_WORK: int

def exact(lengths: list[int], reserves: list[list[int]], cards: list[int], max_states: int,
          seconds: float | None = None, relax_budget: int = ...,
          max_work: int | None = None) -> tuple[str, list[tuple[str, int, int]], int]: ...

def beam(lengths: list[int], reserves: list[list[int]], cards: list[int], width: int,
         seconds: float | None = None, kind: int = 0) -> tuple[list[tuple[str, int, int]] | None, bool, int]: ...
