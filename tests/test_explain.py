"""The rules in words (core/explain.py), `solitaire rules`, and the table's help showing them."""

from __future__ import annotations

import asyncio
import doctest
import itertools
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solitaire.cli.saves import Tracker
from solitaire.cli.tui.app import HelpScreen, SolitaireApp
from solitaire.core import Game, Rules, get_variant, load_variant_file, load_variant_text, registry
from solitaire.core import explain as explain_module
from solitaire.core.explain import explain, foundation_sequences, rules_text
from solitaire.core.spec import BuildRule

ROOT = Path(__file__).resolve().parent.parent
YUKON = ROOT / "examples" / "solitaire-yukon" / "src" / "solitaire_yukon" / "yukon.yaml"


def text_of(rules) -> dict[str, str]:
    return {s.title: " ".join(s.lines) for s in explain(rules)}


def test_the_docstring_example_runs():
    result = doctest.testmod(explain_module)
    assert result.attempted > 0 and result.failed == 0


def test_klondike_in_words():
    words = text_of(Rules.of(get_variant("klondike"), {}))
    assert list(words) == ["Foundation", "Tableau", "Waste", "Stock", "Deal", "Scoring", "How to win"]
    assert "Four foundation piles, f1 to f4." in words["Foundation"]
    assert "builds up in the same suit" in words["Foundation"]
    assert "An empty pile takes an Ace." in words["Foundation"]
    assert "A move puts at most one card on it." in words["Foundation"]
    assert "No card leaves it." in words["Foundation"]
    assert "An empty pile takes a King." in words["Tableau"]
    assert "several top cards together when they are built down in alternating colours" in words["Tableau"]
    assert "It takes cards from the tableau and the waste." in words["Tableau"]  # no card leaves a foundation
    assert "A face-down card left on top turns face up." in words["Tableau"]
    assert "A draw turns one card from the stock onto the waste." in words["Stock"]
    assert "any number of times" in words["Stock"]
    assert "The tableau gets 1, 2, 3, 4, 5, 6, 7 cards (t1 to t7), the top card face up." in words["Deal"]
    assert "The rest of the cards go to the stock, face down." in words["Deal"]
    assert "Minus 15 points for each card from the foundations to the tableau." in words["Scoring"]
    assert "The score never goes below 0." in words["Scoring"]
    assert words["How to win"] == "Move all 52 cards to the foundations."  # counting up: nothing more to say


def test_the_words_follow_the_options():
    words = text_of(Rules.of(get_variant("klondike"), {"draw": 3, "redeals": 2, "relaxed": True}))
    assert "A draw turns three cards from the stock onto the waste." in words["Stock"]
    assert "the waste may be turned back into it twice" in words["Stock"]
    assert "Only its top card moves." in words["Foundation"]  # relaxed: the top card may come back
    assert "It takes cards from the tableau, the waste and the foundations." in words["Tableau"]
    assert "Minus 20 points each time the stock is dealt again." in words["Scoring"]
    assert "not dealt again" in text_of(Rules.of(get_variant("klondike"), {"redeals": 0}))["Stock"]


def test_calculation_says_what_each_foundation_takes_next():
    words = text_of(Rules.of(get_variant("calculation"), {}))
    win = words["How to win"]
    assert "f1 takes A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K" in win
    assert "f2 takes 2, 4, 6, 8, 10, Q, A, 3, 5, 7, 9, J, K" in win
    assert "f3 takes 3, 6, 9, Q, 2, 5, 8, J, A, 4, 7, 10, K" in win
    assert "f4 takes 4, 8, Q, 3, 7, J, 2, 6, 10, A, 5, 9, K" in win
    assert "f2 builds up by 2 regardless of suit, wrapping between King and Ace" in words["Foundation"]
    assert "f1 the Ace of clubs, f2 the 2 of clubs" in words["Deal"]
    assert "empty" not in words["Foundation"]  # dealt a card each, and none leaves: never empty
    assert "It takes cards from the waste." in words["Reserve"]
    assert "It holds at most one card." in words["Waste"]


def test_yukon_in_words():
    words = text_of(Rules.of(load_variant_file(YUKON), {}))
    assert "Stock" not in words and "Waste" not in words
    assert "Any face-up card moves, with every card on top of it." in words["Tableau"]
    assert "the top 1, 5, 5, 5, 5, 5, 5 face up" in words["Deal"]


def test_a_made_up_variant_in_words():
    text = """
name: made-up
piles:
  stock: {role: stock, draw: {count: 1, to: tableau}, redeals: 3}
  foundation: {role: foundation, count: 2, build: {rank: down, wrap: true}, empty: {rank: K}}
  cell: {role: reserve, count: 2, prefix: c, capacity: 1, build: {rank: none}, label: Cells}
  tableau: {role: tableau, count: 3, build: {rank: up-or-down, suit: same-colour}, gives: top, flip: none}
deal:
  - {to: tableau, counts: 4, order: piles, face-up: 0}
  - {to: stock, rest: true}
"""
    words = text_of(Rules.of(load_variant_text(text), {}))
    assert "A draw deals one card from the stock onto each pile of the tableau." in words["Stock"]
    assert "When the stock is empty, it may be dealt again 3 times." in words["Stock"]
    assert "It builds up or down in the same colour." in words["Tableau"]
    assert "Only its top card moves." in words["Tableau"] and "turns face up" not in words["Tableau"]
    assert "Two reserve piles, c1 and c2." in words["Cells"] and "A pile holds at most one card." in words["Cells"]
    assert "Four cards to each pile of the tableau (one pile after another), face down." in words["Deal"]
    assert words["How to win"].startswith("Move all 52 cards to the foundations.")
    assert "f1 takes K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2, A;" in words["How to win"]  # it wraps: said


def test_every_installed_game_and_option_set_is_explained_in_whole_sentences():
    for defn in registry().sorted():
        for options in defn.option_sets():
            sections = explain(Rules.of(defn, options))
            assert sections[-1].title == "How to win"
            for section in sections:
                assert section.title and section.lines, (defn.name, section)
                for line in section.lines:
                    assert not line[0].islower() and line.endswith("."), (defn.name, line)


def test_the_kernel_names_no_game():
    for module in ("explain.py", "schema.py"):
        source = (ROOT / "core" / module).read_text(encoding="utf-8").lower()
        for defn in registry().sorted():
            for name in (defn.name, *defn.aliases):
                assert name not in source, (module, name)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(step=st.integers(1, 12), wrap=st.booleans(), rank=st.sampled_from(["up", "down"]),
       start=st.integers(1, 13))
def test_each_foundation_sequence_follows_its_build_rule(step, wrap, rank, start):
    """Each rank said to come next on a foundation may go on the one before it, and a sequence
    stops only at 13 cards or where no rank fits."""
    ranks = "A23456789TJQK"
    text = f"""
name: seq
piles:
  foundation: {{role: foundation, count: 2, build: {{rank: {rank}, step: [1, {step}], wrap: {str(wrap).lower()}}},
               empty: {{rank: {ranks[start - 1]}}}}}
  tableau: {{role: tableau}}
deal:
  - {{to: tableau, rest: true}}
"""
    variant = load_variant_text(text).resolved({})
    rule = BuildRule(rank=rank, step=step, wrap=wrap)
    said = foundation_sequences(variant)
    if step == 1 and not wrap:
        assert said == []
        return
    second = next((line for line in said if line.startswith("f2 takes ")), None)
    if second is None:  # a single card: nothing can go on it, so nothing is said
        assert not any(rule.ranks_fit(start, r) for r in range(1, 14))
        return
    shown = [11 if r == "J" else 12 if r == "Q" else 13 if r == "K" else 1 if r == "A" else int(r)
             for r in second.removeprefix("f2 takes ").split(", ")]
    assert shown[0] == start
    for lower, upper in itertools.pairwise(shown):
        assert rule.ranks_fit(lower, upper)
    assert len(shown) == 13 or not any(rule.ranks_fit(shown[-1], r) for r in range(1, 14))


# --------------------------------------------------------------------------- solitaire rules


def test_rules_command_prints_title_description_and_rules(cli):
    result = cli("rules", "calculation")
    assert result.code == 0 and result.err == ""
    lines = result.out.splitlines()
    assert lines[0] == "Calculation"
    assert "Four foundations start on A, 2, 3 and 4" in result.out
    assert "How to win" in lines and "Foundation" in lines
    assert "f2 takes 2, 4, 6, 8," in " ".join(result.out.split())


def test_rules_command_wraps_to_the_terminal(cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    narrow = cli("rules", "klondike").out
    monkeypatch.setenv("COLUMNS", "200")
    wide = cli("rules", "klondike").out
    assert max(map(len, narrow.splitlines())) <= 59
    assert max(map(len, wide.splitlines())) > 60
    assert " ".join(narrow.split()) == " ".join(wide.split())  # the same words


def test_rules_command_takes_the_games_options(cli):
    three = cli("rules", "klondike", "--draw", "3", "--redeals=0").out
    assert "Options: draw 3, redeals 0" in three and "three cards" in three
    assert "one card from the stock" in cli("rules", "klondike").out


def test_rules_command_json_is_the_sections(cli):
    result = cli("rules", "klondike", "--relaxed", "--json")
    assert result.code == 0
    data = json.loads(result.out)
    rules = Rules.of(get_variant("klondike"), {"relaxed": True})
    assert data["variant"] == "klondike" and data["title"] == "Klondike"
    assert data["options"] == {"draw": 1, "redeals": None, "relaxed": True}
    assert data["sections"] == [s.as_json() for s in explain(rules)]


def test_rules_command_refuses_bad_input_in_one_line(cli):
    for args in (("rules", "klondyke"), ("rules", "klondike", "--speed", "2"), ("rules", "klondike", "--draw", "2"),
                 ("rules", "klondike", "stray"), ("rules",)):
        result = cli(*args)
        assert result.code == 2 and result.out == "", args
        assert len(result.err.strip().splitlines()) == 1 and result.err.startswith("solitaire: "), args
    assert "did you mean" in cli("rules", "klondyke").err or "installed" in cli("rules", "klondyke").err


# --------------------------------------------------------------------------- the table's help


def test_the_help_shows_the_rules_and_scrolls_to_them_at_80x24():
    async def run() -> None:
        game = Game.new(Rules.of(get_variant("calculation"), {}), 3)
        app = SolitaireApp(Tracker(game, dealt=False), tick=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("question_mark")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, HelpScreen)
            rules = screen.query_one("#help-rules")
            body = screen.query_one("#help-body")
            box = screen.query_one("#help")
            shown = str(rules.render())
            assert shown == rules_text(game.rules, HelpScreen.RULES_WIDTH)
            assert max(map(len, shown.splitlines())) <= rules.size.width  # no line wraps again
            assert rules.region.y >= body.region.bottom  # below the keys, out of sight at first
            assert box.region.bottom <= 24 and screen.query_one("#help-close").region.bottom <= box.region.bottom
            await pilot.press("end")
            await pilot.pause()
            assert body.scroll_y > 0 and body.scroll_y == body.max_scroll_y
            title = screen.query_one("#help-rules-title")
            assert body.region.y <= title.region.y or rules.region.y < body.region.bottom
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, HelpScreen)

    asyncio.run(run())
