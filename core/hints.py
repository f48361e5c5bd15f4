"""A simple hint: a legal, sensible move judged only from what the player can see.

It looks at the legal moves, the face-up cards and how many cards are face down in each
pile, never at a face-down card or the order of the stock. Preference, best first:

1. a card to a foundation (not one taken back from a foundation);
2. a move that turns a face-down card up, or empties a pile that hides cards;
3. a card from the waste or a reserve to a pile that is not a foundation;
4. a move that empties a pile, when some other pile could use the space;
5. the stock's action (draw or recycle), unless the stock has just gone all the way round
   with nothing to play (:func:`stuck`).

A move that only shuffles a run between piles without exposing anything is not suggested,
so following the hints never loops. ``None`` means no useful move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game, Move


def simple_hint(game: Game) -> Move | None:
    best = _best(game)
    if best is not None and best[2] == 0 and stuck(game):
        return None
    return best


def stuck(game: Game) -> bool:
    """True when turning the stock is all there is left to do and it leads nowhere: since the
    last other move the stock has gone all the way round (the waste turned back, then drawn to
    where it is now), and no position of that round offered a useful move, nor one a move of
    part of a run would have opened (two moves deep; deeper plans are not looked for). The player has seen
    every card of the round, so this looks at nothing hidden; and as the stock's action changes
    nothing else, every later round would be the same."""
    if _opening(game):
        return False
    rules = game.rules
    if rules.stock is None or len(rules.draw_targets) != 1:
        return False
    stock, waste = rules.stock, rules.draw_targets[0]
    now = (len(game.piles[stock]), len(game.piles[waste]))
    trial = game.copy()
    recycled = False
    while trial.history and trial.history[-1][2] == 0:  # back through the stock's actions
        recycled = recycled or trial.history[-1][3] < 0
        trial.pop()
        if recycled and (len(trial.piles[stock]), len(trial.piles[waste])) == now:
            return True  # a whole round, and nothing on the way (checked below as we went)
        if _opening(trial):
            return False
    return False


def _opening(game: Game) -> bool:
    """Is there progress to be made here other than by the stock: a useful move (see the
    module's list), or a part of a run moved off a card that then has a useful move (the
    card under it going home, say)?"""
    if _best(game, stock=False) is not None:
        return True
    for src, dst, n in game.legal_moves():
        below = len(game.piles[src]) - n
        if n and below > game.down[src] and src not in game.rules.foundation_set:
            after = game.copy()
            after.push((src, dst, n))
            if _best(after, stock=False) is not None:
                return True
    return False


def _best(game: Game, stock: bool = True) -> Move | None:
    """The preferred legal move (see the module's list); ``stock=False`` leaves out the stock's."""
    rules = game.rules
    found = rules.foundation_set
    best: tuple[int, int, Move] | None = None
    for order, move in enumerate(game.legal_moves()):
        src, dst, n = move
        if n == 0:
            if not stock:
                continue
            score = 10
        elif n < 0:  # a pair to the discard pile
            score = 100
        else:
            pile = game.piles[src]
            below = len(pile) - n  # index of the card left on top of the source
            uncovers = below > 0 and below == game.down[src]
            empties = below == 0
            if dst in found and src not in found:
                score = 100
            elif src in found:
                continue  # taking a card back is never a hint
            elif uncovers:
                score = 90
            elif rules.role[src] in ("waste", "reserve"):
                score = 50
            elif empties and game.piles[dst] and rules.role[src] not in ("waste", "reserve"):
                score = 30
            else:
                continue  # a run moved from one face-up card to another: no progress
        key = (score, -order)
        if best is None or key > best[:2]:
            best = (score, -order, move)
    return best[2] if best else None
