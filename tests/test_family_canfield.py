"""The Canfield family's own rules (variants/canfield): Canfield and Superior Canfield.

Checked against /work/shared/CATALOGUE.md's facts (PySolFC's rules) where a player meets them:
``solitaire deal GAME --json`` for the deals, ``solitaire play GAME --position FILE --json``
for the moves and their refusals. Two differences from the catalogue, by the games' YAML: the
base card goes to the first foundation whatever its suit (the foundations are alike until
then), and no cards are turned to the waste by the deal (the stock holds 34, not 31).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

RANKS = "A23456789TJQK"
DECK = [r + s for s in "CDHS" for r in RANKS]
PILES = ["stock", "waste", "f1", "f2", "f3", "f4", "reserve", "t1", "t2", "t3", "t4"]
GAMES = ["canfield", "superior-canfield"]


def dealt(cli: Any, game: str, seed: int, *options: str) -> dict[str, Any]:
    result = cli("deal", game, "--seed", str(seed), "--json", *options)
    assert result.code == 0, result.err
    data: dict[str, Any] = json.loads(result.out)
    return data


def position(game: str, piles: dict[str, list[str]], down: dict[str, list[str]] | None = None,
             base: str = "8") -> dict[str, Any]:
    """A position of ``game`` on base rank ``base``: ``piles`` face up (``down``: face down) as
    given, the cards left over face down under the stock's. Superior Canfield's reserve is
    face up: its ``down`` cards are put face up under its ``piles`` cards."""
    out = {n: {"down": list((down or {}).get(n, [])), "up": list(piles.get(n, []))} for n in PILES}
    if game == "superior-canfield":
        out["reserve"] = {"down": [], "up": out["reserve"]["down"] + out["reserve"]["up"]}
    used = {c for p in out.values() for c in p["down"] + p["up"]}
    out["stock"]["down"] = [c for c in DECK if c not in used] + out["stock"]["down"]
    return {"variant": game, "base": base, "piles": out}


def pile(reply: dict[str, Any], name: str, face: str = "up") -> list[str]:
    cards: list[str] = reply["position"]["piles"][name][face]
    return cards


# --------------------------------------------------------------------------- the deal


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 5, 60])
def test_the_deal_starts_a_foundation_on_a_random_base_with_a_reserve_of_13_and_four_columns(cli, game, seed):
    data = dealt(cli, game, seed)
    piles = data["piles"]
    [first] = piles["f1"]["up"]
    assert data["base"] == first[0] and all(not piles[f]["up"] for f in ("f2", "f3", "f4"))
    reserve = piles["reserve"]
    assert len(reserve["down"] + reserve["up"]) == 13
    assert len(reserve["up"]) == (1 if game == "canfield" else 13)  # Superior Canfield's, all face up
    assert [len(piles[t]["up"]) for t in ("t1", "t2", "t3", "t4")] == [1, 1, 1, 1]
    assert (len(piles["stock"]["down"]), piles["waste"]["up"]) == (34, [])
    assert Counter(c for p in piles.values() for c in p["down"] + p["up"]) == Counter(DECK)


def test_the_base_rank_changes_with_the_deal(cli):
    assert len({dealt(cli, "canfield", seed)["base"] for seed in range(1, 30)}) > 5


# --------------------------------------------------------------------------- the rules


@pytest.mark.parametrize("game", GAMES)
def test_foundations_start_on_the_base_rank_and_wrap_from_king_to_ace(play_from, game):
    data = position(game, {"f1": ["8S", "9S", "TS", "JS", "QS", "KS"], "t1": ["9H"], "t2": ["8H"],
                           "t3": ["AS"], "t4": ["2S"], "reserve": ["3D"]}, down={"reserve": ["4D"]})
    nine, eight, ace, two = play_from(data, "t1 f2", "t2 f2", "t3 f1", "t4 f1")
    assert nine["error"] == "an empty f2 takes only an 8, not 9H"
    assert eight["ok"] and pile(eight, "f2") == ["8H"]
    assert ace["ok"] and two["ok"] and pile(two, "f1")[-3:] == ["KS", "AS", "2S"]


@pytest.mark.parametrize("game", GAMES)
def test_columns_build_down_in_alternating_colours_wrapping_and_move_a_top_card_or_the_whole_pile(play_from, game):
    data = position(game, {"t1": ["9H", "8C", "7D"], "t2": ["TC"], "t3": ["AD"], "t4": ["KS", "6C"],
                           "reserve": ["3C"]}, down={"reserve": ["5H", "4H"]})
    part, top, same_colour, whole = play_from(data, "t1 t2 2", "t4 t1", "t3 t4", "t1 t2")
    assert part["error"] == "only the top card of t1 moves, or all its 3 face-up cards together"
    assert top["ok"] and pile(top, "t1") == ["9H", "8C", "7D", "6C"]
    assert same_colour["error"].startswith("AD does not go on KS: t4 builds down in alternating colours")
    assert whole["ok"] and pile(whole, "t2") == ["TC", "9H", "8C", "7D", "6C"]
    king = position(game, {"t1": ["AD"], "t2": ["KS"], "reserve": ["3C"]})
    [wrapped] = play_from(king, "t2 t1")  # a King goes on an Ace
    assert wrapped["ok"] and pile(wrapped, "t1") == ["AD", "KS"]


def test_canfield_fills_an_emptied_column_from_the_reserve_at_once(play_from):
    data = position("canfield", {"f1": ["8S"], "t1": ["9S"], "t2": ["TD"], "t3": ["QH"], "t4": ["4C"],
                                 "reserve": ["3C"]}, down={"reserve": ["5H", "JS"]})
    home, moved = play_from(data, "t1 f1", "t3 t1")
    assert home["ok"] and pile(home, "t1") == ["3C"]  # the reserve's top took the space
    assert pile(home, "reserve") == ["JS"] and len(pile(home, "reserve", "down")) == 1  # and turned up
    assert moved["error"].startswith("QH does not go on 3C")


def test_canfield_spaces_take_any_card_once_the_reserve_is_empty(play_from):
    data = position("canfield", {"f1": ["8S"], "t1": ["9S"], "t2": ["TD"], "t3": ["QH"], "t4": ["4C"]})
    home, space = play_from(data, "t1 f1", "t3 t1")
    assert home["ok"] and pile(home, "t1") == []
    assert space["ok"] and pile(space, "t1") == ["QH"]


def test_superior_canfield_leaves_spaces_for_the_player_to_fill_with_any_card(play_from):
    data = position("superior-canfield", {"f1": ["8S"], "t1": ["9S"], "t2": ["TD"], "t3": ["QH"], "t4": ["4C"],
                                          "reserve": ["5H", "JS", "3C"]})
    home, from_column, from_reserve = play_from(data, "t1 f1", "t3 t1", "r t3")
    assert home["ok"] and pile(home, "t1") == [] and pile(home, "reserve") == ["5H", "JS", "3C"]
    assert from_column["ok"] and pile(from_column, "t1") == ["QH"] and pile(from_column, "t3") == []
    assert from_reserve["ok"] and pile(from_reserve, "t3") == ["3C"] and pile(from_reserve, "reserve") == ["5H", "JS"]


@pytest.mark.parametrize(("options", "turned"), [((), 3), (("--draw", "1"), 1)])
def test_the_stock_turns_three_cards_or_one_and_redeals_without_limit(play_from, options, turned):
    data = position("canfield", {"f1": ["8S"], "t1": ["9S"], "t2": ["TD"], "t3": ["QH"], "t4": ["4C"],
                                 "reserve": ["3C"]})
    if options:
        data["options"] = {"draw": 1}
    stock = len(data["piles"]["stock"]["down"])
    replies = play_from(data, *["draw"] * (-(-stock // turned) + 1))
    assert all(r["ok"] for r in replies)
    assert len(pile(replies[0], "waste")) == turned
    assert pile(replies[-2], "stock", "down") == [] and len(pile(replies[-2], "waste")) == stock
    assert len(pile(replies[-1], "stock", "down")) == stock  # turned back over, no limit
