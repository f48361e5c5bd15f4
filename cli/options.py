"""The Typer declarations the commands share (their options and app settings).

Apart from :mod:`.common` so that the typer-free paths (``play`` read by :mod:`.quickargs`)
never import Typer.
"""

from __future__ import annotations

from typing import Any

import typer

EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}

# how every typer app of the command is set up: main() prints errors and help itself
APP_SETTINGS: dict[str, Any] = {"add_completion": False, "no_args_is_help": True,
                                "pretty_exceptions_enable": False, "rich_markup_mode": None}

DRAW = typer.Option(None, "--draw", help="Klondike: cards turned per draw, 1 or 3.", metavar="N")
REDEALS = typer.Option(None, "--redeals", help="Klondike: redeals allowed, a number or 'unlimited'.",
                       metavar="N|unlimited")
RELAXED = typer.Option(False, "--relaxed", help="Klondike: allow a foundation's top card back.")
SEED = typer.Option(None, "--seed", help="Deal number N (the same deal everywhere, forever).", min=0)
