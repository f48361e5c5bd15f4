"""``solitaire race host`` and ``solitaire race join``: the typer sub-app (registered in main.py)."""

from __future__ import annotations

from typing import Optional

import typer

from ..common import fail, on_terminal
from ..options import APP_SETTINGS, DRAW

race_app = typer.Typer(
    name="race",
    help="Race friends over the network: the same deal, at the same time (see docs/race.md).",
    **APP_SETTINGS,
)

NO_TABLE_UI = "the race table needs a terminal: run it on one, or add --json to race from the command line"


@race_app.command()
def host(
    variant: str = typer.Option("klondike", "--variant", help="The game, e.g. klondike."),
    draw: Optional[str] = DRAW,
    race: str = typer.Option("finish", "--race", metavar="finish|timed",
                             help="finish: first to put every card home wins; timed: most cards home."),
    minutes: Optional[int] = typer.Option(None, "--minutes", metavar="5|10|15", help="Length of a timed race."),
    seconds: Optional[int] = typer.Option(None, "--seconds", hidden=True,
                                          help="Tests only: a timed race of N seconds."),
    port: int = typer.Option(0, "--port", min=0, max=65535, help="The port to listen on (0: any free port)."),
    name: str = typer.Option("host", "--name", help="Your name at the table."),
    json_mode: bool = typer.Option(False, "--json", help="Race with the machine protocol (bots and tests)."),
) -> None:
    """Open a race table on this machine (127.0.0.1), sit down at it and show its link for up to three friends."""
    from .client import RaceError, run_host
    from .messages import BadMessage
    from .server import Settings

    data: dict = {"variant": variant, "race": race, "options": {} if draw is None else {"draw": draw}}
    if minutes is not None:
        data["minutes"] = minutes
    if seconds is not None:
        if minutes is not None:
            fail("give --minutes or --seconds, not both")
        data["seconds"] = seconds
    try:
        settings = Settings.parse(data, allow_seconds=True)
    except BadMessage as exc:
        fail(str(exc).replace("minutes are for", "--minutes is for").replace("minutes must", "--minutes must"))
    if not json_mode and not on_terminal():
        fail(NO_TABLE_UI)
    try:
        if not json_mode:
            from .ui import run_host_ui  # only here: --json never loads Textual

            raise typer.Exit(run_host_ui(settings, name, port, seconds_allowed=seconds is not None))
        raise typer.Exit(run_host(settings, name, port, seconds_allowed=seconds is not None))
    except RaceError as exc:
        fail(str(exc))


@race_app.command()
def join(
    link: str = typer.Argument(..., help="The table's link, solitaire://HOST:PORT/TABLE?token=..."),
    name: str = typer.Option("player", "--name", help="Your name at the table."),
    resume: Optional[str] = typer.Option(None, "--resume", metavar="SEAT_TOKEN",
                                         help="Come back to your seat (the seat_token of the welcome)."),
    json_mode: bool = typer.Option(False, "--json", help="Race with the machine protocol (bots and tests)."),
) -> None:
    """Sit down at a race table (or watch, when it is full or the race has started)."""
    from .client import RaceError, run_join
    from .messages import parse_link

    try:
        parse_link(link)
    except ValueError as exc:
        fail(str(exc))
    if not json_mode and not on_terminal():
        fail(NO_TABLE_UI)
    try:
        if not json_mode:
            from .ui import run_join_ui  # only here: --json never loads Textual

            raise typer.Exit(run_join_ui(link, name, resume))
        raise typer.Exit(run_join(link, name, resume))
    except RaceError as exc:
        fail(str(exc))
