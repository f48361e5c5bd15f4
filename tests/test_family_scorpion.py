"""The own rules of two games of the Spider family (variants/spider): Scorpion and Black Widow.

Checked where a player meets them: ``solitaire deal GAME --json`` for the deals, ``solitaire
play GAME --position FILE --json`` for the moves and their refusals. Scorpion's facts are
/work/shared/CATALOGUE.md's (PySolFC's rules); Black Widow is not in the catalogue: its rules
are its YAML's (Spider on two decks whose runs built down move together whatever their suits).
Their won games are in tests/data/won/.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

RANKS = "A23456789TJQK"
DECK = [r + s for s in "CDHS" for r in RANKS]


def dealt(cli: Any, game: str, seed: int) -> dict[str, Any]:
    result = cli("deal", game, "--seed", str(seed), "--json")
    assert result.code == 0, result.err
    data: dict[str, Any] = json.loads(result.out)
    return data


def down(suit: str) -> list[str]:
    """A whole suit, King down to Ace (a run going home)."""
    return [r + suit for r in reversed(RANKS)]


def position(game: str, piles: dict[str, list[str]], columns: int, foundations: int, decks: int = 1,
             stock: list[str] | None = None, fill: tuple[str, ...] = ()) -> dict[str, Any]:
    """A position of ``game``: ``piles`` face up as given, ``stock`` face down in the stock, a
    card left over face up on each column of ``fill``, the others face down under the face-up
    cards of the last column."""
    names = ["stock", *(f"f{i}" for i in range(1, foundations + 1)), *(f"t{i}" for i in range(1, columns + 1))]
    out = {n: {"down": [], "up": list(piles.get(n, []))} for n in names}
    out["stock"]["down"] = list(stock or [])
    left = Counter(DECK * decks) - Counter(c for p in out.values() for c in p["up"] + p["down"])
    cards = sorted(left.elements())
    for name in fill:
        out[name]["up"] = [cards.pop()]
    out[f"t{columns}"]["down"] = cards
    return {"variant": game, "piles": out}


def pile(reply: dict[str, Any], name: str) -> list[str]:
    cards: list[str] = reply["position"]["piles"][name]["up"]
    return cards


# --------------------------------------------------------------------------- Scorpion


@pytest.mark.parametrize("seed", [1, 5])
def test_scorpion_deals_seven_by_seven_three_face_down_in_the_first_four_and_three_in_the_stock(cli, seed):
    piles = dealt(cli, "scorpion", seed)["piles"]
    columns = [f"t{i}" for i in range(1, 8)]
    assert [(len(piles[t]["down"]), len(piles[t]["up"])) for t in columns] == [(3, 4)] * 4 + [(0, 7)] * 3
    assert (len(piles["stock"]["down"]), piles["stock"]["up"]) == (3, [])
    assert all(piles[f"f{i}"] == {"down": [], "up": []} for i in range(1, 5))
    assert Counter(c for p in piles.values() for c in p["down"] + p["up"]) == Counter(DECK)


def scorpion(piles: dict[str, list[str]], stock: list[str] | None = None) -> dict[str, Any]:
    return position("scorpion", piles | {"t7": piles.get("t7", ["KC"])}, 7, 4, stock=stock)


def test_scorpion_moves_any_face_up_card_with_everything_on_it_checking_only_the_join(play_from):
    data = scorpion({"t1": ["2C", "9H", "4C", "QD"], "t2": ["TH"], "t3": ["TS"]})
    wrong_suit, moved = play_from(data, "t1 t3 3", "t1 t2 3")
    assert wrong_suit["error"].startswith("9H does not go on TS")
    assert moved["ok"] and pile(moved, "t2") == ["TH", "9H", "4C", "QD"] and pile(moved, "t1") == ["2C"]


def test_scorpion_fills_a_space_only_with_a_king_or_what_lies_on_one(play_from):
    data = scorpion({"t1": ["5D", "QS"], "t2": [], "t3": ["8D", "KH", "3S"]})
    queen, king = play_from(data, "t1 t2", "t3 t2 2")
    assert queen["error"] == "nothing from t1 fits on the empty t2: it takes only a King"
    assert king["ok"] and pile(king, "t2") == ["KH", "3S"]


def test_scorpion_deals_its_last_three_cards_onto_the_first_three_columns_even_with_a_space(play_from):
    data = scorpion({"t1": ["5D"], "t2": ["9C"], "t3": [], "t4": ["QS"]}, stock=["AD", "JS", "2H"])
    dealt_, again = play_from(data, "draw", "draw")
    assert dealt_["ok"], dealt_["error"]
    assert [pile(dealt_, t)[-1] for t in ("t1", "t2", "t3")] == ["2H", "JS", "AD"]
    assert pile(dealt_, "t4") == ["QS"] and dealt_["position"]["piles"]["stock"]["down"] == []
    assert not again["ok"]


def test_scorpion_sends_a_whole_suit_home_king_to_ace_at_once(play_from):
    data = scorpion({"t1": down("S"), "t2": ["8H", *down("D")[:-1]], "t3": ["AD"]})
    part, home = play_from(data, "t2 f 12", "t1 f 13")
    assert not part["ok"] and pile(part, "f1") == []
    assert home["ok"] and pile(home, "f1") == down("S") and pile(home, "t1") == []


# --------------------------------------------------------------------------- Black Widow

WIDOW = [f"t{i}" for i in range(1, 11)]


def test_black_widow_deals_two_decks_on_ten_columns_their_top_cards_face_up(cli):
    piles = dealt(cli, "black-widow", 4)["piles"]
    assert [len(piles[t]["down"]) + len(piles[t]["up"]) for t in WIDOW] == [6, 5, 5, 6, 5, 5, 6, 5, 5, 6]
    assert all(len(piles[t]["up"]) == 1 for t in WIDOW)
    assert len(piles["stock"]["down"]) == 50
    assert Counter(c for p in piles.values() for c in p["down"] + p["up"]) == Counter(DECK * 2)


def widow(piles: dict[str, list[str]], stock: list[str] | None = None) -> dict[str, Any]:
    return position("black-widow", piles, 10, 8, decks=2, stock=stock, fill=tuple(t for t in WIDOW if t not in piles))


def test_black_widow_moves_a_run_built_down_whatever_its_suits(play_from):
    data = widow({"t1": ["9H", "8S", "7D", "6C"], "t2": ["TC"], "t3": ["9D", "3H"]})
    run, broken = play_from(data, "t1 t2 4", "t3 t2 2")
    assert run["ok"], run["error"]
    assert pile(run, "t2") == ["TC", "9H", "8S", "7D", "6C"] and pile(run, "t1") == []
    assert not broken["ok"]  # 9D 3H is not a run


def test_black_widow_deals_a_card_onto_every_column_but_never_while_one_is_empty(play_from):
    stock = [c + "H" for c in "A23456789T"]
    data = widow({"t1": ["9H", "8S"], "t2": ["TC"]}, stock=stock)
    [deal] = play_from(data, "draw")
    assert deal["ok"] and [pile(deal, t)[-1] for t in WIDOW] == stock[::-1]
    data = widow({"t1": ["9H", "8S"], "t2": ["TD"]}, stock=stock)
    moved, refused = play_from(data, "t1 t2 2", "draw")
    assert moved["ok"], moved["error"]
    assert pile(moved, "t1") == []
    assert not refused["ok"] and refused["position"] == moved["position"]


def test_black_widow_sends_home_only_a_whole_suit_of_one_suit(play_from):
    mixed = down("S")[:6] + down("H")[6:]
    data = widow({"t1": down("S"), "t2": mixed})
    wrong, home = play_from(data, "t2 f 13", "t1 f 13")
    assert not wrong["ok"] and pile(wrong, "f1") == []
    assert home["ok"] and pile(home, "f1") == down("S")
