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
from .i18n import N_, _, ngettext
from .spec import BuildRule, DealStep, EmptyRule, GroupSpec, PileSpec, ResolvedVariant

if TYPE_CHECKING:
    from .rules import Rules

# the words are English here, marked for extraction, translated where they are said
_RANK_WORDS = {1: N_("Ace"), 11: N_("Jack"), 12: N_("Queen"), 13: N_("King")}
_SUIT_WORDS = (N_("clubs"), N_("diamonds"), N_("hearts"), N_("spades"))
# a language whose numbers change with the noun's gender may give digits
_NUMBERS = (N_("no"), N_("one"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"), N_("seven"),
            N_("eight"), N_("nine"), N_("ten"))
# the section titles of the usual pile groups (a game's own label is shown as it is written)
_TITLES = {t.lower(): t for t in (N_("Foundation"), N_("Tableau"), N_("Stock"), N_("Waste"), N_("Reserve"),
                                  N_("Free cell"), N_("Cell"), N_("Discard"))}
# the usual pile groups as a sentence names them, one pile then several
_GROUP_NAMES = {
    "foundation": (N_("the foundation"), N_("the foundations")), "tableau": (N_("the tableau"), N_("the tableau")),
    "stock": (N_("the stock"), N_("the stock")), "waste": (N_("the waste"), N_("the waste")),
    "reserve": (N_("the reserve"), N_("the reserves")), "free cell": (N_("the free cell"), N_("the free cells")),
    "cell": (N_("the cell"), N_("the cells")), "discard": (N_("the discard"), N_("the discards")),
}


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
    return _(_NUMBERS[n]) if 0 <= n < len(_NUMBERS) else str(n)


def cards(n: int) -> str:
    """``'one card'``, ``'3 cards'``... ``'no cards'``."""
    return ngettext("{n} card", "{n} cards", n).format(n=number(n))


def card_words(card: int) -> str:
    """``'the Ace of clubs'``, ``'the 10 of hearts'``."""
    word = _RANK_WORDS.get(RANK[card])
    return _("the {rank} of {suit}").format(rank=_(word) if word else str(RANK[card]),
                                            suit=_(_SUIT_WORDS[SUIT[card]]))


def short_rank(rank: int) -> str:
    """``'A'``, ``'2'`` ... ``'10'``, ``'J'``, ``'Q'``, ``'K'``: a rank as a card shows it."""
    return "10" if rank == 10 else rank_name(rank)


def comma() -> str:
    """The separator of a list's items in this language (``", "``; Arabic ``"، "``)."""
    return _(", ")


def semicolon() -> str:
    """The separator of a sentence's clauses in this language (``"; "``; Greek ``"· "``, as
    ``;`` is its question mark; Arabic ``"؛ "``)."""
    return _("; ")


def listing(words: Iterable[str]) -> str:
    """``'a, b and c'``."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return _("{items} and {last}").format(items=comma().join(words[:-1]), last=words[-1])


def either(words: Sequence[str]) -> str:
    """``'a, b or c'``."""
    if len(words) <= 1:
        return "".join(words)
    return _("{items} or {last}").format(items=comma().join(words[:-1]), last=words[-1])


def sentence(text: str) -> str:
    """Capitalised, with a full stop."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _group_plural(group: GroupSpec) -> bool:
    """Is the group named in the plural (``'the foundations'``, not ``'the tableau'``)?"""
    return len(group.piles) > 1 and group.role in ("foundation", "reserve") and not group.label.endswith("s")


def _group_name(group: GroupSpec) -> str:
    """How a group is named in a sentence: ``'the tableau'``, ``'the foundations'``."""
    plural = _group_plural(group)
    known = _GROUP_NAMES.get(group.label.lower())
    if known:
        return _(known[plural])
    return "the " + group.label.lower() + ("s" if plural else "")  # a game's own word: English


def _title(label: str) -> str:
    """A section's title: a usual group's label in the current language, else as written."""
    known = _TITLES.get(label.lower())
    return _(known) if known and known == label else label


def _ranges(names: Sequence[str], order: Sequence[str]) -> str:
    """``'t1 to t18'``, ``'t1, t3 and t5'``: pile names, runs of neighbours in ``order`` joined."""
    position = {name: i for i, name in enumerate(order)}
    runs: list[list[str]] = []
    for name in names:
        if runs and position[name] == position[runs[-1][-1]] + 1:
            runs[-1].append(name)
        else:
            runs.append([name])
    return listing(run[0] if len(run) == 1 else listing(run) if len(run) == 2
                   else _("{first} to {last}").format(first=run[0], last=run[-1]) for run in runs)


def _pile_names(group: GroupSpec) -> str:
    """``'f1 to f4'``, ``'stock'``, ``'waste (also w)'``."""
    if not group.piles:
        return _("none")
    if len(group.piles) == 1:
        name = group.piles[0]
    elif len(group.piles) == 2:
        name = listing(group.piles)
    else:
        name = _("{first} to {last}").format(first=group.piles[0], last=group.piles[-1])
    return _("{names} (also {alias})").format(names=name, alias=group.alias) if group.alias else name


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
        return [_("one pile, named {name}").format(name=_pile_names(view.group))]
    roles = {"foundation": ngettext("{n} foundation pile, {names}", "{n} foundation piles, {names}", n),
             "tableau": ngettext("{n} tableau pile, {names}", "{n} tableau piles, {names}", n),
             "reserve": ngettext("{n} reserve pile, {names}", "{n} reserve piles, {names}", n),
             "stock": ngettext("{n} stock pile, {names}", "{n} stock piles, {names}", n),
             "waste": ngettext("{n} waste pile, {names}", "{n} waste piles, {names}", n)}
    role = roles.get(view.group.role, "{n} " + view.group.role + " piles, {names}")
    return [role.format(n=number(n), names=_pile_names(view.group))]


def _build(view: GroupView) -> list[str]:
    pairs = view.first.pairs
    if pairs is not None:  # a discard pile of pairs: what goes onto it, and what a card needs to go
        sources = either([_group_name(view.groups[k]) for k in view.sources])
        covered = any(p.covered_by for p in view.variant.piles if p.group in view.sources)
        taken = _("it takes cards from {sources}, each the top card of its pile and covered by no other card") \
            if covered else _("it takes cards from {sources}, each the top card of its pile")
        return [_("it takes {what}").format(what=pairs.describe()), taken.format(sources=sources)]
    if not view.takes_moves:
        return []  # filled only by drawing or dealing, or by nothing: _accepts says which
    parts = view.per_pile(lambda p: p.build.describe())
    if len(parts) == 1:
        return [_("it {rule}").format(rule=parts[0][1])]
    return [_("each pile builds its own way: {ways}").format(
        ways=semicolon().join(_("{piles} {rule}").format(piles=listing(names), rule=said) for names, said in parts))]


def empty_words(empty: EmptyRule) -> str:
    """What an empty pile takes, as a noun phrase: ``'a King'``, ``'the Ace of clubs'``."""
    if empty.kind == "card" and empty.card is not None:
        return card_words(empty.card)
    if empty.kind == "base":
        if not empty.offset:
            return _("a card of the base rank")
        n = abs(empty.offset)
        if empty.offset < 0:
            return ngettext("a card {n} rank below the base rank", "a card {n} ranks below the base rank",
                            n).format(n=number(n))
        return ngettext("a card {n} rank above the base rank", "a card {n} ranks above the base rank",
                        n).format(n=number(n))
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
        one = _("an empty pile takes {what}") if len(view.piles) > 1 else _("when empty, it takes {what}")
        return [one.format(what=parts[0][1])]
    return [_("an empty pile takes: {what}").format(
        what=semicolon().join(_("{piles} {rule}").format(piles=listing(names), rule=said) for names, said in parts))]


def _run_words(rule: BuildRule) -> str:
    if rule.rank in ("none", "any"):
        return rule.describe()
    return _("built {rule}").format(rule=rule.how())


def _gives(view: GroupView) -> list[str]:
    pile = view.first
    if pile.gives == "none":
        return [_("no card leaves it")]
    if pile.gives == "top":
        return [_("only its top card moves")]
    if pile.gives == "any":
        return [_("any face-up card moves, with every card on top of it")]
    if pile.gives == "pile":
        return [_("its top card moves, or all its face-up cards together")]
    if all(p.run.rank == "none" for p in view.piles):
        return [_("only its top card moves")]
    parts = view.per_pile(lambda p: _run_words(p.run))
    runs = semicolon().join(said if len(parts) == 1 else _("{rule} on {piles}").format(rule=said, piles=listing(names))
                     for names, said in parts)
    return [_("its top card moves, or several top cards together when they are {runs}").format(runs=runs)]


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
    which = semicolon().join(_("{piles} cover {pile}").format(piles=_ranges(p.covered_by, order), pile=p.name)
                      for p in covered)
    if len(covered) == 1:
        said = _("{pile}'s card is free once {piles} are gone") if _covers(view) else \
            _("{pile} gives no card until {piles} are empty")
        text = said.format(pile=covered[0].name, piles=_ranges(covered[0].covered_by, order))
    elif _covers(view):
        text = _("a card is free once the cards covering it are gone ({which})").format(which=which)
    else:
        text = _("a pile gives no card until the piles covering it are empty ({which})").format(which=which)
    if view.first.flip and _hidden(view):
        text = _("{rule}; it then turns face up").format(rule=text)
    return [text]


def _supermove(view: GroupView) -> list[str]:
    pile = next((p for p in view.piles if p.supermove), None)
    if pile is None:
        return []
    cells = [g.key for g in view.variant.groups if g.key != view.group.key and any(
        q.role == "reserve" and q.capacity == 1 and view.group.key in q.accepts_from
        for q in view.variant.piles if q.group == g.key)]
    spaces = any(q.empty.kind == "any" for q in view.piles if q.name != pile.name)
    where = _("empty pile of {group}").format(group=_group_name(view.group)) if len(view.piles) > 1 \
        else _("empty pile")
    if cells and spaces:
        text = _("runs move only as far as free cells and empty piles allow: (1 + free cells) cards, doubled for "
                 "each {where}, halved when the run goes to an empty pile; free cells are the empty piles of "
                 "{cells}").format(where=where, cells=view.named(cells))
    elif cells:
        text = _("runs move only as far as free cells allow: (1 + free cells) cards, free cells being the empty "
                 "piles of {cells}").format(cells=view.named(cells))
    elif spaces:
        text = _("runs move only as far as empty piles allow: one card, doubled for each {where}, "
                 "halved when the run goes to an empty pile").format(where=where)
    else:
        text = _("runs do not move together: one card at a time")
    return [text]


def _beaten(view: GroupView) -> list[str]:
    pile = view.first
    if pile.beaten_by is None or pile.beaten_by not in view.groups:
        return []
    said = _("a card goes onto it only while a higher card of its suit (an Ace ranks above the King) is the top "
             "card of another pile of {group}") if pile.aces_high else \
        _("a card goes onto it only while a higher card of its suit is the top card of another pile of {group}")
    return [said.format(group=_group_name(view.groups[pile.beaten_by]))]


def _grid(view: GroupView) -> list[str]:
    grid = view.first.grid
    if grid is None:
        return []
    rows, columns = grid
    first = view.group.piles[:columns]
    return [_("the piles are the cells of a grid, {rows} rows of {columns}, {piles} the top row").format(
        rows=number(rows), columns=number(columns), piles=_ranges(first, view.group.piles))]


def _accepts(view: GroupView) -> list[str]:
    if view.first.pairs is not None:
        return []  # _build says it
    sources = view.sources
    if not view.takes_moves:
        if view.drawn_onto:
            return [_("it is filled only from the stock")]
        if view.first.role == "stock" or any(p.fill_from for p in view.piles):
            return []
        return [_("no card is ever put on it")]
    text = _("it takes cards from {groups}, and from the stock") if view.drawn_onto \
        else _("it takes cards from {groups}")
    return [text.format(groups=view.named(sources))]


def _limits(view: GroupView) -> list[str]:
    pile = view.first
    out = []
    if pile.capacity is not None:
        said = _("a pile holds at most {cards}") if len(view.piles) > 1 else _("it holds at most {cards}")
        out.append(said.format(cards=cards(pile.capacity)))
    if not view.takes_moves:
        return out
    if pile.max_accept is not None:
        out.append(_("a move puts at most {cards} on it").format(cards=cards(pile.max_accept)))
    if pile.min_accept > 1:
        runs = [q.run for q in view.variant.piles if q.group in view.sources]
        whole_suit = (pile.min_accept == 13 and pile.empty.kind == "ranks" and pile.empty.ranks == {13}
                      and bool(runs) and all(r == BuildRule("down", "same-suit") for r in runs))
        if whole_suit:
            out.append(_("only a whole suit, King to Ace, moved at once, goes onto an empty foundation")
                       if pile.role == "foundation" else
                       _("only a whole suit, King to Ace, moved at once, goes onto an empty pile"))
        else:
            out.append(_("a move puts at least {cards} on it, moved at once").format(cards=cards(pile.min_accept)))
    return out


def _fill(view: GroupView) -> list[str]:
    source = view.first.fill_from
    if source is None or source not in view.groups:
        return []
    name = _group_name(view.groups[source])
    said = _("an emptied pile is filled at once with the top card of {group}, as long as {group} has cards") \
        if len(view.piles) > 1 else \
        _("when emptied, it is filled at once with the top card of {group}, as long as {group} has cards")
    return [said.format(group=name)]


def _flip(view: GroupView) -> list[str]:
    if view.first.flip and _hidden(view) and not _covers(view):
        return [_("a face-down card left on top turns face up")]
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
            out.append(Section(_title(group.label), (_("No piles in this game."),)))
            continue
        view = GroupView(group, piles, variant, groups, counts)
        lines = [sentence(text) for make in GROUP_SENTENCES for text in make(view)]
        out.append(Section(_title(group.label), tuple(lines)))
    return out


# --------------------------------------------------------------------------- the rest


def _stock(rules: Rules) -> list[Section]:
    variant = rules.spec
    stock = variant.stock
    if stock is None:
        return []
    groups = {g.key: g for g in variant.groups}
    target = groups[stock.to]
    name = _group_name(target)
    if stock.consolidate:
        draw = _("its action first closes the gaps of {group}: the cards slide toward {pile}, keeping their order, "
                 "then one card from the stock goes into each empty pile at the end, as long as it has cards; it is "
                 "allowed only when a gap comes before a card, or a pile is empty and the stock has cards").format(
            group=name, pile=target.piles[0])
    elif len(target.piles) == 1:
        draw = _("a draw turns {cards} from the stock onto {group}").format(cards=cards(stock.draw), group=name)
    elif stock.not_onto_empty:
        draw = _("a draw deals one card from the stock onto each pile of {group}, but not while one of them is "
                 "empty").format(group=name)
    else:
        draw = _("a draw deals one card from the stock onto each pile of {group}").format(group=name)
    back = len(target.piles) == 1
    if stock.redeals is None:
        again = _("when the stock is empty, {group} may be turned back into it, any number of times") if back \
            else _("when the stock is empty, it may be dealt again, any number of times")
    elif stock.redeals == 0:
        again = _("when the stock is empty, it is not dealt again")
    elif stock.redeals == 1:
        again = _("when the stock is empty, {group} may be turned back into it once") if back \
            else _("when the stock is empty, it may be dealt again once")
    elif stock.redeals == 2:
        again = _("when the stock is empty, {group} may be turned back into it twice") if back \
            else _("when the stock is empty, it may be dealt again twice")
    elif back:
        again = ngettext("when the stock is empty, {group} may be turned back into it {n} time",
                         "when the stock is empty, {group} may be turned back into it {n} times", stock.redeals)
    else:
        again = ngettext("when the stock is empty, it may be dealt again {n} time",
                         "when the stock is empty, it may be dealt again {n} times", stock.redeals)
    again = again.format(group=name, n=stock.redeals)
    played = [d for d in rules.targets[rules.stock] if any(rules.accept[d]) or d == rules.pair_home] \
        if rules.stock is not None else []
    onto = listing(_group_name(groups[k]) for k in dict.fromkeys(rules.piles[d].group for d in played))
    if rules.stock_top_only:
        face = _("one pile, named {pile}, its top card face up and the others unseen; its top card goes to "
                 "{groups} as a move") if played else \
            _("one pile, named {pile}, its top card face up and the others unseen")
    elif rules.stock_open:
        face = _("one pile, named {pile}, face up, every card in it seen; its top card goes to {groups} as a move") \
            if played else _("one pile, named {pile}, face up, every card in it seen")
    else:
        face = _("one pile, named {pile}, face down; its top card goes to {groups} as a move") if played \
            else _("one pile, named {pile}, face down")
    face = face.format(pile=stock.pile, groups=onto)
    return [Section(_title(groups[stock.pile].label), (sentence(face), sentence(draw), sentence(again)))]


def _face_up(step: DealStep, group: GroupSpec, counts: dict[str, int]) -> str:
    shown = set(step.face_up)
    if shown == {None}:
        return _("face up")
    if len(shown) == 1:
        (n,) = shown
        return _("face down") if n == 0 else _("the top card face up") if n == 1 else \
            _("the top {n} face up").format(n=number(n or 0))
    if 0 in shown:  # some piles face down, others not: say which
        parts: dict[str, list[str]] = {}
        for i, (name, n) in enumerate(zip(group.piles, step.face_up, strict=False)):
            own = step.counts[i] if i < len(step.counts) else counts.get(name, 0)
            said = _("face down") if n == 0 else _("face up") if n is None or n >= own else \
                _("the top {cards} face up").format(cards=cards(n))
            parts.setdefault(said, []).append(name)
        return comma().join(_("{rule} on {piles}").format(rule=said, piles=_ranges(names, group.piles))
                         for said, names in parts.items())
    return _("the top {counts} face up").format(counts=comma().join(_("all") if n is None else str(n)
                                                                 for n in step.face_up))


def _rank_plural(rank: int) -> str:
    word = {1: N_("Aces"), 11: N_("Jacks"), 12: N_("Queens"), 13: N_("Kings")}.get(rank)
    return _(word) if word else _("{rank}s").format(rank=rank)


def _deal_step(step: DealStep, variant: ResolvedVariant) -> list[str]:
    group = {g.key: g for g in variant.groups}[step.to]
    where = _group_name(group)
    plural = _group_plural(group)
    out = [_deal_place(step, variant, group, where, plural)]
    if step.to_bottom:
        ranks = listing(_rank_plural(r) for r in sorted(step.to_bottom, reverse=True))
        out.append(_("{ranks} are then moved to the bottom of their piles, keeping their order").format(ranks=ranks))
    if step.base:
        based = [g for g in variant.groups if any(p.empty.kind == "base" for p in variant.piles if p.group == g.key)]
        said = []
        for g in based:
            offsets = sorted({p.empty.offset for p in variant.piles if p.group == g.key and p.empty.kind == "base"})
            rank = listing(_("a card of that rank") if not o else
                           ngettext("a card {n} rank below it", "a card {n} ranks below it", abs(o)).format(
                               n=number(abs(o))) if o < 0 else
                           ngettext("a card {n} rank above it", "a card {n} ranks above it", abs(o)).format(
                               n=number(abs(o)))
                           for o in offsets)
            if g.role == "foundation" and offsets == [0]:
                said.append(_("every foundation starts on that rank") if len(g.piles) > 1 and
                            g.label.lower() == "foundation" else
                            f"every {g.label.lower()} starts on that rank" if len(g.piles) > 1 else
                            _("{group} starts on that rank").format(group=_group_name(g)))
            else:
                said.append(_("an empty pile of {group} takes {rank}").format(group=_group_name(g), rank=rank))
        out.append(_("the first card dealt sets the base rank: {what}").format(what=listing(said)) if said
                   else _("the first card dealt sets the base rank"))
    return out


def _deal_place(step: DealStep, variant: ResolvedVariant, group: GroupSpec, where: str, plural: bool) -> str:
    counts = dealt(variant)
    if step.rest:
        stock = variant.stock and variant.stock.pile == step.to
        face = _("face up") if stock and any(p.open for p in variant.piles if p.name == step.to) else _("face down")
        return _("the rest of the cards go to {group}, {face}").format(
            group=where, face=face if stock else _face_up(step, group, counts))
    if step.cards:
        if len(step.cards) == 1:
            said = _("{group} start with {card}") if plural else _("{group} starts with {card}")
            return said.format(group=where, card=card_words(step.cards[0]))
        return _("{group} start with: {cards}").format(group=where, cards=comma().join(
            _("{pile} {card}").format(pile=name, card=card_words(c)) for name, c in zip(group.piles, step.cards,
                                                                                       strict=True)))
    numbers = step.counts
    base = step.pick == "base"
    if len(set(numbers)) == 1:
        if len(numbers) > 1:
            many = _("{cards} of the base rank, taken out of the deck, to each pile of {group}") if base \
                else _("{cards} to each pile of {group}")
        else:
            many = _("{cards} of the base rank, taken out of the deck, to {group}") if base else _("{cards} to {group}")
        many = many.format(cards=cards(numbers[0]), group=where)
    else:
        if base:
            many = _("{group} get {counts} cards of the base rank, taken out of the deck ({piles})") if plural \
                else _("{group} gets {counts} cards of the base rank, taken out of the deck ({piles})")
        else:
            many = _("{group} get {counts} cards ({piles})") if plural else _("{group} gets {counts} cards ({piles})")
        many = many.format(group=where, counts=comma().join(map(str, numbers)), piles=_pile_names(group))
    if step.order == "piles" and len(numbers) > 1:
        many = _("{deal} (one pile after another)").format(deal=many)
    return _("{deal}, {face}").format(deal=many, face=_face_up(step, group, counts))


_SUIT_NAMES = _SUIT_WORDS


def deck_words(variant: ResolvedVariant) -> str | None:
    """``'Two decks, 104 cards'``, ``'Two decks of spades only (eight of each card)'``; None for
    one plain deck of 52."""
    suits = sorted({SUIT[c] for c in variant.deck})
    decks = ngettext("{n} deck", "{n} decks", variant.decks).format(n=number(variant.decks))
    if len(suits) == 4:
        n = len(variant.deck)
        said = ngettext("{decks}, {n} card", "{decks}, {n} cards", n)
        return None if variant.decks == 1 else said.format(decks=decks, n=n)
    copies = len(variant.deck) // (13 * len(suits))
    return ngettext("{decks} of {suits} only ({copies} of each card, {n} card)",
                    "{decks} of {suits} only ({copies} of each card, {n} cards)", len(variant.deck)).format(
        decks=decks, suits=listing(_(_SUIT_NAMES[s]) for s in suits), copies=number(copies), n=len(variant.deck))


def _deal(rules: Rules) -> list[Section]:
    variant = rules.spec
    deck = deck_words(variant)
    lines = [deck] if deck else []
    lines += [text for step in variant.deal for text in _deal_step(step, variant)]
    return [Section(_("Deal"), tuple(sentence(line) for line in lines))]


def _scoring(rules: Rules) -> list[Section]:
    variant = rules.spec
    scoring = variant.scoring
    groups = {g.key: g for g in variant.groups}
    lines = []
    for src, dst, points in scoring.moves:
        lines.append(_("{points} for each card from {src} to {dst}").format(
            points=_points(points), src=_group_name(groups[src]), dst=_group_name(groups[dst])))
    if scoring.turn_up:
        lines.append(_("{points} for each card turned face up").format(points=_points(scoring.turn_up)))
    if scoring.recycle:
        lines.append(_("{points} each time the stock is dealt again").format(points=_points(scoring.recycle)))
    if not lines:
        return []
    if scoring.floor is not None:
        lines.append(_("the score never goes below {n}").format(n=scoring.floor))
    return [Section(_("Scoring"), tuple(sentence(line) for line in lines))]


def _points(n: int) -> str:
    if n >= 0:
        return ngettext("{n} point", "{n} points", n).format(n=n)
    return ngettext("minus {n} point", "minus {n} points", -n).format(n=-n)


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
            line = _("win by clearing {groups}, with at least {cards} on {where}").format(
                groups=cleared, cards=cards(home), where=where)
        else:
            line = _("win by clearing {groups}").format(groups=cleared)
        if kept:
            line = _("{rule}; cards may stay in {groups}").format(
                rule=line, groups=listing(_group_name(g) for g in kept))
    elif home < total:
        line = _("win with {cards} of the {total} on {where}").format(cards=cards(home), total=total, where=where)
    else:
        line = ngettext("move all {total} card to {where}", "move all {total} cards to {where}", total).format(
            total=total, where=where)
    if variant.win_one_card:
        line = _("{rule}, each pile of {groups} holding exactly one card").format(
            rule=line, groups=listing(_group_name(groups[k]) for k in variant.win_one_card))
    lines = [sentence(line)]
    sequences = foundation_sequences(variant)
    if sequences:
        lines.append(sentence(_("each foundation takes its cards in this order: {orders}").format(
            orders=semicolon().join(sequences))))
    return [Section(_("How to win"), tuple(lines))]


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
            said = comma().join(short_rank(r) for r in ranks)
            out.append(_("{pile} takes {ranks}").format(pile=pile.name, ranks=said))
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
    out = [defn.local_title()]
    options = rules.describe_options()
    if options:
        out.append(_("Options: {options}").format(options=options))
    description = defn.local_description()
    if description:
        out += ["", textwrap.fill(description, width)]
    for section in explain(rules):
        out += ["", section.title, textwrap.fill(" ".join(section.lines), width, initial_indent="  ",
                                                 subsequent_indent="  ")]
    return "\n".join(out)
