"""The ``solitaire`` command's Typer app: play, deal, variants, stats, solve, race.

:func:`solitaire.cli.main.main` runs it, except for a plain ``play`` line, which it reads
without Typer (see :mod:`.quickargs`); :func:`run` reads a plain ``deal``, ``variants``,
``stats`` or ``solve`` line the same way and calls the command itself, skipping Typer's checks (pydantic).
Every user mistake (bad option, unknown variant, broken position file) is one line on stderr
and exit status 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from typer.exceptions import Abort, Exit, TyperException

from solitaire.core import Rules, VariantDef, registry
from solitaire.core.i18n import N_, _

from .common import _start_game, _variant, _variant_options, fail, is_game
from .options import APP_SETTINGS, EXTRA, HELP_VARIANT, MS, SEED, GameOptionsHelp, translated, usage_message
from .playing import play_game
from .quickargs import DEAL, PLAY, SOLVE, STATS, VARIANTS, Declared, game_first, quick_args

app = typer.Typer(
    name="solitaire",
    help=N_("Patience games at the terminal: play, deal and list variants."),
    epilog=N_("Any command takes --lang CODE (en, uk, ro, el, ht, ar): the language it speaks, else the locale's. "
              "solitaire --version: the version, and which engine solves."),
    **{**APP_SETTINGS, "add_completion": True},  # --install-completion, --show-completion
)


@app.command(context_settings=EXTRA, cls=GameOptionsHelp, help=N_(
    "Play a game: the table on a terminal, else the line mode. Resumes the unfinished game.\n\n"
    "Other variant options are given as --NAME VALUE."))
def play(
    ctx: typer.Context,
    variant: str | None = typer.Argument(None, help=N_("The game, e.g. klondike (optional with --deal).")),
    seed: int | None = SEED,
    ms: int | None = MS,
    position: Path | None = typer.Option(None, "--position", help=N_("Start from this position file (JSON).")),
    new: bool = typer.Option(False, "--new", help=N_("Deal a new game instead of resuming the saved one.")),
    deal_code: str | None = typer.Option(None, "--deal", metavar="CODE",
                                         help=N_("Play the deal a share code names, e.g. klondike-d3-48213.")),
    daily: bool = typer.Option(False, "--daily", help=N_("Play today's deal (the same for everyone).")),
    plain: bool = typer.Option(False, "--plain", help=N_("The line mode, even on a terminal.")),
    four_colour: bool = typer.Option(False, "--four-colour", help=N_("Table: a colour per suit.")),
    hints: bool = typer.Option(False, "--hints", help=N_("Table: outline where picked-up cards may go.")),
    any_deal: bool = typer.Option(False, "--any-deal", help=N_("A new deal may be one nobody can win "
                                  "(by default it is one the solver has won).")),
    json_mode: bool = typer.Option(False, "--json", help=N_("The machine protocol: a command a line in, "
                                   "a JSON object a line out.")),
) -> None:
    """Play a game: the table on a terminal, else the line mode. Resumes the unfinished game.

    Other variant options are given as --NAME VALUE."""
    play_game(variant, seed, position, new, deal_code, daily, plain, four_colour,
              hints, any_deal, json_mode, extra=list(ctx.args), ms=ms)


@app.command(context_settings=EXTRA, cls=GameOptionsHelp,
             help=N_("Show deal N with every card face up (or as a position file with --json)."))
def deal(
    ctx: typer.Context,
    variant: str = typer.Argument(..., help=N_("The game, e.g. klondike.")),
    seed: int | None = typer.Option(None, "--seed", help=N_("Deal number N."), min=0),
    ms: int | None = MS,
    json_mode: bool = typer.Option(False, "--json", help=N_("Print the position as JSON.")),
) -> None:
    """Show deal N with every card face up (or as a position file with --json)."""
    show_deal(variant, seed, json_mode, extra=list(ctx.args), ms=ms)


def show_deal(variant: str, seed: int | None, json_mode: bool, extra: list[str], ms: int | None = None) -> None:
    """``deal``'s work, free of Typer's context: ``extra`` is the variant's own options."""
    defn = _variant(variant)
    options = _variant_options(defn, extra)
    if seed is None and ms is None:
        fail("give the deal: --seed N (or --ms N, Microsoft's numbered deal N)")
    game = _start_game(defn, options, seed, None, ms=ms)
    if json_mode:
        print(json.dumps(game.to_position()))
    else:
        from rich.console import Console

        from .render import render

        Console(highlight=False).print(render(game, reveal=True), end="")


@app.command(help=N_("List the installed variants by family, their options and who provides them."))
def variants(json_mode: bool = typer.Option(False, "--json", help=N_("Print JSON."))) -> None:
    """List the installed variants by family, their options and who provides them."""
    reg = registry()
    if json_mode:
        print(json.dumps({"variants": [{**variant_json(d), "qualified": reg.qualified_name(d),
                                        "note": reg.notes.get(reg.qualified_name(d))} for d in reg.sorted()],
                          "broken": [{"name": b.name, "provider": b.provider, "reason": b.reason}
                                     for b in reg.broken]}, indent=2))
        return
    for family, games in by_family(reg.sorted()):
        print(f"== {family} ==")
        for d in games:
            aliases = _(" (also: {names})").format(names=", ".join(d.aliases)) if d.aliases else ""
            print(f"{d.name}{aliases}  [{d.provider or _('unknown')}]")
            note = reg.notes.get(reg.qualified_name(d))
            if note:  # what a clash of names left it (another game has its bare name, an alias)
                print(f"    {note}")
            description = d.local_description()  # the words in the language in use, the names as typed
            if description:
                print(f"    {description}")
            for o in d.options:
                print(f"    {o.describe(d.local_help(o))}")
    for b in reg.broken:
        print(f"{b.name}  [{b.provider or _('unknown')}]  " + _("BROKEN: {reason}").format(reason=b.reason))


def by_family(games: list[VariantDef]) -> list[tuple[str, list[VariantDef]]]:
    """The games grouped by family, the families in alphabetical order but "Other" last, the
    games of each in the order given."""
    families: dict[str, list[VariantDef]] = {}
    for d in games:
        families.setdefault(d.family, []).append(d)
    return sorted(families.items(), key=lambda kv: (kv[0] == "Other", kv[0].lower()))


def variant_json(d: VariantDef) -> dict[str, Any]:
    """What ``variants --json`` says of a game (see docs/reference/cli.md)."""
    rules = Rules.of(d)
    return {
        "name": d.name, "title": d.title, "titles": d.titles, "aliases": list(d.aliases), "family": d.family,
        "description": d.description, "provider": d.provider, "source": d.source,
        "deck": {"cards": len(rules.deck), "decks": rules.decks},
        "options": {o.name: {"name": o.name, "kind": o.kind, "choices": list(o.choices), "default": o.default,
                             "help": o.help, "unlimited": o.unlimited} for o in d.options},
        "piles": [{"name": p.name, "group": p.group, "role": p.role} for p in rules.piles],
    }


@app.command(help=N_("Statistics of the games played, per variant and options."))
def stats(
    variant: str | None = typer.Argument(None, help=N_("Only this game, e.g. klondike.")),
    json_mode: bool = typer.Option(False, "--json", help=N_("Print JSON.")),
) -> None:
    """Statistics of the games played, per variant and options."""
    from .stats import StatsError, all_summaries, describe_options, format_time

    name = _variant(variant).name if variant is not None else None
    try:
        rows = all_summaries(name)
    except StatsError as exc:
        fail(str(exc))
    if json_mode:
        print(json.dumps({"stats": rows}, indent=2))
        return
    if not rows:
        print(_("No games played yet.") if name is None else _("No {game} games played yet.").format(game=name))
        return
    for r in rows:
        opts = describe_options(r["options"])
        rate = f"{r['win_rate'] * 100:.0f}%" if r["win_rate"] is not None else "-"
        print(f"{r['variant']} ({opts})" if opts else r["variant"])
        print("    " + _("played {played}, won {won} ({rate}); streak {streak}, best streak {best}").format(
            played=r["played"], won=r["won"], rate=rate, streak=r["streak"], best=r["best_streak"]))
        print("    " + _("best time {time}, fewest moves {moves}, best score {score}").format(
            time=format_time(r["best_time_s"]), moves=r["fewest_moves"] or "-",
            score=r["best_score"] if r["best_score"] is not None else "-"))


from .solve import solve_command, solve_deal  # noqa: E402  (registered after the commands above, to list last)

app.command("solve", context_settings=EXTRA, cls=GameOptionsHelp, help=N_(
    "Solve a deal with full information: win (with the moves), unwinnable, or unknown."))(solve_command)

from .race.commands import race_app  # noqa: E402  (host and join; websockets loads only when they run)

app.add_typer(race_app, name="race")

from .check import check_command  # noqa: E402
from .rules import rules_command  # noqa: E402

app.command("rules", context_settings=EXTRA,
            help=N_("Show a game's rules in plain words (for these options: --NAME VALUE)."))(rules_command)
app.command("check",
            help=N_("Report every mistake in variant YAML files (exit status 1 if there is any)."))(check_command)

from .serve import serve_command  # noqa: E402  (textual-serve loads only when it runs)

app.command("serve", context_settings=EXTRA, cls=GameOptionsHelp, help=N_(
    "Serve the table to web browsers: print a link; each browser that opens it plays its own game."))(serve_command)


# the commands whose plain lines run without Typer's checks: their written-out declaration
# (tests check it against the Typer one) and the function taking what it reads
PLAIN: dict[str, tuple[Declared, Callable[..., None]]] = {
    "deal": (DEAL, show_deal),
    "variants": (VARIANTS, variants),
    "stats": (STATS, stats),
    "solve": (SOLVE, solve_deal),
}


def plain_command(words: list[str]) -> tuple[Callable[..., None], dict[str, Any]] | None:
    """The function and keyword arguments a plain ``deal``, ``variants``, ``stats`` or ``solve``
    line calls, read as Typer reads it; None for any other line (Typer then reads it)."""
    if not words or words[0] not in PLAIN:
        return None
    declaration, function = PLAIN[words[0]]
    values = quick_args(declaration, words[1:])
    if values is None:
        return None
    extra = values.pop("extra")
    if declaration.context is not None:
        values["extra"] = extra
    return function, values


def _help_obj(words: list[str]) -> dict[str, Any]:
    """For a ``--help`` line of a command that plays a game (``play klondike --help``,
    ``race host --variant klondike --help``): the game it names, for the help to list its
    options (see :class:`.options.GameOptionsHelp`)."""
    if "--help" not in words or words[:1] not in (["play"], ["deal"], ["solve"], ["race"]):
        return {}
    from solitaire.core import SolitaireError, get_variant

    if words[0] == "race":
        named = [w for i, w in enumerate(words) if i > 0 and words[i - 1] == "--variant"]
        named += [w.removeprefix("--variant=") for w in words if w.startswith("--variant=")]
        if words[1:2] == ["host"] and not named:
            named = [*words[2:3], "klondike"]  # race host GAME, else host's default
    else:
        named = [w for w in words[1:] if not w.startswith("-")]
    for word in named:
        try:
            return {HELP_VARIANT: get_variant(word)}
        except SolitaireError:
            continue
    return {}


def run(words: list[str]) -> int:
    """Run the app on these words; Typer's own errors become one line and an exit status."""
    if words[:1] in (["deal"], ["solve"], ["play"]):  # a game's option before the game: the game first
        declaration = PLAIN[words[0]][0] if words[0] in PLAIN else PLAY
        words = [words[0], *game_first(declaration, words[1:], is_game)]
    plain = plain_command(words)
    if plain is not None:
        function, values = plain
        function(**values)
        return 0
    try:
        extra = _help_obj(words)  # (passed only when there is one: Typer's completion wants no obj)
        result = translated(typer.main.get_command(app))(args=words, standalone_mode=False, prog_name="solitaire",
                                                         **({"obj": extra} if extra else {}))
    except TyperException as exc:  # usage errors: unknown option, missing argument, bad number
        ctx = getattr(exc, "ctx", None)  # a usage error's click context (Typer keeps that class private)
        if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
            print(ctx.get_help())
            return 0
        message = " ".join(usage_message(exc).split())
        print(f"solitaire: {message}", file=sys.stderr)
        return 2 if exc.exit_code == 2 or exc.exit_code == 1 else exc.exit_code
    except Exit as exc:
        return exc.exit_code
    except Abort:
        print("", file=sys.stderr)
        return 130
    return result if isinstance(result, int) else 0
