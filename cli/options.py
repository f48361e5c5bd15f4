"""The Typer declarations the commands share (their options and app settings).

Apart from :mod:`.common` so that the typer-free paths (``play`` read by :mod:`.quickargs`)
never import Typer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer
import typer.core

if TYPE_CHECKING:  # Typer's own copy of click (it vendors one)
    from typer._click import Context, HelpFormatter

EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}

# how every typer app of the command is set up: main() prints errors and help itself
APP_SETTINGS: dict[str, Any] = {"add_completion": False, "no_args_is_help": True,
                                "pretty_exceptions_enable": False, "rich_markup_mode": None}

SEED = typer.Option(None, "--seed", help="Deal number N (the same deal everywhere, forever).", min=0)
MS = typer.Option(None, "--ms", help="Microsoft's numbered deal N (1 to 1000000, as Windows and PySolFC "
                  "number them), for the games that declare those numbers.", min=1, max=1_000_000, metavar="N")

# the key under which :func:`.commands.run` leaves, in the click context's ``obj``, the variant a
# ``--help`` line names (``solitaire play klondike --help``), for the help to list its options
HELP_VARIANT = "solitaire.help_variant"


class GameOptionsHelp(typer.core.TyperCommand):
    """A command whose ``--help`` lists, after its own options, those of the game the line
    names: each from the variant's declaration (its kind, default and YAML ``help:``)."""

    def format_epilog(self, ctx: Context, formatter: HelpFormatter) -> None:
        defn = ctx.find_root().obj.get(HELP_VARIANT) if isinstance(ctx.find_root().obj, dict) else None
        if defn is not None:
            from .common import option_rows

            rows = option_rows(defn)
            with formatter.section(f"Options of {defn.name}"):
                if rows:
                    formatter.write_dl(rows)
                else:
                    formatter.write_text(f"{defn.name} has no options of its own.")
        else:
            with formatter.section("Options of a game"):
                formatter.write_text("Each game declares its own (e.g. --draw 3): "
                                     f"'solitaire {ctx.info_name} GAME --help' lists them.")
        super().format_epilog(ctx, formatter)
