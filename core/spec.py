"""Variant definitions: the YAML vocabulary, validated on load, resolved per option set.

A :class:`VariantDef` is what a YAML file declares. ``VariantDef.resolved(options)`` resolves the
option references (``$draw``, ``{if: relaxed, then: top, else: none}``), cached per option set;
:meth:`Rules.of(variant, options) <solitaire.core.rules.Rules.of>` compiles that. Every check here happens at load
time, never on the hot path, and every failure names the file, line and key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar, cast

import attrs

from . import limits, shuffle
from .cards import COLOUR, DECK_SIZE, FACE, RANK, SUIT, SUIT_LETTERS, parse_card, parse_rank
from .errors import NotationError, OptionError, VariantError
from .i18n import N_, _, language, ngettext
from .yamlsource import Where, describe, did_you_mean, load_yaml, load_yaml_file

T = TypeVar("T")

ROLES = ("stock", "waste", "foundation", "tableau", "reserve")
RANK_RULES = ("down", "up", "up-or-down", "same", "any", "none")
SUIT_RULES = ("alternate-colour", "same-suit", "same-colour", "different-suit", "any-suit")
SUIT_SPELLINGS = {"alternate-color": "alternate-colour", "same-color": "same-colour"}
GIVES = ("top", "run", "any", "pile", "none")
FLIPS = ("auto", "none")
FANS = ("down", "right", "none")
ORDERS = ("rows", "piles")
OPTION_KINDS = ("choice", "flag", "count")
RESERVED_NAMES = frozenset({"draw", "s", "undo", "redo", "hint", "finish", "quit", "help", "new", "restart"})
# the command line's own flags of the commands that take a game's options (play, deal, solve,
# race host), as option names ('-' as '_'): a game's option may not be named so, or it could
# not be given (tests/test_variant_yaml.py checks this list against the commands' declarations)
RESERVED_OPTIONS = frozenset({
    "any_deal", "bind", "cert", "cluster", "daily", "deal", "four_colour", "help", "hint", "hints", "jobs",
    "json", "key", "memory", "minutes", "ms", "name", "new", "plain", "port", "position", "public", "race", "seconds",
    "seed", "seeds", "states", "threads", "timeout", "variant", "web", "web_port", "deal_seed",
})

TOP_KEYS = (
    "name", "title", "aliases", "family", "description", "options", "deck", "piles", "deal", "win",
    "scoring", "layout", "numbering", "titles", "translations",
)
TRANSLATION_KEYS = ("title", "description", "options")  # what a game says in words, per language
OPTION_KEYS = ("type", "choices", "default", "help", "unlimited")
PILE_KEYS = (
    "role", "count", "prefix", "alias", "label", "build", "run", "empty", "gives", "flip",
    "capacity", "max-accept", "min-accept", "accepts-from", "supermove", "fill-from", "covered-by", "fan",
    "show", "open", "pairs", "grid", "beaten-by",
    "draw", "redeals",
)
DECK_KEYS = ("decks", "suits")
BUILD_KEYS = ("rank", "suit", "step", "wrap")
EMPTY_KEYS = ("rank", "cards", "base")
DRAW_KEYS = ("count", "to", "not-onto-empty", "consolidate")
PAIR_KEYS = ("match", "touching")
GRID_KEYS = ("rows", "columns")
BEATEN_KEYS = ("group", "aces")
ACES = ("low", "high")
DEAL_KEYS = ("to", "counts", "face-up", "order", "cards", "rest", "to-bottom", "base", "pick")
PICKS = ("base",)
NUMBERINGS = tuple(shuffle.NUMBERINGS)  # the public numberings of deals a variant may follow
WIN_KEYS = ("cleared", "home", "one-card")
SCORING_KEYS = ("moves", "turn-up", "recycle", "floor")
SCORE_MOVE_KEYS = ("from", "to", "points")


# --------------------------------------------------------------------------- options


@attrs.frozen
class OptionSpec:
    """One option a variant declares, e.g. Klondike's ``draw``."""

    name: str
    kind: str
    default: Any
    choices: tuple[Any, ...] = ()
    unlimited: bool = False
    help: str = ""

    @property
    def flag(self) -> str:
        return "--" + self.name

    def parse(self, value: Any) -> Any:
        """Validate a value given on the command line (a string) or in JSON; raise OptionError."""
        if self.kind == "flag":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise OptionError(f"{self.flag} is a switch: expected true or false, got {value!r}")
        if self.kind == "count":
            if value is None or (isinstance(value, str) and value.strip().lower() == "unlimited"):
                if self.unlimited:
                    return None
                raise OptionError(f"{self.flag} must be a whole number 0 or more, got {value!r}")
            if isinstance(value, bool):
                raise OptionError(f"{self.flag} must be a whole number, got {value!r}")
            try:
                number = int(str(value).strip()) if not isinstance(value, int) else value
            except ValueError:
                extra = " or 'unlimited'" if self.unlimited else ""
                raise OptionError(f"{self.flag} must be a whole number 0 or more{extra}, got {value!r}") from None
            if number < 0:
                raise OptionError(f"{self.flag} must be 0 or more, got {number}")
            return number
        # choice
        for choice in self.choices:
            if value == choice and type(value) is type(choice):
                return choice
            if isinstance(value, str) and str(choice).lower() == value.strip().lower():
                return choice
        allowed = ", ".join(str(c) for c in self.choices)
        raise OptionError(f"{self.flag} must be one of {allowed}, got {value!r}")

    def show(self, value: Any) -> str:
        if self.kind == "count" and value is None:
            return "unlimited"
        if self.kind == "flag":
            return "on" if value else "off"
        return str(value)

    def describe(self, help: str | None = None) -> str:
        """``--draw [1 | 3] (default 1): HELP``, with ``help`` (e.g. in the language in use), else
        the declared help."""
        if self.kind == "flag":
            kind = "switch"
        elif self.kind == "count":
            kind = "0, 1, 2 ..." + (" or unlimited" if self.unlimited else "")
        else:
            kind = " | ".join(str(c) for c in self.choices)
        text = self.help if help is None else help
        return f"{self.flag} [{kind}] (default {self.show(self.default)}): {text}".rstrip(": ")


def _language(item: Where, code: Any) -> str:
    """A language code, checked: two or three lower-case letters, as in LANG (``uk``, ``ar``)."""
    if not isinstance(code, str) or not (2 <= len(code) <= 3 and code.isascii() and code.isalpha()
                                         and code.islower()):
        raise item.error(f"a language is a code of two or three lower-case letters, e.g. uk, got {describe(code)}")
    return code


def _text(item: Where, what: str) -> str:
    """A non-empty string, its runs of white space made single spaces."""
    if not isinstance(item.value, str) or not item.value.strip():
        raise item.error(f"expected {what}, got {describe(item.value)}")
    return " ".join(item.value.split())


def _open(r: Any, where: Where) -> tuple[bool, bool]:
    """``open:``: ``true`` (the stock face up, every card seen), ``top`` (face up to the
    kernel, the player seeing only its top card) or ``false``: (open, only the top seen)."""
    where = r.get(where)
    if where.value is None:
        return False, False
    if where.value == "top":
        return True, True
    if not isinstance(where.value, bool):
        raise where.error(f"expected true, false or top, got {describe(where.value)}")
    return where.value, False


def _titles(where: Where) -> dict[str, str]:
    """``titles:``, the game's name in other languages: a language code (two or three lower-case
    letters, as in LANG) -> the title its players say, e.g. ``{uk: Косинка}``. The short form of
    ``translations: {uk: {title: Косинка}}``."""
    if where.value is None:
        return {}
    where.mapping()
    titles = {}
    for code in where.value:
        item = where.child(code)
        titles[_language(item, code)] = _text(item, "a title")
    return titles


@attrs.frozen
class Translation:
    """What a game says in words, in one language (``translations: {uk: ...}`` in its YAML):
    each part may be left out, and is then said as the YAML's English says it."""

    title: str | None = None
    description: str | None = None
    options: Mapping[str, str] = attrs.field(factory=dict)  # option name -> its help in this language


def _translations(where: Where, options: tuple[OptionSpec, ...], titles: Mapping[str, str]) -> dict[str, Translation]:
    """``translations:``, language code -> ``{title, description, options: {NAME: help}}``; a
    title given here and in ``titles:`` too is refused (one place per language)."""
    if where.value is None:
        return {}
    where.mapping()
    declared = [o.name for o in options]
    out = {}
    for code in where.value:
        entry = where.child(code)
        language = _language(entry, code)
        entry.mapping(TRANSLATION_KEYS)
        title = description = None
        if entry.has("title"):
            title = _text(entry.child("title"), "a title")
            if language in titles:
                raise entry.child("title").error(f"the {language} title is given twice, here and in titles: "
                                                 "give it in one place")
        if entry.has("description"):
            description = _text(entry.child("description"), "a description")
        helps: dict[str, str] = {}
        opts = entry.child("options")
        if opts.value is not None:
            opts.mapping()
            for name in opts.value:
                item = opts.child(name)
                if name not in declared:
                    shown = ", ".join(declared) or "none"
                    named = repr(name) if isinstance(name, str) else describe(name)
                    raise item.error(f"the game declares no option {named}; its options: {shown}"
                                     + did_you_mean(name, declared))
                helps[name] = _text(item, "an option's help")
        out[language] = Translation(title, description, helps)
    return out


def _parse_option(where: Where) -> OptionSpec:
    name = where.path.rsplit(".", 1)[-1]
    if name in RESERVED_OPTIONS:
        raise where.error(f"--{name.replace('_', '-')} is the command line's own flag: name the option otherwise")
    where.mapping(OPTION_KEYS)
    kind = where.child("type").value or ("choice" if where.has("choices") else None)
    if kind not in OPTION_KINDS:
        raise where.child("type").error(
            f"unknown option type {kind!r}; expected one of: {', '.join(OPTION_KINDS)}"
        )
    help_text = where.child("help").value or ""
    if not isinstance(help_text, str):
        raise where.child("help").error(f"expected text, got {describe(help_text)}")
    choices: tuple[Any, ...] = ()
    unlimited = False
    if kind == "choice":
        raw = where.child("choices")
        if not isinstance(raw.value, list) or not raw.value:
            raise raw.error("a choice option needs a non-empty list of choices")
        if len(raw.value) > limits.MAX_CHOICES:
            raise raw.error(f"{len(raw.value)} choices; an option may offer at most {limits.MAX_CHOICES}")
        for item in raw.items():
            if not isinstance(item.value, (int, str)) or isinstance(item.value, bool):
                raise item.error(f"a choice must be a number or a word, got {describe(item.value)}")
            if isinstance(item.value, str) and "-" in item.value:  # share codes join their parts with '-'
                raise item.error(f"a choice may not hold '-' (share codes are joined with it), got {item.value!r}")
            if isinstance(item.value, int) and item.value < 0:
                raise item.error(f"a choice may not be negative (share codes are joined with '-'), got {item.value}")
        choices = tuple(raw.value)
    elif where.has("choices"):
        raise where.child("choices").error(f"only a choice option has choices, not a {kind}")
    if kind == "count":
        flag = where.child("unlimited").value
        if flag is not None and not isinstance(flag, bool):
            raise where.child("unlimited").error(f"expected true or false, got {describe(flag)}")
        unlimited = bool(flag)
    elif where.has("unlimited"):
        raise where.child("unlimited").error("only a count option can be unlimited")
    spec = OptionSpec(name=name, kind=kind, default=None, choices=choices, unlimited=unlimited, help=help_text)
    if not where.has("default"):
        if kind == "flag":
            return attrs.evolve(spec, default=False)
        raise where.error("missing key 'default'")
    default = where.child("default")
    try:
        value = spec.parse(default.value)
    except OptionError as exc:
        raise default.error(f"bad default: {exc}") from None
    return attrs.evolve(spec, default=value)


# --------------------------------------------------------------------------- rules


@attrs.frozen
class BuildRule:
    """How a card may sit on the card below it: rank relation, step, wrap, suit relation."""

    rank: str = "down"
    suit: str = "any-suit"
    step: int = 1
    wrap: bool = False

    def fits(self, lower: int, upper: int) -> bool:
        """May ``upper`` be put on ``lower``? (Cards as ints; used to build tables.)"""
        return self.ranks_fit(RANK[lower], RANK[upper]) and self.suits_fit(SUIT[lower], SUIT[upper])

    def ranks_fit(self, lo: int, up: int) -> bool:
        """The rank half of :meth:`fits`: may rank ``up`` (1..13) go on rank ``lo``?"""
        if self.rank == "none":
            return False
        if self.rank == "any":
            return True
        if self.rank == "same":
            return lo == up

        def step_to(a: int, b: int) -> bool:
            if self.wrap:
                return (a - 1 + self.step) % 13 == b - 1
            return a + self.step == b

        if self.rank == "up":
            return step_to(lo, up)
        if self.rank == "down":
            return step_to(up, lo)
        return step_to(lo, up) or step_to(up, lo)  # up-or-down

    def suits_fit(self, lower: int, upper: int) -> bool:
        """The suit half of :meth:`fits`, for suits 0..3 (clubs, diamonds, hearts, spades)."""
        suit = self.suit
        if suit == "alternate-colour":
            return COLOUR[lower * 13] != COLOUR[upper * 13]
        if suit == "same-suit":
            return lower == upper
        if suit == "same-colour":
            return COLOUR[lower * 13] == COLOUR[upper * 13]
        if suit == "different-suit":
            return lower != upper
        return True

    def how(self) -> str:
        """The rule without its verb, in the current language: ``'down in the same suit'``
        (``'takes no card on top of another'`` and ``'takes any rank ...'`` whole)."""
        if self.rank == "none":
            return _("takes no card on top of another")
        suit = _(_SUIT_RULES[self.suit])
        if self.rank == "any":
            return _("takes any rank {suit}").format(suit=suit)
        if self.rank == "same":
            return _("in the same rank {suit}").format(suit=suit)
        if self.step != 1:
            text = {"up": _("up by {step} {suit}"), "down": _("down by {step} {suit}"),
                    "up-or-down": _("up or down by {step} {suit}")}[self.rank]
        else:
            text = {"up": _("up {suit}"), "down": _("down {suit}"), "up-or-down": _("up or down {suit}")}[self.rank]
        text = text.format(step=self.step, suit=suit)
        return _("{rule}, wrapping between King and Ace").format(rule=text) if self.wrap else text

    def describe(self) -> str:
        """The rule in words, in the current language: ``'builds down in the same suit'``."""
        if self.rank in ("none", "any"):
            return self.how()
        return _("builds {rule}").format(rule=self.how())


# the suit half of a build rule, in words (translated where said)
_SUIT_RULES = {
    "alternate-colour": N_("in alternating colours"),
    "same-suit": N_("in the same suit"),
    "same-colour": N_("in the same colour"),
    "different-suit": N_("in a different suit"),
    "any-suit": N_("regardless of suit"),
}
_RANKS_WITH_ARTICLE = {1: N_("an Ace"), 8: N_("an 8"), 11: N_("a Jack"), 12: N_("a Queen"), 13: N_("a King")}


def a_rank(rank: int) -> str:
    """``'an Ace'``, ``'a 7'``, ``'a 10'``: one card of a rank, in the current language."""
    from .cards import rank_name

    word = _RANKS_WITH_ARTICLE.get(rank)
    return _(word) if word else _("a {rank}").format(rank="10" if rank == 10 else rank_name(rank))


@attrs.frozen
class EmptyRule:
    """What an empty pile takes: ``any`` card, ``none``, some ``ranks``, or one ``card``; or
    ``base``: the rank the deal chose (``offset`` ranks from it, wrapping), which
    :meth:`Rules.with_base` turns into ``ranks`` once the deal has chosen it."""

    kind: str = "any"
    ranks: frozenset[int] = frozenset()
    card: int | None = None
    offset: int = 0

    def based(self, rank: int) -> EmptyRule:
        """This rule once the deal's base rank is ``rank``; others are returned as they are."""
        if self.kind != "base":
            return self
        return EmptyRule(kind="ranks", ranks=frozenset({(rank - 1 + self.offset) % 13 + 1}))

    def takes(self, card: int) -> bool:
        from .cards import RANK

        if self.kind == "any":
            return True
        if self.kind == "ranks":
            return RANK[card] in self.ranks
        if self.kind == "card":
            return FACE[card] == self.card
        return False

    def describe(self) -> str:
        from .cards import card_name

        if self.kind == "any":
            return _("any card")
        if self.kind == "ranks":
            return _(" or ").join(a_rank(r) for r in sorted(self.ranks))
        if self.kind == "card":
            return card_name(self.card)  # type: ignore[arg-type]
        if self.kind == "base":
            if not self.offset:
                return _("a card of the base rank (the deal chooses it)")
            n = abs(self.offset)
            if self.offset < 0:
                return ngettext("a card {n} rank below the base rank (the deal chooses it)",
                                "a card {n} ranks below the base rank (the deal chooses it)", n).format(n=n)
            return ngettext("a card {n} rank above the base rank (the deal chooses it)",
                            "a card {n} ranks above the base rank (the deal chooses it)", n).format(n=n)
        return _("nothing")


@attrs.frozen
class PairRule:
    """Two available cards discarded together: ranks adding up to ``total`` (a card of rank
    ``total`` alone, too), or of the same rank (``total == 0``); with ``touching``, only two
    cards in cells of a grid that touch, diagonals included."""

    total: int = 0
    touching: bool = False

    def fits(self, lower: int, upper: int) -> bool:
        """May the cards ``lower`` and ``upper`` (ints) go together?"""
        if self.total:
            return RANK[lower] + RANK[upper] == self.total
        return RANK[lower] == RANK[upper]

    def alone(self, card: int) -> bool:
        """May ``card`` go alone (its rank alone makes the total)?"""
        return RANK[card] == self.total

    def describe(self) -> str:
        """In words: ``two cards whose ranks add up to 13 (A=1, J=11, Q=12, K=13)``."""
        if not self.total:
            return _("two cards of the same rank together in cells that touch (diagonals too)") if self.touching \
                else _("two cards of the same rank together")
        what = (_("two cards whose ranks add up to {total} together in cells that touch (diagonals too) "
                  "(A=1, J=11, Q=12, K=13)") if self.touching
                else _("two cards whose ranks add up to {total} together (A=1, J=11, Q=12, K=13)")).format(
            total=self.total)
        if self.total <= 13:
            what = _("{pair}, or {card} alone").format(pair=what, card=a_rank(self.total))
        return what


@attrs.frozen
class PileSpec:
    """One pile of a resolved variant, with its own build and empty rules."""

    name: str
    index: int
    group: str
    role: str
    label: str
    build: BuildRule
    run: BuildRule
    empty: EmptyRule
    gives: str
    flip: bool
    capacity: int | None
    max_accept: int | None
    accepts_from: tuple[str, ...]
    fan: str
    show: int | None
    min_accept: int = 1  # fewer cards at a time are refused (a foundation taking whole suits: 13)
    supermove: bool = False  # runs limited by free cells and empty piles: (1 + cells) x 2^(empty piles)
    fill_from: str | None = None  # a group whose top card fills this pile at once when it empties
    open: bool = False  # a stock whose cards are all face up
    open_top: bool = False  # ... of which a player sees only the top one (open: top)
    covered_by: tuple[str, ...] = ()  # piles that must be empty before this one gives a card
    pairs: PairRule | None = None  # a discard pile taking two available cards at once (Pyramid)
    grid: tuple[int, int] | None = None  # (rows, columns) of the group's cells, in reading order
    beaten_by: str | None = None  # a group: takes a card while a higher one of its suit tops a pile of it
    aces_high: bool = False  # with beaten_by: an Ace ranks above the King


@attrs.frozen
class GroupSpec:
    key: str
    role: str
    label: str
    prefix: str | None
    alias: str | None
    piles: tuple[str, ...]


@attrs.frozen
class StockSpec:
    pile: str
    draw: int
    to: str  # group key
    redeals: int | None  # None: unlimited
    not_onto_empty: bool = False  # refused while a pile it deals to is empty (Spider)
    consolidate: bool = False  # close the gaps of the piles it deals to, then fill the empty ones


@attrs.frozen
class DealStep:
    to: str  # group key
    counts: tuple[int, ...] = ()
    face_up: tuple[int | None, ...] = ()  # None: all face up
    order: str = "rows"
    cards: tuple[int, ...] = ()  # faces; each takes the first copy the deal has not placed
    rest: bool = False
    to_bottom: frozenset[int] = frozenset()  # ranks moved under the other cards of their pile
    base: bool = False  # the first card this step deals sets the base rank
    pick: str | None = None  # "base": the step deals cards of the base rank, taken from the deck


@attrs.frozen
class ScoringSpec:
    moves: tuple[tuple[str, str, int], ...] = ()
    turn_up: int = 0
    recycle: int = 0
    floor: int | None = None


@attrs.frozen
class ResolvedVariant:
    """The variant with one option set resolved: plain values, no option references."""

    name: str
    title: str
    options: Mapping[str, Any]
    groups: tuple[GroupSpec, ...]
    piles: tuple[PileSpec, ...]
    stock: StockSpec | None
    deck: tuple[int, ...]  # the cards, each once (copies of a face are ``copy * 52 + face``)
    decks: int
    deal: tuple[DealStep, ...]
    scoring: ScoringSpec
    layout: tuple[tuple[str | None, ...], ...]
    win_cleared: tuple[str, ...] = ()  # groups that must be empty to win
    win_home: int | None = None  # cards on the foundations to win (None: every card)
    win_one_card: tuple[str, ...] = ()  # groups whose piles must each hold exactly one card to win


# --------------------------------------------------------------------------- resolution


class _Resolver:
    """Walks the YAML tree for one option set, resolving references as it reads."""

    def __init__(self, options: Mapping[str, Any], specs: Mapping[str, OptionSpec]) -> None:
        self.options = options
        self.specs = specs

    def get(self, where: Where) -> Where:
        """Resolve ``$name`` and ``{if: ..., then: ..., else: ...}`` at this node."""
        value = where.value
        if isinstance(value, str) and value.startswith("$"):
            name = value[1:]
            if name not in self.specs:
                raise where.error(f"unknown option {value!r}; declared options: {self._declared()}"
                                  + did_you_mean(name, self.specs))
            return Where(self.options[name], where.source, where.path, where.line, where.keys)
        if isinstance(value, dict) and "if" in value:
            where.mapping(("if", "then", "else"))
            if "then" not in value:
                raise where.error("missing key 'then': a choice by option is {if: OPTION, then: VALUE, else: VALUE}")
            chosen = "then" if self._condition(where.child("if")) else "else"
            return self.get(where.child(chosen))
        return where

    def _declared(self) -> str:
        return ", ".join(self.specs) or "none (this variant has no 'options:' section)"

    def _condition(self, where: Where) -> bool:
        cond = where.value
        if isinstance(cond, str):
            if cond not in self.specs:
                raise where.error(f"unknown option {cond!r}; declared options: {self._declared()}"
                                  + did_you_mean(cond, self.specs))
            return bool(self.options[cond])
        if isinstance(cond, dict) and cond:
            for key in cond:
                if key not in self.specs:
                    raise where.child(key).error(f"unknown option {key!r}; declared options: {self._declared()}"
                                                + did_you_mean(key, self.specs))
            return all(self.options[k] == v for k, v in cond.items())
        raise where.error(f"expected an option name or a mapping of option values, got {describe(cond)}")

    def word(self, where: Where, allowed: tuple[str, ...], default: str | None = None,
             spellings: Mapping[str, str] | None = None, what: str = "value") -> str:
        where = self.get(where)
        value = where.value
        if value is None and default is not None:
            return default
        if isinstance(value, str) and spellings and value in spellings:
            return spellings[value]
        if value not in allowed:
            shown = f"{value!r}" if isinstance(value, str) else describe(value)
            raise where.error(f"unknown {what} {shown}; expected one of: {', '.join(allowed)}"
                              + did_you_mean(value, allowed))
        return cast(str, value)  # one of allowed, all of which are text

    def integer(self, where: Where, default: int | None = None, minimum: int = 0,
                allow_none: bool = False, maximum: int = limits.MAX_CARDS) -> int | None:
        """A whole number from ``minimum`` to ``maximum`` (by default: a number of cards)."""
        where = self.get(where)
        value = where.value
        if value is None:
            if allow_none or default is not None:
                return default
            raise where.error("missing value: expected a whole number")
        if isinstance(value, str) and allow_none and value == "unlimited":
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise where.error(f"expected a whole number, got {describe(value)}")
        if value < minimum:
            raise where.error(f"expected a number of at least {minimum}, got {value}")
        if value > maximum:
            raise where.error(f"expected a number of at most {maximum}, got {value}")
        return value

    def boolean(self, where: Where, default: bool) -> bool:
        where = self.get(where)
        if where.value is None:
            return default
        if not isinstance(where.value, bool):
            raise where.error(f"expected true or false, got {describe(where.value)}")
        return where.value

    def text(self, where: Where, default: str = "") -> str:
        where = self.get(where)
        if where.value is None:
            return default
        if not isinstance(where.value, str):
            raise where.error(f"expected text, got {describe(where.value)}")
        return where.value

    def per_pile(self, where: Where, count: int, item: Callable[[Where], Any]) -> list[Any]:
        """A value or a list with one value per pile."""
        where = self.get(where)
        if isinstance(where.value, list):
            if len(where.value) != count:
                raise where.error(f"expected {count} values (one per pile), got {len(where.value)}")
            return [item(w) for w in where.items()]
        return [item(where)] * count


def _build_rule(r: _Resolver, where: Where, count: int, default: BuildRule) -> list[BuildRule]:
    where = r.get(where)
    if where.value is None:
        return [default] * count
    where.mapping(BUILD_KEYS)
    rank = r.word(where.child("rank"), RANK_RULES, default=default.rank, what="rule")
    suit = r.word(where.child("suit"), SUIT_RULES, default=default.suit, spellings=SUIT_SPELLINGS, what="rule")
    wrap = r.boolean(where.child("wrap"), default.wrap)
    steps = r.per_pile(where.child("step"), count, lambda w: r.integer(w, default=1, minimum=1))
    for step, w in zip(steps, [where.child("step")] * count, strict=True):  # per_pile gives count
        if step > 12:
            raise w.error(f"a step must be 1 to 12, got {step}")
    return [BuildRule(rank=rank, suit=suit, step=s, wrap=wrap) for s in steps]


def _card(w: Where) -> int:
    """A card written as a word (``AC``, ``10h``); raise NotationError for a bad one."""
    if not isinstance(w.value, str):
        raise w.error(f"expected a card such as 'AC' or 'TH', got {describe(w.value)}")
    return parse_card(w.value)


def _ranks(r: _Resolver, where: Where) -> frozenset[int]:
    """A rank or a list of ranks (``K``, ``[K, Q]``, ``10``, 1 to 13); a bad one names its place."""
    where = r.get(where)
    ranks = set()
    for item in where.items() if isinstance(where.value, list) else [where]:
        try:
            if not isinstance(item.value, (str, int)):
                raise item.error(f"expected a rank such as A, 7 or K, got {describe(item.value)}")
            ranks.add(parse_rank(item.value))
        except NotationError as exc:
            raise item.error(str(exc)) from None
    return frozenset(ranks)


def _empty_rule(r: _Resolver, where: Where, count: int, default: EmptyRule) -> list[EmptyRule]:
    where = r.get(where)
    value = where.value
    if value is None:
        return [default] * count
    if value in ("any", "none"):
        return [EmptyRule(kind=value)] * count
    if value == "base":
        return [EmptyRule(kind="base")] * count
    if not isinstance(value, dict):
        raise where.error(f"expected 'any', 'none', 'base', {{rank: ...}}, {{cards: [...]}} or {{base: N}}, "
                          f"got {describe(value)}")
    where.mapping(EMPTY_KEYS)
    if sum(1 for k in ("rank", "cards", "base") if where.has(k)) != 1:
        raise where.error("give exactly one of 'rank', 'cards' or 'base'")
    if where.has("base"):
        bw = r.get(where.child("base"))
        if not isinstance(bw.value, int) or isinstance(bw.value, bool) or not -12 <= bw.value <= 12:
            raise bw.error(f"expected ranks from the base, -12 to 12 (-1: one below), got {describe(bw.value)}")
        return [EmptyRule(kind="base", offset=bw.value)] * count
    if where.has("rank"):
        return [EmptyRule(kind="ranks", ranks=_ranks(r, where.child("rank")))] * count

    def one_card(w: Where) -> EmptyRule:
        try:
            return EmptyRule(kind="card", card=_card(w))
        except NotationError as exc:
            raise w.error(str(exc)) from None

    return r.per_pile(where.child("cards"), count, one_card)


def _resolve(defn: VariantDef, options: Mapping[str, Any]) -> ResolvedVariant:
    root = Where(defn.tree, defn.source)
    r = _Resolver(options, {o.name: o for o in defn.options})
    piles_where = root.child("piles")
    if piles_where.value is None:
        raise root.error("missing key 'piles'")
    piles_where.mapping()

    groups: list[GroupSpec] = []
    piles: list[PileSpec] = []
    stock: StockSpec | None = None
    names: dict[str, str] = {}
    group_raw: dict[str, Where] = {}
    for key in piles_where.value:
        g = piles_where.child(key)
        if not isinstance(key, str) or not key.replace("-", "").isalnum():
            raise g.error(f"a pile group's name must be a word, got {key!r}")
        g.mapping(PILE_KEYS)
        if not g.has("role"):
            raise g.error(f"missing key 'role'; expected one of: {', '.join(ROLES)}")
        group_raw[key] = g
        role = r.word(g.child("role"), ROLES, what="role")
        count = r.integer(g.child("count"), allow_none=True, maximum=limits.MAX_PILES)
        if count == 0 and role not in ("reserve", "tableau"):
            raise g.child("count").error(f"a {role} group needs at least 1 pile (only reserves and "
                                         "tableaus may have none, e.g. FreeCell with no cells)")
        if len(piles) + (count or 1) > limits.MAX_PILES:
            raise (g.child("count") if count else g).error(
                f"more than {limits.MAX_PILES} piles in all; that is the most a variant may have")
        if role in ("stock", "waste") and count not in (None, 1):
            raise g.child("count").error(f"a {role} is a single pile")
        prefix = r.text(g.child("prefix")) or None
        if count is None:
            if prefix:
                raise g.child("prefix").error("a prefix needs a count (the piles are named prefix1, prefix2 ...)")
            pile_names = [key]
        else:
            prefix = prefix or key[0]
            if not prefix.isalpha() or not prefix.islower():
                raise g.child("prefix").error(f"a prefix must be lower-case letters, got {prefix!r}")
            pile_names = [f"{prefix}{i}" for i in range(1, count + 1)]
        n = len(pile_names)
        alias = r.text(g.child("alias")) or None
        label = r.text(g.child("label")) or key.replace("-", " ").capitalize()
        for name in pile_names + ([alias] if alias else []) + ([prefix] if prefix else []):
            if name in RESERVED_NAMES:
                raise g.error(f"the name {name!r} is a command and cannot name a pile")
            if name in names:
                raise g.error(f"the name {name!r} is already used by pile group {names[name]!r}")
            names[name] = key

        default_build = BuildRule(rank="none") if role in ("stock", "waste") else BuildRule()
        builds = _build_rule(r, g.child("build"), n, default_build)
        runs = _build_rule(r, g.child("run"), n, BuildRule(rank="none")) if g.has("run") else builds
        empty_default = EmptyRule(kind="none") if role == "stock" else EmptyRule(kind="any")
        empties = _empty_rule(r, g.child("empty"), n, empty_default)
        default_gives = {"stock": "none", "foundation": "none", "tableau": "run"}.get(role, "top")
        gives = r.word(g.child("gives"), GIVES, default=default_gives, what="rule")
        if role == "stock" and gives not in ("none", "top"):
            raise g.child("gives").error("the stock gives cards by drawing, and an open stock its top card: "
                                         "gives must be 'none' or 'top'")
        is_open, open_top = _open(r, g.child("open"))
        if role == "stock" and gives == "top" and not is_open:
            raise g.child("gives").error("only an open stock ('open: true' or 'open: top') gives its top card: "
                                         "a face-down stock gives cards only by drawing")
        flip = r.word(g.child("flip"), FLIPS, default="auto" if role == "tableau" else "none", what="rule") == "auto"
        capacity = r.integer(g.child("capacity"), allow_none=True, minimum=1)
        max_accept = r.integer(g.child("max-accept"), allow_none=True, minimum=1)
        min_accept = r.integer(g.child("min-accept"), default=1, minimum=1)
        if max_accept is not None and min_accept > max_accept:  # type: ignore[operator]
            raise g.child("min-accept").error(f"min-accept {min_accept} is above max-accept {max_accept}")
        supermove = r.boolean(g.child("supermove"), False)
        if supermove and gives != "run":
            raise g.child("supermove").error("supermove limits the runs a pile gives: it needs 'gives: run'")
        fill_from = r.text(g.child("fill-from")) or None
        covers: list[tuple[str, ...]] = [()] * n
        if g.has("covered-by"):
            cw = r.get(g.child("covered-by"))
            if not isinstance(cw.value, list) or len(cw.value) != n:
                raise cw.error(f"expected a list with one entry per pile ({n}): the piles covering it, e.g. [t2, t3]")
            covers = []
            for item in cw.items():
                value = item.value if item.value is not None else []
                if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
                    raise item.error("expected a list of pile names (or [] for an uncovered pile), "
                                     f"got {describe(value)}")
                covers.append(tuple(value))
        if is_open and role != "stock":
            raise g.child("open").error("only a stock is open (its cards face up); other piles are "
                                        "dealt face up or down by the deal's face-up counts")
        pairs = _pair_rule(r, g, role, n) if g.has("pairs") else None
        grid = _grid(r, g.child("grid"), n) if g.has("grid") else None
        beaten_by: str | None = None
        aces_high = False
        if g.has("beaten-by"):
            bw = r.get(g.child("beaten-by")).mapping(BEATEN_KEYS, required=("group",))
            beaten_by = r.text(bw.child("group"))
            aces_high = r.word(bw.child("aces"), ACES, default="low", what="rank of the Aces") == "high"
            if role != "foundation":
                raise g.child("beaten-by").error("only a foundation takes cards beaten by others (a discard pile)")
        default_fan = {"tableau": "down", "reserve": "down", "waste": "right"}.get(role, "none")
        fan = r.word(g.child("fan"), FANS, default=default_fan, what="fan")
        show = r.integer(g.child("show"), allow_none=True, minimum=1)
        accepts_where = r.get(g.child("accepts-from"))
        accepts: tuple[str, ...] | None = None
        if accepts_where.value is not None:
            if not isinstance(accepts_where.value, list):
                raise accepts_where.error(f"expected a list of pile groups, got {describe(accepts_where.value)}")
            accepts = tuple(r.text(w) for w in accepts_where.items())
        if role == "stock":
            if stock is not None:
                raise g.error("a variant has at most one stock")
            draw = g.child("draw")
            if draw.value is None:
                raise g.error("a stock needs 'draw: {count: N, to: PILE-GROUP}'")
            draw = r.get(draw).mapping(DRAW_KEYS, required=("to",))
            stock = StockSpec(
                pile=key,
                draw=r.integer(draw.child("count"), default=1, minimum=1),  # type: ignore[arg-type]
                to=r.text(draw.child("to")),
                redeals=_redeals(r, g.child("redeals")) if g.has("redeals") else 0,
                not_onto_empty=r.boolean(draw.child("not-onto-empty"), False),
                consolidate=r.boolean(draw.child("consolidate"), False),
            )
        elif g.has("draw") or g.has("redeals"):
            bad = "draw" if g.has("draw") else "redeals"
            raise g.child(bad).error("only the stock draws and redeals")
        group = GroupSpec(key=key, role=role, label=label, prefix=prefix if count is not None else None,
                          alias=alias, piles=tuple(pile_names))
        groups.append(group)
        for i, name in enumerate(pile_names):
            piles.append(PileSpec(
                name=name, index=len(piles), group=key, role=role, label=label,
                build=builds[i], run=runs[i], empty=empties[i], gives=gives, flip=flip,
                capacity=capacity, max_accept=max_accept,
                accepts_from=accepts if accepts is not None else (),
                fan=fan, show=show, min_accept=min_accept, supermove=supermove,  # type: ignore[arg-type]
                fill_from=fill_from, open=is_open, open_top=open_top, covered_by=covers[i], pairs=pairs, grid=grid,
                beaten_by=beaten_by, aces_high=aces_high,
            ))

    group_keys = [g.key for g in groups]
    pile_names_all = [p.name for p in piles]
    for p in piles:
        for other in p.covered_by:
            if other not in pile_names_all or other == p.name:
                w = group_raw[p.group].child("covered-by")
                raise w.error(f"{p.name} is covered by {other!r}: " + (
                    "a pile cannot cover itself" if other == p.name else
                    f"no such pile; piles are {', '.join(pile_names_all)}" + did_you_mean(other, pile_names_all)))
        if p.fill_from is not None and p.fill_from not in group_keys:
            w = group_raw[p.group].child("fill-from")
            raise w.error(f"unknown pile group {p.fill_from!r}; expected one of: {', '.join(group_keys)}"
                          + did_you_mean(p.fill_from, group_keys))
        if p.fill_from == p.group:
            raise group_raw[p.group].child("fill-from").error("a pile group cannot fill itself")
        chain, at = [p.group], p.fill_from  # a pile that fills may itself be filled, but not round
        while at is not None and at not in chain:
            chain.append(at)
            at = next((q.fill_from for q in piles if q.group == at), None)
        if at is not None:
            raise group_raw[p.group].child("fill-from").error(
                f"the fills go round: {' fills from '.join([*chain[chain.index(at):], at])}")
        if p.beaten_by is not None and p.beaten_by not in group_keys:
            w = group_raw[p.group].child("beaten-by").child("group")
            raise w.error(f"unknown pile group {p.beaten_by!r}; expected one of: {', '.join(group_keys)}"
                          + did_you_mean(p.beaten_by, group_keys))
    # accepts-from must name groups; default: every group that gives cards
    givers = tuple(p.group for p in piles if p.gives != "none")
    fixed = []
    for p in piles:
        if p.accepts_from:
            for i, src in enumerate(p.accepts_from):
                if src not in group_keys:
                    w = group_raw[p.group].child("accepts-from")
                    w = w.child(i) if isinstance(w.value, list) else w
                    raise w.error(f"unknown pile group {src!r}; expected one of: {', '.join(group_keys)}"
                                  + did_you_mean(src, group_keys))
            fixed.append(p)
        else:
            # the stock and the waste take cards only by drawing; the others from every giver
            default_from = () if p.role in ("stock", "waste") else tuple(dict.fromkeys(givers))
            fixed.append(attrs.evolve(p, accepts_from=default_from))
    piles = fixed
    _check_pairs(piles, groups, group_raw)
    foundations = [g for g in groups if g.role == "foundation"]
    if not foundations:
        raise piles_where.error("a variant needs at least one pile group with role: foundation")
    if stock is not None and stock.to not in group_keys:
        w = group_raw[stock.pile].child("draw").child("to")
        raise w.error(f"unknown pile group {stock.to!r}; expected one of: {', '.join(group_keys)}"
                      + did_you_mean(stock.to, group_keys))
    if stock is not None and stock.to == stock.pile:
        raise group_raw[stock.pile].child("draw").child("to").error("the stock cannot draw onto itself")

    deck, decks = _deck(r, root.child("deck"))
    numbered = shuffle.NUMBERINGS.get(defn.numbering or "")
    if numbered is not None and deck != tuple(range(numbered.deck)):
        raise root.child("numbering").error(f"the {defn.numbering} numbering deals one deck of {numbered.deck} "
                                            f"cards; this game has {len(deck)}")
    deal = _deal_steps(r, root.child("deal"), {g.key: g for g in groups}, stock, deck)
    based = [p for p in piles if p.empty.kind == "base"]
    setters = [s for s in deal if s.base]
    if based and not setters:
        w = group_raw[based[0].group].child("empty")
        raise w.error("an empty rule of the base rank needs a deal step that chooses it ('base: true')")
    if len(setters) > 1:
        raise root.child("deal").error("only one deal step may choose the base rank ('base: true')")
    if any(s.pick == "base" for s in deal) and not setters:
        raise root.child("deal").error("'pick: base' needs an earlier deal step that chooses the base ('base: true')")
    win_cleared, win_home, win_one_card = _win(r, root.child("win"), group_keys, len(deck))
    scoring = _scoring(r, root.child("scoring"), group_keys)
    layout = _layout(r, root.child("layout"), groups, [p.name for p in piles])
    return ResolvedVariant(
        name=defn.name, title=defn.title, options=dict(options), groups=tuple(groups), piles=tuple(piles),
        stock=stock, deck=deck, decks=decks, deal=deal, scoring=scoring, layout=layout,
        win_cleared=win_cleared, win_home=win_home, win_one_card=win_one_card,
    )


def _win(r: _Resolver, where: Where, group_keys: list[str],
         size: int) -> tuple[tuple[str, ...], int | None, tuple[str, ...]]:
    """``win: {cleared: [GROUP ...], home: N, one-card: [GROUP ...]}``: what wins instead of
    every card home."""
    where = r.get(where)
    if where.value is None:
        return (), None, ()
    where.mapping(WIN_KEYS)

    def groups(key: str) -> tuple[str, ...]:
        out: list[str] = []
        cw = r.get(where.child(key))
        if cw.value is not None:
            for item in cw.items() if isinstance(cw.value, list) else [cw]:
                name = r.text(item)
                if name not in group_keys:
                    raise item.error(f"unknown pile group {name!r}; expected one of: {', '.join(group_keys)}"
                                     + did_you_mean(name, group_keys))
                out.append(name)
        return tuple(out)

    cleared = groups("cleared")
    one_card = groups("one-card")
    home = r.integer(where.child("home"), allow_none=True, minimum=1, maximum=size)
    if not cleared and home is None:
        raise where.error("give 'cleared' (pile groups to empty), 'home' (cards on the foundations) or both")
    return cleared, home, one_card


def _pair_rule(r: _Resolver, g: Where, role: str, count: int) -> PairRule:
    """``pairs: {match: 13 | same-rank, touching: BOOL}`` on the one discard pile."""
    where = r.get(g.child("pairs")).mapping(PAIR_KEYS, required=("match",))
    if role != "foundation" or count != 1:
        raise g.child("pairs").error("pairs are discarded onto one foundation pile: a group of one pile")
    for key in ("build", "empty"):
        if g.has(key):
            raise g.child(key).error(f"a pairs pile takes what its pairs rule says: leave out '{key}'")
    mw = r.get(where.child("match"))
    if mw.value == "same-rank":
        total = 0
    elif isinstance(mw.value, int) and not isinstance(mw.value, bool) and 2 <= mw.value <= 26:
        total = mw.value
    else:
        raise mw.error(f"expected a total of ranks from 2 to 26 (13: Pyramid) or 'same-rank', got {describe(mw.value)}")
    return PairRule(total=total, touching=r.boolean(where.child("touching"), False))


def _grid(r: _Resolver, where: Where, count: int) -> tuple[int, int]:
    """``grid: {rows: R, columns: C}``: the group's piles are the cells of R rows of C, in reading order."""
    where = r.get(where).mapping(GRID_KEYS, required=("rows", "columns"))
    rows = r.integer(where.child("rows"), minimum=1, maximum=limits.MAX_PILES)
    columns = r.integer(where.child("columns"), minimum=1, maximum=limits.MAX_PILES)
    assert rows is not None and columns is not None
    if rows * columns != count:
        raise where.error(f"a grid of {rows} rows of {columns} has {rows * columns} cells, but the group "
                          f"has {count} piles")
    return rows, columns


def _check_pairs(piles: list[PileSpec], groups: list[GroupSpec], raw: Mapping[str, Where]) -> None:
    """At most one pairs pile; a pairs rule with ``touching`` takes cards only from grids; the
    piles taking beaten cards agree on the Aces."""
    beaten = [p for p in piles if p.beaten_by is not None]
    odd = [p for p in beaten if p.aces_high != beaten[0].aces_high]
    if odd:
        raise raw[odd[0].group].child("beaten-by").child("aces").error(
            "the piles taking beaten cards must agree on the rank of the Aces")
    pairing = [p for p in piles if p.pairs is not None]
    if len(pairing) > 1:
        raise raw[pairing[1].group].child("pairs").error(
            f"only one pile takes pairs; {pairing[0].name} does already")
    if pairing and pairing[0].pairs.touching:  # type: ignore[union-attr]
        gridded = {p.group for p in piles if p.grid is not None}
        givers = {p.group for p in piles if p.gives != "none"}
        loose = [k for k in pairing[0].accepts_from if k in givers and k not in gridded]
        if loose:
            raise raw[pairing[0].group].child("pairs").child("touching").error(
                f"cards touch only in a grid: give {loose[0]} a 'grid: {{rows: R, columns: C}}', "
                "or take cards only from grids (accepts-from)")


def _deck(r: _Resolver, where: Where) -> tuple[tuple[int, ...], int]:
    """The cards of the game: ``decks`` decks' worth (default 1) of the listed ``suits``
    (default all four, ``CDHS``), each suit as often as it takes to fill them."""
    where = r.get(where)
    if where.value is None:
        return tuple(range(DECK_SIZE)), 1
    where.mapping(DECK_KEYS)
    decks = r.integer(where.child("decks"), default=1, minimum=1, maximum=limits.MAX_DECKS)
    assert decks is not None
    suits_where = r.get(where.child("suits"))
    suits_value = suits_where.value if suits_where.value is not None else SUIT_LETTERS
    if isinstance(suits_value, list):
        if not all(isinstance(x, str) for x in suits_value):
            raise suits_where.error("expected suit letters, e.g. [S, H] or SH")
        suits_value = "".join(suits_value)
    if not isinstance(suits_value, str) or not suits_value:
        raise suits_where.error(f"expected suit letters, e.g. [S, H] or SH, got {describe(suits_value)}")
    letters = suits_value.upper()
    suits = sorted({SUIT_LETTERS.index(ch) for ch in letters if ch in SUIT_LETTERS})
    if len(suits) != len(letters) or not suits:
        bad = next((ch for ch in letters if ch not in SUIT_LETTERS), None)
        raise suits_where.error(f"unknown suit {bad!r}: suits are C D H S" if bad else
                                f"a suit is named twice in {suits_value!r}")
    if (4 * decks) % len(suits):
        raise suits_where.error(f"{decks} deck{'s' if decks > 1 else ''} cannot be made of {len(suits)} suits "
                                "evenly: give 1, 2 or 4 suits")
    copies = 4 * decks // len(suits)
    if copies > limits.MAX_DECKS:
        raise where.error(f"{copies} copies of each card; a game may hold at most {limits.MAX_DECKS}")
    return tuple(k * DECK_SIZE + suit * 13 + r_ for k in range(copies) for suit in suits for r_ in range(13)), decks


def _redeals(r: _Resolver, where: Where) -> int | None:
    """A count of redeals; ``null`` or ``unlimited`` means no limit."""
    where = r.get(where)
    if where.value is None or where.value == "unlimited":
        return None
    return r.integer(where, maximum=limits.MAX_REDEALS)


def _deal_steps(r: _Resolver, where: Where, groups: Mapping[str, GroupSpec],
                stock: StockSpec | None, deck: tuple[int, ...]) -> tuple[DealStep, ...]:
    if where.value is None:
        raise where.error("missing key 'deal'")
    steps: list[DealStep] = []
    total = 0
    size = len(deck)
    copies = {FACE[c]: 0 for c in deck}
    for c in deck:
        copies[FACE[c]] += 1
    fixed_cards: dict[int, int] = {}  # face -> copies the deal places by name
    items = where.items()
    if len(items) > limits.MAX_DEAL_STEPS:
        raise where.error(f"{len(items)} deal steps; a deal may have at most {limits.MAX_DEAL_STEPS}")
    for i, item in enumerate(items):
        item.mapping(DEAL_KEYS, required=("to",))
        to = r.text(item.child("to"))
        if to not in groups:
            raise item.child("to").error(f"unknown pile group {to!r}; expected one of: {', '.join(groups)}"
                                         + did_you_mean(to, groups))
        n = len(groups[to].piles)
        kinds = [k for k in ("counts", "cards", "rest") if item.has(k)]
        if len(kinds) != 1:
            raise item.error("give exactly one of 'counts', 'cards' or 'rest'")
        kind = kinds[0]
        order = r.word(item.child("order"), ORDERS, default="rows", what="order")
        face_up: list[int | None]
        if item.has("face-up"):
            face_up = r.per_pile(item.child("face-up"), n, lambda w: r.integer(w, minimum=0))
        else:
            face_up = [None] * n
        sets_base = r.boolean(item.child("base"), False)
        pick = r.word(item.child("pick"), PICKS, what="pick") if item.has("pick") else None
        if pick is not None and kind != "counts":
            raise item.child("pick").error("'pick' goes with 'counts': how many cards of that rank each pile gets")
        if sets_base and pick is not None:
            raise item.child("base").error("a step that picks cards of the base rank cannot also choose it")
        to_bottom = _ranks(r, item.child("to-bottom")) if item.has("to-bottom") else frozenset()
        if kind == "rest":
            if not r.boolean(item.child("rest"), False):
                raise item.child("rest").error("rest must be true (deal every remaining card here)")
            if i != len(items) - 1:
                raise item.error("'rest: true' must be the last deal step")
            if n != 1:
                raise item.child("to").error("the rest of the deck goes to a single pile")
            steps.append(DealStep(to=to, face_up=tuple(face_up), rest=True, to_bottom=to_bottom, base=sets_base))
        elif kind == "counts":
            counts = r.per_pile(item.child("counts"), n, lambda w: r.integer(w, minimum=0))
            total += sum(counts)
            per_rank = min(sum(1 for c in deck if RANK[c] == rank) for rank in range(1, 14))
            if pick == "base" and sum(counts) > per_rank - 1:
                raise item.child("counts").error(
                    f"{sum(counts)} cards of the base rank, but the deck holds {per_rank} of a rank "
                    "and the step choosing the base deals one of them")
            steps.append(DealStep(to=to, counts=tuple(counts), face_up=tuple(face_up), order=order,
                                  to_bottom=to_bottom, base=sets_base, pick=pick))
        else:
            cards: list[int] = []
            cw = r.get(item.child("cards"))
            card_items = cw.items()
            if len(card_items) != n:
                raise cw.error(f"expected {n} cards (one per pile), got {len(card_items)}")
            for w in card_items:
                try:
                    card = _card(w)
                except NotationError as exc:
                    raise w.error(str(exc)) from None
                held = copies.get(card, 0)
                if fixed_cards.get(card, 0) >= held:
                    raise w.error(f"{w.value} is dealt twice" if held == 1 else
                                  f"{w.value} is not in the deck" if not held else
                                  f"{w.value} is dealt more often than the deck holds it ({held})")
                fixed_cards[card] = fixed_cards.get(card, 0) + 1
                cards.append(card)
            total += len(cards)
            steps.append(DealStep(to=to, cards=tuple(cards), face_up=tuple(face_up), to_bottom=to_bottom,
                                  base=sets_base))
    if total > size:
        raise where.error(f"the deal needs {total} cards; the deck has {size}")
    if (not steps or not steps[-1].rest) and total != size:
        raise where.error(f"the deal places {total} of the {size} cards: end with "
                          "'- {to: stock, rest: true}' or deal them all")
    return tuple(steps)


def _scoring(r: _Resolver, where: Where, group_keys: list[str]) -> ScoringSpec:
    where = r.get(where)
    if where.value is None:
        return ScoringSpec()
    where.mapping(SCORING_KEYS)
    moves = []
    mw = r.get(where.child("moves"))
    if mw.value is not None:
        for item in mw.items():
            item.mapping(SCORE_MOVE_KEYS, required=("from", "to", "points"))
            ends = []
            for end in ("from", "to"):
                key = r.text(item.child(end))
                if key not in group_keys:
                    raise item.child(end).error(
                        f"unknown pile group {key!r}; expected one of: {', '.join(group_keys)}"
                        + did_you_mean(key, group_keys))
                ends.append(key)
            moves.append((ends[0], ends[1], _points(r.get(item.child("points")))))
        if len(moves) > limits.MAX_PILES:
            raise mw.error(f"{len(moves)} scoring moves; at most {limits.MAX_PILES} are allowed")

    def signed(w: Where) -> int:
        w = r.get(w)
        return 0 if w.value is None else _points(w)

    floor_where = r.get(where.child("floor"))
    floor = None if floor_where.value is None else signed(floor_where)
    return ScoringSpec(moves=tuple(moves), turn_up=signed(where.child("turn-up")),
                       recycle=signed(where.child("recycle")), floor=floor)


def _points(w: Where) -> int:
    """A whole number of points, either sign, at most ``MAX_POINTS`` from zero."""
    if not isinstance(w.value, int) or isinstance(w.value, bool):
        raise w.error(f"expected a whole number of points, got {describe(w.value)}")
    if abs(w.value) > limits.MAX_POINTS:
        raise w.error(f"expected at most {limits.MAX_POINTS} points either way, got {w.value}")
    return w.value


def _layout(r: _Resolver, where: Where, groups: list[GroupSpec],
            pile_names: list[str]) -> tuple[tuple[str | None, ...], ...]:
    where = r.get(where)
    if where.value is None:  # default: each group on its own row
        return tuple(g.piles for g in groups)
    rows = []
    by_key = {g.key: g for g in groups}
    placed: set[str] = set()
    for row in where.items():
        out: list[str | None] = []
        for cell in row.items():
            name = cell.value
            if name is None:
                out.append(None)
            elif not isinstance(name, str):
                raise cell.error(f"expected a pile group, a pile or ~ for a gap, got {describe(name)}")
            elif name in by_key:
                out.extend(by_key[name].piles)
            elif name in pile_names:
                out.append(name)
            else:
                raise cell.error(f"unknown pile {name!r} in layout; expected a pile group "
                                 f"({', '.join(by_key)}), a pile ({', '.join(pile_names)}) or ~ for a gap"
                                 + did_you_mean(name, [*by_key, *pile_names]))
        for name in out:
            if name is not None:
                if name in placed:
                    raise row.error(f"{name} appears twice in the layout")
                placed.add(name)
        rows.append(tuple(out))
    missing = [n for n in pile_names if n not in placed]
    if missing:
        raise where.error(f"the layout leaves out {', '.join(missing)}")
    return tuple(rows)


# --------------------------------------------------------------------------- definitions


@attrs.define(eq=False)
class VariantDef:
    """A loaded, validated variant definition (one YAML file)."""

    name: str
    title: str
    description: str
    aliases: tuple[str, ...]
    options: tuple[OptionSpec, ...]
    source: str
    tree: Any
    path: Path | None = None
    provider: str = ""
    family: str = "Other"  # the family of games it belongs to, as a title ("Klondike", "FreeCell")
    numbering: str | None = None  # a public numbering of deals it follows too (shuffle.NUMBERINGS)
    titles: dict[str, str] = attrs.field(factory=dict)  # language code -> the title its players say
    # language code -> the game's words in it (``translations:``; its titles are in ``titles`` too)
    translations: dict[str, Translation] = attrs.field(factory=dict)
    _cache: dict[tuple[str, Any], Any] = attrs.field(factory=dict, repr=False)

    def local_title(self, code: str | None = None) -> str:
        """The title in language ``code`` (default: the one in use), as its players say it:
        the YAML's ``titles`` or ``translations`` entry for it, else ``title``."""
        return self.titles.get(code or language(), self.title)

    def local_description(self, code: str | None = None) -> str:
        """The description in language ``code`` (default: the one in use): the YAML's
        ``translations`` entry for it, else ``description``."""
        local = self.translations.get(code or language())
        return local.description if local is not None and local.description is not None else self.description

    def local_help(self, option: OptionSpec, code: str | None = None) -> str:
        """An option's ``help`` in language ``code`` (default: the one in use), else as written."""
        local = self.translations.get(code or language())
        return local.options.get(option.name, option.help) if local is not None else option.help

    def option(self, name: str) -> OptionSpec:
        for o in self.options:
            if o.name == name:
                return o
        raise OptionError(self.unknown_option_message(name))

    def unknown_option_message(self, name: str) -> str:
        known = ", ".join(o.flag for o in self.options) or _("none")
        return _("{game} has no option --{name}; its options: {options}").format(
            game=self.name, name=name, options=known)

    def resolve_options(self, given: Mapping[str, Any] | None = None, check: bool = True) -> dict[str, Any]:
        """Defaults filled in, each given value validated; raise OptionError. With ``check``,
        the file must also take the values where it uses them (a count given on the command
        line may be past a limit there, e.g. ``--redeals 5000``): that too is an OptionError."""
        values = {o.name: o.default for o in self.options}
        for name, value in (given or {}).items():
            values[name] = self.option(name).parse(value)
        if check and given:
            key = ("resolved", tuple(sorted(values.items(), key=lambda kv: kv[0])))
            if key not in self._cache:
                try:
                    self._cache[key] = _resolve(self, values)
                except VariantError as exc:
                    shown = ", ".join(f"--{n} {self.option(n).show(values[n])}" for n in given)
                    raise OptionError(f"{self.name} cannot be played with {shown}: {exc}") from None
        return values

    def resolved(self, options: Mapping[str, Any] | None = None) -> ResolvedVariant:
        opts = self.resolve_options(options, check=False)
        key = tuple(sorted(opts.items(), key=lambda kv: kv[0]))
        hit = self._cache.get(("resolved", key))
        if hit is None:
            hit = _resolve(self, opts)
            self._cache[("resolved", key)] = hit
        return hit

    def memo(self, key: tuple[str, Any], make: Callable[[], T]) -> T:
        """``make()``, made once per key and kept with this variant: where the kernel keeps what
        it compiles from it (:meth:`Rules.of <solitaire.core.rules.Rules.of>`)."""
        if key not in self._cache:
            self._cache[key] = make()
        return cast(T, self._cache[key])

    def option_sets(self) -> list[dict[str, Any]]:
        """The defaults, and each option varied alone over its values: what load-time checks try."""
        base = {o.name: o.default for o in self.options}
        sets = [base]
        for o in self.options:
            values: list[Any]
            if o.kind == "flag":
                values = [True, False]
            elif o.kind == "choice":
                values = list(o.choices)
            else:
                values = [0, 1, 3] + ([None] if o.unlimited else [])
            for v in values:
                if v != base[o.name]:
                    sets.append({**base, o.name: v})
        return sets


def _variant_from_tree(tree: Any, source: str, path: Path | None, provider: str,
                       every_branch: bool = True) -> VariantDef:
    root = Where(tree, source, "", 1)
    if not isinstance(tree, dict):
        raise VariantError(f"{source}:1: expected a mapping with keys such as name, piles and deal; "
                           f"got {describe(tree)}")
    root.mapping(TOP_KEYS, required=("name", "piles", "deal"))
    name_w = root.child("name")
    name = name_w.value
    if not isinstance(name, str) or not name or not all(ch.isalnum() or ch == "-" for ch in name) \
            or name != name.lower():
        raise name_w.error(f"a variant name must be a lower-case word (letters, digits, '-'), got {describe(name)}")
    aliases_w = root.child("aliases")
    aliases: tuple[str, ...] = ()
    if aliases_w.value is not None:
        for item in aliases_w.items():
            if not isinstance(item.value, str) or item.value != item.value.lower() or not item.value:
                raise item.error(f"an alias must be a lower-case word, got {describe(item.value)}")
        aliases = tuple(aliases_w.value)
    for key in ("title", "description", "family"):
        w = root.child(key)
        if w.value is not None and not isinstance(w.value, str):
            raise w.error(f"expected text, got {describe(w.value)}")
    titles = _titles(root.child("titles"))
    options: list[OptionSpec] = []
    opts_w = root.child("options")
    if opts_w.value is not None:
        opts_w.mapping()
        if len(opts_w.value) > limits.MAX_OPTIONS:
            raise opts_w.error(f"{len(opts_w.value)} options; a variant may declare at most {limits.MAX_OPTIONS}")
        for key in opts_w.value:
            if not isinstance(key, str) or not key.isidentifier() or key != key.lower():
                raise opts_w.child(key).error(f"an option name must be a lower-case word, got {key!r}")
            options.append(_parse_option(opts_w.child(key)))
    translations = _translations(root.child("translations"), tuple(options), titles)
    titles = {**titles, **{code: t.title for code, t in translations.items() if t.title is not None}}
    numbering_w = root.child("numbering")
    if numbering_w.value is not None and numbering_w.value not in NUMBERINGS:
        shown = repr(numbering_w.value) if isinstance(numbering_w.value, str) else describe(numbering_w.value)
        raise numbering_w.error(f"unknown numbering {shown}; expected one of: {', '.join(NUMBERINGS)}"
                                + did_you_mean(numbering_w.value, NUMBERINGS))
    defn = VariantDef(
        name=name,
        title=root.child("title").value or name.capitalize(),
        description=" ".join((root.child("description").value or "").split()),
        aliases=aliases,
        options=tuple(options),
        source=source,
        tree=tree,
        path=path,
        provider=provider,
        family=" ".join((root.child("family").value or "Other").split()),
        numbering=numbering_w.value,
        titles=titles,
        translations=translations,
    )
    sets = defn.option_sets()
    if len(sets) > limits.MAX_OPTION_SETS:
        raise opts_w.error(f"{len(sets)} option sets to check (the defaults and each option varied alone); "
                           f"at most {limits.MAX_OPTION_SETS} are allowed")
    if every_branch:
        for option_set in sets:
            defn.resolved(option_set)  # resolve every branch now: errors surface at load time
    return defn


def load_variant_file(path: str | Path, provider: str = "", cache: Any = None) -> VariantDef:
    """Load and validate one variant YAML file; raise VariantError naming file, line and key.
    ``cache`` (a :class:`~solitaire.core.startcache.StartupCache`) may supply the parsed tree."""
    path = Path(path)
    if cache is None:
        return _variant_from_tree(load_yaml_file(path), path.name, path, provider)
    tree = cache.tree(path, load_yaml_file)
    checked = cache.checked(path)  # this very file passed every check before, under this code
    defn = _variant_from_tree(tree, path.name, path, provider, every_branch=not checked)
    if not checked:
        cache.mark_checked(path)
    return defn


def load_variant_text(text: str, source: str = "<string>", provider: str = "") -> VariantDef:
    return _variant_from_tree(load_yaml(text, source), source, None, provider)
