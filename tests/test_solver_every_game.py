"""Every game of the catalogue: the solver's answers agree with the exhaustive search.

tests/test_solver_sound.py builds end games for a few rule sets; this file takes every
installed built-in game through positions the game itself reaches: a won game of it (its file
in tests/data/won/, or the FreeCell family's in tests/data/family_freecell_wins.json) played up
to a few moves before the end, then a few random legal moves away from the line (which may
lose the game). There each engine's answer is checked against :func:`exhaustive_search` (every
legal move, no shortcut): an ``unwinnable`` is never a position the exhaustive search wins,
every ``win`` replays through ``Game.play``. Budgets are in states, never seconds.

Near a won line most positions are still won, so this mostly checks that no engine calls a
won position lost (a false proof) and that its wins replay; the positions the exhaustive search
proves lost are rare here, and tests/test_solver_sound.py makes them on purpose.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_won_games import FREECELL_WINS, WON, read

from solitaire.core import Game, Rules, VariantDef, get_variant, registry
from solitaire.core.solver import UNWINNABLE, WIN, exhaustive_search, native_available, solve
from solitaire.core.solver.search import solve as python_solve

ROOT = Path(__file__).resolve().parents[1]
ENGINES = ["native", "python"] if native_available() else ["python"]
STATES = 3_000  # each engine's budget, and the exhaustive search's


def builtin_games() -> list[str]:
    folder = ROOT / "variants"
    return sorted(d.name for d in registry().sorted()
                  if d.path is not None and Path(d.path).resolve().is_relative_to(folder))


def won_line(name: str) -> tuple[Game, list[str]]:
    """The start of a won game of ``name`` under its default options, and its moves (the file
    read as tests/test_won_games.py reads it)."""
    defn: VariantDef = get_variant(name)
    path = WON / f"{name}.txt"
    if not path.exists():
        entry = FREECELL_WINS[name]
        return Game.new(Rules.of(defn, defn.resolve_options(entry["options"])), entry["seed"]), list(entry["moves"])
    won = read(path)
    if won.start[0] == "--seed":
        game = Game.new(Rules.of(defn, defn.resolve_options(won.options)), int(won.start[1]))
    else:
        game = Game.from_position(defn, json.loads(Path(won.start[1]).read_text()))
    return game, won.moves


def near_the_end(name: str, back: int, wander: int, seed: int) -> Game:
    game, moves = won_line(name)
    for move in moves[:max(0, len(moves) - back)]:
        game.play(move)
    rng = random.Random(seed)
    for _ in range(wander):
        legal = game.legal_moves()
        if not legal:
            break
        game.push(legal[rng.randrange(len(legal))])
    return game.without_history()


def test_every_built_in_game_is_checked():
    games = builtin_games()
    assert len(games) >= 50
    for name in games:
        game, moves = won_line(name)  # raises where a game has no won line
        assert moves and game.rules.name == name


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", builtin_games())
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(back=st.integers(2, 40), wander=st.integers(0, 8), seed=st.integers(0, 2**32))
def test_the_solver_agrees_with_the_exhaustive_search(name, engine, back, wander, seed):
    game = near_the_end(name, back, wander, seed)
    truth = exhaustive_search(game, STATES)
    if engine == "python":
        answer = python_solve(game, timeout=None, max_states=STATES)
    else:
        answer = solve(game, timeout=None, max_states=STATES, engine="native")
    where = json.dumps(game.to_position())
    if answer.result == WIN:
        replay = game.copy()
        for move in answer.moves:
            replay.play(move)
        assert replay.won, (answer, where)
    if truth.result == WIN:
        assert answer.result != UNWINNABLE, f"{name}: the {answer.engine} engine calls a won position lost: {where}"
    if answer.result == UNWINNABLE:
        assert truth.result != WIN, where
