"""Fortune's Favor's chain of fills, through the JSON protocol and the hot path: an emptied
column takes the waste's top card at once, the emptied waste the stock's; one undo takes the
whole chain back exactly; a space takes any card once the waste and the stock are out."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire.core import Game, Rules, VariantError, get_variant, load_variant_text

SEED = 3  # t5 is the 2 of clubs, the waste the 5 of clubs, the stock's top the 10 of clubs


def play(cli: Any, *commands: str, seed: int = SEED) -> list[dict[str, Any]]:
    result = cli("play", "fortunes-favor", "--seed", str(seed), "--json", "--new", input="\n".join(commands) + "\n")
    assert result.code == 0, result.err
    replies: list[dict[str, Any]] = result.json_lines()
    return replies


def piles(reply: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = reply["position"]["piles"]
    return found


def test_the_deal(cli):
    position = json.loads(cli("deal", "fortunes-favor", "--seed", str(SEED), "--json").out)
    p = position["piles"]
    assert [p[f"f{i}"]["up"] for i in range(1, 5)] == [["AC"], ["AD"], ["AH"], ["AS"]]
    assert all(len(p[f"t{i}"]["up"]) == 1 and not p[f"t{i}"]["down"] for i in range(1, 13))
    assert p["waste"]["up"] == ["5C"] and len(p["stock"]["down"]) == 35 and p["stock"]["down"][-1] == "TC"
    assert p["t5"]["up"] == ["2C"]


def test_an_emptied_column_fills_from_the_waste_and_the_waste_from_the_stock(cli):
    start, moved, undone, redone = play(cli, "t5 f1", "undo", "redo")
    assert moved["ok"]
    assert piles(moved)["f1"]["up"] == ["AC", "2C"]
    assert piles(moved)["t5"]["up"] == ["5C"]  # the waste's card, at once
    assert piles(moved)["waste"]["up"] == ["TC"]  # the stock's next card, at once
    assert len(piles(moved)["stock"]["down"]) == 34 and moved["moves"] == 1
    assert undone["ok"] and undone["position"] == start["position"]  # one undo takes the whole chain back
    assert redone["position"] == moved["position"]


def test_playing_the_waste_s_last_card_refills_it_from_the_stock(cli, tmp_path):
    position = json.loads(cli("deal", "fortunes-favor", "--seed", str(SEED), "--json").out)
    p = position["piles"]
    p["t5"]["up"], p["waste"]["up"] = p["waste"]["up"], p["t5"]["up"]  # the waste is the 2 of clubs alone
    file = tmp_path / "waste.json"
    file.write_text(json.dumps(position))
    result = cli("play", "fortunes-favor", "--position", str(file), "--json", input="w f1\nundo\n")
    start, moved, back = result.json_lines()
    assert moved["ok"] and piles(moved)["f1"]["up"] == ["AC", "2C"]
    assert piles(moved)["waste"]["up"] == ["TC"] and len(piles(moved)["stock"]["down"]) == 34
    assert back["position"] == start["position"]


def test_a_space_takes_any_card_once_the_waste_and_the_stock_are_out(cli, tmp_path):
    position = json.loads(cli("deal", "fortunes-favor", "--seed", str(SEED), "--json").out)
    p = position["piles"]
    for name in ("t1", "waste", "stock"):  # out: their cards on t12, where they are only data
        p["t12"]["up"] += p[name]["down"] + p[name]["up"]
        p[name] = {"down": [], "up": []}
    file = tmp_path / "out.json"
    file.write_text(json.dumps(position))
    result = cli("play", "fortunes-favor", "--position", str(file), "--json", input="t5 f1\nt12 t5\n")
    _, home, into_space = result.json_lines()
    assert home["ok"] and piles(home)["t5"]["up"] == []  # nothing left to fill it: it stays empty
    assert into_space["ok"] and piles(into_space)["t5"]["up"] == [p["t12"]["up"][-1]]  # and takes any card


def test_a_round_of_fills_is_refused_at_load():
    path = get_variant("fortunes-favor").path
    assert path is not None
    text = path.read_text().replace("fill-from: stock ", "fill-from: tableau ")
    with pytest.raises(VariantError, match=r"piles\.waste\.fill-from: the fills go round: waste fills from "
                                           r"tableau fills from waste"):
        load_variant_text(text, "round.yaml")


@settings(max_examples=30, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32), choices=st.lists(st.integers(0, 10**6), max_size=60))
def test_push_and_pop_restore_every_chain_exactly(seed, choices):
    game = Game.new(Rules.of(get_variant("fortunes-favor")), seed)
    seen = []
    for choice in choices:
        moves = game.legal_moves()
        if not moves:
            break
        seen.append((game.snapshot(), game.to_position()))
        game.push(moves[choice % len(moves)])
        assert sorted(c for p in game.piles for c in p) == sorted(game.rules.deck)
    for snapshot, position in reversed(seen):
        game.pop()
        assert game.snapshot() == snapshot and game.to_position() == position
