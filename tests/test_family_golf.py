"""The Golf family's own rules (variants/golf): Golf and TriPeaks.

Checked against /work/shared/CATALOGUE.md's facts (PySolFC's rules) where a player meets them:
``solitaire deal GAME --json`` for the deals, ``solitaire play GAME --position FILE --json``
for the moves and their refusals. Black Hole's won game is in tests/data/won/.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

RANKS = "A23456789TJQK"
DECK = [r + s for s in "CDHS" for r in RANKS]


def dealt(cli: Any, game: str, seed: int, *options: str) -> dict[str, Any]:
    result = cli("deal", game, "--seed", str(seed), "--json", *options)
    assert result.code == 0, result.err
    data: dict[str, Any] = json.loads(result.out)
    return data


def position(game: str, piles: dict[str, list[str]], columns: int, options: dict[str, Any] | None = None,
             down: dict[str, list[str]] | None = None, rest: str = "stock") -> dict[str, Any]:
    """A position of ``game``: ``piles`` face up (``down``: face down) as given, every other
    column empty, the cards left over face down under the stock's (or face up in ``rest``)."""
    names = ["stock", "foundation", *(f"t{i}" for i in range(1, columns + 1))]
    out = {n: {"down": list((down or {}).get(n, [])), "up": list(piles.get(n, []))} for n in names}
    used = {c for p in out.values() for c in p["down"] + p["up"]}
    left = [c for c in DECK if c not in used]
    if rest == "stock":
        out["stock"]["down"] = left + out["stock"]["down"]
    else:
        out[rest]["up"] = left + out[rest]["up"]
    return {"variant": game, "options": options or {}, "piles": out}


def pile(reply: dict[str, Any], name: str) -> list[str]:
    cards: list[str] = reply["position"]["piles"][name]["up"]
    return cards


# --------------------------------------------------------------------------- Golf


@pytest.mark.parametrize("options", [(), ("--wrap",)])
def test_golf_deals_seven_columns_of_five_face_up_one_card_out_and_sixteen_in_the_stock(cli, options):
    data = dealt(cli, "golf", 7, *options)
    piles = data["piles"]
    assert [len(piles[f"t{i}"]["up"]) for i in range(1, 8)] == [5] * 7
    assert all(not piles[f"t{i}"]["down"] for i in range(1, 8))
    assert (len(piles["foundation"]["up"]), len(piles["stock"]["down"]), piles["stock"]["up"]) == (1, 16, [])
    assert Counter(c for p in piles.values() for c in p["down"] + p["up"]) == Counter(DECK)
    assert dealt(cli, "golf", 7, *options) == data and dealt(cli, "golf", 8, *options)["piles"] != piles


def test_golf_plays_a_card_one_rank_up_or_down_whatever_its_suit(play_from):
    data = position("golf", {"foundation": ["7H"], "t1": ["8C"], "t2": ["6S"], "t3": ["9D"]}, 7)
    up, refused, up_again, down = play_from(data, "t1 w", "t2 w", "t3 w", "t1 w")
    assert up["ok"] and pile(up, "foundation") == ["7H", "8C"]
    assert refused["error"] == "6S does not go on 8C: foundation builds up or down regardless of suit"
    assert pile(refused, "t2") == ["6S"]  # refused: nothing changed
    assert up_again["ok"] and pile(up_again, "foundation")[-1] == "9D"
    assert not down["ok"] and down["error"] == "t1 is empty"


def test_golf_goes_no_further_than_a_king_or_an_ace_without_wrap(play_from):
    data = position("golf", {"foundation": ["KH"], "t1": ["AS"], "t2": ["2C", "QS"], "t3": ["KD"]}, 7)
    ace, queen, king, ace_again = play_from(data, "t1 w", "t2 w", "t3 w", "t1 w")
    assert ace["error"] == "AS does not go on KH: foundation builds up or down regardless of suit"
    assert queen["ok"] and king["ok"]  # down to the Queen and back up to a King
    assert not ace_again["ok"]
    low = position("golf", {"foundation": ["AH"], "t1": ["KS"], "t2": ["2S"]}, 7)
    king_on_ace, two = play_from(low, "t1 w", "t2 w")
    assert king_on_ace["error"] == "KS does not go on AH: foundation builds up or down regardless of suit"
    assert two["ok"]


def test_relaxed_golf_wraps_from_king_to_ace(play_from):
    data = position("golf", {"foundation": ["KH"], "t1": ["KS", "AS"]}, 7, {"wrap": True})
    ace, king = play_from(data, "t1 w", "t1 w")
    assert ace["ok"] and king["ok"] and pile(king, "foundation") == ["KH", "AS", "KS"]


def test_golf_builds_nothing_on_the_columns_and_turns_the_stock_onto_the_pile_once(play_from):
    data = position("golf", {"foundation": ["2H"], "t1": ["5C"], "t2": ["4D"]}, 7,
                    down={"stock": ["9S", "JD"]}, rest="t7")  # JD is turned first
    onto, turned, turned_any, empty = play_from(data, "t2 t1", "draw", "draw", "draw")
    assert onto["error"] == "4D does not go on 5C: t1 takes no card on top of another"
    assert turned["ok"] and pile(turned, "foundation") == ["2H", "JD"]  # whatever its rank
    assert turned_any["ok"] and pile(turned_any, "foundation")[-1] == "9S"
    assert not empty["ok"] and empty["position"] == turned_any["position"]


def test_golf_is_won_when_the_columns_are_cleared_with_cards_left_in_the_stock(play_from):
    data = position("golf", {"foundation": ["2H"], "t1": ["4C", "3C"]}, 7)
    first, last = play_from(data, "t1 w", "t1 w")
    assert not first["won"] and last["won"] and last["position"]["piles"]["stock"]["down"]


# --------------------------------------------------------------------------- TriPeaks

PEAKS = [f"t{i}" for i in range(1, 19)]  # the three peaks' upper rows, dealt face down
BOTTOM = [f"t{i}" for i in range(19, 29)]  # the bottom row, dealt face up


@pytest.mark.parametrize("options", [(), ("--open",)])
def test_tripeaks_deals_eighteen_cards_face_down_over_ten_face_up_one_card_out_and_23_in_the_stock(cli, options):
    piles = dealt(cli, "tripeaks", 3, *options)["piles"]
    assert all(len(piles[t]["down"] + piles[t]["up"]) == 1 for t in PEAKS + BOTTOM)
    face_up = [t for t in PEAKS + BOTTOM if piles[t]["up"]]
    assert face_up == (PEAKS + BOTTOM if options else BOTTOM)
    assert (len(piles["foundation"]["up"]), len(piles["stock"]["down"])) == (1, 23)
    assert Counter(c for p in piles.values() for c in p["down"] + p["up"]) == Counter(DECK)


def tripeaks(t4: str, t10: str, t19: str, t20: str, t21: str, top: str, open_: bool = False) -> dict[str, Any]:
    """A TriPeaks position where t10 lies under t19 and t20, t4 under t10 and t11, on ``top``."""
    pos = position("tripeaks", {"foundation": [top], "t19": [t19], "t20": [t20], "t21": [t21]}, 28,
                   {"open": open_}, down={"t4": [t4], "t10": [t10], "t11": ["KC"]})
    if open_:
        for name in ("t4", "t10", "t11"):
            pos["piles"][name] = {"down": [], "up": pos["piles"][name]["down"]}
    return pos


def test_tripeaks_turns_a_card_up_once_both_cards_covering_it_are_gone(play_from):
    data = tripeaks(t4="QS", t10="6D", t19="4H", t20="5C", t21="9S", top="3H")
    covered, first, half, second, free = play_from(data, "t10 w", "t19 w", "t10 w", "t20 w", "t10 w")
    assert covered["error"] == "t10 has no face-up card"
    assert first["ok"] and half["error"] == "t10 has no face-up card"  # t20 still covers it
    assert second["ok"] and pile(second, "t10") == ["6D"]  # turned up by itself
    assert free["ok"] and pile(free, "foundation") == ["3H", "4H", "5C", "6D"]
    assert free["position"]["piles"]["t4"]["up"] == []  # t11 still covers t4


def test_open_tripeaks_refuses_a_covered_card_naming_the_cards_on_it(play_from):
    data = tripeaks(t4="QS", t10="6D", t19="5H", t20="5C", t21="9S", top="7H", open_=True)
    [covered] = play_from(data, "t10 w")
    assert covered["error"] == "t10 is covered: t19, t20 must go first"


def test_tripeaks_wraps_between_king_and_ace_and_builds_nothing_on_the_peaks(play_from):
    data = tripeaks(t4="QS", t10="6D", t19="AH", t20="KD", t21="QH", top="KS")
    ace, king, onto = play_from(data, "t19 w", "t20 w", "t21 t19")
    assert ace["ok"] and king["ok"] and pile(king, "foundation") == ["KS", "AH", "KD"]
    assert not onto["ok"]


def test_tripeaks_is_won_when_the_peaks_are_cleared(play_from):
    data = position("tripeaks", {"foundation": ["3H"], "t28": ["4S"]}, 28)
    [won] = play_from(data, "t28 w")
    assert won["won"] and len(won["position"]["piles"]["stock"]["down"]) == 50
