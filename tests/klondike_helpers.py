"""Helpers for the Klondike tests: build positions from a compact spec, snapshot games.

A compact spec maps pile names to card lists, bottom to top, as text:

* a tableau column: ``"5H 8C | 9D"`` (face-down cards, ``|``, face-up cards); without ``|``
  every card is face up;
* the stock: its cards, all face down (the last is the next drawn);
* the waste and the foundations: their cards, face up.

Every card not named goes into the stock, *below* the cards named there (so the named ones are
drawn first), in deck order. ``rest=None`` leaves them out (for "missing card" tests).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from solitaire.core import Game, get_variant
from solitaire.core.cards import DECK_SIZE, card_name, parse_card

PILES = ("stock", "waste", "f1", "f2", "f3", "f4", "t1", "t2", "t3", "t4", "t5", "t6", "t7")
TABLEAU = PILES[6:]
FOUNDATIONS = PILES[2:6]
DEFAULT_OPTIONS = {"draw": 1, "redeals": None, "relaxed": False}


def cards(text: str) -> list[str]:
    return text.split()


def suit_run(suit: str, low: int = 1, high: int = 13) -> str:
    """``suit_run("H", 1, 3)`` -> ``"AH 2H 3H"``."""
    return " ".join("A23456789TJQK"[r - 1] + suit for r in range(low, high + 1))


def position(spec: dict[str, str] | None = None, *, options: dict[str, Any] | None = None,
             score: int = 0, moves: int = 0, recycles: int | None = None, seed: int | None = None,
             rest: str | None = "stock") -> dict[str, Any]:
    """A klondike position dict from a compact spec (see the module docstring)."""
    spec = dict(spec or {})
    unknown = set(spec) - set(PILES)
    assert not unknown, f"bad pile names in spec: {unknown}"
    piles: dict[str, dict[str, list[str]]] = {}
    used: set[int] = set()
    for name in PILES:
        text = spec.get(name, "")
        if "|" in text:
            down_text, up_text = text.split("|")
            down, up = cards(down_text), cards(up_text)
        elif name == "stock":
            down, up = cards(text), []
        else:
            down, up = [], cards(text)
        for c in down + up:
            used.add(parse_card(c))
        piles[name] = {"down": down, "up": up}
    if rest is not None:
        missing = [card_name(c) for c in range(DECK_SIZE) if c not in used]
        if rest == "stock":
            piles["stock"]["down"] = missing + piles["stock"]["down"]
        else:
            piles[rest]["up"] = piles[rest]["up"] + missing
    data: dict[str, Any] = {
        "variant": "klondike",
        "seed": seed,
        "options": {**DEFAULT_OPTIONS, **(options or {})},
        "piles": piles,
        "score": score,
        "moves": moves,
    }
    if recycles is not None:
        data["recycles"] = recycles
    return data


def load(spec: dict[str, str] | None = None, **kwargs: Any) -> Game:
    """A game at the position the compact spec describes (options as keyword ``options=``)."""
    return Game.from_position(get_variant("klondike"), position(spec, **kwargs))


def won_but(spec: dict[str, str], options: dict[str, Any] | None = None, **kwargs: Any) -> Game:
    """Every card on its foundation (clubs f1, diamonds f2, hearts f3, spades f4) except the
    cards the spec places elsewhere; each foundation keeps the ranks below its lowest missing card."""
    named = {parse_card(c) for text in spec.values() for c in text.replace("|", " ").split()}
    full = dict(spec)
    for f, suit in zip(FOUNDATIONS, "CDHS", strict=True):
        if f in spec:
            continue
        top = 0
        for rank in range(1, 14):
            if parse_card("A23456789TJQK"[rank - 1] + suit) in named:
                break
            top = rank
        full[f] = suit_run(suit, 1, top) if top else ""
    return load(full, options=options, rest=None, **kwargs)


def suit(s: str, high: int = 13) -> list[str]:
    """``suit("H", 3)`` -> ``["AH", "2H", "3H"]``: a suit from the ace up, as a card list."""
    return ["A23456789TJQK"[r] + s for r in range(high)]


def near_won(seed: int | None = None, **piles: list[str]) -> dict[str, Any]:
    """Every card home but the kings of hearts and spades (on t1 and t2), unless ``piles`` say
    otherwise (a list of face-up cards per pile; for the stock, face-down cards): two moves
    from a win."""
    spec: dict[str, dict[str, list[str]]] = {n: {"down": [], "up": []} for n in PILES}
    spec["f1"]["up"], spec["f2"]["up"] = suit("C"), suit("D")
    spec["f3"]["up"], spec["f4"]["up"] = suit("H", 12), suit("S", 12)
    spec["t1"]["up"], spec["t2"]["up"] = ["KH"], ["KS"]
    for name, cards in piles.items():
        spec[name] = {"down": cards, "up": []} if name == "stock" else {"down": [], "up": cards}
    return {"variant": "klondike", "seed": seed, "options": {}, "piles": spec}


def snapshot(game: Game) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int, int, int]:
    """Everything a move may change: cards, face-down counts, score and counters."""
    return (tuple(tuple(p) for p in game.piles), tuple(game.down), game.score, game.moves, game.recycles)


def pile(game: Game, name: str) -> list[str]:
    return [card_name(c) for c in game.piles[game.rules.index[name]]]


def up(game: Game, name: str) -> list[str]:
    i = game.rules.index[name]
    return [card_name(c) for c in game.piles[i][game.down[i]:]]


def down_count(game: Game, name: str) -> int:
    return game.down[game.rules.index[name]]


def write_position(folder: Path, data: Any, name: str = "position.json") -> str:
    path = Path(folder) / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)
