"""A game's rules in plain words, made from its compiled :class:`~solitaire.core.rules.Rules`.

:func:`explain` returns :class:`Section` values (a title and sentences) for ``solitaire rules``
and the table's help screen. It reads only the resolved variant (its pile groups, stock, deal
and scoring), never a game's name: any variant declared in YAML is explained the same way.

Each concept is one sentence-making function: a pile group's sentences come from the functions
in :data:`GROUP_SENTENCES`, the sections from :data:`SECTIONS`. A new pile setting adds one
function to the first list; a new part of a variant, one to the second.

>>> from solitaire.core import Rules, load_variant_text
>>> rules = Rules.of(load_variant_text("{name: two, piles: {foundation: {role: foundation, empty: {rank: A}, "
...     "build: {rank: up, suit: same-suit}}, tableau: {role: tableau, count: 2}}, "
...     "deal: [{to: tableau, counts: 26, face-up: 1}]}"))
>>> [section.title for section in explain(rules)]
['Foundation', 'Tableau', 'Deal', 'How to win']
>>> print(rules_text(rules, 72))
Two
<BLANKLINE>
Foundation
  One pile, named foundation. It builds up in the same suit. When empty,
  it takes an Ace. No card leaves it. It takes cards from the tableau.
<BLANKLINE>
Tableau
  Two tableau piles, t1 and t2. It builds down regardless of suit. An
  empty pile takes any card. Its top card moves, or several top cards
  together when they are built down regardless of suit. It takes cards
  from the tableau. A face-down card left on top turns face up.
<BLANKLINE>
Deal
  26 cards to each pile of the tableau, the top card face up.
<BLANKLINE>
How to win
  Move all 52 cards to the foundation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from .cards import RANK, SUIT, rank_name
from .spec import BuildRule, DealStep, EmptyRule, GroupSpec, PileSpec, ResolvedVariant

if TYPE_CHECKING:
    from .rules import Rules

_RANK_WORDS = {1: "Ace", 11: "Jack", 12: "Queen", 13: "King"}
_SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


@attrs.frozen
class Section:
    """One part of the rules: a title (a pile group's label, "Deal", "How to win") and sentences."""

    title: str
    lines: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        return {"title": self.title, "lines": list(self.lines)}


# --------------------------------------------------------------------------- words


def number(n: int) -> str:
    """``'three'`` for 3, ``'12'`` for 12: small numbers in words, as prose writes them."""
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def cards(n: int) -> str:
    """``'one card'``, ``'3 cards'``... ``'no cards'``."""
    return f"{number(n)} card" + ("" if n == 1 else "s")


def card_words(card: int) -> str:
    """``'the Ace of clubs'``, ``'the 10 of hearts'``."""
    return f"the {_RANK_WORDS.get(RANK[card], str(RANK[card]))} of {_SUIT_WORDS[SUIT[card]]}"


def short_rank(rank: int) -> str:
    """``'A'``, ``'2'`` ... ``'10'``, ``'J'``, ``'Q'``, ``'K'``: a rank as a card shows it."""
    return "10" if rank == 10 else rank_name(rank)


def listing(words: Iterable[str]) -> str:
    """``'a, b and c'``."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def sentence(text: str) -> str:
    """Capitalised, with a full stop."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _group_plural(group: GroupSpec) -> bool:
    """Is the group named in the plural (``'the foundations'``, not ``'the tableau'``)?"""
    return len(group.piles) > 1 and group.role in ("foundation", "reserve") and not group.label.endswith("s")


def _group_name(group: GroupSpec) -> str:
    """How a group is named in a sentence: ``'the tableau'``, ``'the foundations'``."""
    return "the " + group.label.lower() + ("s" if _group_plural(group) else "")


def _ranges(names: Sequence[str], order: Sequence[str]) -> str:
    """``'t1 to t18'``, ``'t1, t3 and t5'``: pile names, runs of neighbours in ``order`` joined."""
    position = {name: i for i, name in enumerate(order)}
    runs: list[list[str]] = []
    for name in names:
        if runs and position[name] == position[runs[-1][-1]] + 1:
            runs[-1].append(name)
        else:
            runs.append([name])
    return listing(run[0] if len(run) == 1 else f"{run[0]} and {run[1]}" if len(run) == 2
                   else f"{run[0]} to {run[-1]}" for run in runs)


def _pile_names(group: GroupSpec) -> str:
    """``'f1 to f4'``, ``'stock'``, ``'waste (also w)'``."""
    if not group.piles:
        return "none"
    if len(group.piles) == 1:
        name = group.piles[0]
    elif len(group.piles) == 2:
        name = f"{group.piles[0]} and {group.piles[1]}"
    else:
        name = f"{group.piles[0]} to {group.piles[-1]}"
    return name + (f" (also {group.alias})" if group.alias else "")


# --------------------------------------------------------------------------- a pile group


def dealt(variant: ResolvedVariant) -> dict[str, int]:
    """How many cards the deal puts on each pile, by name."""
    groups = {g.key: g for g in variant.groups}
    out = {p.name: 0 for p in variant.piles}
    placed = 0
    for step in variant.deal:
        names = groups[step.to].piles
        if step.rest:
            for name in names[:1]:
                out[name] += len(variant.deck) - placed
            continue
        counts = step.counts or tuple(1 for _ in step.cards)
        for name, n in zip(names, counts, strict=False):
            out[name] += n
            placed += n
    return out


@attrs.frozen
class GroupView:
    """What a sentence-making function reads about one pile group."""

    group: GroupSpec
    piles: tuple[PileSpec, ...]
    variant: ResolvedVariant
    groups: dict[str, GroupSpec]
    dealt: dict[str, int]

    @property
    def first(self) -> PileSpec:
        return self.piles[0]

    def per_pile(self, text: Callable[[PileSpec], str | None]) -> list[tuple[tuple[str, ...], str]]:
        """The piles grouped by what ``text`` says of them, in order: one entry when all agree."""
        out: dict[str, list[str]] = {}
        for pile in self.piles:
            said = text(pile)
            if said is not None:
                out.setdefault(said, []).append(pile.name)
        return [(tuple(names), said) for said, names in out.items()]

    def named(self, keys: Sequence[str]) -> str:
        return listing([_group_name(self.groups[k]) for k in keys if k in self.groups])

    @property
    def sources(self) -> tuple[str, ...]:
        """The groups whose cards a move may really put on these piles: those named in
        ``accepts-from`` that have a pile giving cards (other than the pile itself)."""
        giving = {p.name for p in self.variant.piles if p.gives != "none"}
        mine = set(self.group.piles)
        out = []
        for key in dict.fromkeys(k for p in self.piles for k in p.accepts_from):
            others = [n for n in self.groups[key].piles if n in giving and (n not in mine or len(mine) > 1)]
            if others:
                out.append(key)
        return tuple(out)

    @property
    def drawn_onto(self) -> bool:
        """Does the stock draw onto this group?"""
        return self.variant.stock is not None and self.variant.stock.to == self.group.key

    @property
    def takes_moves(self) -> bool:
        """May a move ever put a card on these piles? Not when no group gives them cards, nor
        when they take nothing on a card nor when empty."""
        if not self.sources:
            return False
        return not all(p.build.rank == "none" and p.empty.kind == "none" for p in self.piles)


GroupSentence = Callable[[GroupView], Sequence[str]]


def _count(view: GroupView) -> list[str]:
    n = len(view.piles)
    if n == 1:
        return [f"one pile, named {_pile_names(view.group)}"]
    return [f"{number(n)} {view.group.role} piles, {_pile_names(view.group)}"]


def _build(view: GroupView) -> list[str]:
    pairs = view.first.pairs
    if pairs is not None:  # a discard pile of pairs: what goes onto it, and what a card needs to go
        names = [_group_name(view.groups[k]) for k in view.sources]
        sources = ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)
        covered = any(p.covered_by for p in view.variant.piles if p.group in view.sources)
        free = " and covered by no other card" if covered else ""
        return [f"it takes {pairs.describe()}", f"it takes cards from {sources}, each the top card of its pile{free}"]
    if not view.takes_moves:
        return []  # filled only by drawing or dealing, or by nothing: _accepts says which
    parts = view.per_pile(lambda p: p.build.describe())
    if len(parts) == 1:
        return [f"it {parts[0][1]}"]
    return ["each pile builds its own way: " + "; ".join(f"{listing(names)} {said}" for names, said in parts)]


def empty_words(empty: EmptyRule) -> str:
    """What an empty pile takes, as a noun phrase: ``'a King'``, ``'the Ace of clubs'``."""
    if empty.kind == "card" and empty.card is not None:
        return card_words(empty.card)
    if empty.kind == "base":
        if not empty.offset:
            return "a card of the base rank"
        n = abs(empty.offset)
        return f"a card {number(n)} rank{'s' if n > 1 else ''} {'below' if empty.offset < 0 else 'above'} the base rank"
    return empty.describe()


def _empty(view: GroupView) -> list[str]:
    if not view.takes_moves or view.first.pairs is not None:
        return []

    def takes(p: PileSpec) -> str | None:
        if p.gives == "none" and view.dealt[p.name] > 0:
            return None  # dealt a card and never gives one: never empty
        return empty_words(p.empty)

    parts = view.per_pile(takes)
    if not parts:
        return []
    if len(parts) == 1:
        one = "an empty pile" if len(view.piles) > 1 else "when empty, it"
        return [f"{one} takes {parts[0][1]}"]
    return ["an empty pile takes: " + "; ".join(f"{listing(names)} {said}" for names, said in parts)]


def _run_words(rule: BuildRule) -> str:
    text = rule.describe()
    return text.replace("builds ", "built ", 1) if text.startswith("builds ") else text


def _gives(view: GroupView) -> list[str]:
    pile = view.first
    if pile.gives == "none":
        return ["no card leaves it"]
    if pile.gives == "top":
        return ["only its top card moves"]
    if pile.gives == "any":
        return ["any face-up card moves, with every card on top of it"]
    if pile.gives == "pile":
        return ["its top card moves, or all its face-up cards together"]
    if all(p.run.rank == "none" for p in view.piles):
        return ["only its top card moves"]
    parts = view.per_pile(lambda p: _run_words(p.run))
    return ["its top card moves, or several top cards together when they are "
            + "; ".join(said if len(parts) == 1 else f"{said} on {listing(names)}" for names, said in parts)]


def _covers(view: GroupView) -> bool:
    """Do piles of this group cover others, each dealt one card at most (a card, not a pile, is freed)?"""
    return any(p.covered_by for p in view.piles) and all(view.dealt[p.name] <= 1 for p in view.piles)


def _hidden(view: GroupView) -> bool:
    """Does the deal put face-down cards in this group?"""
    return any(any(f is not None and f < view.dealt[name] for f, name in zip(step.face_up, view.group.piles,
                                                                             strict=False))
               for step in view.variant.deal if step.to == view.group.key)


def _covered(view: GroupView) -> list[str]:
    covered = [p for p in view.piles if p.covered_by]
    if not covered:
        return []
    order = [p.name for p in view.variant.piles]
    which = "; ".join(f"{_ranges(p.covered_by, order)} cover {p.name}" for p in covered)
    if len(covered) == 1:
        which = f"{_ranges(covered[0].covered_by, order)} are gone" if _covers(view) else \
            f"{_ranges(covered[0].covered_by, order)} are empty"
        head = f"{covered[0].name}'s card is free once " if _covers(view) else f"{covered[0].name} gives no card until "
        text = head + which
    elif _covers(view):
        text = f"a card is free once the cards covering it are gone ({which})"
    else:
        text = f"a pile gives no card until the piles covering it are empty ({which})"
    if view.first.flip and _hidden(view):
        text += "; it then turns face up"
    return [text]


def _supermove(view: GroupView) -> list[str]:
    pile = next((p for p in view.piles if p.supermove), None)
    if pile is None:
        return []
    cells = [g.key for g in view.variant.groups if g.key != view.group.key and any(
        q.role == "reserve" and q.capacity == 1 and view.group.key in q.accepts_from
        for q in view.variant.piles if q.group == g.key)]
    spaces = any(q.empty.kind == "any" for q in view.piles if q.name != pile.name)
    where = "empty pile" + (" of " + _group_name(view.group) if len(view.piles) > 1 else "")
    if cells and spaces:
        text = (f"runs move only as far as free cells and empty piles allow: (1 + free cells) cards, doubled for "
                f"each {where}, halved when the run goes to an empty pile; free cells are the empty piles of "
                f"{view.named(cells)}")
    elif cells:
        text = (f"runs move only as far as free cells allow: (1 + free cells) cards, free cells being the empty "
                f"piles of {view.named(cells)}")
    elif spaces:
        text = f"runs move only as far as empty piles allow: one card, doubled for each {where}, " \
               "halved when the run goes to an empty pile"
    else:
        text = "runs do not move together: one card at a time"
    return [text]


def _beaten(view: GroupView) -> list[str]:
    pile = view.first
    if pile.beaten_by is None or pile.beaten_by not in view.groups:
        return []
    aces = " (an Ace ranks above the King)" if pile.aces_high else ""
    return [f"a card goes onto it only while a higher card of its suit{aces} is the top card of another "
            f"pile of {_group_name(view.groups[pile.beaten_by])}"]


def _grid(view: GroupView) -> list[str]:
    grid = view.first.grid
    if grid is None:
        return []
    rows, columns = grid
    first = view.group.piles[:columns]
    return [f"the piles are the cells of a grid, {number(rows)} rows of {number(columns)}, "
            f"{_ranges(first, view.group.piles)} the top row"]


def _accepts(view: GroupView) -> list[str]:
    if view.first.pairs is not None:
        return []  # _build says it
    sources = view.sources
    if not view.takes_moves:
        if view.drawn_onto:
            return ["it is filled only from the stock"]
        if view.first.role == "stock" or any(p.fill_from for p in view.piles):
            return []
        return ["no card is ever put on it"]
    text = f"it takes cards from {view.named(sources)}"
    return [text + (", and from the stock" if view.drawn_onto else "")]


def _limits(view: GroupView) -> list[str]:
    pile = view.first
    out = []
    if pile.capacity is not None:
        out.append(f"a pile holds at most {cards(pile.capacity)}" if len(view.piles) > 1
                   else f"it holds at most {cards(pile.capacity)}")
    if not view.takes_moves:
        return out
    if pile.max_accept is not None:
        out.append(f"a move puts at most {cards(pile.max_accept)} on it")
    if pile.min_accept > 1:
        noun = "foundation" if pile.role == "foundation" else "pile"
        runs = [q.run for q in view.variant.piles if q.group in view.sources]
        whole_suit = (pile.min_accept == 13 and pile.empty.kind == "ranks" and pile.empty.ranks == {13}
                      and bool(runs) and all(r == BuildRule("down", "same-suit") for r in runs))
        if whole_suit:
            out.append(f"only a whole suit, King to Ace, moved at once, goes onto an empty {noun}")
        else:
            out.append(f"a move puts at least {cards(pile.min_accept)} on it, moved at once")
    return out


def _fill(view: GroupView) -> list[str]:
    source = view.first.fill_from
    if source is None or source not in view.groups:
        return []
    name = _group_name(view.groups[source])
    what = "an emptied pile" if len(view.piles) > 1 else "when emptied, it"
    return [f"{what} is filled at once with the top card of {name}, as long as {name} has cards"]


def _flip(view: GroupView) -> list[str]:
    if view.first.flip and _hidden(view) and not _covers(view):
        return ["a face-down card left on top turns face up"]
    return []


#: the sentences said of each pile group, in order; each function may say nothing
GROUP_SENTENCES: tuple[GroupSentence, ...] = (
    _count, _grid, _build, _empty, _beaten, _gives, _covered, _supermove, _accepts, _limits, _fill, _flip,
)


def _group_sections(rules: Rules) -> list[Section]:
    variant = rules.spec
    groups = {g.key: g for g in variant.groups}
    order = sorted(variant.groups, key=lambda g: (g.role not in ("foundation", "tableau", "reserve"),))
    counts = dealt(variant)
    out = []
    stock = variant.stock.pile if variant.stock is not None else None
    for group in order:
        if group.key == stock:
            continue  # the stock's section is _stock's
        piles = tuple(p for p in variant.piles if p.group == group.key)
        if not piles:
            out.append(Section(group.label, ("No piles in this game.",)))
            continue
        view = GroupView(group, piles, variant, groups, counts)
        lines = [sentence(text) for make in GROUP_SENTENCES for text in make(view)]
        out.append(Section(group.label, tuple(lines)))
    return out


# --------------------------------------------------------------------------- the rest


def _stock(rules: Rules) -> list[Section]:
    variant = rules.spec
    stock = variant.stock
    if stock is None:
        return []
    groups = {g.key: g for g in variant.groups}
    target = groups[stock.to]
    if stock.consolidate:
        draw = (f"its action first closes the gaps of {_group_name(target)}: the cards slide toward "
                f"{target.piles[0]}, keeping their order, then one card from the stock goes into each empty "
                "pile at the end, as long as it has cards; it is allowed only when a gap comes before a card, "
                "or a pile is empty and the stock has cards")
    elif len(target.piles) == 1:
        draw = f"a draw turns {cards(stock.draw)} from the stock onto {_group_name(target)}"
    else:
        draw = f"a draw deals one card from the stock onto each pile of {_group_name(target)}"
        if stock.not_onto_empty:
            draw += ", but not while one of them is empty"
    back = f"{_group_name(target)} may be turned back into it" if len(target.piles) == 1 else "it may be dealt again"
    if stock.redeals is None:
        again = f"when the stock is empty, {back}, any number of times"
    elif stock.redeals == 0:
        again = "when the stock is empty, it is not dealt again"
    else:
        times = {1: "once", 2: "twice"}.get(stock.redeals, f"{stock.redeals} times")
        again = f"when the stock is empty, {back} {times}"
    face = "face up, every card in it seen" if rules.stock_open else "face down"
    played = [d for d in rules.targets[rules.stock] if any(rules.accept[d]) or d == rules.pair_home] \
        if rules.stock is not None else []
    if played:
        onto = dict.fromkeys(rules.piles[d].group for d in played)
        face += f"; its top card goes to {listing(_group_name(groups[k]) for k in onto)} as a move"
    return [Section(groups[stock.pile].label, (sentence(f"one pile, named {stock.pile}, {face}"), sentence(draw),
                                               sentence(again)))]


def _face_up(step: DealStep, group: GroupSpec, counts: dict[str, int]) -> str:
    shown = set(step.face_up)
    if shown == {None}:
        return "face up"
    if len(shown) == 1:
        (n,) = shown
        return "face down" if n == 0 else f"the top {number(n or 0)} face up" if n != 1 else "the top card face up"
    if 0 in shown:  # some piles face down, others not: say which
        parts: dict[str, list[str]] = {}
        for i, (name, n) in enumerate(zip(group.piles, step.face_up, strict=False)):
            own = step.counts[i] if i < len(step.counts) else counts.get(name, 0)
            said = "face down" if n == 0 else "face up" if n is None or n >= own else f"the top {cards(n)} face up"
            parts.setdefault(said, []).append(name)
        return ", ".join(f"{said} on {_ranges(names, group.piles)}" for said, names in parts.items())
    return "the top " + ", ".join("all" if n is None else str(n) for n in step.face_up) + " face up"


def _rank_plural(rank: int) -> str:
    return {1: "Aces", 11: "Jacks", 12: "Queens", 13: "Kings"}.get(rank, f"{rank}s")


def _deal_step(step: DealStep, variant: ResolvedVariant) -> list[str]:
    group = {g.key: g for g in variant.groups}[step.to]
    where = _group_name(group)
    plural = _group_plural(group)
    out = [_deal_place(step, variant, group, where, plural)]
    if step.to_bottom:
        ranks = listing(_rank_plural(r) for r in sorted(step.to_bottom, reverse=True))
        out.append(f"{ranks} are then moved to the bottom of their piles, keeping their order")
    if step.base:
        based = [g for g in variant.groups if any(p.empty.kind == "base" for p in variant.piles if p.group == g.key)]
        said = []
        for g in based:
            offsets = sorted({p.empty.offset for p in variant.piles if p.group == g.key and p.empty.kind == "base"})
            rank = listing("a card of that rank" if not o else
                           f"a card {number(abs(o))} rank{'s' if abs(o) > 1 else ''} {'below' if o < 0 else 'above'} it"
                           for o in offsets)
            if g.role == "foundation" and offsets == [0]:
                noun = f"every {g.label.lower()}" if len(g.piles) > 1 else _group_name(g)
                said.append(f"{noun} starts on that rank")
            else:
                said.append(f"an empty pile of {_group_name(g)} takes {rank}")
        out.append("the first card dealt sets the base rank" + (": " + listing(said) if said else ""))
    return out


def _deal_place(step: DealStep, variant: ResolvedVariant, group: GroupSpec, where: str, plural: bool) -> str:
    counts = dealt(variant)
    if step.rest:
        stock = variant.stock and variant.stock.pile == step.to
        face = "face up" if stock and any(p.open for p in variant.piles if p.name == step.to) else "face down"
        return f"the rest of the cards go to {where}, {face}" if stock \
            else f"the rest of the cards go to {where}, {_face_up(step, group, counts)}"
    if step.cards:
        named = listing(card_words(c) for c in step.cards)
        if len(step.cards) == 1:
            return f"{where} start{'' if plural else 's'} with {named}"
        return f"{where} start with: " + ", ".join(f"{name} {card_words(c)}" for name, c in zip(group.piles, step.cards,
                                                                                                  strict=True))
    numbers = step.counts
    of = " of the base rank, taken out of the deck," if step.pick == "base" else ""
    if len(set(numbers)) == 1:
        many = f"{cards(numbers[0])}{of} to each pile of {where}" if len(numbers) > 1 \
            else f"{cards(numbers[0])}{of} to {where}"
    else:
        many = f"{where} get{'' if plural else 's'} {', '.join(map(str, numbers))} cards{of.rstrip(',')} " \
               f"({_pile_names(group)})"
    order = " (one pile after another)" if step.order == "piles" and len(numbers) > 1 else ""
    return f"{many}{order}, {_face_up(step, group, counts)}"


_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


def deck_words(variant: ResolvedVariant) -> str | None:
    """``'Two decks, 104 cards'``, ``'Two decks of spades only (eight of each card)'``; None for
    one plain deck of 52."""
    suits = sorted({SUIT[c] for c in variant.deck})
    decks = f"{number(variant.decks)} deck{'s' if variant.decks > 1 else ''}"
    if len(suits) == 4:
        return None if variant.decks == 1 else f"{decks}, {len(variant.deck)} cards"
    copies = len(variant.deck) // (13 * len(suits))
    return (f"{decks} of {listing(_SUIT_NAMES[s] for s in suits)} only ({number(copies)} of each card, "
            f"{len(variant.deck)} cards)")


def _deal(rules: Rules) -> list[Section]:
    variant = rules.spec
    deck = deck_words(variant)
    lines = [deck] if deck else []
    lines += [text for step in variant.deal for text in _deal_step(step, variant)]
    return [Section("Deal", tuple(sentence(line) for line in lines))]


def _scoring(rules: Rules) -> list[Section]:
    variant = rules.spec
    scoring = variant.scoring
    groups = {g.key: g for g in variant.groups}
    lines = []
    for src, dst, points in scoring.moves:
        lines.append(f"{_points(points)} for each card from {_group_name(groups[src])} to {_group_name(groups[dst])}")
    if scoring.turn_up:
        lines.append(f"{_points(scoring.turn_up)} for each card turned face up")
    if scoring.recycle:
        lines.append(f"{_points(scoring.recycle)} each time the stock is dealt again")
    if not lines:
        return []
    if scoring.floor is not None:
        lines.append(f"the score never goes below {scoring.floor}")
    return [Section("Scoring", tuple(sentence(line) for line in lines))]


def _points(n: int) -> str:
    return f"{n} point{'' if abs(n) == 1 else 's'}" if n >= 0 else f"minus {-n} point{'' if n == -1 else 's'}"


def _win(rules: Rules) -> list[Section]:
    variant = rules.spec
    total = len(rules.deck)
    groups = {g.key: g for g in variant.groups}
    foundations = [g for g in variant.groups if g.role == "foundation" and g.piles]
    where = listing(_group_name(g) for g in foundations)
    home = rules.win_home
    if variant.win_cleared:
        cleared = listing(_group_name(groups[k]) for k in variant.win_cleared)
        counts = dealt(variant)
        kept = [g for g in variant.groups if g.key not in variant.win_cleared and g.role != "foundation"
                and any(counts[n] for n in g.piles)]
        if home:
            line = f"win by clearing {cleared}, with at least {cards(home)} on {where}"
        else:
            line = f"win by clearing {cleared}"
        if kept:
            line += f"; cards may stay in {listing(_group_name(g) for g in kept)}"
        lines = [sentence(line)]
    elif home < total:
        lines = [sentence(f"win with {cards(home)} of the {total} on {where}")]
    else:
        lines = [sentence(f"move all {total} cards to {where}")]
    if variant.win_one_card:
        lines[0] = lines[0].removesuffix(".") + sentence(
            f", each pile of {listing(_group_name(groups[k]) for k in variant.win_one_card)} holding exactly one card")
    sequences = foundation_sequences(variant)
    if sequences:
        lines.append(sentence("each foundation takes its cards in this order: " + "; ".join(sequences)))
    return [Section("How to win", tuple(lines))]


def _next_rank(rule: BuildRule, rank: int) -> int | None:
    """The rank that goes on ``rank`` under ``rule`` when there is exactly one, else None."""
    if rule.rank not in ("up", "down"):
        return None
    step = rule.step if rule.rank == "up" else -rule.step
    nxt = rank + step
    if rule.wrap:
        return (nxt - 1) % 13 + 1
    return nxt if 1 <= nxt <= 13 else None


def _first_rank(empty: EmptyRule) -> int | None:
    if empty.kind == "card" and empty.card is not None:
        return RANK[empty.card]
    if empty.kind == "ranks" and len(empty.ranks) == 1:
        return next(iter(empty.ranks))
    return None


def foundation_sequences(variant: ResolvedVariant) -> list[str]:
    """The ranks each foundation takes in turn, where that is not plain counting: when its piles
    step by more than one, wrap round, or start on different ranks. ``[]`` otherwise."""
    piles = [p for p in variant.piles if p.role == "foundation"]
    counting = all(p.build.step == 1 and not p.build.wrap for p in piles)
    if counting and len({_first_rank(p.empty) for p in piles}) <= 1:
        return []
    out = []
    for pile in piles:
        rank = _first_rank(pile.empty)
        if rank is None:
            continue
        ranks = [rank]
        limit = min(pile.capacity or 13, 13)
        while len(ranks) < limit:
            nxt = _next_rank(pile.build, ranks[-1])
            if nxt is None:
                break
            ranks.append(nxt)
        if len(ranks) > 1:
            out.append(f"{pile.name} takes {', '.join(short_rank(r) for r in ranks)}")
    return out


#: the sections of the rules, in order; each function may give none
SECTIONS: tuple[Callable[[Rules], list[Section]], ...] = (
    _group_sections, _stock, _deal, _scoring, _win,
)


def explain(rules: Rules) -> list[Section]:
    """The rules of this game (this variant under these options) in plain words, by section."""
    return [section for make in SECTIONS for section in make(rules)]


def rules_text(rules: Rules, width: int = 78) -> str:
    """The game's title, options, description and rules, wrapped to ``width`` columns: what
    ``solitaire rules`` prints and the table's help shows."""
    import textwrap

    defn = rules.variant
    out = [defn.title]
    options = rules.describe_options()
    if options:
        out.append(f"Options: {options}")
    if defn.description:
        out += ["", textwrap.fill(defn.description, width)]
    for section in explain(rules):
        out += ["", section.title, textwrap.fill(" ".join(section.lines), width, initial_indent="  ",
                                                 subsequent_indent="  ")]
    return "\n".join(out)
