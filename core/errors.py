"""Precise error types. Every message is one line a user can act on."""

from __future__ import annotations


class SolitaireError(Exception):
    """Base class of every error the kernel raises for bad input."""


class NotationError(SolitaireError, ValueError):
    """A move, card or pile name that cannot be parsed."""


class IllegalMoveError(SolitaireError):
    """A well-formed move that the rules refuse in this position."""


class AmbiguousMoveError(IllegalMoveError):
    """A move that could mean more than one thing; the message says how to pick one."""


class PositionError(SolitaireError, ValueError):
    """A position (JSON file, save file) that is malformed or impossible."""


class VariantError(SolitaireError):
    """A variant definition that cannot be loaded; the message names file, line and key."""

    keys: tuple[object, ...] | None = None  # where in the file: its keys and list indices (None: unknown)


class OptionError(SolitaireError, ValueError):
    """A variant option that is unknown or has a bad value."""


class UnknownVariantError(SolitaireError, LookupError):
    """No installed variant has that name or alias."""
