"""The JSON Schema of the variant YAML format, and a checker that reports every mistake in a file.

:func:`schema` builds the schema from the loader's own vocabulary in :mod:`.spec` (its
``*_KEYS`` tuples and allowed words: ``ROLES``, ``RANK_RULES`` ...) and the small table of value
types and descriptions below, so a key or a word added to the loader is in the schema at once
(a key with no entry in :data:`FIELDS` is allowed with any value until it gets one; a test
says so). Wherever the loader resolves option references, the schema allows them too:
``$NAME`` and ``{if: ..., then: ..., else: ...}``.

``python -m solitaire.core.schema > docs/reference/variant.schema.json`` writes the published
copy.

:func:`check_file` is ``solitaire check``'s work: every structural mistake the schema finds, as
``file:line: key.path: message`` (lines from :mod:`.yamlsource`'s line tracking), then the
loader's own error for each option set, without repeating a place already reported. The
``jsonschema`` library is imported only then.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import limits, spec
from .errors import SolitaireError, VariantError
from .rules import Rules
from .yamlsource import Where, describe, did_you_mean, load_yaml_file

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

SCHEMA_ID = "https://solitaire.invalid/variant.schema.json"
Schema = dict[str, Any]


def _ref(name: str) -> Schema:
    return {"$ref": f"#/$defs/{name}"}


def opt(name: str) -> Schema:
    """The value type ``name``, or an option reference resolving to one: what the loader's
    ``_Resolver.get`` allows where it reads a value."""
    return _ref(f"{name}?")


# --------------------------------------------------------------------------- value types

_CARD = "^([AaTtJjQqKk2-9]|10)[CcDdHhSs]$"
_RANK = "^([AaTtJjQqKk2-9]|10)$"
_POINTS = {"type": "integer", "minimum": -limits.MAX_POINTS, "maximum": limits.MAX_POINTS}

#: the value types, each also available as ``NAME?`` (the type, or an option reference to it)
TYPES: dict[str, Schema] = {
    "text": {"type": "string"},
    "word": {"type": "string", "pattern": "^[A-Za-z0-9-]+$", "description": "a word (letters, digits, '-')"},
    "flag": {"type": "boolean"},
    "open": {"anyOf": [{"type": "boolean"}, {"const": "top"}], "description": "true, false or top"},
    "piles": {"type": "integer", "minimum": 0, "maximum": limits.MAX_PILES,
              "description": "a number of piles (0 only for a reserve or a tableau)"},
    "decks": {"type": "integer", "minimum": 1, "maximum": limits.MAX_DECKS},
    "suits": {"anyOf": [{"type": "string", "pattern": "^[CDHScdhs]{1,4}$"},
                        {"type": "array", "items": {"type": "string", "pattern": "^[CDHScdhs]$"},
                         "minItems": 1, "maxItems": 4}],
              "description": "suit letters: S, SH or [S, H], CDHS"},
    "offset": {"type": "integer", "minimum": -12, "maximum": 12},
    "pick": {"enum": list(spec.PICKS)},
    "covers": {"type": "array", "items": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
               "description": "one entry per pile: the piles covering it, e.g. [t2, t3], or [] for none"},
    "cards": {"type": "integer", "minimum": 0, "maximum": limits.MAX_CARDS},
    "cards1": {"type": "integer", "minimum": 1, "maximum": limits.MAX_CARDS},
    "limit": {"anyOf": [{"type": "integer", "minimum": 1, "maximum": limits.MAX_CARDS}, {"type": "null"}],
              "description": "a number of cards from 1, or ~ for no limit"},
    "step": {"type": "integer", "minimum": 1, "maximum": 12},
    "points": _POINTS,
    "points-or-none": {"anyOf": [_POINTS, {"type": "null"}], "description": "whole points, or ~ for none"},
    "prefix": {"type": "string", "pattern": "^[a-z]+$", "description": "lower-case letters"},
    "role": {"enum": list(spec.ROLES)},
    "rank-rule": {"enum": list(spec.RANK_RULES)},
    "suit-rule": {"enum": [*spec.SUIT_RULES, *spec.SUIT_SPELLINGS]},
    "gives": {"enum": list(spec.GIVES)},
    "flip": {"enum": list(spec.FLIPS)},
    "fan": {"enum": list(spec.FANS)},
    "order": {"enum": list(spec.ORDERS)},
    "numbering": {"enum": list(spec.NUMBERINGS)},
    "card": {"type": "string", "pattern": _CARD, "description": "a card such as AC, TH or 10h"},
    "rank": {"anyOf": [{"type": "string", "pattern": _RANK}, {"type": "integer", "minimum": 1, "maximum": 13}],
             "description": "a rank: A 2-9 T J Q K, 10, or 1 to 13"},
    "redeals": {"anyOf": [{"type": "integer", "minimum": 0, "maximum": limits.MAX_REDEALS},
                          {"const": "unlimited"}, {"type": "null"}],
                "description": f"a number of redeals from 0 to {limits.MAX_REDEALS}, or unlimited"},
    "steps": {"anyOf": [_ref("step"), {"type": "array", "items": opt("step")}],
              "description": "a step from 1 to 12, or a list with one per pile"},
    "per-pile-cards": {"anyOf": [_ref("cards"), {"type": "array", "items": opt("cards")}],
                       "description": "a number of cards, or a list with one per pile"},
    "group-list": {"type": "array", "items": opt("text"), "description": "a list of pile groups"},
    "card-list": {"type": "array", "items": _ref("card"), "description": "a list of cards, one per pile"},
    "cards-per-pile": {"anyOf": [_ref("card"), _ref("card-list")], "description": "a card, or one per pile"},
    "ranks": {"anyOf": [_ref("rank"), {"type": "array", "items": _ref("rank"), "minItems": 1}],
              "description": "a rank or a list of ranks"},
    "empty-rule": {"anyOf": [{"enum": ["any", "none", "base"]}, _ref("empty-mapping")],
                   "description": "any, none, base, {rank: ...}, {cards: [...]} or {base: N}"},
    "score-moves": {"type": "array", "items": _ref("score-move"), "maxItems": limits.MAX_PILES},
    "layout": {"type": "array", "items": {"type": "array", "items": {"type": ["string", "null"]}},
               "description": "a list of rows, each a list of pile groups, piles and ~ for a gap"},
    "deal": {"type": "array", "items": _ref("deal-step"), "minItems": 1, "maxItems": limits.MAX_DEAL_STEPS},
    "options": {"type": "object", "maxProperties": limits.MAX_OPTIONS,
                "propertyNames": {"pattern": "^[a-z_][a-z0-9_]*$",
                                  "description": "an option's name, a lower-case word (letters, digits, '_')"},
                "additionalProperties": _ref("option")},
    "piles-map": {"type": "object", "minProperties": 1, "maxProperties": limits.MAX_PILES,
                  "propertyNames": {"pattern": "^[A-Za-z0-9-]+$",
                                    "description": "a pile group's name, a word (letters, digits, '-')"},
                  "additionalProperties": _ref("pile-group")},
    "choices": {"type": "array", "minItems": 1, "maxItems": limits.MAX_CHOICES,
                "items": {"type": ["integer", "string"]}},
    "option-kind": {"enum": list(spec.OPTION_KINDS)},
    "name": {"type": "string", "pattern": "^[a-z0-9-]+$", "description": "a lower-case word (letters, digits, '-')"},
    "aliases": {"type": "array", "items": _ref("name")},
    "titles": {"type": "object", "propertyNames": {"pattern": "^[a-z]{2,3}$",
                                                   "description": "a language code, as in LANG (uk, ar)"},
               "additionalProperties": {"type": "string", "minLength": 1}},
    "translations": {"type": "object", "propertyNames": {"pattern": "^[a-z]{2,3}$",
                                                         "description": "a language code, as in LANG (uk, ar)"},
                     "additionalProperties": _ref("translation")},
    "translated-text": {"type": "string", "minLength": 1, "pattern": "\\S", "description": "text, not empty"},
    "option-helps": {"type": "object", "propertyNames": {"pattern": "^[a-z_][a-z0-9_]*$",
                                                         "description": "the name of an option the game declares"},
                     "additionalProperties": _ref("translated-text")},
    "match": {"anyOf": [{"type": "integer", "minimum": 2, "maximum": 26}, {"const": "same-rank"}],
              "description": "a total of ranks from 2 to 26 (A=1, J=11, Q=12, K=13), or same-rank"},
    "aces": {"enum": list(spec.ACES)},
    "grid-size": {"type": "integer", "minimum": 1, "maximum": limits.MAX_PILES},
    "anything": {},
}

#: the mappings of the format: their keys (the loader's constants), required keys, and for each
#: key its value type (a name in TYPES; ``NAME?`` allows an option reference) and description
MAPPINGS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "variant": (spec.TOP_KEYS, ("name", "piles", "deal")),
    "option": (spec.OPTION_KEYS, ()),
    "pile-group": (spec.PILE_KEYS, ("role",)),
    "build-rule": (spec.BUILD_KEYS, ()),
    "empty-mapping": (spec.EMPTY_KEYS, ()),
    "draw": (spec.DRAW_KEYS, ("to",)),
    "deck": (spec.DECK_KEYS, ()),
    "win": (spec.WIN_KEYS, ()),
    "pairs": (spec.PAIR_KEYS, ("match",)),
    "grid": (spec.GRID_KEYS, ("rows", "columns")),
    "beaten-by": (spec.BEATEN_KEYS, ("group",)),
    "deal-step": (spec.DEAL_KEYS, ("to",)),
    "scoring": (spec.SCORING_KEYS, ()),
    "score-move": (spec.SCORE_MOVE_KEYS, ("from", "to", "points")),
    "translation": (spec.TRANSLATION_KEYS, ()),
}

FIELDS: dict[str, dict[str, tuple[str, str]]] = {
    "variant": {
        "name": ("name", "The variant's name, as typed in `solitaire play NAME`."),
        "title": ("text", "The name as shown. Default: the name, capitalised."),
        "aliases": ("aliases", "Other names the variant answers to."),
        "family": ("text", "The family of games it belongs to, as a title; the listing groups games by it."),
        "description": ("text", "One or two sentences for `solitaire variants` and `solitaire rules`."),
        "options": ("options", "The options a player may set."),
        "deck": ("deck?", "The cards: {decks: N, suits: ...}. Default: one deck of 52."),
        "win": ("win?", "What wins, when not every card home: {cleared: [GROUP ...], home: N}."),
        "piles": ("piles-map", "The pile groups, in order: group name -> settings."),
        "deal": ("deal", "The deal steps, in order."),
        "scoring": ("scoring?", "Points. Default: none."),
        "layout": ("layout?", "Where the piles sit on the table. Default: each group on its own row."),
        "numbering": ("numbering", "A public numbering of deals it also follows (microsoft: `--ms N` deals "
                      "Microsoft's numbered deal N). Default: none."),
        "titles": ("titles", "The name as the players of other languages say it: language code -> title "
                   "(`uk: Косинка`). Shown in that language; `play` answers to it too. The short form of "
                   "`translations: {uk: {title: Косинка}}`."),
        "translations": ("translations", "What the game says in words, per language: language code -> "
                         "{title, description, options: {NAME: help}}. Shown when that language is in use; "
                         "what is left out is shown as written above."),
    },
    "translation": {
        "title": ("translated-text", "The game's name in this language (not also in `titles`)."),
        "description": ("translated-text", "The description in this language."),
        "options": ("option-helps", "Option name -> its `help` in this language; only options the game declares."),
    },
    "option": {
        "type": ("option-kind", "choice, flag or count. Default: choice when choices are given."),
        "choices": ("choices", "For a choice: the values allowed."),
        "default": ("anything", "The value when the player gives none."),
        "help": ("text", "One line for `solitaire variants` and --help."),
        "unlimited": ("flag", "For a count: also allow 'unlimited'."),
    },
    "pile-group": {
        "role": ("role?", "What the piles are."),
        "count": ("piles?", "The number of piles in the group. Default: one pile, named by the key."),
        "prefix": ("prefix?", "Letters the piles are named with (prefix1, prefix2 ...). "
                              "Default: the key's first letter."),
        "alias": ("text?", "Another name for the pile (or for any pile of the group)."),
        "label": ("text?", "How the group is named in messages. Default: the key, capitalised."),
        "build": ("build-rule?", "What may go on a card of this pile."),
        "run": ("build-rule?", "Which top cards move together with gives: run. Default: the build rule."),
        "empty": ("empty-rule?", "What an empty pile takes."),
        "gives": ("gives?", "Which cards may leave the pile."),
        "flip": ("flip?", "auto: a face-down card left on top turns face up."),
        "capacity": ("limit?", "The most cards the pile ever holds."),
        "max-accept": ("limit?", "The most cards one move may put on the pile."),
        "min-accept": ("cards1?", "The fewest cards one move may put on the pile (13: a whole suit)."),
        "supermove": ("flag?", "Runs limited by free cells and empty piles: (1 + cells) x 2^(empty piles)."),
        "fill-from": ("text?", "A pile group whose top card fills an emptied pile of this group at once."),
        "covered-by": ("covers?", "One entry per pile: the piles that must be empty before it gives a card."),
        "open": ("open?", "Stock only: true deals its cards face up, every card seen; top: face up with only "
                          "its top card seen (with gives: top, its top card plays)."),
        "pairs": ("pairs?", "A discard pile of one: two available cards go onto it together, "
                            "{match: 13 | same-rank, touching: BOOL}."),
        "grid": ("grid?", "The group's piles are the cells of a grid, in reading order: {rows: R, columns: C}."),
        "beaten-by": ("beaten-by?", "A discard foundation: it takes a card while a higher card of its suit "
                                    "tops another pile of the group, {group: GROUP, aces: low | high}."),
        "accepts-from": ("group-list?", "The pile groups whose cards this pile takes."),
        "fan": ("fan?", "How the table shows the pile."),
        "show": ("limit?", "How many top cards a right or none pile shows."),
        "draw": ("draw?", "Stock only: {count: N, to: GROUP}."),
        "redeals": ("redeals?", "Stock only: times the waste may be turned back into the stock."),
    },
    "build-rule": {
        "rank": ("rank-rule?", "The rank relation."),
        "suit": ("suit-rule?", "The suit relation."),
        "step": ("steps?", "How many ranks apart, 1 to 12, or a list with one per pile."),
        "wrap": ("flag?", "Ranks wrap round between King and Ace."),
    },
    "empty-mapping": {
        "rank": ("ranks?", "The rank or ranks an empty pile takes."),
        "cards": ("cards-per-pile?", "The card each empty pile takes, one per pile."),
        "base": ("offset?", "Ranks from the base rank the deal chooses (-1: one below)."),
    },
    "draw": {
        "count": ("cards1?", "Cards turned by one draw."),
        "to": ("text?", "The pile group the cards go to."),
        "not-onto-empty": ("flag?", "Refused while a pile it deals to is empty."),
        "consolidate": ("flag?", "First close the gaps: the piles' cards slide toward the first pile, "
                                 "in order; then one card into each empty pile at the end."),
    },
    "deck": {
        "decks": ("decks?", "How many decks' worth of cards, 1 to 8."),
        "suits": ("suits?", "The suits, each repeated to fill the decks. Default: CDHS."),
    },
    "win": {
        "cleared": ("group-list?", "Pile groups that must be empty."),
        "home": ("cards1?", "Cards that must be on the foundations."),
        "one-card": ("group-list?", "Pile groups whose piles must each hold exactly one card."),
    },
    "deal-step": {
        "to": ("text?", "The pile group dealt to."),
        "counts": ("per-pile-cards?", "Cards per pile: a number, or a list with one per pile."),
        "face-up": ("per-pile-cards?", "How many top cards of each pile are face up. Default: all."),
        "order": ("order?", "rows: a card to each pile in turn; piles: each pile filled before the next."),
        "cards": ("card-list?", "Given cards, one per pile."),
        "rest": ("flag?", "true: every card left goes here (the last step)."),
        "to-bottom": ("ranks?", "Ranks moved under the other cards of their pile."),
        "base": ("flag?", "true: the first card this step deals sets the base rank."),
        "pick": ("pick?", "base: deal cards of the base rank, taken from the deck."),
    },
    "scoring": {
        "moves": ("score-moves?", "Points for each card moved from one group to another."),
        "turn-up": ("points-or-none?", "Points when a face-down card turns face up."),
        "recycle": ("points-or-none?", "Points when the waste is turned back into the stock."),
        "floor": ("points-or-none?", "The lowest the score may go."),
    },
    "pairs": {
        "match": ("match?", "A total of ranks (13: a King alone, or two cards making 13), or same-rank."),
        "touching": ("flag?", "Only two cards in cells of a grid that touch, diagonals included."),
    },
    "grid": {
        "rows": ("grid-size?", "Rows of cells."),
        "columns": ("grid-size?", "Cells in a row."),
    },
    "beaten-by": {
        "group": ("text?", "The pile group whose top cards beat a card."),
        "aces": ("aces?", "low: an Ace is below the Two (default); high: above the King."),
    },
    "score-move": {
        "from": ("text?", "The pile group the cards come from."),
        "to": ("text?", "The pile group they go to."),
        "points": ("points?", "Whole points per card moved; may be negative."),
    },
}

_OPTION_REF: Schema = {
    "type": "string", "pattern": "^\\$[a-z_][a-z0-9_]*$",
    "description": "$NAME: the value of the option NAME",
}
_CONDITION: Schema = {
    "anyOf": [{"type": "string"}, {"type": "object", "minProperties": 1}],
    "description": "an option name (a flag), or a mapping of option names to values that must all match",
}


def _field(mapping: str, key: str) -> Schema:
    name, text = FIELDS.get(mapping, {}).get(key, ("anything", "(not described in core/schema.py yet)"))
    return {**(opt(name[:-1]) if name.endswith("?") else _ref(name)), "description": text}


def _mapping(name: str) -> Schema:
    keys, required = MAPPINGS[name]
    out: Schema = {"type": "object", "properties": {key: _field(name, key) for key in keys},
                   "additionalProperties": False}
    if required:
        out["required"] = list(required)
    return out


def schema() -> Schema:
    """The JSON Schema (draft 2020-12) of a variant file."""
    defs: Schema = {}
    for name in MAPPINGS:
        defs[name] = _mapping(name)
    defs.update(TYPES)
    defs["option-ref"] = _OPTION_REF
    for name in list(defs):
        if name == "option-ref":
            continue
        what = defs[name].get("description")
        defs[f"{name}?"] = {
            "anyOf": [_ref(name), _ref("option-ref"), {
                "type": "object", "required": ["if", "then"], "additionalProperties": False,
                "properties": {"if": _CONDITION, "then": opt(name), "else": opt(name)},
                "description": "{if: OPTION, then: VALUE, else: VALUE}: a value chosen by an option",
            }],
            **({"description": what} if what else {}),
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "solitaire variant",
        "description": "A patience game declared for the solitaire kernel (docs/yaml-reference.md).",
        **_ref("variant"),
        "$defs": defs,
    }


def schema_text() -> str:
    """The schema as published in docs/reference/variant.schema.json."""
    return json.dumps(schema(), indent=2) + "\n"


# --------------------------------------------------------------------------- checking

_TYPE_WORDS = {"object": "a mapping", "array": "a list", "string": "text", "integer": "a whole number",
               "boolean": "true or false", "null": "nothing (~)", "number": "a number"}


def _where(tree: Any, source: str, path: Any) -> Where:
    where = Where(tree, source, "", 1)
    for key in path:
        where = where.child(key)
    return where


def _expected(schema_part: Mapping[str, Any]) -> str:
    if "description" in schema_part and "$ref" not in schema_part:
        return str(schema_part["description"])
    if "enum" in schema_part:
        return "one of: " + ", ".join(map(str, schema_part["enum"]))
    kind = schema_part.get("type")
    if isinstance(kind, list):
        return " or ".join(_TYPE_WORDS.get(str(k), str(k)) for k in kind)
    if isinstance(kind, str):
        return _TYPE_WORDS.get(kind, kind)
    return "another value"


def _messages(error: ValidationError, tree: Any, source: str) -> Iterator[tuple[Where, str]]:
    """(place, message) for one error of the schema, in the loader's words where it has them."""
    where = _where(tree, source, error.absolute_path)
    value = error.instance
    kind = error.validator
    part = error.schema if isinstance(error.schema, Mapping) else {}
    if kind in ("anyOf", "oneOf") and error.context:
        branches: dict[int, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
        choices = part.get("anyOf", [])
        if len(choices) == 3 and choices[1] == _ref("option-ref"):  # a value, or an option reference to one
            wanted = [1 if isinstance(value, str) else 2] if _is_reference(value) else [0]
        else:
            wanted = [b for b, subs in branches.items() if not all(_mismatch(s, error) for s in subs)]
        if len(wanted) == 1:
            for sub in branches.get(wanted[0], []):
                yield from _messages(sub, tree, source)
            return
        yield where, f"expected {_expected(part)}, got {describe(value)}"
        return
    if kind == "additionalProperties" and isinstance(value, dict):
        allowed = list(part.get("properties", {}))
        for key in value:
            if key not in allowed:
                yield where.child(key), (f"unknown key {key!r}; expected one of: {', '.join(allowed)}"
                                         + did_you_mean(key, allowed))
        return
    if kind == "required" and isinstance(value, dict):
        for key in part.get("required", ()):
            if key not in value:
                yield where, f"missing key {key!r}"
        return
    if kind == "enum":
        allowed = [str(a) for a in part.get("enum", ())]
        shown = repr(value) if isinstance(value, str) else describe(value)
        yield where, f"unknown value {shown}; expected one of: {', '.join(allowed)}" + did_you_mean(value, allowed)
        return
    if kind == "type":
        yield where, f"expected {_expected({'type': error.validator_value})}, got {describe(value)}"
        return
    if kind == "const":
        yield where, f"expected {error.validator_value!r}, got {describe(value)}"
        return
    if kind == "minimum":
        yield where, f"expected a number of at least {error.validator_value}, got {value}"
        return
    if kind == "maximum":
        yield where, f"expected a number of at most {error.validator_value}, got {value}"
        return
    if kind == "pattern":
        if isinstance(where.value, dict) and value in where.value and value is not where.value:  # a key's name
            where = where.child(value)
        yield where, f"expected {_expected(part)}, got {describe(value)}"
        return
    if kind == "propertyNames":
        yield where, f"bad key: {error.message}"
        return
    yield where, " ".join(error.message.split())


def _is_reference(value: Any) -> bool:
    return (isinstance(value, str) and value.startswith("$")) or (isinstance(value, dict) and "if" in value)


def _mismatch(error: ValidationError, parent: ValidationError) -> bool:
    """The error says the value is of another kind (or another word) altogether, not that it is
    of the right kind with a mistake inside."""
    if list(error.absolute_path) != list(parent.absolute_path):
        return False
    if error.validator in ("type", "enum", "const"):
        return True
    if error.validator in ("anyOf", "oneOf"):
        return all(_mismatch(sub, parent) for sub in error.context)
    return False


def schema_problems(tree: Any, source: str) -> list[str]:
    """Every structural mistake in a parsed variant file, as ``source:line: key.path: message``,
    in the file's order."""
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema())
    found: dict[str, tuple[int, str]] = {}
    for error in validator.iter_errors(tree):
        for where, message in _messages(error, tree, source):
            text = str(where.error(message))
            found.setdefault(text, (where.line, where.path))
    return sorted(found, key=lambda text: found[text])


_PLACE = re.compile(r"^(.*?:\d+:(?: [^ ]+:)?) ")


def _place(message: str) -> str:
    found = _PLACE.match(message)
    return found.group(1) if found else message


MAX_READ_ON = 50  # mistakes the loader reports in one option set before it stops reading on


def _without(tree: Any, keys: tuple[object, ...] | None, whole: bool = False) -> bool:
    """Take out of ``tree`` the value at ``keys`` (a key of a mapping, an item of a list), so
    the loader can read on past a mistake there, as if the key had not been written; False
    when there is nothing to take out: the top level, a place not found, or a whole mapping
    (a mapping's own mistake, a missing key say: without it, what follows would be noise),
    but for one option's declaration, which goes whole. A branch of a choice by option
    (``{if: ..., then: ..., else: ...}``) takes the whole choice with it."""
    if not keys:
        return False
    parent = tree
    for key in keys[:-1]:
        try:
            parent = parent[key]
        except (KeyError, IndexError, TypeError):
            return False
    last = keys[-1]
    try:
        value = parent[last]
    except (KeyError, IndexError, TypeError):
        return False
    if isinstance(parent, dict) and "if" in parent and last in ("if", "then", "else"):
        return _without(tree, keys[:-1], whole=True)
    if isinstance(value, dict) and not whole and keys[:1] != ("options",) and "if" not in value:
        return False
    if isinstance(parent, list) and isinstance(last, int):
        del parent[last]
        lines = getattr(parent, "item_lines", None)
        if lines:
            del lines[last]
    elif isinstance(parent, dict):
        del parent[last]
    else:
        return False
    return True


def _read_on(tree: Any, attempt: Callable[[Any], object]) -> tuple[list[SolitaireError], Any]:
    """The mistakes ``attempt(tree)`` meets, each time with the place of the last one taken out
    of a copy of the tree (see :func:`_without`), until it goes through or cannot read on; and
    that copy, or None when it did not go through in the end."""
    tree = copy.deepcopy(tree)
    found: list[SolitaireError] = []
    taken: list[tuple[object, ...]] = []
    while len(found) < MAX_READ_ON:
        try:
            attempt(tree)
        except SolitaireError as exc:
            keys = exc.keys if isinstance(exc, VariantError) else None
            if keys is not None and any(len(keys) < len(t) and t[:len(keys)] == keys for t in taken):
                return found, None  # what holds a value taken out misses it: that is no mistake of the file's
            found.append(exc)
            if keys is None or not _without(tree, keys):
                return found, None
            taken.append(keys)
        else:
            return found, tree
    return found, None


def loader_problems(tree: Any, source: str, path: Path | None = None, skip: frozenset[str] = frozenset()) -> list[str]:
    """The loader's own errors for each option set (the defaults first), each said once: after a
    mistake it reads on as if the key had not been written (see :func:`_read_on`), so every
    mistake of an option set is found, not only the first. Those at a place in ``skip``
    (``file:line: key.path:``, already reported) are left out."""
    out: list[str] = []
    said: set[str] = set()

    def keep(text: str, changed: str = "") -> None:
        if text in said or _place(text) in skip:
            return
        said.add(text)
        out.append(f"{text} (with {changed})" if changed else text)

    def definition(t: Any) -> spec.VariantDef:
        return spec._variant_from_tree(t, source, path, "", every_branch=False)

    def compiled(t: Any, options: dict[str, Any]) -> Rules:
        return Rules.of(definition(t), options)

    first, read = _read_on(tree, definition)  # the names, options and keys of the file
    for text in sorted(map(str, first), key=_line):
        keep(text)
    if read is None:
        return out
    defn = definition(read)
    defaults = {o.name: o.default for o in defn.options}
    for options in defn.option_sets():
        changed = ", ".join(f"--{o.name} {o.show(options[o.name])}" for o in defn.options
                            if options[o.name] != defaults[o.name])
        found, _ = _read_on(read, functools.partial(compiled, options=options))
        for text in sorted(map(str, found), key=_line):  # in the file's order (a stable sort)
            keep(text, changed)
    return out


def _line(message: str) -> int:
    found = re.match(r"^.*?:(\d+):", message)
    return int(found.group(1)) if found else 0


def check_file(path: Path, shown: str | None = None) -> list[str]:
    """Every mistake in one variant file, structural then semantic; ``[]`` when it is clean.
    A file that cannot be read or parsed gives one line."""
    source = shown if shown is not None else str(path)
    if path.is_dir():
        return [f"{source}: is a directory, not a variant file"]
    if not path.exists():
        return [f"{source}: no such file"]
    try:
        tree = load_yaml_file(path)
    except SolitaireError as exc:
        text = str(exc)
        for prefix in (str(path), path.name):
            if text.startswith(prefix + ":"):
                text = source + text[len(prefix):]
                break
        return [text]
    structural = schema_problems(tree, source)
    if not isinstance(tree, dict):
        return structural
    skip = frozenset(_place(text) for text in structural)
    return structural + loader_problems(tree, source, path, skip)


if __name__ == "__main__":  # python -m solitaire.core.schema > docs/reference/variant.schema.json
    print(schema_text(), end="")
