"""The deadlock proof (core/solver/deadlock.py, docs/solver.md "Deadlocks"): a position whose
cards each wait for another to move first is lost, with no search.

Checked against the exhaustive search (every legal move, no shortcut) on whole deals and on
positions reached by random play, in both engines, which must agree position for position.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solitaire.core import Game, Rules, get_variant
from solitaire.core.solver import UNWINNABLE, WIN, exhaustive_search, native_available, solve
from solitaire.core.solver import native as native_engine
from solitaire.core.solver.search import _tables
from solitaire.core.solver.search import solve as python_solve

ENGINES = ["native", "python"] if native_available() else ["python"]


def deal(name: str, seed: int, **options: Any) -> Game:
    defn = get_variant(name)
    return Game.new(Rules.of(defn, defn.resolve_options(options)), seed)


def answer(game: Game, engine: str, states: int = 2_000) -> Any:
    if engine == "python":
        return python_solve(game, timeout=None, max_states=states)
    return solve(game, timeout=None, max_states=states, engine="native")


@pytest.mark.parametrize("engine", ENGINES)
def test_klondike_deal_39_is_proved_lost_before_any_search(engine):
    """Deal 39 (relaxed, draw 1): the 7C (top of a column) needs a red 8 or the 3C home; the
    8D is under the face-down 3C beneath it, the 8H under the 7S, and the 3C under the 7C
    itself. The 7S needs a red 8 or the 3S home: the 8H is under it, the 8D under the 3C and
    the 7C, the 3S at the bottom of the 7C's column. Neither 7 can move first. The search
    left it unknown after 600,000 states; the proof needs none."""
    game = deal("klondike", 39, relaxed=True)
    result = answer(game, engine)
    assert (result.result, result.method, result.states) == (UNWINNABLE, "blocked", 0)


def test_solve_json_says_a_deadlocked_deal_is_blocked(cli):
    result = cli("solve", "klondike", "--relaxed", "--seed", "39", "--json")
    data = json.loads(result.out)
    assert result.code == 0
    assert (data["result"], data["method"], data["states"]) == ("unwinnable", "blocked", 0)


@pytest.mark.parametrize(("name", "seeds", "least"), [
    ("fortress", range(1, 31), 10),
    ("beleaguered-castle", range(1, 71), 5),
])
def test_deals_proved_blocked_are_lost_by_the_exhaustive_search(name, seeds, least):
    """Whole deals: every one the proof calls lost the exhaustive search exhausts unwon
    (these games' dead deals are small searches), and the proof finds several."""
    blocked = 0
    for seed in seeds:
        game = deal(name, seed)
        if answer(game, "python", 1).method == "blocked":
            blocked += 1
            assert exhaustive_search(game, 100_000).result == UNWINNABLE, seed
    assert blocked >= least


WALKS = [("klondike", {"relaxed": True}), ("klondike", {}), ("beleaguered-castle", {}), ("fortress", {}),
         ("streets-and-alleys", {}), ("fan", {}), ("russian-solitaire", {}), ("yukon", {}), ("trigon", {}),
         ("alaska", {}), ("northwest-territory", {}), ("freecell", {})]


def walked(name: str, options: dict[str, Any], seed: int, steps: int) -> Game:
    """Deal ``seed``, then ``steps`` random legal moves (random play ruins many deals)."""
    game = deal(name, seed, **options)
    rng = random.Random(seed * 7919 + steps)
    for _ in range(steps):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
    return game


@pytest.mark.parametrize(("name", "options"), WALKS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(WALKS)])
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(seed=st.integers(1, 10**6), steps=st.integers(0, 40))
def test_a_position_the_proof_calls_lost_is_never_won(name, options, seed, steps):
    """Both engines say the same of each position, and where they say lost, the exhaustive
    search finds no win (it decides most of them: random play leaves little to search)."""
    game = walked(name, options, seed, steps)
    lost = _tables(game.rules).deadlock.lost(game.piles, game.down)
    if native_available():
        assert native_engine.position(game).deadlocked() == lost
    if lost:
        assert exhaustive_search(game, 20_000).result != WIN, game.to_position()


def test_random_play_gives_the_property_lost_positions_to_check():
    """The property above is not vacuous: on these games random play often ends in a
    position the proof calls lost, and the exhaustive search proves many of those lost."""
    lost = proved = 0
    for name in ("beleaguered-castle", "fan", "klondike"):
        for seed in range(1, 16):
            game = walked(name, {}, seed, 25)
            if _tables(game.rules).deadlock.lost(game.piles, game.down):
                lost += 1
                proved += exhaustive_search(game, 20_000).result == UNWINNABLE
    assert lost >= 10 and proved >= 5, (lost, proved)


@pytest.mark.parametrize("name", ["spider", "golf", "pyramid", "canfield", "monte-carlo", "aces-up"])
def test_the_proof_stays_out_of_games_where_cards_leave_otherwise(name):
    """Runs home at once, pairs, a foundation the stock deals to, piles filled from a reserve,
    gaps closed, discards: cards leave piles there by more than moves, and the proof is off."""
    assert not _tables(deal(name, 1).rules).deadlock.applies
