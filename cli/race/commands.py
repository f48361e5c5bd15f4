"""``solitaire race host`` and ``solitaire race join``: the typer sub-app (registered in main.py)."""

from __future__ import annotations

from typing import Any

import typer

from solitaire.core.i18n import N_, _, ngettext

from ..common import _variant, _variant_options, fail, on_terminal
from ..options import APP_SETTINGS, EXTRA, GameOptionsHelp

race_app = typer.Typer(
    name="race",
    help=N_("Race friends over the network: the same deal, at the same time (see docs/race.md)."),
    **APP_SETTINGS,
)

NO_TABLE_UI = N_("the race table needs a terminal: run it on one, or add --json to race from the command line")


NAME_LENGTH = 24  # as the server keeps it


def parse_port(text: str, flag: str = "--port") -> int:
    if not text.strip().isdigit() or not 0 <= int(text) <= 65535:
        fail(_("{flag} must be a whole number from 0 to 65535, got {text!r}").format(flag=flag, text=text[:20]))
    return int(text)


def parse_public(text: str) -> tuple[str, int | None]:
    """``--public HOST[:PORT]`` (``[IPv6]:PORT`` for an IPv6 address)."""
    from urllib.parse import urlsplit

    shape = _("--public is HOST or HOST:PORT (e.g. example.org:8765 or [2001:db8::1]:8765), got {text!r}").format(
        text=text[:60])
    try:
        parts = urlsplit(f"//{text.strip()}")
        host, port = parts.hostname, parts.port
    except ValueError:
        fail(_("--public's port must be a whole number from 1 to 65535, got {text!r}").format(text=text[:60]))
        raise  # unreachable
    if not host or parts.path or parts.query or parts.fragment or "@" in text:
        fail(shape)
        raise  # unreachable
    if port == 0:
        fail(_("--public's port must be a whole number from 1 to 65535, got 0"))
    return host, port


def check_name(name: str) -> None:
    if len(name) > NAME_LENGTH:
        fail(ngettext("--name is at most {most} character, got {n}", "--name is at most {most} characters, got {n}",
                      NAME_LENGTH).format(most=NAME_LENGTH, n=len(name)))


@race_app.command(context_settings=EXTRA, cls=GameOptionsHelp, help=N_(
    "Open a race table on this machine (127.0.0.1 unless --bind), sit down at it and show its link for up to three "
    "friends."))
def host(
    ctx: typer.Context,
    variant: str | None = typer.Option(None, "--variant", help=N_(
        "The game (klondike if none is named; 'race host freecell' names it too); its own options follow as "
        "--NAME VALUE (see 'solitaire variants').")),
    race: str = typer.Option("finish", "--race", metavar="finish|timed",
                             help=N_("finish: first to put every card home wins; timed: most cards home.")),
    minutes: int | None = typer.Option(None, "--minutes", metavar="5|10|15", help=N_("Length of a timed race.")),
    seconds: int | None = typer.Option(None, "--seconds", hidden=True,
                                       help=N_("Tests only: a timed race of N seconds.")),
    port: str = typer.Option("0", "--port", metavar="PORT", help=N_("The port to listen on (0: any free port).")),
    bind: str = typer.Option("127.0.0.1", "--bind", metavar="ADDRESS",
                             help=N_("The address to listen on: 0.0.0.0 (or ::) for every network of this machine.")),
    public: str | None = typer.Option(None, "--public", metavar="HOST[:PORT]",
                                      help=N_("What the link names: a router's forwarded port, a tunnel's end.")),
    cert: str | None = typer.Option(None, "--cert", metavar="FILE",
                                    help=N_("A TLS certificate (PEM): the table speaks wss://.")),
    key: str | None = typer.Option(None, "--key", metavar="FILE", help=N_("The certificate's private key (PEM).")),
    web: bool = typer.Option(False, "--web", help=N_("Serve the table to web browsers too: a second link, "
                             "for friends without Python (see docs/race.md).")),
    web_port: str = typer.Option("0", "--web-port", metavar="PORT",
                                 help=N_("The port the browsers' page listens on (0: any free port).")),
    deal_seed: int | None = typer.Option(None, "--deal-seed", hidden=True,
                                         help=N_("Tests only: deal this seed (the test knows the deal).")),
    name: str = typer.Option("host", "--name", help=N_("Your name at the table.")),
    json_mode: bool = typer.Option(False, "--json", help=N_("Race with the machine protocol (bots and tests).")),
) -> None:
    """Open a race table on this machine (127.0.0.1 unless --bind), sit down at it and show its link for up to three friends."""  # noqa: E501 (one line of --help)
    from .client import Network, RaceError, run_host
    from .messages import BadMessage
    from .server import Settings

    port_number = parse_port(port)
    check_name(name)
    if key is not None and cert is None:
        fail(_("--key goes with --cert (the certificate it is the key of)"))
    network = Network(bind.strip(), parse_public(public) if public is not None else None, cert, key,
                      web=web, web_port=parse_port(web_port, "--web-port"), deal_seed=deal_seed)

    words = list(ctx.args)
    if words and not words[0].startswith("-"):  # race host freecell --cells 2
        if variant is not None and _variant(variant).name != _variant(words[0]).name:
            fail(_("name the game once: {first} or --variant {second}").format(first=words[0], second=variant))
        variant = words.pop(0)
    defn = _variant(variant or "klondike")
    data: dict[str, Any] = {"variant": defn.name, "race": race, "options": _variant_options(defn, words)}
    if minutes is not None:
        data["minutes"] = minutes
    if seconds is not None:
        if minutes is not None:
            fail(_("give --minutes or --seconds, not both"))
        data["seconds"] = seconds
    try:
        settings = Settings.parse(data, allow_seconds=True)
    except BadMessage as exc:
        text = str(exc)
        for word in ("minutes", "race", "seconds"):
            if text.startswith(word + " "):
                text = "--" + text
        fail(text.replace("minutes are for", "--minutes is for"))
    if not json_mode and not on_terminal():
        fail(_(NO_TABLE_UI))
    try:
        if not json_mode:
            from .ui import run_host_ui  # only here: --json never loads Textual

            raise typer.Exit(run_host_ui(settings, name, port_number, seconds_allowed=seconds is not None,
                                         network=network))
        raise typer.Exit(run_host(settings, name, port_number, seconds_allowed=seconds is not None, network=network))
    except RaceError as exc:
        fail(str(exc))


@race_app.command(help=N_("Sit down at a race table (or watch, when it is full or the race has started)."))
def join(
    link: str = typer.Argument(..., help=N_("The table's link, solitaire://HOST:PORT/TABLE?token=...")),
    name: str = typer.Option("player", "--name", help=N_("Your name at the table.")),
    resume: str | None = typer.Option(None, "--resume", metavar="SEAT_TOKEN",
                                      help=N_("Come back to your seat (the seat_token of the welcome).")),
    cafile: str | None = typer.Option(None, "--cafile", metavar="FILE",
                                      help=N_("Trust this certificate (PEM) for a wss:// table: the host's own.")),
    web_session: str | None = typer.Option(None, "--web-session", hidden=True, metavar="PAGE",
                                           help=N_("A browser's session of race host --web (PAGE: its link).")),
    json_mode: bool = typer.Option(False, "--json", help=N_("Race with the machine protocol (bots and tests).")),
) -> None:
    """Sit down at a race table (or watch, when it is full or the race has started)."""
    import sys
    import time

    from .client import RaceError, left_seat, run_join
    from .messages import parse_link

    try:
        parse_link(link)
    except ValueError as exc:
        fail(str(exc))
    check_name(name)
    if not json_mode and not on_terminal():
        fail(_(NO_TABLE_UI))
    # a browser's session (race host --web) runs with that browser's own home: a seat left
    # there is this browser's, offered back on the table's screen before joining
    left = left_seat(link) if resume is None else None
    comeback = None
    if left is not None:  # this machine (this browser) left a seat at this table less than 60 s ago
        ago = max(0, round(time.time() - left["left"]))
        if web_session is not None and not json_mode:
            comeback = {"seat": left["seat"], "ago": ago, "token": left["token"]}
        elif json_mode:
            print("solitaire: " + _("you left seat {seat} here {ago} s ago: add --resume {token} to take it back")
                  .format(seat=left["seat"], ago=ago, token=left["token"]), file=sys.stderr, flush=True)
        elif typer.confirm(_("You left seat {seat} at this table {ago} s ago. Take it back?").format(
                seat=left["seat"], ago=ago), default=True):
            resume = left["token"]
    try:
        if not json_mode:
            from .ui import run_join_ui  # only here: --json never loads Textual

            raise typer.Exit(run_join_ui(link, name, resume, cafile=cafile, web=web_session, comeback=comeback))
        raise typer.Exit(run_join(link, name, resume, cafile=cafile))
    except RaceError as exc:
        fail(str(exc))
