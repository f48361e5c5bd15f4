"""Hints from the player's view: the solver on guesses of the cards the player cannot see."""

from __future__ import annotations

import random
from collections.abc import Callable

from ..game import Game
from ..view import Observation
from .search import WIN, solve


def player_hint(game: Game, samples: int = 6, states: int = 2000,
                stop: Callable[[], bool] | None = None) -> tuple[str | None, int]:
    """A next move judged only from what the player can see: ``(move text or None, wins)``.

    The face-down cards and the stock's order are unknown to the player, so the solver
    solves ``samples`` guesses of them (each a deal consistent with every visible card,
    drawn from a generator seeded by the visible position alone), ``states`` states each
    (a count, not a time, so the answer does not depend on the machine's speed),
    and suggests the first move most of the won guesses share; ``wins`` is how many guesses
    it won. ``stop``, if given, is asked before each guess: when it says True the hint is
    given up, ``(None, 0)``. Two positions that differ only in hidden cards give the same hint. With no won
    guess it falls back to the kernel's simple hint; when the stock has just gone all the way
    round with nothing to play (:func:`~solitaire.core.hints.stuck`), there is no hint.
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
    votes: dict[str, int] = {}
    wins = 0
    for _ in range(samples):
        if stop is not None and stop():
            return None, 0
        rng.shuffle(unseen)  # each guess shuffles the last one on (a fixed order of guesses)
        guess = view.deal(unseen)
        result = solve(guess, timeout=None, max_states=states, greedy_share=1.0)
        if result.result == WIN and result.moves:
            wins += 1
            votes[result.moves[0]] = votes.get(result.moves[0], 0) + 1
    if votes:
        best = max(sorted(votes), key=lambda m: votes[m])
        return best, wins
    move = simple_hint(game)
    return (game.move_text(move) if move is not None else None), 0
