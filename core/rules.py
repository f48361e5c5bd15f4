"""Compiled rules: a resolved variant turned into plain tables that the hot path only indexes.

``Rules.of(variant, options)`` builds them once per (variant, options), and every game of
that kind shares them. Nothing
here is consulted on the hot path but tuples, lists and ``bytes`` tables:

* ``accept[p][top * width + card]``: may ``card`` go on ``top`` in pile ``p`` (row ``width``:
  the empty pile); ``width`` is 52 for one deck, 52 times the copies of a face for more
* ``seq[p][lower * width + upper]``: do two cards form part of a movable run in pile ``p``
* ``targets[p]``: the piles that take cards from pile ``p``
* ``score_move[src][dst]``: points per card moved, plus ``turn_up`` and ``recycle``
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from functools import partial
from itertools import compress
from typing import Any

import attrs

from .cards import DECK_SIZE, RANK, SUIT
from .spec import BuildRule, EmptyRule, PairRule, ResolvedVariant, VariantDef

GIVES_NONE, GIVES_TOP, GIVES_RUN, GIVES_ANY, GIVES_PILE = 0, 1, 2, 3, 4
_GIVES_CODE = {"none": GIVES_NONE, "top": GIVES_TOP, "run": GIVES_RUN, "any": GIVES_ANY, "pile": GIVES_PILE}
NO_LIMIT = 1 << 30
#: the count of a pair move ``(a, b, PAIR)``: the top cards of piles a and b (a < b) go to the
#: pairs pile together
PAIR = -1
_TABLES: dict[Any, bytes] = {}  # (kind, frozen rule objects) -> table, built once per process
_FITS: dict[bytes, tuple[tuple[int, ...], ...]] = {}  # accept table -> its rows as card lists, likewise


def _pair_table(rule: BuildRule, width: int) -> bytes:
    """``table[lower * width + upper]``: ``rule.fits(lower, upper)`` for every pair of cards,
    built from the rule's 13 x 13 rank half and 4 x 4 suit half (185 calls instead of 2704), a
    row of 13 bytes at a time (the suit half either lets a rank row through or zeroes it); the
    copies of a face (``width // 52`` of them) share its row and column."""
    ranks = [bytes(rule.ranks_fit(lo, up) for up in range(1, 14)) for lo in range(1, 14)]
    suits = [[rule.suits_fit(lo, up) for up in range(4)] for lo in range(4)]
    none = bytes(13)
    copies = width // DECK_SIZE
    rows = [b"".join(ranks[lower % 13] if suits[lower // 13][upper_suit] else none for upper_suit in range(4))
            * copies for lower in range(DECK_SIZE)]
    return b"".join(rows) * copies


def _accept_table(build: BuildRule, empty: EmptyRule, width: int) -> bytes:
    return _pair_table(build, width) + bytes(1 if empty.takes(card) else 0 for card in range(width))


def _seq_table(rule: BuildRule, width: int) -> bytes:
    return _pair_table(rule, width)


def _pairs_accept(rule: PairRule, width: int) -> bytes:
    """A pairs pile's accept table: a card alone (on any top, or the empty pile) only when its
    rank alone makes the total."""
    row = bytes(1 if rule.alone(card) else 0 for card in range(width))
    return row * (width + 1)


def _pairs_table(rule: PairRule, width: int) -> bytes:
    """``table[a * width + b]``: may cards a and b be discarded together."""
    return bytes(1 if rule.fits(a, b) else 0 for a in range(width) for b in range(width))


def _beats_table(aces_high: bool, width: int) -> bytes:
    """``table[card * width + other]``: ``other`` is of ``card``'s suit and ranks above it."""
    def rank(c: int) -> int:
        return 14 if aces_high and RANK[c] == 1 else RANK[c]

    return bytes(1 if SUIT[a] == SUIT[b] and rank(b) > rank(a) else 0 for a in range(width) for b in range(width))


def _touching(cells: tuple[int, ...], rows: int, columns: int) -> dict[int, frozenset[int]]:
    """The cells (piles, in reading order) of a grid that touch each one, diagonals included."""
    out = {}
    for i, pile in enumerate(cells):
        r, c = divmod(i, columns)
        out[pile] = frozenset(cells[y * columns + x] for y in range(max(0, r - 1), min(rows, r + 2))
                              for x in range(max(0, c - 1), min(columns, c + 2)) if (y, x) != (r, c))
    return out


class Rules:
    """The compiled rules of one variant under one option set. Immutable by convention."""

    @classmethod
    def of(cls, variant: VariantDef, options: Mapping[str, Any] | None = None) -> Rules:
        """The compiled rules of ``variant`` for these options (defaults filled in; a bad
        option raises OptionError), built once and kept with the variant: what :class:`Game`
        plays."""
        opts = variant.resolve_options(options, check=False)
        key = tuple(sorted(opts.items(), key=lambda kv: kv[0]))
        return variant.memo(("rules", key), lambda: cls(variant, variant.resolved(opts)))

    def __init__(self, variant: VariantDef, spec: ResolvedVariant) -> None:
        self.variant = variant
        self.spec = spec
        self.name = spec.name
        self.options = dict(spec.options)
        self.piles = spec.piles
        self.names: tuple[str, ...] = tuple(p.name for p in spec.piles)
        self.count = len(spec.piles)
        #: the cards of the game's deck (each card once; two decks hold two of each face)
        self.deck: tuple[int, ...] = spec.deck
        self.decks: int = spec.decks
        #: the row length of every table: 52 for each copy of a face the game may hold
        self.width: int = DECK_SIZE * (max(spec.deck) // DECK_SIZE + 1)
        width = self.width
        self.index: dict[str, int] = {p.name: p.index for p in spec.piles}
        self.group_piles: dict[str, tuple[int, ...]] = {
            g.key: tuple(self.index[n] for n in g.piles) for g in spec.groups
        }
        self.groups = {g.key: g for g in spec.groups}
        # names a player may type: pile names, aliases, and group prefixes (meaning "any of")
        self.aliases: dict[str, int] = {}
        self.group_names: dict[str, tuple[int, ...]] = {}
        for g in spec.groups:
            if g.alias:
                if len(g.piles) == 1:
                    self.aliases[g.alias] = self.index[g.piles[0]]
                else:
                    self.group_names[g.alias] = self.group_piles[g.key]
            if g.prefix:
                self.group_names[g.prefix] = self.group_piles[g.key]
            self.group_names.setdefault(g.key, self.group_piles[g.key])
        self.short_name = tuple(
            (self.groups[p.group].alias if self.groups[p.group].alias and len(self.groups[p.group].piles) == 1
             else p.name)
            for p in spec.piles
        )

        cache = _TABLES  # shared by every Rules: the option sets of a variant mostly repeat tables

        def shared(key: Any, make: Callable[[], bytes]) -> bytes:
            if key not in cache:
                cache[key] = make()
            return cache[key]

        self.accept: tuple[bytes, ...] = tuple(
            shared(("p", p.pairs, width), partial(_pairs_accept, p.pairs, width)) if p.pairs is not None else
            shared(("a", p.build, p.empty, width), partial(_accept_table, p.build, p.empty, width))
            for p in spec.piles
        )
        self.seq: tuple[bytes, ...] = tuple(
            shared(("s", p.run, width), partial(_seq_table, p.run, width)) for p in spec.piles
        )
        self.gives: tuple[int, ...] = tuple(_GIVES_CODE[p.gives] for p in spec.piles)
        self.capacity: tuple[int, ...] = tuple(p.capacity or NO_LIMIT for p in spec.piles)
        self.max_accept: tuple[int, ...] = tuple(p.max_accept or NO_LIMIT for p in spec.piles)
        self.flip: tuple[bool, ...] = tuple(p.flip for p in spec.piles)
        self.role: tuple[str, ...] = tuple(p.role for p in spec.piles)
        self.targets: tuple[tuple[int, ...], ...] = tuple(
            tuple(d.index for d in spec.piles if d.index != s.index and s.group in d.accepts_from)
            if s.gives != "none" else ()
            for s in spec.piles
        )
        self.sources: tuple[int, ...] = tuple(i for i, t in enumerate(self.targets) if t)
        # allowed[d][s]: pile d takes cards from pile s; receivers: piles that take from anyone
        self.allowed: tuple[bytes, ...] = tuple(
            bytes(1 if d in self.targets[s] else 0 for s in range(self.count)) for d in range(self.count)
        )
        self.receivers: tuple[int, ...] = tuple(d for d in range(self.count) if any(self.allowed[d]))
        # fits[d][top]: the cards of the deck that may go on ``top`` in pile d (``top == width``:
        # the empty pile)
        fit_cache = _FITS
        fits = []
        cards = set(spec.deck)
        in_deck = bytes(1 if c in cards else 0 for c in range(width))
        for table in self.accept:
            key = table + in_deck
            if key not in fit_cache:
                fit_cache[key] = tuple(
                    tuple(compress(range(width), bytes(a & b for a, b in zip(
                        table[row * width:(row + 1) * width], in_deck, strict=True))))
                    for row in range(width + 1)
                )
            fits.append(fit_cache[key])
        self.fits: tuple[tuple[tuple[int, ...], ...], ...] = tuple(fits)
        self.foundations: tuple[int, ...] = tuple(p.index for p in spec.piles if p.role == "foundation")
        self.foundation_set = frozenset(self.foundations)
        self.min_accept: tuple[int, ...] = tuple(p.min_accept for p in spec.piles)
        self.whole_runs = any(m > 1 for m in self.min_accept)  # some pile takes only runs of several
        #: piles that fill at once from the top of another pile when they empty: (pile, from piles)
        self.fill: tuple[tuple[int, ...], ...] = tuple(
            self.group_piles[p.fill_from] if p.fill_from else () for p in spec.piles)
        self.fills = any(self.fill)
        # supermove: a run of at most (1 + free cells) x 2^(empty piles) cards moves from pile s,
        # where free cells are the empty one-card reserves it may move to, and empty piles those
        # of its own group that take any card (a pile the run goes to does not count)
        self.supermove: tuple[tuple[tuple[int, ...], tuple[int, ...]] | None, ...] = tuple(
            (tuple(d for d in self.targets[s.index] if spec.piles[d].role == "reserve"
                   and spec.piles[d].capacity == 1),
             tuple(d for d in self.targets[s.index] if spec.piles[d].group == s.group
                   and spec.piles[d].empty.kind == "any"))
            if s.supermove else None for s in spec.piles)
        self.has_supermove = any(m is not None for m in self.supermove)
        #: covered[p]: the piles that must all be empty before pile p gives a card (Pyramid, TriPeaks);
        #: uncovers[q]: the piles q covers, whose face-down card turns up once q and the rest are empty
        self.covered: tuple[tuple[int, ...], ...] = tuple(tuple(self.index[n] for n in p.covered_by)
                                                          for p in spec.piles)
        self.covering = any(self.covered)
        self.uncovers: tuple[tuple[int, ...], ...] = tuple(
            tuple(p for p in range(self.count) if q in self.covered[p]) for q in range(self.count))

        #: pairs: the pile two available cards go to together (None: no pairs in this game);
        #: pair_ok[a * width + b]: cards a and b make a pair; pair_sources: the piles whose top
        #: cards pair, in order; pair_with[p][q]: piles p and q may pair their top cards
        homes = [p for p in spec.piles if p.pairs is not None]
        self.pair_home: int | None = homes[0].index if homes else None
        self.pair_rule: PairRule | None = homes[0].pairs if homes else None
        self.pair_ok: bytes = shared(("pp", self.pair_rule, width), partial(_pairs_table, self.pair_rule, width)) \
            if self.pair_rule is not None else b""
        self.pair_sources: tuple[int, ...] = tuple(
            s for s in self.sources if self.pair_home in self.targets[s]) if homes else ()
        touch: dict[int, frozenset[int]] = {}
        for p in spec.piles:
            if p.grid is not None and p.index == self.index[self.groups[p.group].piles[0]]:
                touch.update(_touching(self.group_piles[p.group], *p.grid))
        near = self.pair_rule is not None and self.pair_rule.touching
        self.pair_with: tuple[bytes, ...] = tuple(
            bytes(1 if q in self.pair_sources and q != p and (not near or q in touch.get(p, ())) else 0
                  for q in range(self.count)) if p in self.pair_sources else bytes(self.count)
            for p in range(self.count))
        #: discards by other piles' tops: beaten_by[d], the piles whose top card must beat a card
        #: for pile d to take it (() for a pile with no such rule); beats[card * width + other]
        self.beaten_by: tuple[tuple[int, ...], ...] = tuple(
            self.group_piles[p.beaten_by] if p.beaten_by is not None else () for p in spec.piles)
        self.beaten = any(self.beaten_by)
        high = any(p.aces_high for p in spec.piles if p.beaten_by is not None)  # one rule per game
        self.beats: bytes = shared(("b", high, width), partial(_beats_table, high, width)) if self.beaten else b""
        self.win_one_card: tuple[int, ...] = tuple(i for g in spec.win_one_card for i in self.group_piles[g])

        stock = spec.stock
        self.stock: int | None = self.index[stock.pile] if stock else None
        self.draw_targets: tuple[int, ...] = self.group_piles[stock.to] if stock else ()
        self.draw_count: int = stock.draw if stock else 0
        self.draw_not_onto_empty: bool = bool(stock and stock.not_onto_empty)
        #: the stock's action closes the gaps of the piles it deals to first (Monte Carlo)
        self.consolidate: bool = bool(stock and stock.consolidate)
        self.stock_open: bool = bool(stock and spec.piles[self.index[stock.pile]].open)
        self.stock_top_only: bool = bool(stock and spec.piles[self.index[stock.pile]].open_top)  # seen: the top
        self.redeals: int | None = stock.redeals if stock else 0
        self.draw_move: tuple[int, int, int] | None = (
            (self.stock, self.draw_targets[0], 0) if stock else None  # type: ignore[assignment]
        )

        points = {(a, b): v for a, b, v in spec.scoring.moves}
        self.score_move: tuple[tuple[int, ...], ...] = tuple(
            tuple(points.get((s.group, d.group), 0) for d in spec.piles) for s in spec.piles
        )
        self.turn_up: int = spec.scoring.turn_up
        self.recycle_points: int = spec.scoring.recycle
        self.floor: int | None = spec.scoring.floor

        # piles that may legally hold face-down cards: the stock, and those the deal hides cards in
        hides = set()
        if self.stock is not None and not self.stock_open:
            hides.add(self.stock)
        for step in spec.deal:
            if any(f is not None for f in step.face_up):
                hides.update(self.group_piles[step.to])
        self.may_hide = frozenset(hides)

        # the base rank: piles whose empty rule is the rank the deal chooses (Canfield)
        self.base: int | None = None  # chosen: the rules of one deal, from with_base
        self.needs_base = any(p.empty.kind == "base" for p in spec.piles)
        self._based: dict[int, Rules] = {}
        # winning: every card home, unless the variant says which groups to clear / cards home
        self.win_cleared: tuple[int, ...] = tuple(i for g in spec.win_cleared for i in self.group_piles[g])
        self.win_home: int = spec.win_home if spec.win_home is not None else 0 if spec.win_cleared else len(spec.deck)

    def with_base(self, rank: int) -> Rules:
        """These rules once the deal has chosen ``rank`` (1..13) as the base rank: each empty
        rule of the base rank becomes that rank's (cached; the same rules when none is)."""
        if not self.needs_base:
            return self
        if not isinstance(rank, int) or isinstance(rank, bool) or not 1 <= rank <= 13:
            raise ValueError(f"a base rank is 1 to 13, got {rank!r}")
        hit = self._based.get(rank)
        if hit is None:
            spec = attrs.evolve(self.spec, piles=tuple(attrs.evolve(p, empty=p.empty.based(rank))
                                                       for p in self.spec.piles))
            hit = Rules(self.variant, spec)
            hit.base = rank
            hit.needs_base = False
            hit._based = self._based
            self._based[rank] = hit
        return hit

    # ---------------------------------------------------------------- derived rules

    DERIVABLE = frozenset({"draw_count", "redeals"})

    def derive(self, **changes: Any) -> Rules:
        """These rules with the stock's ``draw_count`` and/or ``redeals`` changed (``None``:
        unlimited), e.g. for a search that relaxes them; every table is shared and these
        rules are unchanged. Raise ValueError for anything else."""
        unknown = set(changes) - self.DERIVABLE
        if unknown:
            raise ValueError(f"only {', '.join(sorted(self.DERIVABLE))} can be derived, "
                             f"not {', '.join(sorted(unknown))}")
        if self.stock is None:
            raise ValueError(f"{self.name} has no stock: its draw count and redeals cannot change")
        count = changes.get("draw_count", self.draw_count)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise ValueError(f"draw_count is a whole number from 1, got {count!r}")
        redeals = changes.get("redeals", self.redeals)
        if redeals is not None and (not isinstance(redeals, int) or isinstance(redeals, bool) or redeals < 0):
            raise ValueError(f"redeals is a whole number from 0 or None, got {redeals!r}")
        other = copy.copy(self)
        other.draw_count = count
        other.redeals = redeals
        return other

    # ---------------------------------------------------------------- descriptions

    def pile_name(self, index: int) -> str:
        return self.names[index]

    def describe_options(self) -> str:
        parts = []
        for o in self.variant.options:
            value = self.options[o.name]
            if o.kind == "flag":
                if value:
                    parts.append(o.name)
            else:
                parts.append(f"{o.name} {o.show(value)}")
        return ", ".join(parts)

    def __repr__(self) -> str:
        return f"<Rules {self.name} {self.options}>"


def shown_down(rules: Rules, piles: list[list[int]], down: list[int]) -> list[int]:
    """How many cards of each pile a player does not see: the face-down ones, and in a stock
    that is open but shows only its top card (``open: top``, Pyramid) every card under the top
    one, which the kernel holds face up but no player sees until it comes to the top."""
    out = list(down)
    stock = rules.stock
    if stock is not None and rules.stock_top_only and piles[stock]:
        out[stock] = len(piles[stock]) - 1
    return out
