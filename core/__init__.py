"""The solitaire kernel: cards, piles, declared build rules, deals, moves, undo, positions.

It knows no game by name; every game is a variant declared in YAML and registered through
the ``solitaire`` entry-point group (see :mod:`solitaire.core.plugins`).
"""

from __future__ import annotations

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
