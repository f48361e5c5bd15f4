"""``solitaire play``: resume or deal a game and play it in the mode the terminal calls for.

Free of Typer, so that a plain ``solitaire play ...`` line (read by :mod:`.quickargs`) starts
without loading it; the Typer command in :mod:`.commands` calls the same function.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Optional

from solitaire.core import Game

from .common import _common, _start_game, _variant, _variant_options, fail, on_terminal


def play_game(variant: Optional[str] = None, draw: Optional[str] = None, redeals: Optional[str] = None,
              relaxed: bool = False, seed: Optional[int] = None, position: Optional[Path] = None,
              new: bool = False, deal_code: Optional[str] = None, daily: bool = False, plain: bool = False,
              four_colour: bool = False, hints: bool = False, any_deal: bool = False, json_mode: bool = False,
              extra: tuple[str, ...] | list[str] = ()) -> None:
    """Play a game (see ``solitaire play --help``); ``extra`` holds the variant's own options
    as the words of the command line (``--NAME VALUE``)."""
    from . import saves

    if deal_code is not None:
        from .sharecode import ShareCodeError, decode

        if seed is not None or position is not None or daily:
            fail("--deal names the deal: give no --seed, --position or --daily with it")
        try:
            defn, code_options, seed = decode(deal_code)
        except ShareCodeError as exc:
            fail(str(exc))
        if variant is not None and _variant(variant).name != defn.name:
            fail(f"the share code is for {defn.name}, not {variant}")
        options = _variant_options(defn, _common(draw, redeals, relaxed), list(extra))
        if options:
            fail("the share code fixes the options: give none with --deal")
        options = code_options
    else:
        if variant is None:
            fail("name the game to play, e.g. 'solitaire play klondike', or give --deal CODE")
        defn = _variant(variant)
        options = _variant_options(defn, _common(draw, redeals, relaxed), list(extra))
        if daily:
            from .sharecode import daily_seed

            if seed is not None or position is not None:
                fail("--daily names the deal: give no --seed or --position with it")
            seed = daily_seed()

    table = not (json_mode or plain) and on_terminal()
    if (plain or json_mode) and (four_colour or hints):
        fail(f"{'--four-colour' if four_colour else '--hints'} is for the full-screen table, "
             f"not {'--json' if json_mode else '--plain'}")

    # what to tell the player, one line each: on stderr; the table shows the short form on its
    # status line (80 columns) and prints the whole lines when it closes
    notices: list[tuple[str, str]] = []  # (whole, short)
    tracker = left = None
    saved = None
    try:
        saved = saves.read_save(defn)
    except saves.SaveError as exc:
        try:
            aside = saves.move_aside(defn.name)
        except OSError as err:
            fail(f"the saved {defn.name} game cannot be read ({exc}) nor moved aside ({err})")
        notices.append((f"the saved {defn.name} game could not be read ({exc}); moved it to {aside}; "
                        "starting a new game",
                        f"the saved {defn.name} game could not be read: moved aside (where: when you quit)"))
    if saved is not None and saved[0].won:
        saved = None  # a won game is over (its win was recorded when it ended): nothing to resume
    chosen = seed is not None or position is not None  # --seed, --deal, --daily or --position
    if saved is not None:
        old_game, elapsed, dealt = saved
        same_options = all(old_game.rules.options[k] == v for k, v in options.items())
        if deal_code is not None:  # a share code names every option, leaving out the defaults
            same_options = defn.resolve_options(options) == dict(old_game.rules.options)
        # naming the deal that is saved resumes it, as running `play` alone would
        same_deal = (not new and position is None and seed is not None and dealt
                     and old_game.seed == seed and same_options)
        if same_deal or (not new and not chosen and same_options):
            tracker = saves.Tracker(old_game, elapsed, dealt)
            if same_deal and old_game.history:
                said = f"resuming your game of this deal ({_moves(old_game.moves)}); --new deals it again"
                notices.append((said, said))
        else:
            left = saves.Tracker(old_game, elapsed, dealt)
    if tracker is None:
        game = _start_game(defn, options, seed, position, any_deal=any_deal)
        if left is not None:  # only now: a new game that cannot start leaves the saved one be
            left.abandon()
            if left.game.history:
                said = _left(left.game, left.dealt)
                notices.append((said, said))
        tracker = saves.Tracker(game, dealt=position is None)
        tracker.begin()
    game = tracker.game

    from .session import Session

    session = Session(game, tracker)
    if not table:
        for whole, _ in notices:
            print(f"solitaire: {whole}", file=sys.stderr)
        gc.enable()  # start-up is over (see main); the table turns it back on after its first frame
    if json_mode:
        from .protocol import run_json

        run_json(game, sys.stdin, sys.stdout, session)
    elif not table:
        from .linemode import run_lines

        run_lines(game, sys.stdin, sys.stdout, session)
    else:
        from .tui.app import run_table  # only here: line and JSON modes never load Textual

        def next_deal(current: Game) -> Game:  # the table's "new deal": as play would deal
            return _start_game(defn, dict(current.rules.options), None, None, any_deal=any_deal)

        run_table(tracker, four_colour=four_colour, outline=hints, next_deal=next_deal,
                  notice="; ".join(short for _, short in notices) or None)
        for whole, short in notices:
            if whole != short:  # the table had room for the short form only
                print(f"solitaire: {whole}", file=sys.stderr)


def _left(game: Game, dealt: bool) -> str:
    """What became of a saved game the player left for another: one line (it fits 80 columns
    beside a long share code, for the table's status line)."""
    from .sharecode import code_of

    code = code_of(game)
    if dealt and code is not None:
        return f"left your game {code} ({_moves(game.moves)}): it counts as lost"
    return f"left your {game.rules.name} game from a position ({_moves(game.moves)}): not counted"


def _moves(n: int) -> str:
    return f"{n} move" if n == 1 else f"{n} moves"
