"""The dead-card cut (docs/solver.md, "Dead cards") in both engines, for the Golf family.

Positions are reached by the game itself: a deal of Golf (with and without wrap), Black Hole
or TriPeaks played by random legal moves until few cards are left out of the foundations; there
each engine's answer is checked against :func:`exhaustive_search` (every legal move, no cut):
an ``unwinnable`` is never a position the exhaustive search wins, and where that search
finishes the answers are the same. Budgets are in states, never seconds.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver_every_game import near_the_end

from solitaire.core import Game, Rules, get_variant
from solitaire.core.solver import UNKNOWN, UNWINNABLE, WIN, exhaustive_search, native_available, solve
from solitaire.core.solver.search import solve as python_solve

ENGINES = ["native", "python"] if native_available() else ["python"]
GAMES = [("golf", {}), ("golf", {"wrap": True}), ("black-hole", {}), ("tripeaks", {})]
STATES = 20_000


def position(name: str, options: dict[str, bool], seed: int, left: int, rng: random.Random) -> Game:
    """A position of ``name`` from deal ``seed``, random legal moves played until at most
    ``left`` cards lie outside the foundations (or no move is left)."""
    defn = get_variant(name)
    game = Game.new(Rules.of(defn, defn.resolve_options(options)), seed)
    found = set(game.rules.foundations)
    while sum(len(p) for i, p in enumerate(game.piles) if i not in found) > left:
        moves = game.legal_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
    return game.without_history()


def answer(game: Game, engine: str) -> str:
    if engine == "python":
        return python_solve(game, timeout=None, max_states=STATES).result
    return solve(game, timeout=None, max_states=STATES, engine=engine).result


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("name", "options"), GAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10_000), left=st.integers(8, 16), walk=st.integers(0, 2**32))
def test_the_cut_never_calls_a_won_position_lost(engine: str, name: str, options: dict[str, bool],
                                                 seed: int, left: int, walk: int) -> None:
    game = position(name, options, seed, left, random.Random(walk))
    truth = exhaustive_search(game, max_states=STATES).result
    got = answer(game, engine)
    if truth == WIN:
        assert got != UNWINNABLE
    if truth == UNWINNABLE:
        assert got in (UNWINNABLE, UNKNOWN)
        assert got == UNWINNABLE, "a small lost position the solver cannot prove"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", ["golf", "black-hole", "tripeaks"])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(back=st.integers(8, 30), wander=st.integers(0, 3), seed=st.integers(0, 10_000))
def test_near_a_won_line_the_answers_are_the_exhaustive_searchs(engine: str, name: str, back: int,
                                                                wander: int, seed: int) -> None:
    # positions a few moves off a won game's line: most are won, some lost
    game = near_the_end(name, back, wander, seed)
    truth = exhaustive_search(game, max_states=STATES).result
    got = answer(game, engine)
    if truth == WIN:
        assert got == WIN
    if truth == UNWINNABLE:
        assert got == UNWINNABLE


def test_golf_seed_1_is_proved_lost_in_fewer_states() -> None:
    # before the cut the portfolio stored 3.3 million states for this proof; the compiled
    # core only (the Python engine needs minutes here)
    if not native_available():
        pytest.skip("no compiled core")
    game = Game.new(Rules.of(get_variant("golf")), 1)
    result = solve(game, timeout=None, max_states=1_000_000, engine="native")
    assert result.result == UNWINNABLE
    assert result.states < 2_500_000


def test_both_engines_store_the_same_states_on_golf() -> None:
    if not native_available():
        pytest.skip("no compiled core")
    game = position("golf", {}, 7, 20, random.Random(3))
    a = python_solve(game, timeout=None, max_states=STATES)
    b = solve(game, timeout=None, max_states=STATES, engine="native")
    assert (a.result, a.method) == (b.result, b.method)
    assert a.result != WIN or b.result == WIN
