"""Positions to and from JSON, validated with a precise reason for every refusal.

The format (lists run bottom to top; the stock's last card is the next drawn)::

    {"variant": "klondike", "seed": 17, "options": {"draw": 3, "redeals": null, "relaxed": false},
     "piles": {"t3": {"down": ["5H", "8C"], "up": ["9D"]}, "stock": {"down": [...], "up": []}, ...},
     "score": 0, "moves": 0, "recycles": 0}

``recycles`` (redeals used so far) is optional and defaults to 0.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .cards import FACE, HIDDEN, card_name, parse_card, parse_rank
from .errors import NotationError, OptionError, PositionError
from .rules import Rules
from .shuffle import MAX_SEED

KEYS = ("variant", "seed", "numbering", "options", "piles", "score", "moves", "recycles", "base")
REQUIRED = ("variant", "piles")


def read_position_file(path: str | Path) -> dict[str, Any]:
    """Read a position file as JSON data; raise PositionError with a one-line reason. Only a
    regular file within the limits of :mod:`solitaire.core.files` is read."""
    from .files import FileLimitError, read_bounded

    path = Path(path)
    try:
        text = read_bounded(path).decode("utf-8")
    except FileNotFoundError:
        raise PositionError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise PositionError(f"{path}: is a folder, not a position file") from None
    except FileLimitError as exc:
        raise PositionError(f"{path}: {exc}") from None
    except OSError as exc:
        raise PositionError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise PositionError(f"{path}: not a text file") from None
    data = parse_json(text, str(path))
    if not isinstance(data, dict):
        raise PositionError(f"{path}: a position is a JSON object with keys {', '.join(REQUIRED)} ...")
    return data


def parse_json(text: str, where: str) -> Any:
    """JSON data from ``text`` (a position file's, ``where``): PositionError, with ``where``
    and a one-line reason, for text that is not JSON or is past the limits of
    :mod:`solitaire.core.limits` (nesting, and the length of numbers), which are checked before
    anything is converted (so that no input makes a RecursionError or a huge integer)."""
    from .files import FileLimitError, loads_bounded

    try:
        return loads_bounded(text)
    except json.JSONDecodeError as exc:
        raise PositionError(f"{where}:{exc.lineno}: not valid JSON: {exc.msg}") from None
    except FileLimitError as exc:
        hint = "; a position nests 4 deep" if str(exc).startswith("JSON nested") else ""
        raise PositionError(f"{where}: {exc}{hint}") from None


def _whole(data: dict[str, Any], key: str, minimum: int | None = None, default: int = 0) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(f"{key} must be a whole number, got {value!r}")
    if minimum is not None and value < minimum:
        raise PositionError(f"{key} must be at least {minimum}, got {value}")
    return value


def game_from_position(cls: Any, variant: Any, data: Any) -> Any:
    if not isinstance(data, dict):
        raise PositionError("a position is a JSON object")
    for key in data:
        if key not in KEYS:
            raise PositionError(f"unknown key {key!r} in the position; expected: {', '.join(KEYS)}")
    for key in REQUIRED:
        if key not in data:
            raise PositionError(f"the position has no {key!r}")
    name = data["variant"]
    if name != variant.name and name not in variant.aliases:
        raise PositionError(f"the position is for {name!r}, not {variant.name!r}")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise PositionError("options must be an object, e.g. {\"draw\": 3}")
    try:
        rules = Rules.of(variant, {k: v for k, v in options.items()})
    except OptionError as exc:
        raise PositionError(f"options: {exc}") from None
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED):
        raise PositionError(f"seed must be null or a whole number from 0 to {MAX_SEED}, got {seed!r}")
    numbering = data.get("numbering")
    if numbering is not None:
        if numbering != variant.numbering:
            raise PositionError(f"numbering: {variant.name} has no {numbering!r} deal numbers"
                                + (f" (it has {variant.numbering!r})" if variant.numbering else ""))
        if seed is None:
            raise PositionError("a position with a numbering names its deal number as its seed")
    rules = _based(rules, data)
    piles = data["piles"]
    if not isinstance(piles, dict):
        raise PositionError("piles must be an object of pile name to {\"down\": [...], \"up\": [...]}")
    for pname in piles:
        if pname not in rules.index:
            raise PositionError(f"unknown pile {pname!r}; {rules.name} has {', '.join(rules.names)}")
    game = cls(rules, seed, numbering)
    where: dict[int, str] = {}  # card (face and copy) -> the pile it is in
    spare: dict[int, list[int]] = {}  # face -> the deck's copies of it not yet placed, lowest first
    for c in rules.deck:
        spare.setdefault(FACE[c], []).append(c)
    for i, pname in enumerate(rules.names):
        if pname not in piles:
            raise PositionError(f"pile {pname!r} is missing (every pile must be present, even if empty)")
        entry = piles[pname]
        if not isinstance(entry, dict) or set(entry) - {"down", "up"}:
            raise PositionError(f"{pname} must be an object {{\"down\": [...], \"up\": [...]}}")
        lists = []
        for part in ("down", "up"):
            cards = entry.get(part, [])
            if not isinstance(cards, list):
                raise PositionError(f"{pname}.{part} must be a list of cards")
            parsed = []
            for text in cards:
                if text == HIDDEN:
                    raise PositionError(f"{pname}.{part} has a hidden card '??': a position to load "
                                        "must show every card")
                if not isinstance(text, str):
                    raise PositionError(f"{pname}.{part}: {text!r} is not a card")
                try:
                    face = parse_card(text)
                except NotationError as exc:
                    raise PositionError(f"{pname}.{part}: {exc}") from None
                copies = spare.get(face)
                if not copies:
                    held = sum(1 for c in rules.deck if FACE[c] == face)
                    if held == 0:
                        raise PositionError(f"{pname}.{part}: {card_name(face)} is not in {rules.name}'s deck")
                    if held == 1:
                        first = next(w for c, w in where.items() if FACE[c] == face)
                        raise PositionError(f"{card_name(face)} appears twice (in {first} and {pname})")
                    raise PositionError(f"{card_name(face)} appears more than {held} times (the deck holds {held})")
                card = copies.pop(0)
                where[card] = pname
                parsed.append(card)
            lists.append(parsed)
        down, up = lists
        spec = rules.piles[i]
        if spec.role == "stock" and up and not rules.stock_open:
            raise PositionError(f"the {pname}'s cards are face down: {pname}.up must be empty")
        if spec.role == "stock" and down and rules.stock_open:
            raise PositionError(f"the {pname} is open, its cards face up: {pname}.down must be empty")
        if down and i not in rules.may_hide:
            raise PositionError(f"{pname} cannot hold face-down cards")
        if spec.flip and down and not up and not rules.covered[i]:  # a covered card waits face down
            raise PositionError(f"{pname} ends with a face-down card: a non-empty {spec.label.lower()} "
                                "pile ends face up")
        game.piles[i] = down + up
        game.down[i] = len(down)
        if len(game.piles[i]) > rules.capacity[i]:
            cap = rules.capacity[i]
            raise PositionError(f"{pname} holds at most {cap} card{'s' if cap != 1 else ''}, "
                                f"has {len(game.piles[i])}")
        if spec.role == "foundation":
            _check_foundation(rules, i, game.piles[i])
    if len(where) != len(rules.deck):
        missing = [card_name(c) for c in rules.deck if c not in where]
        raise PositionError(f"{len(missing)} card{'s are' if len(missing) != 1 else ' is'} missing: "
                            f"{', '.join(missing)}")
    game.score = _whole(data, "score", minimum=rules.floor)  # the score never goes below the floor
    game.moves = _whole(data, "moves", minimum=0)
    game.recycles = _whole(data, "recycles", minimum=0)
    if rules.redeals is not None and game.recycles > rules.redeals:
        raise PositionError(f"recycles is {game.recycles} but the options allow only {rules.redeals} redeal(s)")
    return game


def _based(rules: Any, data: dict[str, Any]) -> Any:
    """The rules of the position's base rank (``"base": "7"``), for a variant whose deal
    chooses one; without the key, the rank of the first card of a pile that starts on the
    base (a Canfield foundation), else a PositionError."""
    if not rules.needs_base:
        if "base" in data:
            raise PositionError(f"{rules.name} has no base rank: the position cannot give one")
        return rules
    text = data.get("base")
    if text is None:
        piles = data.get("piles")
        for pile in rules.piles:
            entry = piles.get(pile.name) if isinstance(piles, dict) else None
            if pile.empty.kind == "base" and pile.empty.offset == 0 and isinstance(entry, dict):
                cards = [*(entry.get("down") or []), *(entry.get("up") or [])]
                if cards and isinstance(cards[0], str) and cards[0] != HIDDEN:
                    text = cards[0][:-1]
                    break
        if text is None:
            raise PositionError(f"{rules.name}'s deal chooses a base rank: give it, e.g. \"base\": \"7\"")
    if not isinstance(text, (str, int)) or isinstance(text, bool):
        raise PositionError(f"base must be a rank such as \"7\" or \"K\", got {text!r}")
    try:
        return rules.with_base(parse_rank(text))
    except NotationError as exc:
        raise PositionError(f"base: {exc}") from None


def _check_foundation(rules: Any, i: int, cards: list[int]) -> None:
    """Refuse a foundation no game could have built: each card must fit on the one below it
    (the first on an empty pile). A foundation the stock deals onto is not checked: the
    stock's action puts any card there, fitting or not, so every order of its cards can
    come about (which card the stock gave is not in the position) and none is refused."""
    if i in rules.draw_targets or i == rules.pair_home:  # a pairs pile: cards come two at a time
        return
    spec = rules.piles[i]
    table = rules.accept[i]
    width = rules.width
    below = width  # the empty row
    for card in cards:
        if not table[below * width + card]:
            if below == width:
                raise PositionError(f"{spec.name} cannot start with {card_name(card)}: "
                                    f"it starts with {spec.empty.describe()}")
            raise PositionError(f"{spec.name} is out of order: {card_name(card)} does not go on "
                                f"{card_name(below)} ({spec.name} {spec.build.describe()})")
        below = card


def position_json(data: dict[str, Any]) -> str:
    """One compact line of JSON."""
    return json.dumps(data, separators=(",", ":"))
