"""A full-information solver that works from the kernel's compiled tables, for any variant.

It never asks which game it is playing: everything comes from :class:`~solitaire.core.Rules`
(``accept``, ``seq``, ``targets``, ``foundations``, ``stock``, ``draw_targets``, ``redeals``).

Search: depth-first (iterative, an explicit stack) over the real :class:`~solitaire.core.Game`
(``legal_moves``/``push``/``pop``), with

* a transposition table of canonical state keys (the piles of a group whose piles are
  interchangeable are sorted; with unlimited redeals the stock and waste are keyed by the
  card sequence they cycle through, not by where the turn has got to);
* provably safe moves to the foundations applied automatically (derived from ``accept``: a
  card may go home when every card that could ever be built on it outside the foundations is
  already home -- when foundations give cards back, every card that could be built on it,
  transitively -- and the foundation takes one card on each top, only by moves, and the card
  has one place home; see :meth:`_Tables.home_is_safe`);
* stock macro-moves: "draw j times, then play the waste's top card", one move, so the
  search never stores a draw-only state (exact for any draw count and redeal limit);
* no move from a pile that holds only a face-up run to an empty interchangeable pile; a run
  moved off a face-up card, or a card taken back from a foundation, only when it is used
  next (such a move can always wait until then); with draw 1 and unlimited redeals, a
  stock card played to the tableau likewise only when a card can go onto it next;
* with limited redeals or more than one card a draw, turn positions compared by dominance
  rather than equality.

A portfolio: a pruned greedy depth-first pass, then a greedy best-first pass, share half the
budget; then the exact search runs; only an exhausted exact search answers ``unwinnable``.
See docs/solver.md.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterator
from itertools import compress
from typing import Any

import attrs

from ..cards import DECK_SIZE, FACE
from ..game import Game, Move, Snapshot
from ..rules import GIVES_NONE, GIVES_RUN, GIVES_TOP, Rules
from .deadlock import Deadlock
from .knowledge import Knowledge, variant_knowledge

WIN, UNWINNABLE, UNKNOWN = "win", "unwinnable", "unknown"


@attrs.frozen
class SolveResult:
    """The answer: ``result`` is "win", "unwinnable" or "unknown"; ``moves`` in notation."""

    result: str
    moves: tuple[str, ...] = ()
    seconds: float = 0.0
    states: int = 0
    method: str = ""  # which pass decided: "greedy" or "exact"
    engine: str = "python"  # "native": the compiled core (solitaire.core.solver.native)
    engine_reason: str = ""  # why Python solved, when the compiled core is installed
    #: why an "unknown" answer stopped: "time" (the timeout), "states" (a pass stored its
    #: states budget) or "memory" (the states cap derived from ``memory_mb``); "" otherwise
    stopped: str = ""

    def as_json(self) -> dict[str, Any]:
        out = {"result": self.result, "moves": list(self.moves), "seconds": round(self.seconds, 4),
               "states": self.states, "method": self.method, "engine": self.engine}
        if self.engine_reason:
            out["engine_reason"] = self.engine_reason
        if self.stopped:
            out["stopped"] = self.stopped
        return out


class _OutOfBudget(Exception):
    pass


def _graded(rules: Rules, p: int) -> bool:
    """Does pile ``p`` build by levels (the compiled core's ``load::graded``)? What it takes
    on a card (a row of ``accept`` other than the empty pile's) is what its runs build on it
    (``seq``), and every card has a level, each card of a run one above the card under it (no
    cycle, no two ways of different length between two cards): a run descends strictly, which
    docs/solver.md's "Crossed twins" needs."""
    W = rules.width
    acc, seq = rules.accept[p], rules.seq[p]
    if any(bool(acc[i]) != bool(seq[i]) for i in range(W * W)):
        return False
    level: list[int | None] = [None] * W
    for root in range(W):
        if level[root] is not None:
            continue
        level[root] = 0
        stack = [root]
        while stack:
            a = stack.pop()
            la = level[a]
            assert la is not None
            for b in range(W):
                for edge, lb in ((seq[a * W + b], la + 1), (seq[b * W + a], la - 1)):
                    if not edge:
                        continue
                    lv = level[b]
                    if lv is None:
                        level[b] = lb
                        stack.append(b)
                    elif lv != lb:
                        return False
    return True


class _Tables:
    """What the search derives once per Rules: safe-move tables, interchangeable groups."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.knowledge = Knowledge.of(variant_knowledge(rules))
        self.deadlock = Deadlock(rules)  # a proof from the order cards must move in (deadlock.py)
        found = rules.foundation_set
        # piles that receive cards by moves, outside the foundations
        receivers = sorted({d for s in rules.sources for d in rules.targets[s] if d not in found})
        W = rules.width  # cards a table row; a card of the game is below it
        size = len(rules.deck)
        children: list[tuple[int, ...]] = []
        for c in range(W):
            children.append(tuple(sorted({x for p in receivers for x in rules.fits[p][c]})))
        give_back = any(rules.gives[f] != GIVES_NONE for f in rules.foundations)
        if give_back:  # a home card may come back down: everything that can pile on it must be home
            closure = []
            for c in range(W):
                seen: set[int] = set()
                todo = list(children[c])
                while todo:
                    x = todo.pop()
                    if x not in seen and x != c:
                        seen.add(x)
                        todo.extend(children[x])
                closure.append(tuple(sorted(seen)))
            children = closure
        self.needs_home: tuple[tuple[int, ...], ...] = tuple(children)
        self.needs_mask: tuple[int, ...] = tuple(sum(1 << x for x in kids) for kids in children)
        # when a move home may be automatic at all, from the foundations' tables (see
        # home_is_safe and docs/solver.md, "Safe moves home"): a "track" foundation takes,
        # on each card, at most one card, and every card on it came by a move (the stock
        # never deals onto it; with cards given back, the deal puts none there)
        width = len(rules.fits[0]) - 1  # cards a row; the last row is an empty pile's
        dealt = {p for step in rules.spec.deal for p in rules.group_piles[step.to]}
        self.track: tuple[bool, ...] = tuple(
            p in found and p not in rules.draw_targets and all(len(row) <= 1 for row in rules.fits[p][:width])
            and (rules.gives[p] == GIVES_NONE or p not in dealt)
            for p in range(rules.count))
        # a card's places home: the foundation tops it may go on, and whether an empty one takes it
        rows: list[set[int]] = [set() for _ in range(width)]
        starts = [False] * width
        for f in rules.foundations:
            for top in range(width + 1):
                for c in rules.fits[f][top]:
                    if top == width:
                        starts[c] = True
                    else:
                        rows[c].add(top)
        # HOME_LONE: it goes on one card only, never on an empty foundation; HOME_START: it
        # only starts a foundation; HOME_NEVER: anything else (never automatic)
        self.home_kind: tuple[int, ...] = tuple(
            HOME_LONE if len(rows[c]) == 1 and not starts[c] else HOME_START if starts[c] and not rows[c]
            else HOME_NEVER for c in range(width))
        # foundations keyed by their size and top card alone: what they take next and hold
        # depends on nothing else, as they give nothing back (which cards they hold follows
        # from where all the others are)
        self.top_only = frozenset(f for f in rules.foundations if rules.gives[f] == GIVES_NONE)
        self.start_mask: tuple[int, ...] = tuple(
            sum(1 << c for c in rules.fits[p][width]) if p in found else 0 for p in range(rules.count))
        # fitlist[p][row]: the cards pile p takes on top card ``row`` (row 52: when empty)
        self.fitlist: tuple[tuple[tuple[int, ...], ...], ...] = rules.fits
        # a run moved off a face-up card may wait until that card is used (see _useful_under)
        unbounded = all(rules.capacity[p] >= size and rules.max_accept[p] >= size for p in receivers)
        # the waits below assume a move possible now stays possible while nothing touches its
        # piles: not so when free cells or empty piles elsewhere bound a run (supermove), when
        # a pile empties into a forced fill, or when piles uncover others: no waiting there
        # ... nor when pairs, discards beaten by other piles' tops, or closing gaps are in play
        plain = not (rules.has_supermove or rules.fills or rules.covering or rules.draw_not_onto_empty
                     or any(m > 1 for m in rules.min_accept) or rules.pair_home is not None or rules.beaten
                     or rules.consolidate)
        self.plain = plain
        self.defer = tuple(plain and unbounded and rules.gives[p] == GIVES_RUN for p in range(rules.count))
        # onto_mask[f][c]: the cards c may go onto outside the foundations, taken back from f
        # (each accept row read once, by the cards it lets on: the same masks as testing every
        # pair of cards, which took a two-deck game's first hint half a second)
        def onto_masks(p: int) -> tuple[int, ...]:
            masks = [0] * W
            for d in sorted({d for d in rules.targets[p] if d not in found}):
                table = rules.accept[d]
                for y in range(W):
                    for c in compress(range(W), table[y * W:(y + 1) * W]):
                        masks[c] |= 1 << y
            return tuple(masks)

        self.onto_mask: tuple[tuple[int, ...], ...] = tuple(
            onto_masks(p) if p in found and rules.gives[p] != GIVES_NONE else ()
            for p in range(rules.count))
        # (foundations that take one card, one at a time: one that took a run could take a card
        # taken back with the cards put on it since)
        self.found_defer = all(len(self.fitlist[f][row]) <= 1 for f in rules.foundations for row in range(W)) \
            and all(rules.max_accept[f] == 1 for f in rules.foundations) and all(self.defer[p] for p in receivers)
        # the foundations that give their top card to every pile that takes cards, where those
        # take one card at a time by one table and no other pile's top must beat it, and those
        # piles: a card home from such a foundation can come back wherever it would have moved
        # on (Solver._returnable, Solver._pending; the compiled core's comes_back); empty
        # unless found_defer holds too
        takers = [d for d in rules.receivers if d not in found]
        alike = bool(takers) and all(rules.accept[d] == rules.accept[takers[0]] and not rules.beaten_by[d]
                                     and rules.min_accept[d] <= 1 <= rules.max_accept[d] for d in takers)
        back = {f for f in rules.foundations
                if alike and rules.gives[f] != GIVES_NONE and all(rules.allowed[d][f] for d in takers)}
        self.comes_back: frozenset[int] = frozenset(back | set(takers)) if back and self.found_defer else frozenset()
        # (not a pile whose cards the stock deals again in groups: a card taken out of the
        # stock, or out of a waste turned back into it, shifts every later draw of more than
        # one card, or of one card to each of several piles, and a card a line reached that way
        # may never come up again; see docs/solver.md, "Safe moves home", condition 4)
        # the chain (docs/solver.md, "Safe moves home", the chain): a card may also go home
        # while a card that could go onto it is away, if that card could go home at once
        # (the card under it on its foundation is home) and so on up the chain, every card
        # of it one that goes on one card only of a track; proved where nothing gives a card
        # back, every pile that takes cards gives them to every foundation, runs are moved
        # by their sequence rule, and nothing fills, covers, pairs or deals onto those piles
        chain_ok = (not give_back and rules.foundations and all(self.track[f] for f in rules.foundations)
                    and not (rules.fills or rules.covering or rules.draw_not_onto_empty or rules.needs_base
                             or rules.pair_home is not None or rules.beaten or rules.consolidate
                             or rules.win_one_card or any(m > 1 for m in rules.min_accept)
                             or rules.win_home < width)  # a win with cards away: a card under may not take it
                    and not set(rules.draw_targets) & set(receivers)
                    and all(rules.gives[s] in (GIVES_TOP, GIVES_RUN) and set(rules.foundations) <= set(rules.targets[s])
                            for s in rules.sources if any(d in receivers for d in rules.targets[s])))
        on: list[tuple[int, ...]] = []
        pred: list[int] = []
        if chain_ok:
            pred = [next(iter(rows[c])) if self.home_kind[c] == HOME_LONE and len(rows[c]) == 1 else -1
                    for c in range(width)]
            runs = [q for q in rules.sources if rules.gives[q] == GIVES_RUN]
            for c in range(width):
                kids = set(children[c])  # the cards built on c (no closure: nothing gives back)
                for q in runs:
                    row = rules.seq[q][c * W:(c + 1) * W]
                    kids.update(y for y in range(width) if row[y])
                on.append(tuple(sorted(kids)))
        #: chain_on[c]: the cards that could lie on c outside the foundations (built, or above
        #: it in a run); chain_pred[c]: the one card c goes on home (-1: none); both empty: off
        self.chain_on: tuple[tuple[int, ...], ...] = tuple(on)
        self.chain_pred: tuple[int, ...] = tuple(pred)
        self.auto_sources = tuple(s for s in rules.sources if s not in found
                                  and any(f in found for f in rules.targets[s])
                                  and not self._regroups(rules, s))
        # safe discards (docs/solver.md, "Safe discards"): where every foundation takes a
        # card only while another pile's top card beats it, a card that beats no card left
        # outside the foundations may go there at once, if nothing is ever built on it
        # outside them, every foundation takes any card whatever lies on it and gives nothing
        # back, and the piles give their top card only, with no fills, covers, pairs, gaps
        # closed, bases or stock deals that look at an empty pile or deal home; and only
        # while every win needs it home (`discard_never`)
        discards = bool(
            rules.foundations and all(rules.beaten_by[f] for f in rules.foundations)
            and not set(rules.draw_targets) & found and not give_back and len(set(rules.deck)) == size
            and not (rules.fills or rules.covering or rules.draw_not_onto_empty or rules.has_supermove
                     or rules.pair_home is not None or rules.consolidate or rules.needs_base
                     or any(m > 1 for m in rules.min_accept))
            and all(rules.gives[s] == GIVES_TOP for s in rules.sources if s not in found)
            and all(rules.capacity[f] >= size and all(rules.fits[f][top] == rules.fits[f][W] for top in range(W))
                    for f in rules.foundations))
        #: discard_below[c]: the cards ``c`` beats, which must all be home before ``c`` may be
        #: discarded at once; None for a card that may not be (something is built on it);
        #: empty: the rule is off
        self.discard_below: tuple[tuple[int, ...] | None, ...] = tuple(
            None if children[c] else tuple(d for d in range(W) if rules.beats[d * W + c])
            for c in range(W)) if discards else ()
        self.discard_mask: tuple[int, ...] = tuple(
            -1 if below is None else sum(1 << d for d in below) for below in self.discard_below)
        #: the cards of the deck that no card of it beats: they never go home, so a win has
        #: every other card home when the deck less those outside the foundations is all
        #: the win asks for (then a card discarded at once is one every win discards)
        deck = set(rules.deck)
        self.discard_never: tuple[int, ...] = tuple(
            c for c in sorted(deck) if not any(rules.beats[c * W + d] for d in deck)) if discards else ()
        self.discard_need = size - rules.win_home  # at most this many cards never home in a win
        #: once no card can come from the stock again, any legal discard goes at once
        #: (docs/solver.md, "Safe discards", "Late discards"): where the safe discards apply
        #: and nothing is built on any card outside the foundations, so a top card is covered
        #: only by the stock's deals (and no move puts a card back into the stock)
        self.discard_late = bool(self.discard_below) and all(b is not None for b in self.discard_below) \
            and all(rules.stock not in rules.targets[p] for p in range(rules.count))
        # the dead-card cut (docs/solver.md, "Dead cards"): where no pile but a foundation
        # takes any card, every foundation gives nothing back, and a card moves only by a move
        # to a foundation or the stock's draw onto one, a card that must leave its pile can
        # only go onto a card a foundation's row admits below it, played after now and
        # before it
        sinkless = all(not rules.fits[p][row] for p in range(rules.count) if p not in found for row in range(W + 1))
        premise = sinkless and not give_back and not rules.fills and rules.pair_home is None \
            and not rules.beaten and not rules.consolidate and not rules.win_one_card \
            and all(d in found for d in rules.draw_targets) and not rules.needs_base
        everything = rules.win_home >= size
        #: dead_piles: the piles whose every card must one day go home (emptied for the win, or
        #: every card home), giving their top card only; empty: the cut is off
        self.dead_piles: tuple[int, ...] = tuple(
            p for p in range(rules.count) if premise and p not in found and p != rules.stock
            and rules.gives[p] == GIVES_TOP and (everything or p in rules.win_cleared))
        #: dead_pred[k][c]: the cards on which foundation k (of rules.foundations) takes c
        self.dead_pred: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(tuple(t for t in range(W) if c in rules.fits[f][t]) for c in range(W))
            for f in rules.foundations) if self.dead_piles else ()
        #: dead_under[p]: the piles that give nothing until p is empty (covered by p, in turn)
        under: list[tuple[int, ...]] = []
        for p in range(rules.count):
            seen_p: set[int] = set()
            todo = list(rules.uncovers[p])
            while todo:
                q = todo.pop()
                if q not in seen_p:
                    seen_p.add(q)
                    todo.extend(rules.uncovers[q])
            under.append(tuple(sorted(seen_p)))
        self.dead_under: tuple[frozenset[int], ...] = tuple(frozenset(u) for u in under)

        # interchangeable piles: same group and identical tables and neighbours
        def signature(i: int, members: tuple[int, ...]) -> tuple[object, ...]:
            mates = set(members)
            return (rules.role[i], rules.accept[i], rules.seq[i], rules.gives[i], rules.capacity[i],
                    rules.max_accept[i], rules.min_accept[i], rules.flip[i], rules.covered[i], rules.uncovers[i],
                    rules.fill[i], rules.supermove[i] is not None, i in rules.win_cleared,
                    any(i in f for f in rules.fill), frozenset(rules.targets[i]) - mates,
                    rules.pair_with[i],  # a cell of a grid pairs with its own neighbours
                    mates - {i} <= set(rules.targets[i]) or not (mates & set(rules.targets[i])),
                    frozenset(s for s in range(rules.count) if i in rules.targets[s]) - mates)

        groups: list[tuple[int, ...]] = []
        grouped: set[int] = set()
        # piles the stock deals onto one by one are not interchangeable: the next card goes to a
        # given pile, whatever lies there
        dealt_one_each = set(rules.draw_targets) if len(rules.draw_targets) > 1 else set()
        for members in rules.group_piles.values():
            if len(members) > 1 and len({signature(i, members) for i in members}) == 1 \
                    and not dealt_one_each & set(members):
                groups.append(members)
                grouped.update(members)
        self.groups = tuple(groups)
        self.sorted_member = frozenset(grouped)
        self.group_of = {i: g for g in groups for i in g}

        # stock macro-moves: a single waste that only the stock fills, unbounded
        self.macro = False
        self.waste = -1
        # (not where the stock's top card plays, nor with pairs: the waste's top card may pair)
        if rules.stock is not None and len(rules.draw_targets) == 1 and rules.stock not in rules.sources \
                and rules.pair_home is None:
            w = rules.draw_targets[0]
            fed = any(w in rules.targets[s] for s in range(rules.count)) \
                or bool(rules.fill[w]) or any(rules.stock in f for f in rules.fill)  # (fills move cards too)
            if not fed and w not in found and rules.capacity[w] >= size:
                self.macro = True
                self.waste = w
        self.free_stock: Rules | None = None  # these rules with draw 1, unlimited redeals
        self.singles = tuple(i for i in range(rules.count)
                             if i not in grouped and not (self.macro and i in (rules.stock, self.waste)))
        # a stock card played to a non-foundation pile may wait until a card goes onto it
        # (see _stock_card_used): needs every stock card within reach at any time (draw 1,
        # unlimited redeals), and those piles alike, unbounded, and reaching nothing the
        # waste does not
        self.stock_defer = False
        # a card anywhere in the stock or the waste that may go home at once goes there, after
        # the draws that bring it to the waste's top (docs/solver.md, "Safe moves home"):
        # with draw 1 and unlimited redeals every card is within reach, and taking one out
        # leaves the others in their order, so the position is the one the draws and the
        # move home reach (the key does not hold where the turn has got to)
        self.stock_home = self.macro and rules.draw_count == 1 and rules.redeals is None
        if self.macro and rules.draw_count == 1 and rules.redeals is None:
            fed_piles = [d for d in rules.targets[self.waste] if d not in found]
            reach = set(rules.targets[self.waste])
            self.stock_defer = bool(fed_piles) and all(
                rules.accept[d] == rules.accept[fed_piles[0]] and self.defer[d] and set(rules.targets[d]) <= reach
                for d in fed_piles)

        #: twin parents (docs/solver.md, "Twin parents"): the piles of one interchangeable
        #: group that give runs of any length which may wait (``defer``), with no supermove;
        #: twin[c], the one other card (not a copy of c) that every such pile treats as c: the
        #: same rows and columns of ``accept`` and ``seq``; -1 where there is none; () when
        #: no card has one. The compiled core's ``load::twins``.
        self.twin: tuple[int, ...] = ()
        self.twin_piles: frozenset[int] = frozenset()
        self.twin_order: tuple[int, ...] = ()  # the same piles in order (Solver._uncrossed)
        tgroup = next((g for g in self.groups
                       if len(g) > 1 and all(rules.gives[p] == GIVES_RUN and self.defer[p] for p in g)), None)
        if tgroup is not None and not rules.has_supermove:
            def rows_of(c: int) -> tuple[bytes, ...]:
                return tuple(part for p in tgroup for part in (
                    bytes(rules.accept[p][c * W:(c + 1) * W]), bytes(rules.accept[p][c::W]),
                    bytes(rules.seq[p][c * W:(c + 1) * W]), bytes(rules.seq[p][c::W])))
            classes: dict[tuple[bytes, ...], list[int]] = {}
            for c in range(W):
                classes.setdefault(rows_of(c), []).append(c)
            other = [-1] * W
            for same in classes.values():
                if len(same) == 2 and same[0] % DECK_SIZE != same[1] % DECK_SIZE:
                    other[same[0]], other[same[1]] = same[1], same[0]
            if any(b >= 0 for b in other):
                self.twin = tuple(other)
                self.twin_piles = frozenset(tgroup)
                self.twin_order = tuple(sorted(tgroup))
        #: the twins' piles build by levels (the compiled core's ``load::graded``): crossed
        #: twins are keyed as one only then (docs/solver.md, "Crossed twins")
        self.twin_graded = bool(self.twin) and _graded(rules, self.twin_order[0])

    def chain_free(self, card: int, home: int, depth: int) -> bool:
        """Could every card that could lie on ``card`` (outside the foundations) that is not
        home go home at once, and so every card that could lie on it in turn, ``depth``
        cards deep at most? (The chain of docs/solver.md, "Safe moves home".)"""
        pred = self.chain_pred
        for y in self.chain_on[card]:
            if home >> y & 1:
                continue
            under = pred[y]
            if depth == 0 or under < 0 or not home >> under & 1 or not self.chain_free(y, home, depth - 1):
                return False
        return True

    @staticmethod
    def _regroups(rules: Rules, s: int) -> bool:
        """Would a card taken out of pile ``s`` change which cards later stock actions bring
        up? The stock itself, where an action draws more than one card or deals to several
        piles; a pile the stock deals to, where the gaps close (`consolidate`); the waste of a
        stock that draws more than one card and turns the waste back (redeals left)."""
        if rules.stock is None:
            return False
        grouped = rules.draw_count > 1 or len(rules.draw_targets) > 1
        if s == rules.stock:
            return grouped or rules.consolidate
        if s not in rules.draw_targets:
            return False
        return rules.consolidate or (grouped and rules.redeals != 0)

    def free_stock_rules(self) -> Rules:
        """These rules with draw 1 and unlimited redeals (the relaxation proof's), derived
        once: under a lock, as solves in several threads share these tables."""
        if self.free_stock is None:
            with _TABLES_LOCK:
                if self.free_stock is None:
                    self.free_stock = self.rules.derive(draw_count=1, redeals=None)
        return self.free_stock

    def home_is_safe(self, piles: list[list[int]], card: int, fits: list[int], home: int) -> bool:
        """May ``card`` go home at once, onto ``fits[0]``, with no loss of a win? ``fits``: every
        foundation that takes it now; ``home``: the cards on the foundations, as a bit mask.

        Only when no line that wins can need the card elsewhere or need the foundation for
        another card first (the proof: docs/solver.md, "Safe moves home"): every card that
        could be built on it outside the foundations is home; the foundation is a track
        (it takes one card on each top, and only by moves); and the card has one place home
        (it goes on one card only, which is that foundation's top), or it only starts
        foundations and every foundation that takes it is an empty interchangeable one (or
        the one foundation that takes it waits for no other card that could start it)."""
        kind = self.home_kind[card]
        if self.needs_mask[card] & ~home and not (kind == HOME_LONE and self.chain_pred
                                                  and self.chain_free(card, home, CHAIN_DEPTH)):
            return False
        if kind == HOME_NEVER or not all(self.track[f] for f in fits):
            return False
        if kind == HOME_LONE:
            return len(fits) == 1
        f = fits[0]
        group = self.group_of.get(f)
        if group is not None:
            return all(g in group and not piles[g] for g in fits)
        return len(fits) == 1 and not self.start_mask[f] & ~home & ~(1 << card)


HOME_NEVER, HOME_LONE, HOME_START = 0, 1, 2
CHAIN_DEPTH = 4  # how deep the chain of a safe move home is followed (deeper: not safe)
_TABLES: dict[int, _Tables] = {}
_TABLES_LOCK = threading.RLock()  # solves in several threads (solitaire solve --jobs N) build each once


def _tables(rules: Rules) -> _Tables:
    t = _TABLES.get(id(rules))
    if t is None or t.rules is not rules:
        with _TABLES_LOCK:
            t = _TABLES.get(id(rules))
            if t is None or t.rules is not rules:
                t = _TABLES[id(rules)] = _Tables(rules)
    return t


def turns_by_dominance(rules: Rules) -> bool:
    """Are where the turn has got to (waste length, redeals used) compared by dominance under
    ``rules`` (stock macro-moves, with limited redeals or more than one card a draw; see
    :meth:`Solver._visit`), so that a stored key holds several turn positions?"""
    return _tables(rules).macro and (rules.redeals is not None or rules.draw_count > 1)


def _home_mask(rules: Rules, piles: list[list[int]]) -> int:
    """The cards on the foundations (full ones too: their cards are home), as a bit mask."""
    home = 0
    for f in rules.foundations:
        for c in piles[f]:
            home |= 1 << c
    return home


def safe_home_move(game: Game) -> Move | None:
    """A move of a top card home that can never be regretted, or ``None``: the solver's
    safe-home rule, derived from the rules' tables (every card that could ever be built on
    it outside the foundations is home already; when foundations give cards back, every
    card that could be built on it in turn). Where several foundations take the card, only
    into interchangeable empty ones. Judged from visible cards only (for autoplay)."""
    rules = game.rules
    tables = _tables(rules)
    piles, down = game.piles, game.down
    home = _home_mask(rules, piles)
    found = rules.foundation_set
    accept, width = rules.accept, len(rules.fits[0]) - 1
    for s in tables.auto_sources:
        pile = piles[s]
        if not pile or down[s] == len(pile):
            continue
        card = pile[-1]
        fits = [d for d in game.targets(s, 1) if d in found]
        if not fits:
            continue
        every = [f for f in rules.foundations if len(piles[f]) < rules.capacity[f] and (
            accept[f][(piles[f][-1] if piles[f] else width) * width + card])]  # reachable from s or not
        if tables.home_is_safe(piles, card, every, home):
            return (s, fits[0], 1)
    return None


def notation(game: Game, m: Move) -> str:
    """A move of ``game`` as the player types it: the kernel's text, or the explicit
    ``source destination count`` where the short text would read back as another move."""
    text = game.move_text(m)
    try:
        same = game.parse_move(text) == m
    except Exception:
        same = False
    if not same:
        short = game.rules.short_name
        text = f"{short[m[0]]} {short[m[1]]} {m[2]}"
    return text


def shortened(start: Game, line: list[Move]) -> list[Move]:
    """A winning line from ``start`` with its detours cut (the compiled core's
    ``search::shortened``, move for move): the line's positions are numbered in order, each by
    its exact contents (every pile's cards, face-down count and the redeals used), and from
    each position the line goes on by the legal move that reaches the position of the line
    furthest on (its own next move at least). The result is a line of legal moves through
    positions of the given line to its end, won, and no longer than it: a depth-first
    search's line can wander through thousands of moves where a few hundred win."""
    def contents(g: Game) -> tuple[Any, ...]:
        return tuple(map(tuple, g.piles)), tuple(g.down), g.recycles

    g = start.copy()
    at = {contents(g): 0}
    for i, m in enumerate(line):
        g.play(m)  # checked legal (a variant's own search may have found the line)
        at[contents(g)] = i + 1  # a position met twice is left at its last place
    g = start.copy()
    i = at[contents(g)]
    out: list[Move] = []
    while i < len(line):
        best, move = i + 1, line[i]
        for m in g.legal_moves():
            g.push(m)
            j = at.get(contents(g))
            g.pop()
            if j is not None and j > best:
                best, move = j, m
        g.push(move)
        out.append(move)
        i = best
    return out


class Solver:
    """Solve ``game`` (full information: it sees the face-down cards and the stock order)."""

    def __init__(self, game: Game, timeout: float | None = 10.0, max_states: int = 3_000_000,
                 greedy_share: float = 0.5, knowledge: Any = None, fixed_table: bool = False,
                 max_work: int | None = None, stock_home: bool = True) -> None:
        self.start = game
        #: a bound on the work of the variant's own search, passed on where it takes one
        #: (:func:`.knowledge.takes_work`); the generic passes have no such bound
        self.max_work = max_work
        #: ``max_states`` bounds the states held at once (a memory bound), not a pass's own
        self.fixed_table = fixed_table
        self.rules = game.rules
        self.t = _tables(game.rules)
        #: safe stock cards go home by draws (``_Tables.stock_home``), unless the caller reads
        #: a line's first move (a hint), which would open with those draws
        self.stock_home = stock_home and self.t.stock_home
        know = self.t.knowledge if knowledge is None else Knowledge.of(knowledge)
        self.safe_home = know.safe_home
        self.priority = know.priority
        self.know_key = know.key
        self.dead = know.dead
        self.heuristic = know.heuristic
        self.know_prune = know.prune
        self.know_search = know.search
        self.search_share = know.search_share  # of the budget for know_search; the rest is generic
        self.know = know
        self.timeout = math.inf if timeout is None else timeout  # None: the states budget alone
        self.max_states = max_states
        self.greedy_share = greedy_share
        self.best_first = True
        # limited redeals, or more than a card a draw: positions of the turn are compared by
        # dominance, not equality
        self.dominance = turns_by_dominance(self.rules)
        self.states = 0
        # a pass's search: where it is, what it played (moves, and (draws, snapshot before)),
        # its table, its open positions' moves, whether a cut left a move out, and its bound
        self.g: Game = game
        self.trail: list[Any] = []
        self.seen: Any = set()
        self.frames: list[tuple[Iterator[tuple[int, int, Move]], int, int]] = []
        self.cut = False
        self.count = 0
        self.limit = max_states
        #: a depth-first pass is under way: where ``_Tables.comes_back`` holds, a card that can
        #: come back goes home as a safe move (:meth:`_returnable`), and a card taken back from
        #: a foundation is used at once (:meth:`_pending`)
        self.in_dfs = False
        #: runs between twin parents (docs/solver.md, "Twin parents"), where the tables find
        #: twins (the compiled core's tests turn its own off to compare)
        self.twins = bool(self.t.twin)
        #: with ``twins``, in a depth-first pass, two positions whose twin parents carry twin
        #: children crossed are keyed as one (:meth:`_uncrossed`; docs/solver.md, "Crossed
        #: twins"), where the twins' piles build by levels (``_Tables.twin_graded``)
        self.uncross = self.twins and self.t.twin_graded

    # ------------------------------------------------------------------ public

    def solve(self) -> SolveResult:
        began = time.perf_counter()
        deadline = began + self.timeout
        if self._blocked():
            return SolveResult(UNWINNABLE, (), time.perf_counter() - began, 0, "blocked")
        t0, span = began, self.timeout
        if self.know_search is not None:  # the variant's own search, its share of the budget:
            if self.know.search_work and self.max_work is not None:
                found = self.know_search(self.start, began + span * self.search_share, self.max_states,
                                         max_work=self.max_work)
            else:
                found = self.know_search(self.start, began + span * self.search_share, self.max_states)
            self.states = found.states
            if found.result == WIN:  # moves that win (replayed in _win)
                self.solution = list(found.moves)
                return self._win(began, "variant")
            if found.result == UNWINNABLE:  # a proof
                return SolveResult(UNWINNABLE, (), time.perf_counter() - began, self.states, "variant")
            if self.search_share >= 1:  # the whole budget was the variant's: no generic pass
                return SolveResult(UNKNOWN, (), time.perf_counter() - began, self.states, "")
            t0 = time.perf_counter()  # out of budget: the generic portfolio has the rest
            span = deadline - t0
        kept: tuple[Any, ...] | None = None  # the greedy pass the budget stopped before any cut
        if self.greedy_share > 0:
            share = span * self.greedy_share
            result = self._run(prune=True, deadline=t0 + share / 2)
            if result is True:
                return self._win(began, "greedy")
            if result is False and not self.cut:  # no cut left a move out: the exact search, to the end
                return SolveResult(UNWINNABLE, (), time.perf_counter() - began, self.states, "greedy")
            if result is None and not self.cut:  # the exact search so far: the exact pass goes on from it
                kept = (self.g, self.trail, self.seen, self.frames, self.count)
            if self._lost_with_every_stock_card_free(min(deadline, time.perf_counter() + span * 0.15)):
                return SolveResult(UNWINNABLE, (), time.perf_counter() - began, self.states, "relaxation")
            if self.best_first:
                result = self._best_first(deadline=t0 + share)
                if result is True:
                    return self._win(began, "best-first")
        if kept is not None:
            self.g, self.trail, self.seen, self.frames, self.count = kept
            result = self._run(prune=False, deadline=deadline, resume=True)
        else:
            result = self._run(prune=False, deadline=deadline)
        if result is True:
            return self._win(began, "exact")
        seconds = time.perf_counter() - began
        if result is False:
            return SolveResult(UNWINNABLE, (), seconds, self.states, "exact")
        return SolveResult(UNKNOWN, (), seconds, self.states, "")

    # ------------------------------------------------------------------ search

    def _run(self, prune: bool, deadline: float, resume: bool = False) -> bool | None:
        """A depth-first pass: True (won: the line in ``solution``), False (out of moves) or
        None (out of budget). ``resume``: go on with the pass the budget stopped last (its
        position, table and open moves), unpruned, storing ``max_states`` more states (or up
        to ``max_states`` in all, with ``fixed_table``)."""
        before = len(self.seen) if resume else 0
        if resume:
            self.limit = self.max_states if self.fixed_table else before + self.max_states
        else:
            self.g = self.start.without_history()
            self.trail = []
            self.seen = set() if not self.dominance else {}
            self.frames = []
            #: a cut of ``prune`` left out a move the exact search would have tried: until then
            #: the pruned pass is the exact search, and running out of positions is a proof
            self.cut = False
            self.count = 0
            self.limit = self.max_states
        self.prune = prune
        self.deadline = deadline
        self.in_dfs = True
        try:
            if self._dfs():
                self.solution = self._plain(self.trail)
                return True
            return False
        except _OutOfBudget:
            return None
        finally:
            self.in_dfs = False
            self.states += len(self.seen) - before

    def _best_first(self, deadline: float) -> bool | None:
        """Greedy best-first: always expand the open state with the fewest cards away from
        home and face down. Finds many wins a depth-first pass misses after a bad early choice.
        Pruned like the greedy pass, so a failure proves nothing."""
        import heapq

        g = self.start.without_history()
        self.g = g
        self.trail = []
        self.seen = set() if not self.dominance else {}
        self.prune = True
        rules = self.rules
        found = rules.foundations
        hide = [i for i in range(rules.count) if i != rules.stock]

        def snap() -> Any:  # compact: [down, cards...] a pile, 255 between piles, recycles last
            shot = g.snapshot()
            if rules.width > 255:  # card numbers past a byte: the snapshot itself
                return shot
            piles, down, recycles = shot[:3]
            return b"\xff".join([bytes((down[i],)) + bytes(piles[i]) for i in range(rules.count)]
                                 + [str(recycles).encode()])

        def unsnap(state: Any) -> Snapshot:
            if isinstance(state, Snapshot):
                return state
            parts = state.split(b"\xff")
            return Snapshot(tuple(tuple(p[1:]) for p in parts[:-1]), tuple(p[0] for p in parts[:-1]),
                            int(parts[-1]), 0, 0)  # the search reads neither score nor move count

        def h() -> int:
            if self.heuristic is not None:
                return int(self.heuristic(g))
            piles, down = g.piles, g.down
            return (len(rules.deck) - sum(len(piles[f]) for f in found)) + 3 * sum(down[i] for i in hide)

        nodes: list[list[Any]] = [[-1, (), ()]]  # parent, moves from the parent, safe moves played here
        heap = [(h(), 0, 0, snap())]
        count = 0
        try:
            while heap:
                _, _, idx, state = heapq.heappop(heap)
                count += 1
                if len(self.seen) >= self.max_states or len(heap) > self.max_states // 4 \
                        or (not count & 63 and time.perf_counter() > deadline):
                    return None
                self._undo(0)  # what the last state played (its safe moves), then its position
                g.restore(unsnap(state))
                self._auto()
                autos = tuple(self._plain(self.trail))  # (the draws of a stock card sent home too)
                nodes[idx][2] = autos
                if g.won:
                    path: list[Move] = []
                    while idx >= 0:
                        parent, edge, auto = nodes[idx]
                        path[:0] = list(edge) + list(auto)
                        idx = parent
                    self.solution = path
                    return True
                if not self._visit() or (self.t.dead_piles and self._dead_card()) \
                    or (self.dead is not None and self.dead(g)):
                    continue
                base = len(self.trail)
                for _, draws, m in self._moves():
                    if draws:
                        self._draws(draws)
                    g.push(m)
                    self.trail.append(m)
                    edge = tuple(self._plain(self.trail[base:]))
                    nodes.append([idx, edge, ()])
                    heapq.heappush(heap, (h(), -len(nodes), len(nodes) - 1, snap()))
                    self._undo(base)
            return False
        finally:
            self.states += len(self.seen)

    def _lost_with_every_stock_card_free(self, deadline: float) -> bool:
        """Is this position lost even with draw 1 and unlimited redeals? Then it is lost.

        With draw 1 and unlimited redeals every stock and waste card can be played at any
        time, so every line of the real rules is a line there too (its draws left out):
        a loss there, proved by an exhaustive search (where stock cards waiting until used
        keep it small), is a loss here. Only for stock macro-moves (one waste, fed only by
        the stock) with more than one card a draw or limited redeals, without a variant's
        own knowledge (which may not hold under other rules)."""
        t = self.t
        rules = self.rules
        if not t.macro or (rules.draw_count == 1 and rules.redeals is None) or self.know.given:
            return False
        game = self.start.without_history(rules=t.free_stock_rules())
        game.restore(game.snapshot()._replace(recycles=0))
        sub = Solver(game, timeout=max(0.0, deadline - time.perf_counter()), max_states=self.max_states,
                     greedy_share=0, knowledge=object())
        answer = sub.solve()
        self.states += sub.states
        return answer.result == UNWINNABLE

    def _blocked(self) -> bool:
        """A sure loss, seen without a search: a card that can never move, because every card
        it could go onto lies under it in its own pile (and no empty pile takes it), while
        cards lie under it; or, more generally, cards that each wait for another to move
        first, in a cycle through several piles (:mod:`.deadlock`)."""
        g = self.start
        return self._stuck_card() or self.t.deadlock.lost(g.piles, g.down)

    def _stuck_card(self) -> bool:
        g = self.start
        rules = self.rules
        if rules.win_home < len(rules.deck):  # a card may stay where it is and the game still be won
            return False
        if rules.pair_home is not None:  # a card may also leave in a pair, which accept does not say
            return False
        accept = rules.accept
        W = rules.width
        for p in rules.sources:
            if p in rules.foundation_set or p == rules.stock or p in rules.draw_targets:
                continue
            pile = g.piles[p]
            carried = rules.gives[p] != GIVES_TOP  # a face-up card may leave on the card under it
            below: set[int] = set()
            for i, y in enumerate(pile):
                if i and not (carried and i - 1 >= g.down[p]):
                    free = False
                    for d in rules.targets[p]:
                        table = accept[d]
                        if table[W * W + y]:
                            free = True
                            break
                        for t in rules.deck:
                            if t not in below and table[t * W + y]:
                                free = True
                                break
                        if free:
                            break
                    if not free:
                        return True
                below.add(y)
        return False

    def _win(self, began: float, method: str) -> SolveResult:
        moves = self._notation(shortened(self.start, self.solution))
        return SolveResult(WIN, tuple(moves), time.perf_counter() - began, self.states, method)

    def _notation(self, moves: list[Move]) -> list[str]:
        """The moves as the player types them, checked by replaying them on a fresh copy."""
        g = self.start.copy()
        out = []
        for m in moves:
            text = notation(g, m)  # checked to read back as m
            g.play(m)  # checked legal
            out.append(text)
        if not g.won:  # pragma: no cover - a solver bug, never a user's
            raise AssertionError("solver produced a line that does not win")
        return out

    def _auto(self, canon: bool = False) -> int:
        """Play safe moves home until none is left; return how many were pushed. With
        ``canon``, rule 1 of the twin parents after each move home (:meth:`_twin_canon`, until
        it moves nothing): a twin that a card going home left free takes the run on its larger
        twin before the next safe move, so that two crossed positions settle alike
        (docs/solver.md, "Crossed twins")."""
        g = self.g
        rules = self.rules
        piles, down = g.piles, g.down
        found = rules.foundations
        t = self.t
        safe_shape = t.home_is_safe
        fitlist = t.fitlist
        targets = rules.targets
        cap = rules.capacity
        discard_mask = t.discard_mask
        beaten_by = rules.beaten_by
        pushed = 0
        while True:
            wanted: dict[int, list[int]] = {}
            home = -1  # the cards home, as a bit mask: built only when a candidate is found
            for f in found:
                fp = piles[f]
                if len(fp) >= cap[f]:
                    continue
                for c in fitlist[f][fp[-1] if fp else rules.width]:
                    wanted.setdefault(c, []).append(f)
            if not wanted:
                return pushed
            for s in t.auto_sources:
                pile = piles[s]
                if not pile or down[s] == len(pile):
                    continue
                card = pile[-1]
                fits = wanted.get(card)
                if fits is None:
                    continue
                every = fits  # every foundation that takes it, reachable from s or not
                fits = [f for f in fits if f in targets[s]]
                if not fits:
                    continue
                if home < 0:
                    home = _home_mask(rules, piles)
                if discard_mask and (not discard_mask[card] & ~home or (t.discard_late and self._no_more_deals())) \
                        and sum(1 for c in t.discard_never if not home >> c & 1) >= t.discard_need:
                    # a safe discard (docs/solver.md): legal now, as a move of the kernel
                    f = next((f for f in fits if beaten_by[f] and g._beaten(s, f, card)), -1)
                    if f >= 0:
                        g.push((s, f, 1))
                        self.trail.append((s, f, 1))
                        pushed += 1
                        break
                if not safe_shape(piles, card, every, home) and not self._returnable(s, fits[0]):
                    if self.safe_home is None:
                        continue
                    for f in fits:
                        if self.safe_home(g, (s, f, 1)):
                            fits = [f]
                            break
                    else:
                        continue
                g.push((s, fits[0], 1))
                self.trail.append((s, fits[0], 1))
                pushed += 1
                break
            else:
                step = self._safe_stock_card(wanted, home) if self.stock_home else None
                if step is None:
                    return pushed
                self._draws(step[0])
                g.push(step[1])
                self.trail.append(step[1])
                pushed += 1
            while canon and self._twin_canon():
                pushed += 1

    def _returnable(self, s: int, f: int) -> bool:
        """May the top card of pile ``s`` go home to foundation ``f`` as a safe move because it
        can come straight back (docs/solver.md, "A card that can come back")? In a depth-first
        pass, where ``_Tables.comes_back`` holds for both, when the card under it is face up and
        takes it: the position after the move reaches the one before it in one move (the card
        taken back), and the one before reaches it in one, so the two are won or lost alike."""
        back = self.t.comes_back
        if not self.in_dfs or f not in back or s not in back or s in self.rules.foundation_set:
            return False
        pile = self.g.piles[s]
        n = len(pile)
        return n >= 2 and n - 2 >= self.g.down[s] and bool(self.rules.accept[s][pile[-2] * self.rules.width + pile[-1]])

    def _pending(self) -> tuple[int, int] | None:
        """The foundation and the pile of the card the move here took back from that
        foundation, in a depth-first pass where ``_Tables.comes_back`` holds: then this
        position is not stored, no safe move is played here, and the only moves tried are the
        card's uses (docs/solver.md, "A card that can come back"): a card onto it, the card
        under it taken back too, or another card taken back that one of those needs (the card
        under that one goes onto this card, or the card under this one onto that)."""
        return self._pending_after(len(self.trail) - 1)

    def _pending_after(self, i: int) -> tuple[int, int] | None:
        """``_pending`` of the position after the trail's entry ``i`` (none before the first)."""
        if not self.in_dfs or not self.t.comes_back or i < 0:
            return None
        entry = self.trail[i]
        if len(entry) == 3:
            found = self.rules.foundation_set
            if entry[0] in found and entry[1] not in found:
                return int(entry[0]), int(entry[1])
        return None

    def _twin_pending(self) -> tuple[int, int, int] | None:
        """The pile whose face-up top card X the move here uncovered by moving the run on X onto
        X's twin, the larger of the two, and that twin's pile, in a depth-first pass (docs/solver.md,
        "Twin parents"): then this position is not stored, nothing is played here, and the only
        moves tried use X (a card onto X, X home or to a pile outside the group)."""
        t = self.t
        if not self.twins or not self.in_dfs or not self.trail:
            return None
        last = self.trail[-1]
        if len(last) != 3:
            return None
        s, d, n = last
        if n <= 0 or s not in t.twin_piles or d not in t.twin_piles or self.g.history[-1][3]:
            return None  # (nor a move that turned a card up: X was face down before it)
        piles, down = self.g.piles, self.g.down
        here, there = piles[s], piles[d]
        if len(here) <= down[s] or len(there) < n + 1 or len(there) - n - 1 < down[d]:
            return None
        top, under, bottom = here[-1], there[-n - 1], there[-n]
        # (a run built on X: one that was not may have had to go for X to move at all)
        if t.twin[top] == under and under > top and self.rules.seq[s][top * self.rules.width + bottom]:
            return s, d, n
        return None

    def _twin_canon(self) -> bool:
        """Put a run that lies on the larger of two twin parents, the smaller one the top of
        another pile of the group, onto the smaller (docs/solver.md, "Twin parents"): one move;
        whether it moved one."""
        t = self.t
        g = self.g
        piles, down = g.piles, g.down
        W = self.rules.width
        targets, accept = self.rules.targets, self.rules.accept
        for grp in t.groups:
            for i in grp:
                if i not in t.twin_piles:
                    continue
                pile = piles[i]
                seq = self.rules.seq[i]
                for idx in range(down[i] + 1, len(pile)):
                    p = pile[idx - 1]
                    tw = t.twin[p]
                    if tw < 0 or tw > p or not seq[p * W + pile[idx]]:
                        continue
                    j = next((j for j in grp if j != i and len(piles[j]) > down[j] and piles[j][-1] == tw), -1)
                    # (the move there and the one back both legal: the group's piles take from
                    # each other, and what they take on one twin they take on the other)
                    c = pile[idx]
                    if j < 0 or not self._free(i, idx) or j not in targets[i] or i not in targets[j] \
                            or not accept[j][tw * W + c] or not accept[i][p * W + c]:
                        continue
                    m = (i, j, len(pile) - idx)
                    g.push(m)
                    self.trail.append(m)
                    return True
        return False

    def _uses(self, legal: list[Move], home: int, onto: int) -> list[Move]:
        """The moves of ``legal`` that use the card just taken back from foundation ``home`` to
        pile ``onto`` (see :meth:`_pending`)."""
        piles = self.g.piles
        rules = self.rules
        found = rules.foundation_set
        accept, W = rules.accept, rules.width
        card = piles[onto][-1]
        under = piles[home][-1] if piles[home] else -1  # the card under it at home

        def linked(s: int, d: int) -> bool:  # another card taken back that a use needs
            back = piles[s]
            return (len(back) >= 2 and bool(accept[onto][card * W + back[-2]])) \
                or (under >= 0 and bool(accept[d][back[-1] * W + under]))

        return [m for m in legal if m[2] > 0 and (
            m[1] == onto or (m[1] not in found and m[0] in found and (m[0] == home or linked(m[0], m[1]))))]

    def _no_more_deals(self) -> bool:
        """Can no card come from the stock again (no stock; or an empty one that deals onto
        several piles, or onto one with its redeals used up, so that it never acts again)?"""
        rules = self.rules
        if rules.stock is None:
            return True
        if self.g.piles[rules.stock]:
            return False
        return len(rules.draw_targets) != 1 or (rules.redeals is not None and self.g.recycles >= rules.redeals)

    def _safe_stock_card(self, wanted: dict[int, list[int]], home: int) -> tuple[int, Move] | None:
        """A card of the stock, or of the waste below its top (an auto source), that may go
        home at once, with the draws that bring it to the waste's top (``_Tables.stock_home``:
        draw 1, unlimited redeals); ``home``: the cards home as a bit mask, or -1 (not built)."""
        g = self.g
        rules = self.rules
        w = self.t.waste
        waste, stock = g.piles[w], g.piles[rules.stock]  # type: ignore[index]
        seq = waste + stock[::-1]
        total, L = len(seq), len(waste)
        targets = rules.targets[w]
        for i, card in enumerate(seq):
            if i + 1 == L:
                continue  # the waste's top: an auto source
            every = wanted.get(card)
            if every is None or not any(f in targets for f in every):
                continue
            if home < 0:
                home = _home_mask(rules, g.piles)
            if not self.t.home_is_safe(g.piles, card, every, home):
                continue
            first = next(f for f in every if f in targets)
            draws = i + 1 - L if i >= L else (total - L) + 1 + (i + 1)
            return draws, (w, first, 1)
        return None

    def _visit(self) -> bool:
        """Record this position; False when it (or one that dominates it) was seen before.

        With limited redeals the stock and waste are keyed by their card sequence, and where
        the turn has got to (waste length L, redeals used r) is compared by dominance: (L1, r1)
        reaches everything (L2, r2) does when it can draw on to L2 in the same pass
        (r1 <= r2, L1 <= L2, same phase of the draw count or L2 the end), or redeal first to
        reach L2 on a later pass (r1 < r2 and L2 a multiple of the draw count). With unlimited
        redeals and more than one card a draw, the same without the redeals: L1 reaches L2
        when it can draw on to it, or L2 is aligned (a multiple of the draw count, or the
        end: draw to the end, redeal, draw on to it)."""
        key = self._key() if self.know_key is None else self.know_key(self.g)
        seen = self.seen
        if not self.dominance:
            if key in seen:
                return False
            seen.add(key)
            return True
        g = self.g
        w = g.piles[self.t.waste]
        total = len(w) + len(g.piles[self.rules.stock])  # type: ignore[index]
        L2, r2 = len(w), g.recycles
        k = self.rules.draw_count
        aligned = L2 % k == 0 or total == L2
        entries = seen.get(key)
        if entries is None:
            seen[key] = [(L2, r2)]
            return True
        if self.rules.redeals is None:
            if aligned or any(L1 <= L2 and (L2 - L1) % k == 0 for L1, _ in entries):
                return False
            entries.append((L2, r2))
            return True
        for L1, r1 in entries:
            if r1 <= r2 and L1 <= L2 and ((L2 - L1) % k == 0 or total == L2):
                return False
            if r1 < r2 and aligned:
                return False
        entries.append((L2, r2))
        return True

    def _dead_card(self) -> bool:
        """A card that can never go home is left (docs/solver.md, "Dead cards"): a card c of a
        pile in ``dead_piles`` must go onto a foundation f, on a card t that f's row admits
        below c (or onto f empty); t must be f's top now, or still outside the foundations and
        free to go before c: not under c in its pile, nor in a pile that c's pile covers."""
        g = self.g
        piles = g.piles
        t = self.t
        found = self.rules.foundations
        where: dict[int, tuple[int, int]] = {}
        for p in range(self.rules.count):
            if p not in self.rules.foundation_set:
                for i, c in enumerate(piles[p]):
                    where[c] = (p, i)
        for p in t.dead_piles:
            under = t.dead_under[p]
            for i, c in enumerate(piles[p]):
                if not self._may_go_home(c, p, i, found, where, under):
                    return True
        return False

    def _may_go_home(self, c: int, p: int, i: int, found: tuple[int, ...],
                     where: dict[int, tuple[int, int]], under: frozenset[int]) -> bool:
        piles = self.g.piles
        for k, f in enumerate(found):
            home = piles[f]
            if not home:
                if self.t.start_mask[f] >> c & 1:
                    return True
            elif c in self.t.fitlist[f][home[-1]]:
                return True
            for x in self.t.dead_pred[k][c]:
                at = where.get(x)
                if at is None:  # home, under a foundation's top: it stays there
                    continue
                q, j = at
                if (q == p and j < i) or q in under:  # it cannot leave before c
                    continue
                return True
        return False

    def _key(self) -> bytes:
        g = self.g
        down = g.down
        t = self.t
        # two copies of a card behave alike under every table: key the piles by faces (a
        # game of one deck: its cards are their faces)
        piles = g.piles if self.rules.width == DECK_SIZE else [[FACE[c] for c in p] for p in g.piles]
        if self.uncross and self.twins and self.in_dfs:  # (twins: a game of one deck, cards are faces)
            piles = self._uncrossed(piles)
        tops = t.top_only  # a foundation that gives nothing back: its size and top card say it all
        parts = [bytes((len(piles[i]), piles[i][-1])) if i in tops and piles[i] else bytes([down[i], *piles[i]])
                 for i in t.singles]
        for grp in t.groups:
            parts.append(b"\xfe".join(sorted([
                bytes((len(piles[i]), piles[i][-1])) if i in tops and piles[i] else bytes([down[i], *piles[i]])
                for i in grp])))
        rules = self.rules
        if t.macro:
            stock = piles[rules.stock]  # type: ignore[index]
            waste = piles[t.waste]
            # the card sequence the stock and waste cycle through: with draw 1 and unlimited
            # redeals every point of the turn reaches every other; otherwise where the turn
            # has got to is compared by dominance (see _visit)
            parts.append(bytes(waste) + bytes(reversed(stock)))
        elif rules.redeals is not None and rules.stock is not None:
            parts.append(str(g.recycles).encode())
        return b"\xff".join(parts)

    def _uncrossed(self, piles: list[list[int]]) -> list[list[int]]:
        """``piles`` with every crossing of twin children undone (the compiled core's
        ``Search::uncrossed``; docs/solver.md, "Crossed twins"): where two twin parents P < P',
        face up on two twins' piles that take from each other, each carry one of two twin
        children C < C' built on it, each child with every card on it free to move (a run to
        the pile's top), C' on P, the two runs change places, until no such pair is left.
        ``piles`` itself is left as it is (the piles changed are new lists). Each swap puts the
        smaller child on the smaller parent, and a later one changes the child a parent carries
        only where that parent is its own: at most one swap a pair, so it ends. The search
        tries the same moves from the position so written as from the real one, so the two
        are keyed as one."""
        t = self.t
        twin = t.twin
        down = self.g.down
        rules = self.rules
        W = rules.width
        seq, targets = rules.seq, rules.targets
        order = t.twin_order
        out: list[list[int]] | None = None
        while True:
            now = piles if out is None else out
            at: dict[int, tuple[int, int]] = {}  # a face-up card under a card, that has a twin
            for i in order:
                pile = now[i]
                for a in range(down[i], len(pile) - 1):
                    if twin[pile[a]] >= 0:
                        at[pile[a]] = (i, a)
            found = None
            for p, (i, a) in at.items():
                tw = twin[p]
                if tw < p or tw not in at:
                    continue
                j, b = at[tw]
                a, b = a + 1, b + 1
                c, c2 = now[i][a], now[j][b]
                if i == j or twin[c] != c2 or c < c2 or j not in targets[i] or i not in targets[j] \
                        or not seq[i][p * W + c] or not seq[j][tw * W + c2] \
                        or not self._free_in(i, now[i], a) or not self._free_in(j, now[j], b):
                    continue
                found = (i, a, j, b)
                break
            if found is None:
                return now
            if out is None:
                out = list(piles)
            i, a, j, b = found
            here, there = out[i], out[j]
            out[i], out[j] = here[:a] + there[b:], there[:b] + here[a:]

    def _moves(self) -> list[tuple[int, int, Move]]:
        """(priority, draws before, move), best first."""
        g = self.g
        rules = self.rules
        t = self.t
        piles, down = g.piles, g.down
        found = rules.foundation_set
        prune = self.prune
        out: list[tuple[int, int, Move]] = []
        legal = g.legal_moves()
        pending = self._pending()
        if pending is not None:  # only the uses of the card just taken back
            legal = self._uses(legal, *pending)
        twin_pending = self._twin_pending()
        onto = pending[1] if pending is not None else None
        if twin_pending is not None:  # only the uses of the twin just uncovered (not the run back)
            s_, d_, n_ = twin_pending
            onto = s_
            legal = [m for m in legal if (m[1] == s_ and m != (d_, s_, n_)) or (m[0] == s_ and m[2] == 1
                                                                                and m[1] not in t.twin_piles)]
        legal_set: set[Move] | None = None
        group_of = t.group_of
        for m in legal:
            src, dst, n = m
            if n > 0 and dst in group_of and not piles[dst] and not down[dst]:
                # the same cards to the group's first empty pile: the same position, mirrored
                # (docs/solver.md, "Empty twins"; the compiled core's twin_of_earlier)
                first = next((e for e in group_of[dst] if e != src and not piles[e] and not down[e]), dst)
                if first != dst:
                    if legal_set is None:
                        legal_set = set(legal)
                    if (src, first, n) in legal_set:
                        continue
            if n == 0:
                if t.macro:
                    continue
                out.append((5, 0, m))
                continue
            if n < 0:  # a pair, to the discard pile
                out.append((100, 0, m))
                continue
            pile = piles[src]
            left = len(pile) - n
            if dst in found:
                out.append((100 + (left > 0 and left == down[src]) * 5, 0, m))
                continue
            if src in found:
                # a card taken back from a foundation: only when a card can go on it next (it
                # can wait until then, as the foundation takes nothing but it meanwhile)
                # (or the card under it can leave the foundation next)
                if prune:  # left out; a cut only if the exact search would try it (once is enough)
                    self.cut = self.cut or not self._take_back_waits(pile, src, dst)
                    continue
                if self._take_back_waits(pile, src, dst):
                    continue
                out.append((2, 0, m))
                continue
            dest = piles[dst]
            if left == 0 and down[src] == 0 and not dest and t.group_of.get(src) is t.group_of.get(dst) \
                    and src in t.group_of and not rules.fill[src]:
                continue  # a pile moved whole to an empty twin: the same position
            if left > 0 and left == down[src]:
                out.append((90 - down[src], 0, m))  # turns a card up
            elif src == t.waste or rules.role[src] in ("waste", "reserve"):
                if src == t.waste and t.stock_defer and not self._stock_card_used(pile[-1], dst):
                    continue
                out.append((60, 0, m))
            elif left == 0:
                if prune and not dest:
                    self.cut = True
                    continue
                out.append((40, 0, m))
            else:
                # a run moved off a face-up card: worth it only if that card is used next
                under = pile[left - 1]
                if any(self._fits(under, f) for f in rules.targets[src] if f in found):
                    out.append((30, 0, m))
                elif prune:  # (as above)
                    self.cut = self.cut or not self._run_waits(src, under, pile[left])
                elif not self._run_waits(src, under, pile[left]):
                    out.append((10, 0, m))
        if t.macro:
            out.extend(e for e in self._stock_moves() if onto is None or e[2][1] == onto)
        if prune and self.know_prune is not None:  # greedy passes only: need not be sound
            cut = self.know_prune
            kept = [e for e in out if not (e[1] == 0 and cut(g, e[2]))]
            self.cut = self.cut or len(kept) < len(out)
            out = kept
        if self.priority is not None:
            bonus = self.priority
            out = [(p + int(bonus(g, m)) if draws == 0 else p, draws, m) for p, draws, m in out]
        out.sort(key=lambda e: (-e[0], e[1]))
        return out

    def _take_back_waits(self, pile: list[int], src: int, dst: int) -> bool:
        """May the top card of foundation ``src`` wait before it is taken back to ``dst``
        (no card can go onto it next, nor can the card under it leave next)?"""
        return self.t.found_defer and len(pile) > 1 and not self._wanted_on(pile[-1], dst, -1) \
            and not self._can_follow(pile[-2], src, dst, pile[-1])

    def _run_waits(self, src: int, under: int, moved: int) -> bool:
        """May the run from ``moved`` up, built on the face-up card ``under`` in ``src``, wait
        until ``under`` is used?"""
        rules = self.rules
        return bool(self.t.defer[src] and rules.seq[src][under * rules.width + moved]
                    and not self._wanted_on(under, src, moved))

    def _wanted_on(self, under: int, src: int, moved: int) -> bool:
        """May a card other than ``moved`` go onto ``under`` (top of ``src``) right now?

        Why this is exact: a move of a run off a face-up card X can always be put off until
        just before X is used (X goes home, a card is put on X, or X moves; in the last case
        X moves with the run and the run moves on afterwards), so when nothing can go on X
        and X cannot go home, the move can wait (or is never needed). Needs runs of any
        length to move (no capacity or max-accept limits) -- see _Tables.defer -- and X to
        form a run with the cards on it (else they may have to go for X to move at all).
        A card counts only when it can move now (a card of the run itself, conservatively,
        always counts)."""
        g = self.g
        rules = self.rules
        piles, down = g.piles, g.down
        t = self.t
        for c in t.fitlist[src][under]:
            if c == moved:
                continue
            for p in range(rules.count):
                pile = piles[p]
                if c not in pile:
                    continue
                if p == src:  # a card of the run moved off (it could come back onto ``under``)
                    if moved in pile and pile.index(c) > pile.index(moved):
                        return True
                    break
                if p == rules.stock or p == t.waste:
                    return True
                i = pile.index(c)
                if i < down[p]:
                    break
                if p in rules.foundation_set:  # (under a top: cards taken back first may wait too)
                    if rules.gives[p] != GIVES_NONE:
                        return True
                    break
                if src in rules.targets[p] and self._free(p, i):
                    return True
                break
        return False

    def _free(self, p: int, i: int) -> bool:
        """May the face-up card at index ``i`` of pile ``p`` move now (with the cards on it)?"""
        return self._free_in(p, self.g.piles[p], i)

    def _free_in(self, p: int, pile: list[int], i: int) -> bool:
        """May the cards of ``pile`` (pile ``p``'s, or what they would be) from index ``i`` up
        move together?"""
        gives = self.rules.gives[p]
        if gives == GIVES_RUN:
            table = self.rules.seq[p]
            return all(table[pile[j] * self.rules.width + pile[j + 1]] for j in range(i, len(pile) - 1))
        return gives != GIVES_TOP or i == len(pile) - 1

    def _stock_card_used(self, card: int, dst: int) -> bool:
        """May a card go onto ``card`` (from the stock or waste) in ``dst`` right after it?

        Why this is exact (with _Tables.stock_defer: draw 1, unlimited redeals): every card
        of the stock and waste can be played at any time, so playing one to a pile other
        than a foundation can wait until just before it is used: a card goes onto it (played
        next), it moves on (it can go there straight from the waste), or it is carried along
        with the cards under it (it can follow them). Meanwhile it covers only the card it
        would have gone onto, which nothing else could use in the line that played it.
        The card that goes onto it may come from the stock too (and wait in turn), so chains
        of stock cards are followed until a card that can move now from another pile."""
        g = self.g
        rules = self.rules
        piles, down = g.piles, g.down
        fitlist = self.t.fitlist[dst]
        stock = piles[rules.stock]  # type: ignore[index]
        waste = piles[self.t.waste]
        todo = [card]
        seen = {card}
        while todo:
            x = todo.pop()
            for c in fitlist[x]:
                if c in seen:
                    continue
                seen.add(c)
                if c in waste or c in stock:
                    todo.append(c)
                    continue
                for p in rules.sources:
                    pile = piles[p]
                    if p != dst and c in pile:
                        i = pile.index(c)
                        if i >= down[p] and dst in rules.targets[p] and (
                                p in rules.foundation_set or self._free(p, i)):
                            return True
                        break
        return False

    def _can_follow(self, card: int, src: int, dst: int, moved: int) -> bool:
        """Could ``card`` (left on top of ``src`` once ``moved`` goes to ``dst``) move next?

        Next, or after other moves that may wait until they are used (see _moves) have
        made a card it fits on a top: a face-up card under a run, a foundation card, a stock
        card (with _Tables.stock_defer). Counting those keeps two such moves that wait for
        each other from both being cut."""
        rules = self.rules
        accept = rules.accept
        for d in rules.targets[src]:
            if d == dst:
                if accept[d][moved * rules.width + card]:
                    return True
            elif self._fits(card, d):
                return True
        t = self.t
        onto = t.onto_mask[src][card]
        if not onto:
            return False
        g = self.g
        piles, down = g.piles, g.down
        soon = 0
        for p in range(rules.count):
            if p == src:
                continue
            if p in rules.foundation_set:
                if rules.gives[p] == GIVES_NONE:
                    continue
                cards = piles[p]
            elif p == rules.stock or p == t.waste:
                if not t.stock_defer:
                    continue
                cards = piles[p]
            elif t.defer[p]:
                cards = piles[p][down[p]:]
            else:
                continue
            for y in cards:
                soon |= 1 << y
        return bool(onto & soon)

    def _fits(self, card: int, d: int) -> bool:
        g = self.g
        dest = g.piles[d]
        if dest:
            if g.down[d] == len(dest):
                return False
            row = dest[-1] * self.rules.width
        else:
            row = self.rules.width * self.rules.width
        return bool(self.rules.accept[d][row + card]) and len(dest) < self.rules.capacity[d]

    def _stock_moves(self) -> list[tuple[int, int, Move]]:
        """Every waste card reachable by drawing, with the number of draws, played to each
        pile that takes it."""
        g = self.g
        rules = self.rules
        w = self.t.waste
        stock = g.piles[rules.stock]  # type: ignore[index]
        waste = g.piles[w]
        seq = waste + stock[::-1]
        total = len(seq)
        if total == 0:
            return []
        k = rules.draw_count
        redeals_left = None if rules.redeals is None else rules.redeals - g.recycles
        L = len(waste)
        draws = 0
        seen_L = {L}
        out: list[tuple[int, int, Move]] = []
        found = rules.foundation_set
        piles, down = g.piles, g.down
        fitlist = self.t.fitlist
        cap = rules.capacity
        wanted: dict[int, list[int]] = {}
        for d in rules.targets[w]:
            dest = piles[d]
            if dest:
                if down[d] == len(dest) or len(dest) >= cap[d]:
                    continue
                row = dest[-1]
            else:
                row = rules.width
            for c in fitlist[d][row]:
                wanted.setdefault(c, []).append(d)
        if not wanted:
            return out
        defer = self.t.stock_defer
        while True:
            if total == L:  # stock empty: recycle if allowed
                if redeals_left is not None and redeals_left <= 0:
                    break
                if redeals_left is not None:
                    redeals_left -= 1
                L = 0
                draws += 1
                if L in seen_L:
                    break
                seen_L.add(L)
                continue
            L = min(L + k, total)
            draws += 1
            if L in seen_L:
                break
            seen_L.add(L)
            dests = wanted.get(seq[L - 1])
            if dests:
                for d in dests:
                    if defer and d not in found and not self._stock_card_used(seq[L - 1], d):
                        continue
                    pri = 100 if d in found else 60
                    out.append((pri - min(draws, 50) // 4, draws, (w, d, 1)))
        return out

    def _dfs(self) -> bool:
        """Depth first from the current position; True with the winning line in the trail.

        Iterative: ``frames`` holds, for each position on the current line, the moves still
        to try there, the trail's length on entering it and after its safe moves home, so no
        game is too deep for it (the order of the positions tried is the recursive one's)."""
        g = self.g
        trail = self.trail
        frames = self.frames  # kept when the budget stops the pass: a resumed pass goes on from there
        while True:
            self.count += 1  # entering a position
            # the states budget exactly (a pass stores at most max_states), the clock now and then
            if len(self.seen) >= self.limit or (not self.count & 255 and time.perf_counter() > self.deadline):
                raise _OutOfBudget
            mark = len(trail)
            pending = self._pending() is not None or self._twin_pending() is not None
            if not pending:  # rule 1 of the twin parents first, then after each safe move home
                while self.twins and self._twin_canon():
                    pass
                self._auto(canon=self.twins)
            if g.won:
                return True
            if not (pending or self._visit()) or (self.t.dead_piles and self._dead_card()) \
                    or (self.dead is not None and self.dead(g)) \
                    or (self.t.deadlock.node and self.t.deadlock.lost(g.piles, g.down)):
                self._undo(mark)
            else:
                here = self._moves()
                if len(trail) == mark and not pending:
                    self._pass_back_by(here, mark)
                frames.append((iter(here), mark, len(trail)))
            while frames:  # the next move to try, backing up the line as moves run out
                moves, mark, inner = frames[-1]
                self._undo(inner)
                step = next(moves, None)
                if step is None:
                    self._undo(mark)
                    frames.pop()
                    continue
                draws, m = step[1], step[2]
                if draws:
                    self._draws(draws)
                g.push(m)
                trail.append(m)
                break
            else:
                return False

    def _pass_back_by(self, moves: list[tuple[int, int, Move]], mark: int) -> None:
        """Leave the move straight back out of ``moves``, the moves of a position entered by a
        move that did nothing else (no card turned up, no pile filled) and followed by no safe
        move: it reaches the position before, which is on the line (docs/solver.md, "The move
        straight back"; the compiled core's ``skip_back``). Not where the move back would empty
        a pile that is filled or uncovers others when empty (another position), nor where the
        position before was one just after a card was taken back (``_pending``: its moves
        were only that card's uses)."""
        trail = self.trail
        if not trail or len(trail[-1]) != 3 or (mark >= 2 and self._pending_after(mark - 2) is not None):
            return
        src, dst, n, extra, _ = self.g.history[-1]
        if n <= 0 or extra or trail[-1] != (src, dst, n):
            return
        rules = self.rules
        if len(self.g.piles[dst]) <= n and (rules.fill[dst] or rules.uncovers[dst]):
            return
        back = (dst, src, n)
        for i, (_, draws, m) in enumerate(moves):
            if draws == 0 and m == back:
                del moves[i]
                return

    def _draws(self, draws: int) -> None:
        """Play ``draws`` stock actions at once (legal: see _stock_moves), recorded in the
        trail as ``(draws, snapshot before)``, which :meth:`_undo` restores and :meth:`_plain`
        writes out as ``draws`` draw moves."""
        g = self.g
        self.trail.append((draws, g.snapshot()))
        g.turn_stock(draws)

    def _undo(self, mark: int) -> None:
        """Take back what the search played until the trail is ``mark`` long."""
        g = self.g
        trail = self.trail
        while len(trail) > mark:
            e = trail.pop()
            if len(e) == 2:
                g.restore(e[1])
            else:
                g.pop()

    def _plain(self, entries: list[Any]) -> list[Move]:
        """Trail entries as moves, a macro draw written out as its draw moves."""
        draw = self.rules.draw_move
        out: list[Move] = []
        for e in entries:
            if len(e) == 2:
                out.extend([draw] * e[0])  # type: ignore[list-item]
            else:
                out.append(e)
        return out


def solve(game: Game, timeout: float | None = 10.0, max_states: int = 3_000_000, greedy_share: float = 0.5,
          knowledge: Any = None, fixed_table: bool = False, max_work: int | None = None,
          stock_home: bool = True) -> SolveResult:
    """Solve ``game`` with full information; see :class:`Solver`. ``knowledge`` overrides
    what the ``solver_knowledge`` hook gives (an object with ``safe_home``/``priority``).
    ``max_work`` goes to the variant's own search where it takes one (a hint's bound);
    ``stock_home=False`` sends no safe stock card home by draws (a hint's lines).

    ``timeout`` is in seconds; ``None`` sets no deadline, so the search stops only when a
    pass has stored ``max_states`` states: the same answer on any machine, however loaded."""
    return Solver(game, timeout=timeout, max_states=max_states, greedy_share=greedy_share,
                  knowledge=knowledge, fixed_table=fixed_table, max_work=max_work, stock_home=stock_home).solve()
