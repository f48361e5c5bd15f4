"""What the commands share: variant look-up, variant options, starting a game, user errors.

Kept apart from :mod:`solitaire.cli.commands` so that every command module (``solve``, ``race``)
imports it without importing the app, and free of Typer so that ``play`` starts without it
(the shared Typer declarations are in :mod:`.options`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from solitaire.core import Game, Rules, SolitaireError, VariantDef, get_variant
from solitaire.core.i18n import N_, _
from solitaire.core.position import read_position_file
from solitaire.core.shuffle import MAX_SEED

RANDOM_SEEDS = 1_000_000_000  # fresh deals use seeds below this, short enough to read out
# what the player is told of a new deal that neither a shipped pool nor the live search won
UNCHECKED = N_("this deal is unchecked: the solver did not win it in time")
# the live search's budget for a new deal: None for its time bound (see winnable_seed); a
# number of states instead makes it the same on any machine (tests set it small)
LIVE_STATES: int | None = None


def fresh_seed() -> int:
    """A seed for a deal nobody chose, from the system's randomness (as ``secrets`` does,
    without importing it and its hashing modules)."""
    return random.SystemRandom().randrange(RANDOM_SEEDS)


def on_terminal() -> bool:
    """Both stdin and stdout are a terminal, or a browser's page through textual-serve (which
    runs a session with Textual's web driver): the full-screen table may open."""
    import os
    import sys

    if os.environ.get("TEXTUAL_DRIVER") == "textual.drivers.web_driver:WebDriver":
        return True
    return sys.stdin.isatty() and sys.stdout.isatty()


class UserError(Exception):
    """A mistake in what the user typed: one line on stderr, exit status 2."""


def fail(message: str) -> NoReturn:
    raise UserError(message)


def _variant(name: str) -> VariantDef:
    if name.startswith("-"):  # a game's option where the game should be (Typer took it for one)
        fail(_("{name} is not a game: name the game, e.g. klondike, before its options").format(name=name))
    try:
        return get_variant(name)
    except SolitaireError as exc:
        fail(str(exc))


def is_game(word: str) -> bool:
    """Whether ``word`` names an installed game (a name or an alias)."""
    try:
        get_variant(word)
    except SolitaireError:
        return False
    return True


def _variant_options(defn: VariantDef, extra: list[str]) -> dict[str, Any]:
    """The variant's own options given on the command line (only those given), validated by
    the variant: ``--NAME VALUE``, ``--NAME=VALUE`` or a bare ``--FLAG`` (``-`` or ``_`` in NAME).
    Every option comes from the variant's declaration; the command line names none."""
    given: dict[str, Any] = {}
    i = 0
    while i < len(extra):
        arg = extra[i]
        if not arg.startswith("--") or len(arg) < 3:
            fail(_("unexpected argument {arg!r}").format(arg=arg))
        key, eq, value = arg[2:].partition("=")
        name = key.replace("-", "_")
        spec = next((o for o in defn.options if o.name == name), None)
        if spec is None:
            fail(defn.unknown_option_message(key))
        if name in given:
            fail(_("--{name} is given twice").format(name=key))
        if spec.kind == "flag" and not eq:
            given[name] = True
        elif eq:
            given[name] = value
        else:
            if i + 1 >= len(extra) or extra[i + 1].startswith("--"):
                fail(_("--{name} needs a value").format(name=key))
            i += 1
            given[name] = extra[i]
        i += 1
    try:
        defn.resolve_options(given)
    except SolitaireError as exc:
        fail(str(exc))
    return {name: defn.option(name).parse(value) for name, value in given.items()}


def option_rows(defn: VariantDef) -> list[tuple[str, str]]:
    """The variant's options for a help page: (``--NAME VALUES``, help and default), in order."""
    rows = []
    for o in defn.options:
        if o.kind == "flag":
            usage = o.flag
        elif o.kind == "count":
            usage = f"{o.flag} N" + ("|unlimited" if o.unlimited else "")
        else:
            usage = f"{o.flag} " + "|".join(str(c) for c in o.choices)
        words = defn.local_help(o)  # in the language in use, where the game gives it
        text = words[:1].upper() + words[1:] if words else ""
        default = "[" + _("default: {default}").format(default=o.show(o.default)) + "]"
        rows.append((usage, f"{text.rstrip('.')}.  {default}" if text else default))
    return rows


MS = "microsoft"  # the numbering ``--ms N`` names: the deals Windows numbered (PySolFC's too)


def ms_deal(defn: VariantDef, number: int) -> int:
    """``--ms N`` checked for this game: N; a game that declares no Microsoft numbering, or N
    out of its range, is one line (UserError)."""
    if defn.numbering != MS:
        from solitaire.core import registry

        having = ", ".join(d.name for d in registry().sorted() if d.numbering == MS) or _("none installed")
        fail(_("{game} has no Microsoft deal numbers: --ms is for {games}").format(game=defn.name, games=having))
    from solitaire.core.shuffle import NUMBERINGS

    first, last = NUMBERINGS[MS].first, NUMBERINGS[MS].last
    if isinstance(number, bool) or not first <= number <= last:
        fail(f"--ms must be a deal number from {first} to {last:,}, got {number}")
    return number


def _start_game(defn: VariantDef, options: dict[str, Any], seed: int | None,
                position: Path | None, any_deal: bool = True,
                told: Callable[[str], None] | None = None, ms: int | None = None) -> Game:
    """A new deal, or the position in a file; ``options`` (those given) override the file's.
    Without ``any_deal``, a deal the solver has won; when it won none in its budget, the deal
    is dealt anyway and ``told`` :data:`UNCHECKED`. ``ms``: Microsoft's numbered deal of that
    number (the game must declare that numbering)."""
    if ms is not None:
        if seed is not None or position is not None:
            fail("--ms names the deal: give no --seed or --position with it")
        return Game.new(Rules.of(defn, options), ms_deal(defn, ms), numbering=MS)
    if position is not None:
        if seed is not None:
            fail(_("give --seed or --position, not both"))
        try:
            data = read_position_file(position)
        except SolitaireError as exc:
            fail(str(exc))
        if "options" not in data:
            data = {**data, "options": {}}
        if isinstance(data["options"], dict):  # anything else is refused by from_position
            data = {**data, "options": {**data["options"], **options}}
        try:
            return Game.from_position(defn, data)
        except SolitaireError as exc:
            fail(f"{position}: {exc}")
    if seed is None and not any_deal:  # a deal the solver has won (shipped pool, else solved live)
        from solitaire.core.solver import winnable_seed

        seed, proved = winnable_seed(defn, options, seeds_below=RANDOM_SEEDS, states=LIVE_STATES)
        if not proved and told is not None:
            told(_(UNCHECKED))
    if seed is None:
        seed = fresh_seed()
    if not 0 <= seed <= MAX_SEED:
        fail(_("--seed must be a whole number from 0 to {max}").format(max=MAX_SEED))
    return Game.new(Rules.of(defn, options), seed)
