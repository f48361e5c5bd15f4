"""Calculation (also called Hopscotch): registered through the ``solitaire`` entry point.

The whole game is ``calculation.yaml``; this module tells the kernel where it is and, through
the ``solver_knowledge`` hook, what the solver may know about the game:

* suits never matter (foundations build regardless of suit, reserves take any card), so a
  position is keyed by ranks alone, and a foundation by its length;
* the last card of a rank not yet home has one place to go: playing it there is safe;
* a sound dead end: a reserve card X whose every foundation still needs, before X's rank, a
  rank all of whose remaining cards lie under X in the same reserve, can never come off;
* a move ordering and a best-first estimate from the usual advice: park a card on a card
  the foundations will want later, never on one they want sooner;
* its own search on ranks alone (``search.py``), which the solver uses instead of the generic
  one: a beam search for wins, then an exhaustive depth-first search whose pruning is sound.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solitaire.core import hookimpl

from .tables import PATH, POS, RANK_OF, RANKS, SEQ, urgency

if TYPE_CHECKING:
    from solitaire.core import Game, Move, Rules
    from solitaire.core.solver import SearchOutcome

VARIANT_FILE = Path(__file__).with_name("calculation.yaml")
BETSY_ROSS_FILE = Path(__file__).with_name("betsy-ross.yaml")  # a cousin; the knowledge below is not its


@hookimpl
def register_variants(register: Callable[[Any], None]) -> None:
    register(VARIANT_FILE)
    register(BETSY_ROSS_FILE)


@hookimpl
def solver_knowledge(rules: Rules) -> CalculationKnowledge | None:
    # asked only for the variants this plugin registered (the registry keeps which); what
    # follows is proved for Calculation's foundations alone
    return CalculationKnowledge(rules) if rules.name == "calculation" else None


class CalculationKnowledge:
    """What the solver may know about Calculation; every pruning answer is a proof."""

    # the budget for its own search (``search.py``): all of it, so the generic portfolio
    # never runs after it. In Python, on deals 1..200, the portfolio given half won 1 deal this
    # search had not; with the search compiled it won none of 1,000 in its tenth of the time
    # (every win was the plugin's), and in a hint it spent half of each guess's time
    search_share = 1.0

    def __init__(self, rules: Rules) -> None:
        idx = rules.index
        self.stock = idx["stock"]
        self.waste = idx["waste"]
        self.found = tuple(idx[f"f{k}"] for k in (1, 2, 3, 4))
        self.reserves = tuple(idx[f"r{k}"] for k in (1, 2, 3, 4))
        self.fslot = {f: k for k, f in enumerate(self.found)}
        self.piles = {"stock": self.stock, "waste": self.waste, "found": list(self.found),
                      "reserves": list(self.reserves)}

    # -------------------------------------------------------------- helpers

    def _lengths(self, game: Game) -> list[int]:
        piles = game.piles
        return [len(piles[f]) for f in self.found]

    @staticmethod
    def _needers(lengths: list[int], rank: int) -> list[int]:
        """The foundations (0..3) that still need ``rank``."""
        return [k for k in range(4) if POS[k][rank] >= lengths[k]]


    # -------------------------------------------------------------- hook methods

    def search(self, game: Game, deadline: float, max_states: int, max_work: int | None = None) -> SearchOutcome:
        """The dedicated search (``search.py``): its outcome, with the states it stored;
        ``max_work`` bounds its work (a hint's bound, :func:`.search.search`)."""
        from . import search

        return search.search(game, self.piles, deadline, max_states, max_work)

    def engine(self) -> str:
        """Where :meth:`search` runs: compiled (``native/``) when installed, else Python."""
        from . import search

        return "Python, its own search compiled (the plugin's native/)" if search.native_search() else "Python"

    def key(self, game: Game) -> bytes:
        """Ranks only (suits never matter); foundations by length; reserves sorted."""
        piles = game.piles
        parts = [bytes(piles[self.stock]).translate(RANK_OF), bytes(piles[self.waste]).translate(RANK_OF),
                 bytes(len(piles[f]) for f in self.found)]
        parts.append(b"\xfe".join(sorted(bytes(piles[r]).translate(RANK_OF) for r in self.reserves)))
        return b"\xff".join(parts)

    def safe_home(self, game: Game, move: Move) -> bool:
        """The last card of its rank away from home fits the one foundation that needs it."""
        src, dst, _ = move
        k = self.fslot.get(dst)
        if k is None:
            return False
        lengths = self._lengths(game)
        rank = game.piles[src][-1] % RANKS
        return self._needers(lengths, rank) == [k]

    def dead(self, game: Game) -> bool:
        """True only when the position is lost: some reserve card X can never come off,
        because each foundation that still needs X's rank needs first a rank whose remaining
        cards all lie under X in the same reserve."""
        piles = game.piles
        lengths = self._lengths(game)
        remaining = [0] * RANKS
        for k in range(4):
            for j in range(lengths[k], RANKS):
                remaining[SEQ[k][j]] += 1
        for r in self.reserves:
            pile = piles[r]
            if len(pile) < 2:
                continue
            below = [0] * RANKS
            blocked = 0
            for card in pile:
                rank = card % RANKS
                if blocked:
                    for k in range(4):
                        length = lengths[k]
                        if POS[k][rank] >= length and not PATH[k][length][rank] & blocked:
                            break
                    else:
                        return True
                below[rank] += 1
                if below[rank] == remaining[rank]:
                    blocked |= 1 << rank
        return False

    def priority(self, game: Game, move: Move) -> int:
        """Move ordering: park a card on one wanted later, close in time; Kings together."""
        src, dst, n = move
        if n == 0 or dst not in self.reserves:
            return 0
        piles = game.piles
        lengths = self._lengths(game)
        card = piles[src][-1]
        u = urgency(lengths, card % RANKS)
        pile = piles[dst]
        if not pile:
            empties = sum(1 for r in self.reserves if not piles[r])
            return (15 if card % RANKS == RANKS - 1 else 0) - 12 // empties
        under = urgency(lengths, pile[-1] % RANKS)
        if u <= under:
            return 25 - min(20, under - u)
        return -25 - min(30, u - under)

    def heuristic(self, game: Game) -> int:
        """Best-first estimate (lower is better): cards away from home, and each reserve card
        lying on a card the foundations want sooner counted again, twice."""
        piles = game.piles
        lengths = self._lengths(game)
        away = 52 - sum(lengths)
        bad = 0
        for r in self.reserves:
            pile = piles[r]
            prev = None
            for card in pile:
                u = urgency(lengths, card % RANKS)
                if prev is not None and u > prev:
                    bad += 1
                prev = u
        return away + 2 * bad

    def prune(self, game: Game, move: Move) -> bool:
        """For the greedy passes only (not sound): a card that fits a foundation goes there,
        and nothing else happens while a reserve's top card fits one."""
        src, dst, n = move
        piles = game.piles
        lengths = self._lengths(game)
        wants = set()
        for k in range(4):
            if lengths[k] < RANKS:
                wants.add(SEQ[k][lengths[k]])
        if n == 0:
            return any(piles[r] and piles[r][-1] % RANKS in wants for r in self.reserves)
        if dst in self.reserves:
            card = piles[src][-1]
            if card % RANKS in wants:
                return True
            if any(piles[r] and piles[r][-1] % RANKS in wants for r in self.reserves):
                return True
            # bury a card wanted sooner only when every reserve would be buried
            u = urgency(lengths, card % RANKS)
            pile = piles[dst]
            if pile and urgency(lengths, pile[-1] % RANKS) < u:
                return any(not piles[r] or urgency(lengths, piles[r][-1] % RANKS) >= u
                           for r in self.reserves)
        return False
