"""The compiled core's exact search alone (`native.exact`, what benchmarks/bench_proofs.py
measures a proof's size with): it answers as the portfolio does wherever both decide, its wins
replay through the kernel, its proofs are the portfolio's exact proofs, and it keeps to its
budget."""

from __future__ import annotations

import pytest

from solitaire.core import Game, Rules, get_variant
from solitaire.core.solver import native

pytestmark = pytest.mark.skipif(not native.native_available(), reason="the compiled core is not installed")


def deal(name: str, seed: int, **options: object) -> Game:
    defn = get_variant(name)
    return Game.new(Rules.of(defn, defn.resolve_options(options)), seed)


def test_the_exact_search_alone_proves_a_lost_klondike_deal_in_the_states_the_portfolio_needs() -> None:
    game = deal("klondike", 705, relaxed=True)
    alone = native.exact(game, max_states=100_000)
    assert (alone.result, alone.method, alone.engine) == ("unwinnable", "exact", "native")
    assert 1_000 < alone.states < 100_000
    whole = native.solve(game, timeout=None, max_states=100_000, engine="native")
    assert (whole.result, whole.method) == ("unwinnable", "exact")


@pytest.mark.parametrize(("name", "options"), [("klondike", {"relaxed": True}), ("fortress", {}), ("freecell", {})])
def test_the_exact_search_alone_agrees_with_the_portfolio_and_its_wins_replay(
        name: str, options: dict[str, object]) -> None:
    decided = 0
    for seed in range(1, 13):
        game = deal(name, seed, **options)
        alone = native.exact(game, max_states=20_000)
        whole = native.solve(game, timeout=None, max_states=20_000, engine="native")
        if alone.result == "unknown":
            assert alone.states >= 20_000 and alone.method == ""
            continue
        decided += 1
        if whole.result != "unknown":
            assert alone.result == whole.result, seed
        if alone.result == "win":
            fresh = Game.new(game.rules, seed)
            for move in alone.moves:
                fresh.play(move)
            assert fresh.won, seed
    assert decided >= 3  # the budget decides some of each game's deals, so the checks ran


def test_a_bad_timeout_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="timeout"):
        native.exact(deal("golf", 1), max_states=100, timeout=-1.0)
