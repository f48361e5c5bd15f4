"""The limits a variant file must keep, in one place (``docs/yaml-reference.md``, "Limits").

Each limit keeps the work of loading one file small and bounded, whatever the file holds:
the parser reads at most ``MAX_FILE_BYTES``; the tree it gives has at most ``MAX_VALUES``
values, counted with every alias expanded, so an alias bomb ("billion laughs") is refused
after that many, never built; the checks walk that tree once per option set, at most
``MAX_OPTION_SETS`` times, over at most ``MAX_PILES`` piles. A file past a limit gets one
line naming the file, the line and the key, like any other mistake.
"""

from __future__ import annotations

from typing import Final

from .cards import DECK_SIZE

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
#: a number of cards (a deal count, face-up cards, a draw, a capacity, a run shown) and of redeals
MAX_CARDS: Final = DECK_SIZE
MAX_REDEALS: Final = 1_000
#: points in one scoring rule, either sign
MAX_POINTS: Final = 1_000_000
