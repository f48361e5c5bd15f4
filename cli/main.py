"""The ``solitaire`` command: play, deal, variants.

Every user mistake (bad option, unknown variant, broken position file) is one line on
stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import gc
import json
import sys
from pathlib import Path
from typing import Optional

import typer
from typer.exceptions import Abort, Exit, TyperException

from solitaire.core import Game, registry

from .common import (  # noqa: F401  (some re-exported for modules that import them from main)
    APP_SETTINGS,
    DRAW,
    EXTRA,
    RANDOM_SEEDS,
    REDEALS,
    RELAXED,
    SEED,
    UserError,
    _common,
    _start_game,
    _variant,
    _variant_options,
    fail,
    on_terminal,
)
from .quickargs import quick_args

app = typer.Typer(
    name="solitaire",
    help="Patience games at the terminal: play, deal and list variants.",
    **APP_SETTINGS,
)

@app.command(context_settings=EXTRA)
def play(
    ctx: typer.Context,
    variant: Optional[str] = typer.Argument(None, help="The game, e.g. klondike (optional with --deal)."),
    draw: Optional[str] = DRAW,
    redeals: Optional[str] = REDEALS,
    relaxed: bool = RELAXED,
    seed: Optional[int] = SEED,
    position: Optional[Path] = typer.Option(None, "--position", help="Start from this position file (JSON)."),
    new: bool = typer.Option(False, "--new", help="Deal a new game instead of resuming the saved one."),
    deal_code: Optional[str] = typer.Option(None, "--deal", metavar="CODE",
                                            help="Play the deal a share code names, e.g. klondike-d3-48213."),
    daily: bool = typer.Option(False, "--daily", help="Play today's deal (the same for everyone)."),
    plain: bool = typer.Option(False, "--plain", help="The line mode, even on a terminal."),
    four_colour: bool = typer.Option(False, "--four-colour", help="Table: a colour per suit."),
    hints: bool = typer.Option(False, "--hints", help="Table: outline where picked-up cards may go."),
    any_deal: bool = typer.Option(False, "--any-deal", help="A new deal may be one nobody can win "
                                  "(by default it is one the solver has won)."),
    json_mode: bool = typer.Option(False, "--json", help="The machine protocol: a command a line in, "
                                   "a JSON object a line out."),
) -> None:
    """Play a game: the table on a terminal, else the line mode. Resumes the unfinished game.

    Other variant options are given as --NAME VALUE."""
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
        options = _variant_options(defn, _common(draw, redeals, relaxed), list(ctx.args))
        if options:
            fail("the share code fixes the options: give none with --deal")
        options = code_options
    else:
        if variant is None:
            fail("name the game to play, e.g. 'solitaire play klondike', or give --deal CODE")
        defn = _variant(variant)
        options = _variant_options(defn, _common(draw, redeals, relaxed), list(ctx.args))
        if daily:
            from .sharecode import daily_seed

            if seed is not None or position is not None:
                fail("--daily names the deal: give no --seed or --position with it")
            seed = daily_seed()

    tracker = None
    saved = None
    try:
        saved = saves.read_save(defn)
    except saves.SaveError as exc:
        try:
            aside = saves.move_aside(defn.name)
        except OSError as err:
            fail(f"the saved {defn.name} game cannot be read ({exc}) nor moved aside ({err})")
        print(f"solitaire: the saved {defn.name} game could not be read ({exc}); moved it to {aside}; "
              "starting a new game", file=sys.stderr)
    fresh = new or seed is not None or position is not None
    if saved is not None:
        old_game, elapsed, dealt = saved
        same = all(old_game.rules.options[k] == v for k, v in options.items())
        if not fresh and same:
            tracker = saves.Tracker(old_game, elapsed, dealt)
        else:
            saves.Tracker(old_game, elapsed, dealt).abandon()
    if tracker is None:
        game = _start_game(defn, options, seed, position, any_deal=any_deal)
        tracker = saves.Tracker(game, dealt=position is None)
    game = tracker.game

    from .session import Session

    session = Session(game, tracker)
    table = not (json_mode or plain) and on_terminal()
    if not table:
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

        run_table(tracker, four_colour=four_colour, outline=hints, next_deal=next_deal)


@app.command(context_settings=EXTRA)
def deal(
    ctx: typer.Context,
    variant: str = typer.Argument(..., help="The game, e.g. klondike."),
    seed: int = typer.Option(..., "--seed", help="Deal number N.", min=0),
    draw: Optional[str] = DRAW,
    redeals: Optional[str] = REDEALS,
    relaxed: bool = RELAXED,
    json_mode: bool = typer.Option(False, "--json", help="Print the position as JSON."),
) -> None:
    """Show deal N with every card face up (or as a position file with --json)."""
    defn = _variant(variant)
    options = _variant_options(defn, _common(draw, redeals, relaxed), list(ctx.args))
    game = _start_game(defn, options, seed, None)
    if json_mode:
        print(json.dumps(game.to_position()))
    else:
        from rich.console import Console

        from .render import render

        Console(highlight=False).print(render(game, reveal=True), end="")


@app.command()
def variants(json_mode: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """List the installed variants, their options and who provides them."""
    reg = registry()
    if json_mode:
        print(json.dumps({
            "variants": [
                {"name": d.name, "title": d.title, "aliases": list(d.aliases), "description": d.description,
                 "provider": d.provider, "source": d.source,
                 "options": {o.name: {"type": o.kind, "default": o.default, "help": o.help,
                                      **({"choices": list(o.choices)} if o.choices else {})}
                             for o in d.options}}
                for d in reg.sorted()
            ],
            "broken": [{"name": b.name, "provider": b.provider, "reason": b.reason} for b in reg.broken],
        }, indent=2))
        return
    for d in reg.sorted():
        aliases = f" (also: {', '.join(d.aliases)})" if d.aliases else ""
        print(f"{d.name}{aliases}  [{d.provider or 'unknown'}]")
        if d.description:
            print(f"    {d.description}")
        for o in d.options:
            print(f"    {o.describe()}")
    for b in reg.broken:
        print(f"{b.name}  [{b.provider or 'unknown'}]  BROKEN: {b.reason}")


@app.command()
def stats(
    variant: Optional[str] = typer.Argument(None, help="Only this game, e.g. klondike."),
    json_mode: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Statistics of the games played, per variant and options."""
    from .stats import all_summaries, format_time

    name = _variant(variant).name if variant is not None else None
    rows = all_summaries(name)
    if json_mode:
        print(json.dumps({"stats": rows}, indent=2))
        return
    if not rows:
        print("No games played yet." if name is None else f"No {name} games played yet.")
        return
    for r in rows:
        opts = ", ".join(f"{k} {'unlimited' if v is None else v}" for k, v in r["options"].items())
        rate = f"{r['win_rate'] * 100:.0f}%" if r["win_rate"] is not None else "-"
        print(f"{r['variant']} ({opts})")
        print(f"    played {r['played']}, won {r['won']} ({rate}); streak {r['streak']}, "
              f"best streak {r['best_streak']}")
        print(f"    best time {format_time(r['best_time_s'])}, fewest moves {r['fewest_moves'] or '-'}, "
              f"best score {r['best_score'] if r['best_score'] is not None else '-'}")


from .solve import solve_command  # noqa: E402  (registered after the commands above, to list last)

app.command("solve", context_settings=EXTRA)(solve_command)

from .race.commands import race_app  # noqa: E402  (host and join; websockets loads only when they run)

app.add_typer(race_app, name="race")


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status. User errors: one line on stderr, status 2."""
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        # a plain `solitaire play ...` skips Typer's pydantic checks (0.1 s of start-up);
        # anything else, and every mistake, goes through Typer (see cli/quickargs.py)
        quick = quick_args(play, words[1:]) if words[:1] == ["play"] else None
        if quick is not None:
            # start-up makes a great many objects and almost no garbage: the collector's passes
            # over them cost a sixth of the table's first paint, so it waits until then
            gc.disable()
            result = play(**quick)
        else:
            result = app(args=words, standalone_mode=False, prog_name="solitaire")
    except UserError as exc:
        print(f"solitaire: {exc}", file=sys.stderr)
        return 2
    except TyperException as exc:  # usage errors: unknown option, missing argument, bad number
        if type(exc).__name__ == "NoArgsIsHelpError" and getattr(exc, "ctx", None) is not None:
            print(exc.ctx.get_help())
            return 0
        message = " ".join(exc.format_message().split())
        print(f"solitaire: {message}", file=sys.stderr)
        return 2 if exc.exit_code == 2 or exc.exit_code == 1 else exc.exit_code
    except Exit as exc:
        return exc.exit_code
    except Abort:
        print("", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    finally:
        gc.enable()
    return result if isinstance(result, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
