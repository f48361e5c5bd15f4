"""The limits the program puts on its input, in one place: one named constant each.

Plain constants only, so that any module may import them cheaply. They are stated in
``docs/reference/limits.md`` (every input) and ``docs/yaml-reference.md`` ("Limits", the variant
files); tests check both pages against the numbers here.

Variant files: each limit keeps the work of loading one file small and bounded, whatever the
file holds: the parser reads at most ``MAX_FILE_BYTES``; the tree it gives has at most
``MAX_VALUES`` values, counted with every alias expanded, so an alias bomb ("billion laughs")
is refused after that many, never built; the checks walk that tree once per option set, at most
``MAX_OPTION_SETS`` times, over at most ``MAX_PILES`` piles. A file past a limit gets one line
naming the file, the line and the key, like any other mistake.
"""

from __future__ import annotations

from typing import Final

from . import cards

# ---------------------------------------------------------------- command lines and JSON input

MAX_LINE_BYTES: Final = 10_000
"""The longest command line read by the line mode and the ``--json`` protocol, in bytes
(without its newline). A longer line is refused as it is read, without being held: the rest of
it is skipped up to the next newline."""

MAX_ECHO_CHARS: Final = 60
"""The most characters of a user's input that is shown back (the line mode's echo of a
command, and a refusal quoting what was typed); a longer text is cut and ends with ``...``."""

MAX_JSON_DEPTH: Final = 20
"""The deepest nesting of arrays and objects in a JSON document read as a position or a saved
game (a position nests 4 deep, a save's header 5); deeper is refused before it is parsed."""

MAX_JSON_NUMBER_CHARS: Final = 40
"""The most characters in one number of a JSON document read as a position or a saved game (a
seed, at most 2**64 - 1, has 20 digits); a longer number is refused, not converted."""

MAX_DATA_FILE_BYTES: Final = 64 * 1024 * 1024
"""The largest saved game, position file or statistics file read, in bytes; only a regular file
is read (a named pipe, a device such as ``/dev/zero`` or a folder is refused unread)."""

# ---------------------------------------------------------------- variant files

#: bytes in one variant file
MAX_FILE_BYTES: Final = 64 * 1024
#: mappings and lists inside one another (the top-level mapping is depth 1)
MAX_DEPTH: Final = 32
#: values in the parsed tree: every key, scalar, mapping and list, each alias expanded
MAX_VALUES: Final = 2_000
#: uses of an alias (``*name``); an alias inside its own anchor is always refused
MAX_ALIASES: Final = 100
#: characters in one number as written (``-12``, ``1.5e3``)
MAX_NUMBER_CHARS: Final = 32
#: piles in one variant, over all its pile groups
MAX_PILES: Final = 64
#: steps in the deal
MAX_DEAL_STEPS: Final = 64
#: options one variant declares, and choices one option offers
MAX_OPTIONS: Final = 16
MAX_CHOICES: Final = 16
#: option sets checked at load time: the defaults and each option varied alone
MAX_OPTION_SETS: Final = 32
#: a number of cards (a deal count, face-up cards, a draw, a capacity, a run shown): the most
#: cards a game may hold (eight copies of each face, or eight decks)
MAX_CARDS: Final = cards.CARD_SPACE
#: copies of each face in a game's deck (Spider of one suit: two decks' worth of spades)
MAX_DECKS: Final = cards.MAX_COPIES
MAX_REDEALS: Final = 1_000
#: points in one scoring rule, either sign
MAX_POINTS: Final = 1_000_000
