"""A simple hint: a legal, sensible move judged only from what the player can see.

It looks at the legal moves, the face-up cards and how many cards are face down in each
pile, never at a face-down card or the order of the stock. Preference, best first:

1. a card to a foundation (not one taken back from a foundation);
2. a move that turns a face-down card up, or empties a pile that hides cards;
3. a card from the waste or a reserve to a pile that is not a foundation;
4. a move that empties a pile, when some other pile could use the space;
5. the stock's action (draw or recycle).

A move that only shuffles a run between piles without exposing anything is not suggested,
so following the hints never loops. ``None`` means no useful move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game, Move


def simple_hint(game: "Game") -> "Move | None":
    rules = game.rules
    found = rules.foundation_set
    best: tuple[int, int, Move] | None = None
    for order, move in enumerate(game.legal_moves()):
        src, dst, n = move
        if n == 0:
            score = 10
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
