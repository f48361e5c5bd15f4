"""Each game's options come from the game: the command line names none (play, deal, solve,
race host, --help), ``variants`` groups by family and describes each game in JSON, each game
has its own pool of won deals, and a deal the solver did not win is said to be unchecked."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import attrs
import pytest
from test_plugins import GOOD, THUMB_YAML, Site, site  # noqa: F401  (site: the fixture)
from test_tui import make_app

from solitaire.cli import common
from solitaire.cli.common import UNCHECKED
from solitaire.core import Game, Rules, get_variant, registry
from solitaire.core.solver import pool_path, winnable_seed

# a third party's game with options of every kind, no family, one of them used by the rules
PLUGIN_YAML = THUMB_YAML.replace("draw: {count: 1, to: waste}", "draw: {count: $base, to: waste}").replace(
    "piles:", """options:
  base: {help: cards turned at a time, choices: [1, 2, 7], default: 7}
  lanes: {type: count, help: how many lanes, default: 2}
  easy: {type: flag, help: make it easy, default: false}
piles:""")
REFUSE_DRAW = "solitaire: klondike has no option --base; its options: --draw, --redeals, --relaxed\n"


@pytest.fixture
def thumb(site: Site) -> None:  # noqa: F811 (the fixture imported above)
    site.install("thumb-plugin", GOOD, {"thumb.yaml": PLUGIN_YAML})


# --------------------------------------------------------------------------- options on the line


@pytest.mark.parametrize("words", [
    ["deal", "klondike", "--seed", "3", "--base", "7"],
    ["solve", "klondike", "--seed", "3", "--base=7"],
    ["play", "klondike", "--json", "--base", "7"],
    ["race", "host", "--variant", "klondike", "--base", "7", "--json"],
    ["race", "host", "--base", "7", "--json"],  # klondike, the default game
    ["race", "host", "klondike", "--base", "7", "--json"],  # the game named as play names it
])
def test_an_option_the_game_lacks_is_refused_in_one_line(cli: Any, solitaire_home: Path, words: list[str]) -> None:
    result = cli(*words)
    assert (result.code, result.out, result.err) == (2, "", REFUSE_DRAW)


def test_a_third_partys_options_are_taken_by_every_command(cli: Any, thumb: None, solitaire_home: Path) -> None:
    deal = json.loads(cli("deal", "thumb", "--seed", "3", "--base", "2", "--easy", "--lanes=5", "--json").out)
    assert deal["options"] == {"base": 2, "lanes": 5, "easy": True}
    played = cli("play", "thumbs", "--seed", "3", "--base", "1", "--json", input="draw\n").json_lines()
    assert played[0]["position"]["options"]["base"] == 1 and len(played[1]["position"]["piles"]["waste"]["up"]) == 1
    refused = cli("play", "thumb", "--json", "--base", "3")
    assert (refused.code, refused.err) == (2, "solitaire: --base must be one of 1, 2, 7, got '3'\n")
    host = cli("race", "host", "--variant", "thumb", "--base", "5", "--json")
    assert (host.code, host.err) == (2, "solitaire: --base must be one of 1, 2, 7, got '5'\n")
    solved = cli("solve", "thumb", "--seed", "1", "--base", "2", "--states", "50", "--json")
    assert solved.code == 0 and json.loads(solved.out)["result"] in ("win", "unwinnable", "unknown")


def test_race_host_takes_the_game_first_or_as_variant_but_once(cli: Any, thumb: None) -> None:
    named = cli("race", "host", "thumb", "--base", "5", "--json")
    assert (named.code, named.err) == (2, "solitaire: --base must be one of 1, 2, 7, got '5'\n")
    both = cli("race", "host", "thumb", "--variant", "klondike", "--json")
    assert (both.code, both.out, both.err) == (2, "", "solitaire: name the game once: thumb or --variant klondike\n")
    same = cli("race", "host", "thumbs", "--variant", "thumb", "--base", "5", "--json")  # an alias is the same game
    assert same.err == "solitaire: --base must be one of 1, 2, 7, got '5'\n"
    unknown = cli("race", "host", "klondyke", "--json")
    assert unknown.code == 2 and unknown.err.startswith("solitaire: unknown variant 'klondyke'; installed: ")
    assert "--base 1|2|7" in cli("race", "host", "thumb", "--help").out.split("Options of thumb:")[1]


@pytest.mark.parametrize(("words", "error"), [
    (["--draw"], "--draw needs a value"),
    (["--draw", "--relaxed"], "--draw needs a value"),
    (["--draw", "3", "--draw", "1"], "--draw is given twice"),
    (["--relaxed=maybe"], "--relaxed is a switch: expected true or false, got 'maybe'"),
])
def test_a_bad_option_value_is_one_line(cli: Any, words: list[str], error: str) -> None:
    result = cli("deal", "klondike", "--seed", "1", *words)
    assert (result.code, result.out, result.err) == (2, "", f"solitaire: {error}\n")


def test_a_flag_may_be_bare_or_given_a_value(cli: Any) -> None:
    on = json.loads(cli("deal", "klondike", "--seed", "1", "--relaxed", "--json").out)["options"]
    off = json.loads(cli("deal", "klondike", "--seed", "1", "--relaxed=off", "--json").out)["options"]
    assert on["relaxed"] is True and off["relaxed"] is False


@pytest.mark.parametrize("words", [["play", "klondike", "--help"], ["deal", "klondike", "--help"],
                                   ["solve", "--help", "klondike"], ["race", "host", "--help"]])
def test_help_lists_the_games_own_options_from_its_file(cli: Any, words: list[str]) -> None:
    out = cli(*words).out
    section = out.split("Options of klondike:")[1]
    assert "--draw 1|3" in section and "Cards turned from the stock at a time.  [default: 1]" in section
    assert "--redeals N|unlimited" in section and "--relaxed" in section


def test_help_of_a_game_without_options_or_without_a_game(cli: Any, thumb: None) -> None:
    assert "calculation has no options of its own." in cli("solve", "calculation", "--help").out
    plugin = cli("deal", "thumb", "--help").out.split("Options of thumb:")[1]
    assert "--base 1|2|7" in plugin and "--lanes N" in plugin and "Make it easy.  [default: off]" in plugin
    assert "'solitaire play GAME --help' lists them" in " ".join(cli("play", "--help").out.split())


# --------------------------------------------------------------------------- variants


def test_variants_are_grouped_by_family_other_last(cli: Any, thumb: None) -> None:
    lines = cli("variants").out.splitlines()
    heads = [line for line in lines if line.startswith("== ")]
    families = sorted({d.family for d in registry().sorted()} - {"Other"})
    assert heads == [f"== {f} ==" for f in families] + ["== Other =="]
    assert lines.index("== Other ==") < next(i for i, line in enumerate(lines) if line.startswith("thumb"))
    klondikes = lines[lines.index("== Klondike ==") + 1:lines.index("== Klondike ==") + 1 + 40]
    assert "klondike  [solitaire-table]" in klondikes[:klondikes.index(heads[heads.index("== Klondike ==") + 1])]


def test_variants_json_describes_each_game(cli: Any, thumb: None) -> None:
    games = {v["name"]: v for v in json.loads(cli("variants", "--json").out)["variants"]}
    klondike = games["klondike"]
    assert klondike["family"] == "Klondike" and klondike["deck"] == {"cards": 52, "decks": 1}
    assert klondike["options"]["redeals"] == {"name": "redeals", "kind": "count", "choices": [], "default": None,
                                              "help": "times the waste may be turned back into the stock",
                                              "unlimited": True}
    assert klondike["options"]["draw"]["choices"] == [1, 3]
    roles = {p["name"]: (p["group"], p["role"]) for p in klondike["piles"]}
    assert roles["stock"] == ("stock", "stock") and roles["t7"] == ("tableau", "tableau") and len(roles) == 13
    assert games["thumb"]["family"] == "Other" and list(games["thumb"]["options"]) == ["base", "lanes", "easy"]
    assert games["calculation"]["aliases"] == ["hopscotch"] and games["calculation"]["options"] == {}


# --------------------------------------------------------------------------- pools


def test_each_game_has_its_own_pool(klondike: Any) -> None:
    path = pool_path(klondike, {"draw": 3})
    assert path is not None and path.parts[-3:] == ("winnable", "klondike", "draw-3.txt") and path.is_file()
    calc = get_variant("calculation")
    calc_path = pool_path(calc, {})
    assert calc_path is not None and calc_path.parts[-3:] == ("winnable", "calculation", "default.txt")
    assert calc_path.is_file()
    # a second game in klondike's folder does not take klondike's pool
    sibling = attrs.evolve(klondike, name="sibling")
    sibling_path = pool_path(sibling, {})
    assert sibling_path is not None and sibling_path.parent.name == "sibling" and not sibling_path.exists()


def test_the_live_search_under_a_budget_in_states_is_the_same_every_time(klondike: Any) -> None:
    options = {"redeals": 0}  # no pool ships for it: solved live
    first = winnable_seed(klondike, options, random.Random(4), states=1, tries=2)
    assert first == winnable_seed(klondike, options, random.Random(4), states=1, tries=2)
    assert first[1] is False  # one state a pass wins nothing
    _, proved = winnable_seed(klondike, {}, random.Random(4), states=1)
    assert proved is True  # from the shipped pool, whatever the budget


# --------------------------------------------------------------------------- the unchecked deal


@pytest.fixture
def starved(monkeypatch: pytest.MonkeyPatch) -> None:
    """The live search may store one state a pass: it wins no deal (in the Python engine; both
    engines now check the budget on every node, so it means the same in each).

    A deal the safe moves home win from the root would still be won within one state: the
    deals drawn are the same every run, from a seeded generator whose first 64 deals were
    checked to stay unwon (when the budget was checked every few hundred nodes, a deal that
    fell out at once, about 1 in 300 Klondike deals with no redeal, was won)."""
    monkeypatch.setattr(common, "LIVE_STATES", 1)
    monkeypatch.setenv("SOLITAIRE_ENGINE", "python")
    drawn = random.Random(0)
    monkeypatch.setattr(random, "SystemRandom", lambda: drawn)


def test_the_protocol_says_an_unchecked_deal(cli: Any, solitaire_home: Path, starved: None) -> None:
    result = cli("play", "klondike", "--redeals", "0", "--json", input="draw\n")
    first, reply = result.json_lines()
    assert first["unchecked"] is True and "unchecked" not in reply
    assert result.err == f"solitaire: {UNCHECKED}\n"


def test_the_line_mode_says_an_unchecked_deal(cli: Any, solitaire_home: Path, starved: None) -> None:
    result = cli("play", "klondike", "--redeals", "0", "--plain", input="quit\n")
    assert result.code == 0 and result.err == f"solitaire: {UNCHECKED}\n"


@pytest.mark.parametrize("words", [["--any-deal"], ["--seed", "5"], []])
def test_a_deal_nobody_asked_the_solver_of_is_not_said(cli: Any, solitaire_home: Path, starved: None,
                                                       words: list[str]) -> None:
    options = [] if not words else ["--redeals", "0"]  # [] alone: the default options have a pool
    result = cli("play", "klondike", *options, *words, "--json", "--new")
    assert "unchecked" not in result.json_lines()[0] and UNCHECKED not in result.err


def test_the_table_says_an_unchecked_deal_and_each_new_one(cli: Any, solitaire_home: Path, starved: None,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from solitaire.cli import playing
    from solitaire.cli.tui import app

    seen: dict[str, Any] = {}

    def table(tracker: Any, **kwargs: Any) -> None:
        seen.update(kwargs, game=tracker.game)

    monkeypatch.setattr(playing, "on_terminal", lambda: True)
    monkeypatch.setattr(app, "run_table", table)
    result = cli("play", "klondike", "--redeals", "0")
    assert result.code == 0 and seen["notice"] == UNCHECKED
    again = seen["next_deal"](seen["game"])
    assert seen["deal_notice"](again) == UNCHECKED and again.rules.options["redeals"] == 0
    assert seen["deal_notice"](seen["game"]) is None  # not a deal the table dealt


def test_the_table_shows_a_new_deals_notice(solitaire_home: Path) -> None:
    rules = Rules.of(get_variant("klondike"))
    table = make_app(Game.new(rules, 5), dealt=True, next_deal=lambda current: Game.new(rules, 6),
                     deal_notice=lambda dealt: UNCHECKED if dealt.seed == 6 else None)

    async def play() -> None:
        async with table.run_test(size=(80, 24)) as pilot:
            await pilot.press("n")  # no moves yet: a new deal at once
            await pilot.pause()
            assert table.game.seed == 6 and table.message == UNCHECKED

    asyncio.run(play())


@pytest.mark.parametrize("words", [
    ["deal", "--draw", "3", "klondike", "--seed", "2", "--json"],
    ["deal", "--seed", "2", "--draw=3", "--json", "klondike"],
    ["deal", "klondike", "--draw", "3", "--seed", "2", "--json"],
])
def test_a_games_option_may_come_before_the_game(cli: Any, words: list[str]) -> None:
    result = cli(*words)
    assert result.code == 0 and json.loads(result.out)["options"]["draw"] == 3


def test_a_games_option_with_no_game_is_one_line(cli: Any, solitaire_home: Path) -> None:
    result = cli("play", "--draw", "3", "--plain")
    assert (result.code, result.err) == (2, "solitaire: --draw is not a game: name the game, e.g. klondike, "
                                            "before its options\n")
    played = cli("play", "--draw", "3", "klondike", "--seed", "4", "--json")
    assert played.code == 0 and played.json_lines()[0]["position"]["options"]["draw"] == 3


def test_change_settings_takes_the_games_options_and_bare_flags() -> None:
    from solitaire.cli.race.client import line_message
    from solitaire.cli.race.server import Settings

    msg = line_message("change-settings --variant klondike --draw 3 --relaxed --race timed --minutes 10")
    assert msg == {"type": "settings", "variant": "klondike", "options": {"draw": "3", "relaxed": True},
                   "race": "timed", "minutes": 10}
    assert isinstance(msg, dict)
    settings = Settings.parse(msg)
    assert settings.options == {"draw": 3, "relaxed": True} and settings.seconds == 600
    assert line_message("change-settings --minutes") == "--minutes needs a value"
    assert line_message("change-settings --draw=1")["options"] == {"draw": "1"}  # type: ignore[index]
