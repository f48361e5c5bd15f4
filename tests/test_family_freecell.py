"""The FreeCell, Beleaguered Castle, Baker's Dozen and Fan families: each game's deal, the rules
that make it, and a complete won game through the JSON protocol.

Every rule is checked where a player meets it: ``solitaire deal GAME --json`` for the deals,
``solitaire play GAME --position FILE --json`` for the refusals and the moves, and
``solitaire play GAME --seed N --new --json`` fed a winning line for the won games (the lines,
in tests/data/family_freecell_wins.json, were found once by the solver and shortened).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire.core import Game, Rules, get_variant

RANKS = "A23456789TJQK"
SUITS = "CDHS"
DECK = [r + s for s in SUITS for r in RANKS]
WINS = json.loads((Path(__file__).parent / "data" / "family_freecell_wins.json").read_text())

FOUNDATIONS = ["f1", "f2", "f3", "f4"]


def columns(n: int) -> list[str]:
    return [f"t{i}" for i in range(1, n + 1)]


def cells(n: int) -> list[str]:
    return [f"c{i}" for i in range(1, n + 1)]


# game: (options, cell piles, tableau sizes, foundation sizes)
DEALS: dict[str, tuple[dict[str, Any], list[str], list[int], list[int]]] = {
    "freecell": ({}, cells(4), [7, 7, 7, 7, 6, 6, 6, 6], [0, 0, 0, 0]),
    "bakers-game": ({}, cells(4), [7, 7, 7, 7, 6, 6, 6, 6], [0, 0, 0, 0]),
    "eight-off": ({}, cells(8), [6] * 8, [0, 0, 0, 0]),
    "seahaven-towers": ({}, cells(4), [5] * 10, [0, 0, 0, 0]),
    "relaxed-freecell": ({}, cells(4), [7, 7, 7, 7, 6, 6, 6, 6], [0, 0, 0, 0]),
    "beleaguered-castle": ({}, [], [6] * 8, [1, 1, 1, 1]),
    "alpha-star": ({}, [], [4] * 12, [1, 1, 1, 1]),
    "streets-and-alleys": ({}, [], [7, 7, 7, 7, 6, 6, 6, 6], [0, 0, 0, 0]),
    "fortress": ({}, [], [6, 6, 5, 5, 5, 5, 5, 5, 5, 5], [0, 0, 0, 0]),
    "bakers-dozen": ({}, [], [4] * 13, [0, 0, 0, 0]),
    "spanish-patience": ({}, [], [4] * 13, [0, 0, 0, 0]),
    "fan": ({}, [], [3] * 17 + [1], [0, 0, 0, 0]),
}
# cells the deal fills: Eight Off's 1, 3, 5 and 7, Seahaven Towers' middle two
FILLED_CELLS = {"eight-off": {"c1", "c3", "c5", "c7"}, "seahaven-towers": {"c2", "c3"}}


def option_args(options: dict[str, Any]) -> list[str]:
    return [a for k, v in options.items() for a in (f"--{k}", str(v))]


def dealt(cli: Any, game: str, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    result = cli("deal", game, "--seed", str(seed), "--json", *option_args(options))
    assert result.code == 0, result.err
    data: dict[str, Any] = json.loads(result.out)
    return data


@pytest.mark.parametrize("game", sorted(DEALS))
def test_the_deal_holds_every_card_once_face_up_in_the_games_piles(cli, game):
    options, cell_piles, sizes, found = DEALS[game]
    data = dealt(cli, game, 3, options)
    piles = data["piles"]
    assert set(piles) == {*cell_piles, *FOUNDATIONS, *columns(len(sizes))}
    assert all(not p["down"] for p in piles.values())  # every card face up
    assert Counter(c for p in piles.values() for c in p["up"]) == Counter(DECK)
    assert [len(piles[t]["up"]) for t in columns(len(sizes))] == sizes
    assert [len(piles[f]["up"]) for f in FOUNDATIONS] == found
    filled = FILLED_CELLS.get(game, set())
    assert {c for c in cell_piles if piles[c]["up"]} == filled
    assert all(len(piles[c]["up"]) == 1 for c in filled)
    assert dealt(cli, game, 3, options) == data  # reproducible by seed
    assert dealt(cli, game, 4, options)["piles"] != piles


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_freecell_deals_as_many_cells_as_the_option_says(cli, n):
    data = dealt(cli, "freecell", 5, {"cells": n})
    piles = data["piles"]
    assert data["options"] == {"cells": n}
    assert sorted(p for p in piles if p.startswith("c")) == cells(n)
    assert all(not piles[c]["up"] for c in cells(n))
    assert Counter(c for p in piles.values() for c in p["up"]) == Counter(DECK)
    # the tableau is dealt the same whatever the cells
    four = dealt(cli, "freecell", 5, {})["piles"]
    assert all(piles[t] == four[t] for t in columns(8))


@pytest.mark.parametrize(("game", "n"), [("beleaguered-castle", 8), ("alpha-star", 12)])
def test_beleaguered_castle_deals_the_aces_to_the_foundations(cli, game, n):
    piles = dealt(cli, game, 8, {})["piles"]
    assert sorted(piles[f]["up"][0] for f in FOUNDATIONS) == ["AC", "AD", "AH", "AS"]
    assert not any(c[0] == "A" for t in columns(n) for c in piles[t]["up"])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9), game=st.sampled_from(["bakers-dozen", "spanish-patience"]))
def test_bakers_dozen_kings_lie_under_every_other_card_of_their_column(seed, game):
    rules = Rules.of(get_variant(game), {})
    position = Game.new(rules, seed).to_position()
    for t in columns(13):
        up = position["piles"][t]["up"]
        kings = [c[0] == "K" for c in up]
        assert kings == sorted(kings, reverse=True), (t, up)  # the Kings first, at the bottom


# --------------------------------------------------------------------------- positions


def position(game: str, piles: dict[str, list[str]], rest: list[str],
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A position of ``game``: ``piles`` as given, each suit's lowest cards not given on its
    foundation (f1 clubs .. f4 spades), and the cards left over dealt in turn onto ``rest``."""
    rules = Rules.of(get_variant(game), options or {})
    names = list(rules.names)
    out = {name: list(piles.get(name, [])) for name in names}
    used = {c for cards in piles.values() for c in cards}
    left = []
    for f, suit in zip(FOUNDATIONS, SUITS, strict=True):
        low = True
        for rank in RANKS:
            card = rank + suit
            if card in used:
                low = False
            elif low and f not in piles:
                out[f].append(card)
            else:
                left.append(card)
    for i, card in enumerate(left):
        out[rest[i % len(rest)]].append(card)
    return {"variant": game, "options": options or {},
            "piles": {name: {"down": [], "up": cards} for name, cards in out.items()}}


def up(reply: dict[str, Any], pile: str) -> list[str]:
    cards: list[str] = reply["position"]["piles"][pile]["up"]
    return cards


def test_freecell_moves_a_run_only_as_long_as_the_free_cells_allow(play_from):
    # a five-card run on t1 fits on t2's TH; two cells are taken: 3 cards can move, not 5
    data = position("freecell", {"t1": ["KD", "9C", "8H", "7S", "6H", "5C"], "t2": ["TH"],
                                 "c1": ["AS"], "c2": ["AD"]}, rest=columns(8)[2:])
    refused, _, _, moved = play_from(data, "t1 t2 5", "c1 f4", "c2 f2", "t1 t2 5")
    assert not refused["ok"]
    assert refused["error"] == ("5 cards cannot move together: with the free cells and empty piles "
                                "there are now, 3 can (t1 to t2)")
    assert up(refused, "t1")[-5:] == ["9C", "8H", "7S", "6H", "5C"]  # refused: nothing changed
    assert moved["ok"], moved["error"]  # four free cells: (1 + 4) cards move
    assert up(moved, "t2") == ["TH", "9C", "8H", "7S", "6H", "5C"] and up(moved, "t1") == ["KD"]


def test_freecell_with_no_cells_doubles_the_run_by_an_empty_column_but_not_into_it(play_from):
    data = position("freecell", {"t1": ["KD", "9C", "8H", "7S"], "t2": ["TD"], "t3": ["9S"], "t8": []},
                    rest=columns(7)[3:], options={"cells": 0})
    too_long, into_empty, moved = play_from(data, "t1 t2 3", "t1 t8 2", "t1 t3 2")
    assert too_long["error"] == ("3 cards cannot move together: with the free cells and empty piles "
                                 "there are now, 2 can (t1 to t2)")
    assert into_empty["error"] == ("2 cards cannot move together: with the free cells and empty piles "
                                   "there are now, 1 can (t1 to t8)")
    assert moved["ok"] and up(moved, "t3") == ["9S", "8H", "7S"]


def test_relaxed_freecell_moves_a_whole_run_with_every_cell_taken(play_from):
    data = position("relaxed-freecell", {"t1": ["KD", "9C", "8H", "7S", "6H", "5C", "4D"], "t2": ["TH"],
                                         "c1": ["AS"], "c2": ["AD"], "c3": ["AH"], "c4": ["AC"]},
                    rest=columns(8)[2:])
    [moved] = play_from(data, "t1 t2 6")
    assert moved["ok"], moved["error"]
    assert up(moved, "t2") == ["TH", "9C", "8H", "7S", "6H", "5C", "4D"]
    strict = dict(data, variant="freecell")
    [refused] = play_from(strict, "t1 t2 6")
    assert not refused["ok"] and "1 can" in refused["error"]


def test_freecell_foundations_keep_their_cards_and_bakers_game_gives_the_top_back(play_from):
    # 4D would go on 5S by the tableau's rule: FreeCell's foundations give nothing back
    data = position("freecell", {"t1": ["KD"], "t2": ["5S"], "f2": ["AD", "2D", "3D", "4D"]}, columns(8)[2:])
    [kept] = play_from(data, "f2 t2")
    assert not kept["ok"] and kept["error"] == "cards cannot be taken from f2"
    assert up(kept, "f2") == ["AD", "2D", "3D", "4D"]
    data = position("bakers-game", {"t1": ["KD"], "t2": ["5H"], "f3": ["AH", "2H", "3H", "4H"]},
                    columns(8)[2:])
    [back] = play_from(data, "f3 t2")
    assert back["ok"] and up(back, "t2") == ["5H", "4H"] and up(back, "f3") == ["AH", "2H", "3H"]


def test_bakers_game_builds_by_suit(play_from):
    data = position("bakers-game", {"t1": ["KD", "9H"], "t2": ["TS"], "t3": ["TH"]}, columns(8)[3:])
    refused, moved = play_from(data, "t1 t2", "t1 t3")
    assert not refused["ok"] and refused["error"] == "nothing from t1 fits on TS: t2 builds down in the same suit"
    assert moved["ok"] and up(moved, "t3") == ["TH", "9H"]


# game: (columns, cells, the cells the test fills, leaving two free)
KING_ONLY = {"eight-off": (8, 8, ["AS", "AD", "AH", "AC", "2S", "2D"]), "seahaven-towers": (10, 4, ["AS", "AD"])}


@pytest.mark.parametrize("game", sorted(KING_ONLY))
def test_king_only_spaces_and_runs_of_free_cells_plus_one(play_from, game):
    n, n_cells, parked = KING_ONLY[game]
    taken = {c: [a] for c, a in zip(cells(n_cells), parked, strict=False)}
    # t1 empty, it takes only a King; the 4-card run on t2 fits on t3's TC; two cells are free
    data = position(game, {"t1": [], "t2": ["QD", "9C", "8C", "7C", "6C"], "t3": ["TC"], "t4": ["QH", "KH"],
                           **taken}, rest=columns(n)[4:])
    not_king, too_long, moved, king = play_from(data, "t2 t1", "t2 t3 4", "t3 t2", "t4 t1")
    assert not not_king["ok"] and not_king["error"] == "nothing from t2 fits on the empty t1: it takes only a King"
    # the empty column, taking only Kings, does not raise the limit: 1 + 2 free cells = 3
    assert too_long["error"] == ("4 cards cannot move together: with the free cells and empty piles "
                                 "there are now, 3 can (t2 to t3)")
    assert not moved["ok"]  # TC onto 6C: not down by one
    assert king["ok"] and up(king, "t1") == ["KH"]
    data["piles"]["t2"]["up"].remove("6C")  # a run of 3 now: within the limit
    data["piles"]["t5"]["up"].append("6C")
    [within] = play_from(data, "t2 t3 3")
    assert within["ok"], within["error"]
    assert up(within, "t3") == ["TC", "9C", "8C", "7C"]


@pytest.mark.parametrize("game", ["beleaguered-castle", "streets-and-alleys", "fortress", "bakers-dozen",
                                  "spanish-patience", "fan"])
def test_one_card_at_a_time(play_from, game):
    n = {"fortress": 10, "bakers-dozen": 13, "spanish-patience": 13, "fan": 18}.get(game, 8)
    found = {"f1": ["AC"], "f2": ["AD"], "f3": ["AH"], "f4": ["AS"]} if game == "spanish-patience" else {}
    data = position(game, {"t1": ["KD", "9S", "8S"], "t2": ["TS"], **found}, rest=columns(n)[2:])
    [two] = play_from(data, "t1 t2 2")  # 9S would go on TS in every one of these games
    assert not two["ok"] and two["error"] == "only the top card of t1 moves"
    assert up(two, "t1")[:3] == ["KD", "9S", "8S"] and up(two, "t2")[0] == "TS"


def test_fortress_builds_up_or_down_by_suit(play_from):
    data = position("fortress", {"t1": ["KD", "5S"], "t2": ["6S"], "t3": ["4S"], "t4": ["6H"]},
                    rest=columns(10)[4:])
    wrong_suit, down, up_again = play_from(data, "t1 t4", "t1 t2", "t3 t2")
    assert not wrong_suit["ok"] and wrong_suit["error"].startswith("5S does not go on 6H")
    assert down["ok"] and up(down, "t2") == ["6S", "5S"]
    assert up_again["ok"] and up(up_again, "t2") == ["6S", "5S", "4S"]
    data = position("fortress", {"t1": ["KD", "7S"], "t2": ["6S"]}, rest=columns(10)[2:])
    [upward] = play_from(data, "t1 t2")
    assert upward["ok"] and up(upward, "t2") == ["6S", "7S"]


def test_alpha_star_moves_runs_of_one_suit_built_down_in_suit(play_from):
    data = position("alpha-star", {"t1": ["KD", "9S", "8S", "7S"], "t2": ["TS"], "t3": ["6H", "5C"],
                                   "t4": ["6C"], "t5": [], "t6": ["QH", "JD"]}, rest=columns(12)[6:])
    off_suit, run, empty, one_suit_only = play_from(data, "t3 t4 2", "t1 t2 3", "t2 t5 4", "t6 t5 2")
    assert not off_suit["ok"] and up(off_suit, "t3") == ["6H", "5C"]  # 6H-5C is no run of one suit
    assert run["ok"], run["error"]
    assert up(run, "t2") == ["TS", "9S", "8S", "7S"] and up(run, "t1") == ["KD"]
    assert empty["ok"], empty["error"]  # an empty column takes a whole run
    assert up(empty, "t5") == ["TS", "9S", "8S", "7S"] and up(empty, "t2") == []
    assert not one_suit_only["ok"] and up(one_suit_only, "t6") == ["QH", "JD"]


def test_alpha_star_builds_in_suit_only(play_from):
    data = position("alpha-star", {"t1": ["KD", "9H"], "t2": ["TS"], "t3": ["TH"]}, rest=columns(12)[3:])
    wrong, right = play_from(data, "t1 t2", "t1 t3")
    assert not wrong["ok"] and wrong["error"] == "nothing from t1 fits on TS: t2 builds down in the same suit"
    assert up(wrong, "t1") == ["KD", "9H"]
    assert right["ok"] and up(right, "t3") == ["TH", "9H"]


@pytest.mark.parametrize("game", ["bakers-dozen", "spanish-patience"])
def test_an_empty_column_of_bakers_dozen_stays_empty(play_from, game):
    found = {"f1": ["AC"], "f2": ["AD"], "f3": ["AH"], "f4": ["AS"]} if game == "spanish-patience" else {}
    data = position(game, {"t1": [], "t2": ["KH"], **found}, rest=columns(13)[2:])
    [refused] = play_from(data, "t2 t1")
    assert not refused["ok"] and refused["error"] == "an empty t1 takes no card"


def test_fan_fills_an_empty_fan_only_with_a_king(play_from):
    data = position("fan", {"t1": [], "t2": ["QH"], "t3": ["KS"]}, rest=columns(18)[3:])
    queen, king = play_from(data, "t2 t1", "t3 t1")
    assert not queen["ok"] and queen["error"] == "an empty t1 takes only a King, not QH"
    assert king["ok"] and up(king, "t1") == ["KS"]


def test_spanish_patience_foundations_start_on_their_own_ace_and_alternate_colours(play_from):
    data = position("spanish-patience", {"t1": ["KD", "AS"], "t2": ["QD", "AC"], "t3": ["JD", "2H"],
                                         "t4": ["TD", "2C"], "f1": [], "f2": ["AD"], "f3": ["AH"], "f4": []},
                    rest=columns(13)[4:])
    wrong_ace, right_ace, club_on_club, heart_on_club = play_from(data, "t1 f1", "t2 f1", "t4 f1", "t3 f1")
    assert not wrong_ace["ok"] and wrong_ace["error"] == "an empty f1 takes only AC, not AS"
    assert right_ace["ok"] and up(right_ace, "f1") == ["AC"]
    assert not club_on_club["ok"] and club_on_club["error"].startswith("2C does not go on AC")
    assert heart_on_club["ok"] and up(heart_on_club, "f1") == ["AC", "2H"]


# --------------------------------------------------------------------------- won games


@pytest.mark.parametrize("game", sorted(DEALS))
def test_a_complete_game_is_won_through_the_json_protocol(cli, game):
    win = WINS[game]
    args = ["play", game, "--seed", str(win["seed"]), "--new", "--json", *option_args(win["options"])]
    result = cli(*args, input="".join(m + "\n" for m in win["moves"]))
    assert result.code == 0, result.err
    replies = result.json_lines()
    assert len(replies) == len(win["moves"]) + 1
    assert all(r["ok"] for r in replies), next(r["error"] for r in replies if not r["ok"])
    assert not any(r["won"] for r in replies[:-1])
    last = replies[-1]
    assert last["won"]
    assert sum(len(up(last, f)) for f in FOUNDATIONS) == 52
