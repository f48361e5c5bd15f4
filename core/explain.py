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


def _group_name(group: GroupSpec) -> str:
    """How a group is named in a sentence: ``'the tableau'``, ``'the foundations'``."""
    plural = len(group.piles) > 1 and group.role in ("foundation", "reserve") and not group.label.endswith("s")
    return "the " + group.label.lower() + ("s" if plural else "")


def _pile_names(group: GroupSpec) -> str:
    """``'f1 to f4'``, ``'stock'``, ``'waste (also w)'``."""
    if len(group.piles) == 1:
        name = group.piles[0]
    elif len(group.piles) == 2:
        name = f"{group.piles[0]} and {group.piles[1]}"
    else:
        name = f"{group.piles[0]} to {group.piles[-1]}"
    return name + (f" (also {group.alias})" if group.alias else "")


# --------------------------------------------------------------------------- a pile group


@attrs.frozen
class GroupView:
    """What a sentence-making function reads about one pile group."""

    group: GroupSpec
    piles: tuple[PileSpec, ...]
    variant: ResolvedVariant
    groups: dict[str, GroupSpec]

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


GroupSentence = Callable[[GroupView], Sequence[str]]


def _count(view: GroupView) -> list[str]:
    n = len(view.piles)
    if n == 1:
        return [f"one pile, named {_pile_names(view.group)}"]
    return [f"{number(n)} {view.group.role} piles, {_pile_names(view.group)}"]


def _build(view: GroupView) -> list[str]:
    if view.group.role in ("stock", "waste") and all(p.build.rank == "none" for p in view.piles):
        return []  # filled only by drawing (or dealing): nothing to say
    parts = view.per_pile(lambda p: p.build.describe())
    if len(parts) == 1:
        return [f"it {parts[0][1]}"]
    return ["each pile builds its own way: " + "; ".join(f"{listing(names)} {said}" for names, said in parts)]


def _empty(view: GroupView) -> list[str]:
    if view.group.role == "stock":
        return []

    def takes(p: PileSpec) -> str:
        return card_words(p.empty.card) if p.empty.kind == "card" and p.empty.card is not None else p.empty.describe()

    parts = view.per_pile(takes)
    if len(parts) == 1:
        one = "an empty pile" if len(view.piles) > 1 else "when empty, it"
        return [f"{one} takes {parts[0][1]}"]
    return ["an empty pile takes: " + "; ".join(f"{listing(names)} {said}" for names, said in parts)]


def _run_words(rule: BuildRule) -> str:
    text = rule.describe()
    return text.replace("builds ", "built ", 1) if text.startswith("builds ") else text


def _gives(view: GroupView) -> list[str]:
    pile = view.first
    if pile.role == "stock":
        return ["its cards leave it only by drawing"]
    if pile.gives == "none":
        return ["no card leaves it"]
    if pile.gives == "top":
        return ["only its top card moves"]
    if pile.gives == "any":
        return ["any face-up card moves, with every card on top of it"]
    if all(p.run.rank == "none" for p in view.piles):
        return ["only its top card moves"]
    parts = view.per_pile(lambda p: _run_words(p.run))
    return ["its top card moves, or several top cards together when they are "
            + "; ".join(said if len(parts) == 1 else f"{said} on {listing(names)}" for names, said in parts)]


def _accepts(view: GroupView) -> list[str]:
    pile = view.first
    if pile.role in ("stock", "waste") and not pile.accepts_from:
        variant = view.variant
        if pile.role == "waste" and variant.stock is not None and variant.stock.to == pile.group:
            return ["it is filled from the stock"]
        return []
    if not pile.accepts_from:
        return ["it takes no card from another pile"]
    return [f"it takes cards from {view.named(pile.accepts_from)}"]


def _limits(view: GroupView) -> list[str]:
    pile = view.first
    out = []
    if pile.capacity is not None:
        out.append(f"a pile holds at most {cards(pile.capacity)}" if len(view.piles) > 1
                   else f"it holds at most {cards(pile.capacity)}")
    if pile.max_accept is not None:
        out.append(f"a move puts at most {cards(pile.max_accept)} on it")
    return out


def _flip(view: GroupView) -> list[str]:
    hidden = any(any(f is not None for f in step.face_up) for step in view.variant.deal if step.to == view.group.key)
    if view.first.flip and hidden:
        return ["a face-down card left on top turns face up"]
    return []


#: the sentences said of each pile group, in order; each function may say nothing
GROUP_SENTENCES: tuple[GroupSentence, ...] = (_count, _build, _empty, _gives, _accepts, _limits, _flip)


def _group_sections(rules: Rules) -> list[Section]:
    variant = rules.spec
    groups = {g.key: g for g in variant.groups}
    order = sorted(variant.groups, key=lambda g: (g.role not in ("foundation", "tableau", "reserve"),))
    out = []
    stock = variant.stock.pile if variant.stock is not None else None
    for group in order:
        if group.key == stock:
            continue  # the stock's section is _stock's
        piles = tuple(p for p in variant.piles if p.group == group.key)
        view = GroupView(group, piles, variant, groups)
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
    if len(target.piles) == 1:
        draw = f"a draw turns {cards(stock.draw)} from the stock onto {_group_name(target)}"
    else:
        draw = f"a draw deals one card from the stock onto each pile of {_group_name(target)}"
    back = f"{_group_name(target)} may be turned back into it" if len(target.piles) == 1 else "it may be dealt again"
    if stock.redeals is None:
        again = f"when the stock is empty, {back}, any number of times"
    elif stock.redeals == 0:
        again = "when the stock is empty, it is not dealt again"
    else:
        times = {1: "once", 2: "twice"}.get(stock.redeals, f"{stock.redeals} times")
        again = f"when the stock is empty, {back} {times}"
    return [Section(groups[stock.pile].label, (sentence(f"one pile, named {stock.pile}, face down"), sentence(draw),
                                               sentence(again)))]


def _face_up(step: DealStep) -> str:
    shown = set(step.face_up)
    if shown == {None}:
        return "face up"
    if len(shown) == 1:
        (n,) = shown
        return "face down" if n == 0 else f"the top {number(n or 0)} face up" if n != 1 else "the top card face up"
    return "the top " + ", ".join("all" if n is None else str(n) for n in step.face_up) + " face up"


def _deal_step(step: DealStep, variant: ResolvedVariant) -> str:
    group = {g.key: g for g in variant.groups}[step.to]
    where = _group_name(group)
    if step.rest:
        return f"the rest of the cards go to {where}, face down" if variant.stock and variant.stock.pile == step.to \
            else f"the rest of the cards go to {where}, {_face_up(step)}"
    if step.cards:
        named = listing(card_words(c) for c in step.cards)
        if len(step.cards) == 1:
            return f"{where} starts with {named}"
        return f"{where} start with: " + ", ".join(f"{name} {card_words(c)}" for name, c in zip(group.piles, step.cards,
                                                                                                  strict=True))
    counts = step.counts
    if len(set(counts)) == 1:
        many = f"{cards(counts[0])} to each pile of {where}" if len(counts) > 1 else f"{cards(counts[0])} to {where}"
    else:
        many = f"{where} gets {', '.join(map(str, counts))} cards ({_pile_names(group)})"
    order = " (one pile after another)" if step.order == "piles" and len(counts) > 1 else ""
    return f"{many}{order}, {_face_up(step)}"


def _deal(rules: Rules) -> list[Section]:
    variant = rules.spec
    return [Section("Deal", tuple(sentence(_deal_step(step, variant)) for step in variant.deal))]


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
    foundations = [g for g in variant.groups if g.role == "foundation"]
    where = listing(_group_name(g) for g in foundations)
    lines = [sentence(f"move all {total} cards to {where}")]
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
