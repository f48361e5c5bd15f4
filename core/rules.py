"""Compiled rules: a resolved variant turned into plain tables that the hot path only indexes.

``Rules.of(variant, options)`` builds them once per (variant, options), and every game of
that kind shares them. Nothing
here is consulted on the hot path but tuples, lists and ``bytes`` tables:

* ``accept[p][top * 52 + card]``: may ``card`` go on ``top`` in pile ``p`` (row 52: empty pile)
* ``seq[p][lower * 52 + upper]``: do two cards form part of a movable run in pile ``p``
* ``targets[p]``: the piles that take cards from pile ``p``
* ``score_move[src][dst]``: points per card moved, plus ``turn_up`` and ``recycle``
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from functools import partial
from itertools import compress
from typing import Any

from .cards import DECK_SIZE
from .spec import BuildRule, EmptyRule, ResolvedVariant, VariantDef

EMPTY = DECK_SIZE  # the row of ``accept`` used for an empty pile
GIVES_NONE, GIVES_TOP, GIVES_RUN, GIVES_ANY = 0, 1, 2, 3
_GIVES_CODE = {"none": GIVES_NONE, "top": GIVES_TOP, "run": GIVES_RUN, "any": GIVES_ANY}
NO_LIMIT = 1 << 30
_TABLES: dict[Any, bytes] = {}  # (kind, frozen rule objects) -> table, built once per process
_FITS: dict[bytes, tuple[tuple[int, ...], ...]] = {}  # accept table -> its rows as card lists, likewise


def _pair_table(rule: BuildRule) -> bytes:
    """``table[lower * 52 + upper]``: ``rule.fits(lower, upper)`` for every pair of cards, built
    from the rule's 13 x 13 rank half and 4 x 4 suit half (185 calls instead of 2704), a row of
    13 bytes at a time (the suit half either lets a rank row through or zeroes it)."""
    ranks = [bytes(rule.ranks_fit(lo, up) for up in range(1, 14)) for lo in range(1, 14)]
    suits = [[rule.suits_fit(lo, up) for up in range(4)] for lo in range(4)]
    none = bytes(13)
    return b"".join(
        ranks[lower % 13] if suits[lower // 13][upper_suit] else none
        for lower in range(DECK_SIZE) for upper_suit in range(4)
    )


def _accept_table(build: BuildRule, empty: EmptyRule) -> bytes:
    return _pair_table(build) + bytes(1 if empty.takes(card) else 0 for card in range(DECK_SIZE))


def _seq_table(rule: BuildRule) -> bytes:
    return _pair_table(rule)


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
        self.deck: tuple[int, ...] = tuple(range(DECK_SIZE))
        self.decks = 1
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
            shared(("a", p.build, p.empty), partial(_accept_table, p.build, p.empty)) for p in spec.piles
        )
        self.seq: tuple[bytes, ...] = tuple(
            shared(("s", p.run), partial(_seq_table, p.run)) for p in spec.piles
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
        # fits[d][top]: the cards that may go on ``top`` in pile d (``top == EMPTY``: empty pile)
        fit_cache = _FITS
        fits = []
        for table in self.accept:
            if table not in fit_cache:
                fit_cache[table] = tuple(
                    tuple(compress(range(DECK_SIZE), table[row * DECK_SIZE:(row + 1) * DECK_SIZE]))
                    for row in range(EMPTY + 1)
                )
            fits.append(fit_cache[table])
        self.fits: tuple[tuple[tuple[int, ...], ...], ...] = tuple(fits)
        self.foundations: tuple[int, ...] = tuple(p.index for p in spec.piles if p.role == "foundation")
        self.foundation_set = frozenset(self.foundations)

        stock = spec.stock
        self.stock: int | None = self.index[stock.pile] if stock else None
        self.draw_targets: tuple[int, ...] = self.group_piles[stock.to] if stock else ()
        self.draw_count: int = stock.draw if stock else 0
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
        if self.stock is not None:
            hides.add(self.stock)
        for step in spec.deal:
            if any(f is not None for f in step.face_up):
                hides.update(self.group_piles[step.to])
        self.may_hide = frozenset(hides)

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
