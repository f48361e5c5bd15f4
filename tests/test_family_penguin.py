"""Penguin's own rules (variants/freecell/penguin.yaml), of the FreeCell family: the beak.

Checked against /work/shared/CATALOGUE.md's facts (PySolFC's rules) where a player meets them:
``solitaire deal penguin --json`` for the deal, ``solitaire play penguin --position FILE
--json`` for the moves and their refusals. Penguin's won game is in tests/data/won/.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

RANKS = "A23456789TJQK"
DECK = [r + s for s in "CDHS" for r in RANKS]
FOUNDATIONS = ["f1", "f2", "f3", "f4"]
CELLS = [f"c{i}" for i in range(1, 8)]
COLUMNS = [f"t{i}" for i in range(1, 8)]


def dealt(cli: Any, seed: int) -> dict[str, Any]:
    result = cli("deal", "penguin", "--seed", str(seed), "--json")
    assert result.code == 0, result.err
    data: dict[str, Any] = json.loads(result.out)
    return data


@pytest.mark.parametrize("seed", [1, 5, 77])
def test_the_beak_sets_the_base_and_its_three_brothers_start_three_foundations(cli, seed):
    data = dealt(cli, seed)
    piles = data["piles"]
    beak = piles["t1"]["up"][0]  # the first card dealt, the bottom of the first column
    assert data["base"] == beak[0]
    brothers = sorted(c for c in DECK if c[0] == beak[0] and c != beak)
    assert sorted(piles[f]["up"][0] for f in FOUNDATIONS[:3]) == brothers
    assert all(len(piles[f]["up"]) == 1 for f in FOUNDATIONS[:3]) and piles["f4"]["up"] == []
    assert [len(piles[t]["up"]) for t in COLUMNS] == [7] * 7 and all(not piles[t]["down"] for t in COLUMNS)
    assert all(piles[c] == {"down": [], "up": []} for c in CELLS)  # the flipper starts empty
    assert Counter(c for p in piles.values() for c in p["down"] + p["up"]) == Counter(DECK)


def test_the_beak_changes_with_the_deal(cli):
    assert len({dealt(cli, seed)["base"] for seed in range(1, 30)}) > 5


def position(piles: dict[str, list[str]], base: str = "8") -> dict[str, Any]:
    """A Penguin position on base ``base``: ``piles`` as given, each foundation not given
    holding its suit from the base up to the card below the lowest given, the rest in t7."""
    out = {n: list(piles.get(n, [])) for n in FOUNDATIONS + CELLS + COLUMNS}
    used = {c for cards in piles.values() for c in cards}
    order = RANKS[RANKS.index(base):] + RANKS[:RANKS.index(base)]
    for f, suit in zip(FOUNDATIONS, "CDHS", strict=True):
        for rank in order:
            if f in piles or rank + suit in used:
                break
            out[f].append(rank + suit)
    taken = {c for cards in out.values() for c in cards}
    out["t7"] = [c for c in DECK if c not in taken] + out["t7"]
    return {"variant": "penguin", "base": base, "piles": {n: {"down": [], "up": c} for n, c in out.items()}}


def pile(reply: dict[str, Any], name: str) -> list[str]:
    cards: list[str] = reply["position"]["piles"][name]["up"]
    return cards


def test_a_space_takes_only_a_card_one_rank_below_the_beak(play_from):
    data = position({"t1": ["9S"], "t2": [], "t3": ["7H"], "t4": ["7D", "6D"], "t5": []})
    nine, seven, run = play_from(data, "t1 t2", "t3 t2", "t4 t5 2")
    assert nine["error"] == "an empty t2 takes only a 7, not 9S"
    assert seven["ok"] and pile(seven, "t2") == ["7H"]
    assert run["ok"] and pile(run, "t5") == ["7D", "6D"]  # a run headed by a 7


def test_foundations_build_up_by_suit_from_the_beak_wrapping_from_king_to_ace(play_from):
    data = position({"f4": [], "t1": ["9S"], "t2": ["8S"], "t3": ["AC"], "t4": ["AD"]})
    nine, eight, ace, wrong_suit = play_from(data, "t1 f4", "t2 f4", "t3 f1", "t4 f1")
    assert nine["error"] == "an empty f4 takes only an 8, not 9S"
    assert eight["ok"] and pile(eight, "f4") == ["8S"]
    assert ace["ok"] and pile(ace, "f1")[-2:] == ["KC", "AC"]  # the clubs from 8 to King were home
    assert not wrong_suit["ok"]


def test_columns_build_down_by_suit_wrapping_from_ace_to_king(play_from):
    data = position({"t1": ["AS"], "t2": ["KS"], "t3": ["KH"], "t4": ["QH"]})
    other_suit, king, queen = play_from(data, "t3 t1", "t2 t1", "t4 t1")
    assert other_suit["error"].startswith("KH does not go on AS")
    assert king["ok"] and queen["error"].startswith("QH does not go on KS")


def test_any_run_of_one_suit_moves_whatever_the_cells_and_the_flipper_holds_a_card_a_cell(play_from):
    full = {c: [card] for c, card in zip(CELLS, ["2C", "3C", "4C", "5C", "6C", "2D", "3D"], strict=True)}
    data = position(full | {"t1": ["JD", "TD", "9D", "7S", "6S", "5S", "4S", "3S"], "t2": ["8S"], "t3": ["2H"],
                            "t4": ["QH"]})
    run, cell, mixed = play_from(data, "t1 t2 5", "t3 c1", "t1 t4 3")
    assert run["ok"] and pile(run, "t2") == ["8S", "7S", "6S", "5S", "4S", "3S"]  # five cards, no free cell
    assert not cell["ok"]  # every cell holds its one card
    assert not mixed["ok"]  # JD TD 9D is a run, but not onto QH


def test_a_cell_takes_one_card_and_gives_it_back_to_a_column(play_from):
    data = position({"t1": ["9S", "4H"], "t2": ["5H"]})
    to_cell, second, back = play_from(data, "t1 c1", "t2 c1", "c1 t2")
    assert to_cell["ok"] and pile(to_cell, "c1") == ["4H"]
    assert not second["ok"] and pile(second, "c1") == ["4H"]
    assert back["ok"] and pile(back, "t2") == ["5H", "4H"] and pile(back, "c1") == []
