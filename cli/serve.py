"""``solitaire serve [GAME]``: the solo table in web browsers (see docs/table.md).

Each browser that opens the link gets its own ``solitaire play GAME --new`` (the table, through
textual-serve: :mod:`.web`), with a home folder of its own for the server's lifetime, so
that browsers neither touch this machine's saved games and statistics nor each other's.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import tempfile
from pathlib import Path

import typer

from solitaire.core.i18n import N_, _

from .common import _variant, _variant_options, fail

SESSIONS = 8  # browsers playing at once, by default
PER_ADDRESS = 4  # of them from one address


def serve_command(
    ctx: typer.Context,
    variant: str = typer.Argument("klondike", help=N_("The game, e.g. klondike; its own options follow as "
                                  "--NAME VALUE.")),
    port: str = typer.Option("0", "--port", metavar="PORT", help=N_("The port to listen on (0: any free port).")),
    bind: str = typer.Option("127.0.0.1", "--bind", metavar="ADDRESS",
                             help=N_("The address to listen on: 0.0.0.0 (or ::) for every network of this machine.")),
    public: str | None = typer.Option(None, "--public", metavar="HOST[:PORT]",
                                      help=N_("What the link names: a router's forwarded port, a tunnel's end.")),
    cert: str | None = typer.Option(None, "--cert", metavar="FILE", help=N_("A TLS certificate (PEM): https://.")),
    key: str | None = typer.Option(None, "--key", metavar="FILE", help=N_("The certificate's private key (PEM).")),
    sessions: int = typer.Option(SESSIONS, "--sessions", metavar="N",
                                 help=N_("How many browsers may play at once (each runs a table).")),
) -> None:
    """Serve the table to web browsers: print a link; each browser that opens it plays its own game."""
    from .race.client import Network, RaceError
    from .race.commands import parse_port, parse_public
    from .web import WebError, WebTable, command_line, serving

    port_number = parse_port(port)
    if key is not None and cert is None:
        fail(_("--key goes with --cert (the certificate it is the key of)"))
    if not 1 <= sessions <= 64:
        fail(_("--sessions is a whole number from 1 to 64, got {n}").format(n=sessions))
    defn = _variant(variant)
    extra = list(ctx.args)
    _variant_options(defn, extra)  # a bad option is one line now, not in every browser
    network = Network(bind.strip(), parse_public(public) if public is not None else None, cert, key)

    async def main() -> int:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        with tempfile.TemporaryDirectory(prefix="solitaire-serve-") as homes:
            def command(n: int, _browser: str, lang: str) -> str:  # the table in the browser's language
                home = Path(homes) / str(n)
                home.mkdir(exist_ok=True)
                return command_line("play", defn.name, "--new", *extra,
                                    env={"SOLITAIRE_HOME": str(home), "LANGUAGE": lang, "SOLITAIRE_BIDI": "visual"})

            table = WebTable(command, network.bind, port_number, title=f"solitaire {defn.name}",
                             sessions=sessions, per_address=min(PER_ADDRESS, sessions),
                             ssl_context=network.ssl_context(), public=network.link_host())
            async with serving(table):
                print(table.link(), flush=True)
                if network.bind in ("127.0.0.1", "::1", "localhost") and network.public is None:
                    print("solitaire: " + _("served to this machine only: --bind 0.0.0.0 opens it to your network "
                                            "(docs/table.md)"), file=sys.stderr, flush=True)
                print("solitaire: " + _("Ctrl+C stops serving"), file=sys.stderr, flush=True)
                await stop.wait()
        return 0

    try:
        raise typer.Exit(asyncio.run(main()))
    except (RaceError, WebError) as exc:
        fail(str(exc))
