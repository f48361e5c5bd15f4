"""``solitaire play``: resume or deal a game and play it in the mode the terminal calls for.

Free of Typer, so that a plain ``solitaire play ...`` line (read by :mod:`.quickargs`) starts
without loading it; the Typer command in :mod:`.commands` calls the same function.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Optional

from solitaire.core import Game, SolitaireError

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

    notices: list[str] = []  # one line each: on stderr, or in the table's status line
    tracker = left = None
    saved = None
    try:
        saved = saves.read_save(defn)
    except saves.SaveError as exc:
        try:
            aside = saves.move_aside(defn.name)
        except OSError as err:
            fail(f"the saved {defn.name} game cannot be read ({exc}) nor moved aside ({err})")
        notices.append(f"the saved {defn.name} game could not be read ({exc}); moved it to {aside}; "
                       "starting a new game")
    if saved is not None and saved[0].won:
        saved = None  # a won game is over (its win was recorded when it ended): nothing to resume
    chosen = seed is not None or position is not None  # --seed, --deal, --daily or --position
    if saved is not None:
        old_game, elapsed, dealt = saved
        same_options = all(old_game.rules.options[k] == v for k, v in options.items())
        # naming the deal that is saved resumes it, as running `play` alone would
        same_deal = (not new and position is None and seed is not None and dealt
                     and old_game.seed == seed and same_options)
        if same_deal or (not new and not chosen and same_options):
            tracker = saves.Tracker(old_game, elapsed, dealt)
            if same_deal and old_game.history:
                notices.append(f"resuming your game of this deal ({_moves(old_game.moves)}); "
                               "--new deals it again from the start")
        else:
            left = saves.Tracker(old_game, elapsed, dealt)
            if deal_code is None and position is None:  # a new deal keeps the saved game's options
                kept = {**{o.name: old_game.rules.options[o.name] for o in defn.options}, **options}
                try:
                    defn.resolve_options(kept)
                    options = kept
                except SolitaireError:  # the options given do not go with the saved ones
                    pass
    if tracker is None:
        game = _start_game(defn, options, seed, position, any_deal=any_deal)
        if left is not None:  # only now: a new game that cannot start leaves the saved one be
            left.abandon()
            if left.game.history:
                notices.append(_left(left.game, left.dealt))
        tracker = saves.Tracker(game, dealt=position is None)
        tracker.begin()
    game = tracker.game

    from .session import Session

    session = Session(game, tracker)
    if not table:
        for notice in notices:
            print(f"solitaire: {notice}", file=sys.stderr)
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
                  notice="; ".join(notices) or None)


def _left(game: Game, dealt: bool) -> str:
    """What became of a saved game the player left for another: one line."""
    opts = game.rules.describe_options()
    what = f"your unfinished {game.rules.name} game{f' ({opts})' if opts else ''}, {_moves(game.moves)},"
    return f"{what} was left for this one: it counts as lost" if dealt else \
        f"{what} was left for this one (a position, not a deal: not counted)"


def _moves(n: int) -> str:
    return f"{n} move" if n == 1 else f"{n} moves"
