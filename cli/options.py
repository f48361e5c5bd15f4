"""The Typer declarations the commands share (their options and app settings).

Apart from :mod:`.common` so that the typer-free paths (``play`` read by :mod:`.quickargs`)
never import Typer.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import typer
import typer.core
from typer import _click

from solitaire.core.i18n import N_, _

if TYPE_CHECKING:  # Typer's own copy of click (it vendors one)
    from typer._click import Command, Context, HelpFormatter

# the words of a help page that Typer says itself, through gettext's global domain: ours say them
typer.core._ = _  # type: ignore[attr-defined]  # (typer.core says them with gettext.gettext)
TYPER_WORDS = (N_("Arguments"), N_("Options"), N_("Commands"), N_("default: {default}"), N_("required"),
               N_("Aborted!"), N_("Missing command."), N_("No such command {name!r}."),
               N_("Show this message and exit."), N_("Install completion for the current shell."),
               N_("Show completion for the current shell, to copy it or customize the installation."))

# The words Typer's copy of click says itself, which it writes in English (f-strings, no gettext):
# the usage line's prefix and the help option's text when a help page is written, and the usage
# errors, which :func:`usage_message` says again in the current language from click's English.
SHOW_HELP = N_("Show this message and exit.")
_english_usage = _click.formatting.HelpFormatter.write_usage
_english_help_option = _click.core.Command.get_help_option


def _write_usage(self: HelpFormatter, prog: str, args: str = "", prefix: str | None = None) -> None:
    _english_usage(self, prog, args, _("Usage: ") if prefix is None else prefix)


def _help_option(self: Command, ctx: Context) -> Any:
    option = _english_help_option(self, ctx)
    if option is not None:
        option.help = _(SHOW_HELP)
    return option


_click.formatting.HelpFormatter.write_usage = _write_usage  # type: ignore[method-assign]
_click.core.Command.get_help_option = _help_option  # type: ignore[method-assign]

# click's usage errors, as its English reads (the parts in {} are the line's own: option names,
# values, or a message said in turn); the first that matches the whole message is translated
_CLICK_ERRORS = [(re.compile(pattern, re.S), message) for pattern, message in (
    (r"Invalid value for (?P<hint>.+?): (?P<message>.*)", N_("Invalid value for {hint}: {message}")),
    (r"Invalid value: (?P<message>.*)", N_("Invalid value: {message}")),
    (r"Missing option (?P<hint>.+?)\.(?: (?P<message>.*))?", N_("Missing option {hint}.")),
    (r"Missing argument (?P<hint>.+?)\.(?: (?P<message>.*))?", N_("Missing argument {hint}.")),
    (r"Missing parameter (?P<hint>.+?)\.(?: (?P<message>.*))?", N_("Missing parameter {hint}.")),
    (r"(?P<message>.+) \(Possible options: (?P<options>.+)\)", N_("{message} (Possible options: {options})")),
    (r"No such option: (?P<name>.+)", N_("No such option: {name}")),
    (r"Option '(?P<name>.+)' requires an argument\.", N_("Option '{name}' requires an argument.")),
    (r"Option '(?P<name>.+)' does not take a value\.", N_("Option '{name}' does not take a value.")),
    (r"Got unexpected extra argument\(s\) \((?P<args>.*)\)", N_("Got unexpected extra argument(s) ({args})")),
    (r"Input should be a valid integer, unable to parse string as an integer",
     N_("Input should be a valid integer, unable to parse string as an integer")),
    (r"Input should be greater than or equal to (?P<n>-?[0-9]+)", N_("Input should be greater than or equal to {n}")),
    (r"Input should be less than or equal to (?P<n>-?[0-9]+)", N_("Input should be less than or equal to {n}")),
    (r"(?P<message>.+)\. Did you mean (?P<names>.+)\?", N_("{message}. Did you mean {names}?")),
)]


def _said(message: str) -> str:
    """``message``, one of click's English usage errors, in the current language (as it is when
    it is none of them: a message of ours, or one click words otherwise)."""
    for pattern, translation in _CLICK_ERRORS:
        found = pattern.fullmatch(message)
        if found is None:
            continue
        parts = found.groupdict()
        rest = parts.pop("message", None)
        if "{message}" in translation:
            return _(translation).format(message=_said(rest or ""), **parts)
        said = _(translation).format(**parts)
        return f"{said} {_said(rest)}" if rest else said
    return message


def usage_message(error: Exception) -> str:
    """A usage error of click's (an unknown option, a missing argument, a bad value), its one
    line in the current language."""
    format_message = getattr(error, "format_message", None)
    return _said(format_message() if callable(format_message) else str(error))


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
