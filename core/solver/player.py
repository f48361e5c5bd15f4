"""Hints from the player's view: the solver on guesses of the cards the player cannot see."""

from __future__ import annotations

import random
from collections.abc import Callable

from ..game import Game
from ..view import Observation
from .native import solve
from .search import WIN


def player_hint(game: Game, samples: int = 6, states: int = 2000,
                stop: Callable[[], bool] | None = None, engine: str = "auto") -> tuple[str | None, int]:
    """A next move judged only from what the player can see: ``(move text or None, wins)``.

    The face-down cards and the stock's order are unknown to the player, so the solver
    solves ``samples`` guesses of them (each a deal consistent with every visible card,
    drawn from a generator seeded by the visible position alone), ``states`` states each
    (a count, not a time, so the answer does not depend on the machine's speed),
    and suggests the first move most of the won guesses share; ``wins`` is how many guesses
    it won. Each guess is solved by the solver's front door (:func:`.native.solve`, with
    ``engine``): in the compiled core wherever it is installed and speaks the game, else in
    Python. A guess that comes up ``k`` times (nothing hidden, as in FreeCell, or too few hidden
    cards for ``samples`` orders) is solved once, with ``k * states`` states, and counts ``k``
    times. ``stop``, if given, is asked before each guess solved: when it says True the hint is
    given up, ``(None, 0)``. Two positions that differ only in hidden cards give the same hint.
    With no won guess it falls back to the kernel's simple hint; when the stock has just gone
    all the way round with nothing to play (:func:`~solitaire.core.hints.stuck`), there is no
    hint.
    """
    import hashlib
    import json

    from ..hints import simple_hint, stuck

    if stuck(game):  # the stock has gone round with nothing to play: guesses of it would mislead
        return None, 0
    view = Observation.of(game)
    digest = hashlib.sha256(json.dumps(view.to_position(), sort_keys=True).encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    unseen = list(view.unseen())
    guesses: dict[tuple[int, ...], int] = {}  # each guess's order of the unseen cards -> how often it came up
    for _ in range(samples):
        rng.shuffle(unseen)  # each guess shuffles the last one on (a fixed order of guesses)
        key = tuple(unseen)
        guesses[key] = guesses.get(key, 0) + 1
    votes: dict[str, int] = {}
    wins = 0
    for key, times in guesses.items():  # in the order they first came up
        if stop is not None and stop():
            return None, 0
        # a guess that came up k times is solved once with k times the states (nothing hidden,
        # as in FreeCell: one search with the whole budget, not the same one six times)
        result = solve(view.deal(list(key)), timeout=None, max_states=states * times, greedy_share=1.0,
                       engine=engine)
        if result.result == WIN and result.moves:
            wins += times
            votes[result.moves[0]] = votes.get(result.moves[0], 0) + times
    if votes:
        best = max(sorted(votes), key=lambda m: votes[m])
        return best, wins
    move = simple_hint(game)
    return (game.move_text(move) if move is not None else None), 0
