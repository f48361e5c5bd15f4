"""The solitaire kernel: cards, piles, declared build rules, deals, moves, undo, positions.

It knows no game by name; every game is a variant declared in YAML and registered through
the ``solitaire`` entry-point group (see :mod:`solitaire.core.plugins`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .cards import card_name, parse_card
    from .errors import (
        AmbiguousMoveError,
        IllegalMoveError,
        NotationError,
        OptionError,
        PositionError,
        SolitaireError,
        UnknownVariantError,
        VariantError,
    )
    from .game import Game, Move, MoveRecord
    from .hookspecs import hookimpl, hookspec, variants_in_folder
    from .plugins import BrokenPlugin, Registry, build_registry, get_variant, registry
    from .rules import Rules
    from .shuffle import shuffled_deck
    from .spec import OptionSpec, VariantDef, load_variant_file, load_variant_text

#: where each public name lives: importing ``solitaire.core`` loads nothing until a name is
#: used (PEP 562), so ``solitaire.core.conformance`` -- a pytest plugin loaded by every pytest
#: run wherever solitaire is installed -- and ``solitaire.core.cards`` cost only themselves
_WHERE = {
    "AmbiguousMoveError": "errors",
    "BrokenPlugin": "plugins",
    "Game": "game",
    "IllegalMoveError": "errors",
    "Move": "game",
    "MoveRecord": "game",
    "NotationError": "errors",
    "OptionError": "errors",
    "OptionSpec": "spec",
    "PositionError": "errors",
    "Registry": "plugins",
    "Rules": "rules",
    "SolitaireError": "errors",
    "UnknownVariantError": "errors",
    "VariantDef": "spec",
    "VariantError": "errors",
    "build_registry": "plugins",
    "card_name": "cards",
    "get_variant": "plugins",
    "hookimpl": "hookspecs",
    "hookspec": "hookspecs",
    "load_variant_file": "spec",
    "load_variant_text": "spec",
    "parse_card": "cards",
    "registry": "plugins",
    "shuffled_deck": "shuffle",
    "variants_in_folder": "hookspecs",
}

__all__ = [
    "AmbiguousMoveError",
    "BrokenPlugin",
    "Game",
    "IllegalMoveError",
    "Move",
    "MoveRecord",
    "NotationError",
    "OptionError",
    "OptionSpec",
    "PositionError",
    "Registry",
    "Rules",
    "SolitaireError",
    "UnknownVariantError",
    "VariantDef",
    "VariantError",
    "build_registry",
    "card_name",
    "get_variant",
    "hookimpl",
    "hookspec",
    "load_variant_file",
    "load_variant_text",
    "parse_card",
    "registry",
    "shuffled_deck",
    "variants_in_folder",
]


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{where}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
