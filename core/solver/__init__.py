"""The solver: a full-information search for any variant, winnable-deal pools, player hints.

* :mod:`.native`: :func:`solve`, the front door: the compiled core (Rust, ``_native``) where
  it is installed and speaks the game, else the Python engine;
* :mod:`.search`: the Python engine, :class:`Solver` (and :func:`safe_home_move`, the
  safe-home rule autoplay uses), working from the kernel's compiled
  tables alone (see that module and docs/solver.md);
* :mod:`.exhaustive`: a plain exhaustive search with no shortcut, the reference the solver
  is checked against;
* :mod:`.knowledge`: what a variant's plugin may add (the ``solver_knowledge`` hook's answer,
  found through the one plugin registry), as typed protocols;
* :mod:`.pools`: seeds the solver has won, shipped beside a variant's YAML or solved live;
* :mod:`.player`: hints judged from what the player can see only.
"""

from __future__ import annotations

from .exhaustive import ExhaustiveResult, exhaustive_search
from .knowledge import Knowledge, SearchOutcome, SolverKnowledge, variant_knowledge
from .native import Cancel, engine_line, native_available, solve
from .player import player_hint
from .pools import load_pool, options_slug, parse_range, pool_kit_states, pool_path, winnable_seed
from .search import UNKNOWN, UNWINNABLE, WIN, Solver, SolveResult, safe_home_move

__all__ = [
    "UNKNOWN", "UNWINNABLE", "WIN", "Cancel", "ExhaustiveResult", "Knowledge", "SearchOutcome", "SolveResult", "Solver",
    "SolverKnowledge", "engine_line", "exhaustive_search", "load_pool", "native_available", "options_slug",
    "parse_range", "player_hint", "pool_kit_states", "pool_path",
    "safe_home_move", "solve", "variant_knowledge", "winnable_seed",
]
