"""A position whose cards cannot all get home, whatever is played: a proof from an ordering.

In a won game every card arrives home, and each event of the game has to wait for others.
Write ``home(c)`` for the first time card ``c`` arrives on a foundation and ``leave(c)`` for
the first time it leaves the place it holds now. Then, in any winning line:

1. ``home(c)`` comes after ``home(q)`` for a card ``q`` that ``c`` goes onto on some
   foundation (``fits``), unless an empty foundation takes ``c``: it lands on ``q``.
2. ``leave(c)`` and ``home(c)`` come after ``leave(a)``, where ``a`` is the card lying on
   ``c`` now: a card covered by a face-down card, or in a pile that gives its top card only,
   moves only once the cards on it are gone (in a pile that gives runs, a face-up card may
   leave with the cards on it, so this does not bind it).
3. ``leave(c)`` happens in one of these ways: ``c`` goes home (1 holds at that time); it goes
   onto a card ``t`` that some pile it may move to takes it on (``accept``), which then lies
   at a top: ``t`` is not under ``c`` in its own pile (``c`` has not moved) and ``t``'s own
   cover has left (2), or ``t`` has come out of the stock (4), or ``t`` is on a foundation
   and foundations give cards back (a card home never leaves where they do not); it goes to
   an empty pile that takes it, other than its own: one empty now, or one whose bottom card
   has left; or, face-up in a pile that gives runs, it is carried along when the card under
   it leaves.
4. The stock's cards (and the waste's, when the stock is turned again) count as free to play
   at any time: too easy, and safe. Such a card is a base for others only once it has come
   out onto a pile: ``out(t)`` comes after a card or an empty pile that takes it from the
   waste is there (3, from the waste), or after ``home(t)`` where foundations give back; at
   once where the stock deals onto piles without a move, or where ``c``'s own pile moves
   cards onto the waste.

Everything else is left out, so the conditions can only be too easy: taking more lines for
possible than there are is safe. The events that can ever happen are the least fixed point
of "an event whose condition holds happens", and every event of a winning line is in it (by
induction along the line, the cards of a moved run from the bottom up). So if some card can
never get home in the fixed point, no line wins: the position is lost.

It applies where every card must get home and cards travel only by moves, the stock's
draws and its redeals: no pairs, discards, gaps closed or piles filled, no foundation taking
more than one card a move, nothing covered by other piles.

A card whose every target lies under it in its own pile (the single-card dead end) is the
simplest case; the fixed point also finds the cycles through several piles, such as a
face-down 3C under the 7C while the 7C's two red eights are under the 7C itself and under
the 7S, whose own eights are under it and under the 3C.
"""

from __future__ import annotations

from ..rules import GIVES_ANY, GIVES_NONE, GIVES_PILE, GIVES_RUN, GIVES_TOP, Rules

_CARRIES = (GIVES_RUN, GIVES_ANY, GIVES_PILE)  # piles a face-up card may leave with those on it


class Deadlock:
    """The tables of the proof for one :class:`Rules`, built once; :meth:`lost` checks a
    position. ``applies`` is False where the argument does not hold (see the module)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        found = rules.foundation_set
        W = rules.width
        self.width = W
        self.applies = bool(
            rules.foundations
            and rules.win_home == len(rules.deck) and not rules.win_cleared and not rules.win_one_card
            and rules.pair_home is None and not rules.beaten and not rules.consolidate
            and not rules.fills and not rules.covering and not rules.whole_runs
            and all(rules.max_accept[f] == 1 for f in rules.foundations)
        )
        # homes[c]: the cards c goes onto on a foundation (W: an empty foundation takes it)
        homes: list[set[int]] = [set() for _ in range(W)]
        for f in rules.foundations:
            fits = rules.fits[f]
            for top in range(W + 1):
                for c in fits[top]:
                    homes[c].add(top)
        self.homes: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(h)) for h in homes)
        # after[q]: the cards that go onto q on a foundation
        self.after: tuple[tuple[int, ...], ...] = tuple(
            tuple(c for c in range(W) if q in homes[c]) for q in range(W))
        # onto[p][c]: the cards c may go onto in the piles (not foundations) pile p moves to;
        # empty[p]: those piles, with their tables, for an empty one
        tables: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}
        onto: list[tuple[tuple[int, ...], ...]] = []
        empty: list[tuple[tuple[int, bytes], ...]] = []
        dest_sets: list[frozenset[int]] = []
        for p in range(rules.count):
            dests = tuple(d for d in rules.targets[p] if d not in found)
            empty.append(tuple((d, rules.accept[d]) for d in dests))
            dest_sets.append(frozenset(dests))
            key = tuple(sorted({id(rules.accept[d]) for d in dests}))
            if key not in tables:
                accepts = {id(rules.accept[d]): rules.accept[d] for d in dests}.values()
                tables[key] = tuple(
                    tuple(t for t in range(W) if any(a[t * W + c] for a in accepts)) for c in range(W))
            onto.append(tables[key])
        self.onto = tuple(onto)
        self.dests = tuple(dest_sets)
        self.give_back = any(rules.gives[f] != GIVES_NONE for f in rules.foundations)
        self.empty = tuple(empty)
        self.carries = tuple(rules.gives[p] in _CARRIES for p in range(rules.count))
        # checked at every position of the depth-first passes too, not only where a search
        # starts: where a move can bury a card under one that must leave first, in a pile
        # that gives its top card only (Beleaguered Castle, Fortress; in Klondike's columns
        # a card put on another is never stuck to it)
        self.node = self.applies and any(
            rules.gives[d] == GIVES_TOP for d in rules.receivers if d not in found)
        # piles whose cards count as free: the stock, and what its redeals take back
        free = set() if rules.stock is None else {rules.stock}
        if rules.stock is not None and rules.redeals != 0:
            free.update(rules.draw_targets)
        self.free = frozenset(free)
        self.free_sources = tuple(p for p in sorted(free) if rules.targets[p])  # (the waste)
        # the stock deals onto a pile that is not free: its cards come out without a move
        self.deal_in = any(d not in found and d not in free for d in rules.draw_targets)
        # a foundation the stock deals onto: stock cards go home without waiting
        self.stock_home = any(d in found for d in rules.draw_targets)

    def lost(self, piles: list[list[int]], down: list[int]) -> bool:
        """Can some card of this position never get home? Then it is lost (see the module)."""
        if not self.applies:
            return False
        rules = self.rules
        W = self.width
        found = rules.foundation_set
        home = bytearray(W + 1)
        home[W] = 1  # "an empty foundation": always there to be had, as far as this proof goes
        left = bytearray(W)
        pile_of = [-1] * W
        place = [0] * W
        todo: list[int] = []
        for p, pile in enumerate(piles):
            if p in found:
                for c in pile:
                    home[c] = 1
                continue
            for i in range(len(pile) - 1, -1, -1):  # from the top down: a card's cover before it
                c = pile[i]
                pile_of[c] = p
                place[c] = i
                todo.append(c)
        free = self.free
        if self.stock_home and rules.stock is not None:
            for c in piles[rules.stock]:
                home[c] = 1
        homes, after, onto, empty, carries = self.homes, self.after, self.onto, self.empty, self.carries
        give_back, dests, free_sources = self.give_back, self.dests, self.free_sources
        WW = W * W
        entered = bytearray(W)  # a free card that can come out onto a pile, where cards may go on it

        def exposed(c: int) -> bool:
            p = pile_of[c]
            if p in free:
                return True
            pile = piles[p]
            i = place[c]
            return i == len(pile) - 1 or bool(left[pile[i + 1]]) or (carries[p] and i >= down[p])

        def goes(c: int, p: int, i: int) -> bool:  # somewhere to go outside the foundations
            for t in onto[p][c]:
                q = pile_of[t]
                if q == -1:  # on a foundation, or not in this game
                    if home[t] and give_back:
                        return True
                    continue
                if q in free:
                    if entered[t] or q in dests[p]:
                        return True
                    continue
                if exposed(t) and not (q == p and place[t] < i):
                    return True
            return any(d != p and table[WW + c] and (not piles[d] or left[piles[d][0]]) for d, table in empty[p])

        def arrive(c: int) -> None:  # c gets home; so do the cards that go onto it there and can
            home[c] = left[c] = 1
            stack = [c]
            while stack:
                for d in after[stack.pop()]:
                    if not home[d] and pile_of[d] != -1 and (left[d] or exposed(d)):
                        home[d] = left[d] = 1
                        stack.append(d)

        stock = [c for c in todo if pile_of[c] in free]
        if self.deal_in:
            for c in stock:
                entered[c] = 1
            stock = []
        changed = True
        while changed:
            changed = False
            waiting = []
            outside = []  # the free cards that have not yet come out to a pile
            for c in stock:
                if (give_back and home[c]) or any(goes(c, r, -1) for r in free_sources):
                    entered[c] = 1
                    changed = True
                else:
                    outside.append(c)
            stock = outside
            for c in todo:
                if home[c]:
                    continue
                p = pile_of[c]
                can_home = any(home[q] for q in homes[c])
                if p not in free and not left[c]:
                    pile = piles[p]
                    i = place[c]
                    if carries[p] and i > down[p] and left[pile[i - 1]]:  # carried with the card under it
                        left[c] = 1
                        changed = True
                    elif not exposed(c):
                        waiting.append(c)
                        continue
                    elif not can_home and goes(c, p, i):
                        left[c] = 1
                        changed = True
                if can_home:
                    arrive(c)
                    changed = True
                else:
                    waiting.append(c)
            todo = waiting
        return bool(todo)
