"""The Typer declarations the commands share (their options and app settings).

Apart from :mod:`.common` so that the typer-free paths (``play`` read by :mod:`.quickargs`)
never import Typer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer
import typer.core

from solitaire.core.i18n import N_, _

if TYPE_CHECKING:  # Typer's own copy of click (it vendors one)
    from typer._click import Command, Context, HelpFormatter

# the words of a help page that Typer says itself, through gettext's global domain: ours say them
typer.core._ = _  # type: ignore[attr-defined]  # (typer.core says them with gettext.gettext)
TYPER_WORDS = (N_("Arguments"), N_("Options"), N_("Commands"), N_("default: {default}"), N_("required"),
               N_("Aborted!"), N_("Missing command."), N_("No such command {name!r}."),
               N_("Show this message and exit."), N_("Install completion for the current shell."),
               N_("Show completion for the current shell, to copy it or customize the installation."))


def translated(command: Command) -> Command:
    """``command`` (a click command Typer built from the app) with its help texts, and those of
    its parameters and sub-commands, in the current language: the one place where ``--help``
    is translated, when it is shown (the texts are written in English, marked with ``N_``)."""
    for attr in ("help", "short_help", "epilog"):
        text = getattr(command, attr, None)
        if text:
            setattr(command, attr, _(text))
    for param in command.params:
        text = getattr(param, "help", None)
        if text:
            param.help = _(text)  # type: ignore[attr-defined]  # (an option's or a Typer argument's)
    for sub in getattr(command, "commands", {}).values():
        translated(sub)
    return command

EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}

# how every typer app of the command is set up: main() prints errors and help itself
APP_SETTINGS: dict[str, Any] = {"add_completion": False, "no_args_is_help": True,
                                "pretty_exceptions_enable": False, "rich_markup_mode": None}

SEED = typer.Option(None, "--seed", help=N_("Deal number N (the same deal everywhere, forever)."), min=0)
MS = typer.Option(None, "--ms", help=N_("Microsoft's numbered deal N (1 to 1000000, as Windows and PySolFC "
                  "number them), for the games that declare those numbers."), min=1, max=1_000_000, metavar="N")

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
            with formatter.section(_("Options of {game}").format(game=defn.name)):
                if rows:
                    formatter.write_dl(rows)
                else:
                    formatter.write_text(_("{game} has no options of its own.").format(game=defn.name))
        else:
            with formatter.section(_("Options of a game")):
                formatter.write_text(_("Each game declares its own (e.g. --draw 3): "
                                       "'solitaire {command} GAME --help' lists them.").format(command=ctx.info_name))
        super().format_epilog(ctx, formatter)
