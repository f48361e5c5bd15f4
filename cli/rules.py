"""``solitaire rules GAME [--OPTION VALUE ...]``: a game's rules in plain words.

The words come from :func:`solitaire.core.explain.explain`, made from the game's YAML; the
table's help screen shows the same (:func:`~solitaire.core.explain.rules_text`). ``--json`` prints the sections as data.
"""

from __future__ import annotations

import json
import shutil
import sys

import typer

from solitaire.core import Rules
from solitaire.core.explain import explain, rules_text
from solitaire.core.i18n import N_

from .common import _variant, _variant_options

MIN_WIDTH, MAX_WIDTH = 40, 100  # the text is wrapped to the terminal, within these


def rules_command(
    ctx: typer.Context,
    variant: str = typer.Argument(..., help=N_("The game, e.g. klondike.")),
    json_mode: bool = typer.Option(False, "--json", help=N_("Print the rules as JSON: the sections and their lines.")),
) -> None:
    """Show a game's rules in plain words (for these options: --NAME VALUE)."""
    defn = _variant(variant)
    options = _variant_options(defn, list(ctx.args))
    rules = Rules.of(defn, options)
    if json_mode:
        print(json.dumps({
            "variant": defn.name, "title": defn.title, "description": defn.description,
            "options": rules.options, "sections": [s.as_json() for s in explain(rules)],
        }, indent=2))
        return
    width = max(MIN_WIDTH, min(MAX_WIDTH, shutil.get_terminal_size().columns - 1))
    text = rules_text(rules, width)
    if sys.stdout.isatty():  # Arabic in the order the terminal needs (cli/bidi.py); a pipe gets it as read
        from .bidi import for_screen

        text = "\n".join(for_screen(line) if line.strip() else line for line in text.split("\n"))
    print(text)
