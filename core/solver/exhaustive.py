"""A plain exhaustive search, the reference the solver is checked against.

Depth first over every legal move (``legal_moves``/``push``/``pop``), iterative (an explicit
stack, so no game is too deep for it), with a visited set of :meth:`Game.key`: no shortcut,
no pruning, no canonical key, no move ordering. Slow, and obviously right: it answers
``win`` (with the line), ``unwinnable`` (every position reachable was visited) or
``unknown`` (more than ``max_states`` positions). See docs/solver.md.
"""

from __future__ import annotations

import attrs

from ..game import Game, Move
from .search import UNKNOWN, UNWINNABLE, WIN


@attrs.frozen
class ExhaustiveResult:
    """``result`` is "win", "unwinnable" or "unknown"; ``moves`` the winning line (moves as
    ``(source, destination, count)``, the stock's action with count 0); ``states`` the
    positions visited."""

    result: str
    moves: tuple[Move, ...] = ()
    states: int = 0


def exhaustive_search(game: Game, max_states: int = 100_000) -> ExhaustiveResult:
    """Search every position reachable from ``game`` (left unchanged) for a win."""
    if game.won:
        return ExhaustiveResult(WIN, (), 0)
    g = game.without_history()
    seen = {g.key()}
    line: list[Move] = []
    stack = [g.legal_moves()]  # the moves still to try at each depth of ``line``
    while stack:
        todo = stack[-1]
        if not todo:
            stack.pop()
            if line:
                line.pop()
                g.pop()
            continue
        move = todo.pop()
        g.push(move)
        key = g.key()
        if key in seen:
            g.pop()
            continue
        if g.won:
            return ExhaustiveResult(WIN, (*line, move), len(seen))
        if len(seen) >= max_states:
            return ExhaustiveResult(UNKNOWN, (), len(seen))
        seen.add(key)
        line.append(move)
        stack.append(g.legal_moves())
    return ExhaustiveResult(UNWINNABLE, (), len(seen))
