"""The rules in words (core/explain.py), `solitaire rules`, and the table's help showing them."""

from __future__ import annotations

import asyncio
import doctest
import itertools
import json
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solitaire.cli.saves import Tracker
from solitaire.cli.tui.app import HelpScreen, SolitaireApp
from solitaire.core import Game, Rules, get_variant, load_variant_file, load_variant_text, registry, spec
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


# words of the YAML vocabulary itself (the pile key `fan`), which a game may share as its name
VOCABULARY = {word for value in vars(spec).values() if isinstance(value, tuple | frozenset)
              for word in value if isinstance(word, str)}


def test_the_kernel_names_no_game():
    """No game's name as a word in quotes, and no game's title, in the kernel's words or schema
    (a game named by a plain word, Limited or Fan, is not named by "runs limited" or `fan:`)."""
    for module in ("explain.py", "schema.py"):
        source = (ROOT / "core" / module).read_text(encoding="utf-8")
        for defn in registry().sorted():
            for name in {defn.name, *defn.aliases} - VOCABULARY:
                assert f'"{name}"' not in source and f"'{name}'" not in source, (module, name)
            assert not re.search(rf"\b{re.escape(defn.title)}\b", source), (module, defn.title)


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


# --------------------------------------------------------------------------- the newer vocabulary

CELLS = """
name: cells
options:
  cells: {type: count, default: 4}
piles:
  cell: {role: reserve, count: $cells, prefix: c, capacity: 1, build: {rank: none}, label: Cells}
  foundation: {role: foundation, count: 4, empty: {rank: A}, build: {rank: up, suit: same-suit}, max-accept: 1}
  tableau: {role: tableau, count: 8, build: {rank: down, suit: alternate-colour}, supermove: true}
deal:
  - {to: tableau, counts: [7, 7, 7, 7, 6, 6, 6, 6]}
"""

SPIDERISH = """
name: spiderish
deck: {decks: 2, suits: S}
piles:
  stock: {role: stock, draw: {count: 1, to: tableau, not-onto-empty: true}}
  foundation: {role: foundation, count: 8, empty: {rank: K}, build: {rank: none}, min-accept: 13, capacity: 13}
  tableau: {role: tableau, count: 10, build: {rank: down}, run: {rank: down, suit: same-suit},
            accepts-from: [tableau]}
deal:
  - {to: tableau, counts: [6, 6, 6, 6, 5, 5, 5, 5, 5, 5], face-up: 1, to-bottom: K}
  - {to: stock, rest: true}
"""

PENGUINISH = """
name: penguinish
piles:
  foundation: {role: foundation, count: 4, empty: base, build: {rank: up, suit: same-suit, wrap: true}}
  cell: {role: reserve, count: 7, capacity: 1, build: {rank: none}, prefix: c}
  tableau: {role: tableau, count: 7, empty: {base: -1}, build: {rank: down, suit: same-suit, wrap: true}}
deal:
  - {to: tableau, counts: [1, 0, 0, 0, 0, 0, 0], base: true}
  - {to: foundation, counts: [1, 1, 1, 0], pick: base}
  - {to: tableau, counts: [6, 7, 7, 7, 7, 7, 7]}
win: {home: 40}
"""


def made_up(text: str, **options: object) -> dict[str, str]:
    return text_of(Rules.of(load_variant_text(text), options))


def game(name: str, **options: object) -> dict[str, str]:
    return text_of(Rules.of(get_variant(name), options))


def everything(words: dict[str, str]) -> str:
    return " ".join(words.values())


def test_the_deck_is_said_when_it_is_not_one_deck_of_52():
    assert "Two decks, 104 cards." in game("double-klondike")["Deal"]
    assert "Move all 104 cards to the foundations." in game("double-klondike")["How to win"]
    assert "Two decks of spades only (eight of each card, 104 cards)." in made_up(SPIDERISH)["Deal"]
    assert "deck" not in game("klondike")["Deal"]


def test_min_accept_a_whole_suit():
    words = made_up(SPIDERISH)
    assert "Only a whole suit, King to Ace, moved at once, goes onto an empty foundation." in words["Foundation"]
    assert "whole suit" not in everything(game("klondike"))
    two = made_up(CELLS.replace("max-accept: 1", "min-accept: 2"))
    assert "A move puts at least two cards on it, moved at once." in two["Foundation"]


def test_supermove_says_free_cells_and_empty_piles():
    words = made_up(CELLS)
    assert ("Runs move only as far as free cells and empty piles allow: (1 + free cells) cards, doubled for each "
            "empty pile of the tableau, halved when the run goes to an empty pile; free cells are the empty piles "
            "of the cells.") in words["Tableau"]
    none = made_up(CELLS, cells=0)
    assert "Runs move only as far as empty piles allow: one card, doubled for each empty pile" in none["Tableau"]
    assert "free cells" not in none["Tableau"]
    assert "Runs move" not in everything(game("klondike"))


def test_a_group_of_no_piles_says_so():
    words = made_up(CELLS, cells=0)
    assert words["Cells"] == "No piles in this game."
    assert "cells" not in words["Foundation"]  # nothing comes from a group with no piles
    assert "No piles" not in everything(made_up(CELLS))


def test_fill_from():
    sentence = "An emptied pile is filled at once with the top card of the reserve, as long as the reserve has cards."
    assert sentence in game("canfield")["Tableau"]
    assert "filled at once" not in everything(game("superior-canfield"))


def test_covered_by_says_which_cards_free_which():
    words = game("tripeaks")
    assert words["Peak"].count("cover t") == 18
    assert ("A card is free once the cards covering it are gone (t4 and t5 cover t1; t6 and t7 cover t2;"
            in words["Peak"])
    assert "t27 and t28 cover t18); it then turns face up." in words["Peak"]
    assert "A face-down card left on top" not in words["Peak"]  # one card a pile: said by the covering
    assert "face down on t1 to t18, face up on t19 to t28" in words["Deal"]
    opened = game("tripeaks", open=True)
    assert "cover t1;" in opened["Peak"] and "turns face up" not in opened["Peak"]
    assert "free once" not in everything(game("golf"))


def test_an_open_stock_is_face_up():
    assert "One pile, named stock, face up, every card in it seen." in game("thoughtful", open=True)["Stock"]
    assert "One pile, named stock, face down." in game("thoughtful")["Stock"]


def test_gives_pile_is_not_a_run():
    words = game("canfield")
    assert "Its top card moves, or all its face-up cards together." in words["Tableau"]
    assert "several top cards" not in words["Tableau"]
    assert "all its face-up cards" not in everything(game("klondike"))


def test_not_onto_empty():
    assert ("A draw deals one card from the stock onto each pile of the tableau, but not while one of them is empty."
            in made_up(SPIDERISH)["Stock"])
    assert "not while" not in game("easthaven")["Stock"]


def test_to_bottom():
    assert "Kings are then moved to the bottom of their piles, keeping their order." in made_up(SPIDERISH)["Deal"]
    assert "bottom" not in game("klondike")["Deal"]


def test_the_base_rank_pick_and_empty_rules_of_the_base_rank():
    canfield = game("canfield")
    assert "The first card dealt sets the base rank: every foundation starts on that rank." in canfield["Deal"]
    assert "An empty pile takes a card of the base rank." in canfield["Foundation"]
    assert "The foundations get 1, 0, 0, 0 cards (f1 to f4)" in canfield["Deal"]  # plural: get
    penguin = made_up(PENGUINISH)
    assert ("The first card dealt sets the base rank: every foundation starts on that rank and an empty pile of "
            "the tableau takes a card one rank below it.") in penguin["Deal"]
    assert "The foundations get 1, 1, 1, 0 cards of the base rank, taken out of the deck (f1 to f4)" in penguin["Deal"]
    assert "An empty pile takes a card one rank below the base rank." in penguin["Tableau"]
    assert "base rank" not in everything(game("klondike"))


def test_win_by_clearing_or_by_cards_home():
    assert game("golf")["How to win"] == "Win by clearing the tableau; cards may stay in the stock."
    assert game("tripeaks")["How to win"] == "Win by clearing the peak; cards may stay in the stock."
    assert made_up(PENGUINISH)["How to win"] == "Win with 40 cards of the 52 on the foundations."
    both = made_up(PENGUINISH.replace("win: {home: 40}", "win: {cleared: [cell], home: 40}"))
    assert both["How to win"] == "Win by clearing the cells, with at least 40 cards on the foundations; " \
        "cards may stay in the tableau."
    assert game("klondike")["How to win"] == "Move all 52 cards to the foundations."


def test_a_pile_that_takes_no_card_is_not_said_to_take_cards():
    canfield = game("canfield")
    assert "No card is ever put on it." in canfield["Reserve"]
    assert "takes cards" not in canfield["Reserve"] and "empty" not in canfield["Reserve"]
    golf = game("golf")
    assert "No card is ever put on it." in golf["Tableau"] and "takes" not in golf["Tableau"]
    assert "It takes cards from the tableau, and from the stock." in golf["Waste"]  # Golf's one foundation
    assert "When empty" not in golf["Waste"]  # dealt a card that never leaves
    for words in (canfield, game("klondike")):
        assert "It is filled only from the stock." in words["Waste"] and "empty" not in words["Waste"]
    assert "No card is ever put on it." not in everything(game("klondike"))


def test_every_game_names_each_of_its_groups_and_how_to_win():
    """Every installed game, under each of its option sets: each pile group has its section,
    which names its piles (or says it has none) and says it takes cards exactly when a move
    can put one there, and the last says how to win, naming the groups to clear or the
    foundations."""
    for defn in registry().sorted():
        for options in defn.option_sets():
            check_groups_and_win(defn, options)


def check_groups_and_win(defn, options) -> None:
    rules = Rules.of(defn, options)
    words = text_of(rules)
    for group in rules.spec.groups:
        said = words[group.label]
        if not group.piles:
            assert said == "No piles in this game.", (defn.name, group.key)
            continue
        assert group.piles[0] in said and group.piles[-1] in said, (defn.name, group.key)
        # said to take cards from other piles exactly when a move can put a card on one of them
        piles = rules.group_piles[group.key]
        takes = any((d in rules.receivers and any(rules.accept[d])) or d == rules.pair_home for d in piles)
        assert ("It takes cards from" in said) == takes, (defn.name, group.key, said)
    win = words["How to win"]
    assert win.startswith(("Move all", "Win by clearing", "Win with")), (defn.name, win)
    for key in rules.spec.win_cleared:
        assert rules.groups[key].label.lower() in win
    if rules.win_home:
        assert any(g.label.lower() in win for g in rules.spec.groups if g.role == "foundation")
    assert ("clearing" in win) == bool(rules.win_cleared)


def test_rules_command_says_the_new_rules(cli):
    canfield = " ".join(cli("rules", "canfield").out.split())
    assert "filled at once with the top card of the reserve" in canfield and "sets the base rank" in canfield
    tripeaks = cli("rules", "tripeaks", "--open")
    assert tripeaks.code == 0 and "Win by clearing the peak" in " ".join(tripeaks.out.split())
    assert "turns face up" not in " ".join(tripeaks.out.split())


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
