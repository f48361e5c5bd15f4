"""Microsoft FreeCell's deal numbers (``--ms N``), through the command line and the JSON protocol.

The layouts are the published ones (Rosetta Code's "Deal cards for FreeCell" lists deals 1 and
617; 11982 is the unwinnable one of the first 32,000), dealt row by row across eight columns.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_tui import make_app

from solitaire.core import Game, Rules, VariantError, get_variant, load_variant_text

PUBLISHED = {
    1: ["JD 2D 9H JC 5D 7H 7C 5H", "KD KC 9S 5S AD QC KH 3H", "2S KS 9D QD JS AS AH 3C",
        "4C 5C TS QH 4H AC 4D 7S", "3S TD 4S TH 8H 2C JH 7D", "6D 8S 8D QS 6C 3D 8C TC",
        "6S 9C 2H 6H"],
    617: ["7D AD 5C 3S 5S 8C 2D AH", "TD 7S QD AC 6D 8H AS KH", "TH QC 3H 9D 6S 8D 3D TC",
          "KD 5H 9S 3C 8S 7H 4D JS", "4C QS 9C 9H 7C 6H 2C 2S", "4S TS 2H 5D JC 6C JH QH",
          "JD KS KC 4H"],
    11982: ["AH AS 4H AC 2D 6S TS JS", "3D 3H QS QC 8S 7H AD KS", "KD 6H 5S 4D 9H JH 9S 3C",
            "JC 5D 5C 8C 9D TD KH 7C", "6C 2C TH QH 6D TC 4S 7S", "JD 7D 8H 9C 2H QD 4C 5H",
            "KC 8D 2S 3S"],
}


def rows(position: dict[str, Any]) -> list[str]:
    """The tableau as the published listings print it: row by row across t1..t8."""
    columns = [position["piles"][f"t{i}"]["up"] for i in range(1, 9)]
    return [" ".join(c[r] for c in columns if len(c) > r) for r in range(max(map(len, columns)))]


@pytest.mark.parametrize("number", sorted(PUBLISHED))
@pytest.mark.parametrize("game", ["freecell", "bakers-game"])
def test_deal_shows_the_published_layout(cli, number, game):
    result = cli("deal", game, "--ms", str(number), "--json")
    assert result.code == 0, result.err
    position = json.loads(result.out)
    assert rows(position) == PUBLISHED[number]
    assert position["seed"] == number and position["numbering"] == "microsoft"


def test_the_number_does_not_depend_on_the_cells(cli):
    for cells in ("0", "2"):
        position = json.loads(cli("deal", "freecell", "--ms", "617", "--cells", cells, "--json").out)
        assert rows(position) == PUBLISHED[617] and len([p for p in position["piles"] if p[0] == "c"]) == int(cells)


def test_a_seed_is_still_our_own_shuffle(cli):
    ours = json.loads(cli("deal", "freecell", "--seed", "1", "--json").out)
    assert rows(ours) != PUBLISHED[1] and "numbering" not in ours


def test_the_line_mode_names_the_deal_and_its_share_code(cli):
    result = cli("play", "freecell", "--ms", "617", "--plain", input="quit\n")
    assert result.code == 0, result.err
    assert "deal #617 freecell-ms617" in result.out.splitlines()[0]


def test_play_json_keeps_the_deal_and_resumes_it(cli):
    first = cli("play", "freecell", "--ms", "617", "--json", input="t1 c1\n")
    assert first.code == 0, first.err
    replies = first.json_lines()
    assert replies[0]["position"]["numbering"] == "microsoft" and replies[0]["position"]["seed"] == 617
    assert replies[-1]["position"]["piles"]["c1"]["up"] == ["JD"]
    again = cli("play", "freecell", "--ms", "617", "--json", input="")
    assert again.code == 0, again.err
    assert "resuming your game of this deal (1 move)" in again.err
    assert again.json_lines()[0]["position"]["piles"]["c1"]["up"] == ["JD"]
    # the share code names the same game; the listing gives it
    listed = cli("play")
    assert "solitaire play --deal freecell-ms617" in listed.out
    by_code = cli("play", "--deal", "freecell-ms617", "--json", input="")
    assert "resuming" in by_code.err and by_code.json_lines()[0]["position"]["moves"] == 1


def test_a_microsoft_deal_and_our_deal_of_one_number_are_two_games(cli):
    cli("play", "freecell", "--ms", "5", "--json", input="t1 c1\n")
    ours = cli("play", "freecell", "--seed", "5", "--json", input="")
    assert "resuming" not in ours.err
    position = ours.json_lines()[0]["position"]
    assert position["moves"] == 0 and "numbering" not in position


def test_an_old_share_code_still_names_our_deal(cli):
    result = cli("play", "--deal", "freecell-c3-617", "--json", input="")
    assert result.code == 0, result.err
    position = result.json_lines()[0]["position"]
    assert position["seed"] == 617 and "numbering" not in position and position["options"] == {"cells": 3}


def test_the_code_with_options(cli):
    result = cli("play", "--deal", "freecell-c3-ms617", "--json", input="")
    position = result.json_lines()[0]["position"]
    assert rows(position) == PUBLISHED[617] and position["options"] == {"cells": 3}


def test_solve_a_microsoft_deal_and_a_batch(cli):
    one = cli("solve", "freecell", "--ms", "1", "--states", "200", "--json")
    assert one.code == 0, one.err
    assert json.loads(one.out)["result"] in ("win", "unknown")
    batch = cli("solve", "freecell", "--seeds", "ms1..ms2", "--states", "200")
    assert batch.code == 0, batch.err
    lines = batch.json_lines()
    assert [(r["seed"], r["numbering"]) for r in lines[:2]] == [(1, "microsoft"), (2, "microsoft")]
    assert lines[-1]["deals"] == 2


@pytest.mark.parametrize("args, says", [
    (["deal", "klondike", "--ms", "5"], "klondike has no Microsoft deal numbers: --ms is for"),
    (["play", "klondike", "--ms", "5", "--json"], "klondike has no Microsoft deal numbers"),
    (["solve", "golf", "--ms", "5"], "golf has no Microsoft deal numbers"),
    (["solve", "klondike", "--seeds", "ms1..ms3"], "klondike has no Microsoft deal numbers"),
    (["deal", "freecell", "--ms", "0"], "--ms"),
    (["deal", "freecell", "--ms", "1000001"], "--ms"),
    (["play", "freecell", "--ms", "abc", "--json"], "--ms"),
    (["solve", "freecell", "--ms", "0"], "--ms"),
    (["solve", "freecell", "--seeds", "ms0..ms3"], "--ms must be a deal number from 1 to 1,000,000, got 0"),
    (["deal", "freecell", "--ms", "5", "--seed", "5"], "--ms names the deal: give no --seed"),
    (["play", "freecell", "--ms", "5", "--daily", "--json"], "--daily names the deal"),
    (["play", "--deal", "freecell-ms0", "--json"], "a microsoft deal number is from 1 to 1000000"),
    (["play", "--deal", "klondike-ms5", "--json"], "klondike has no microsoft deal numbers"),
    (["deal", "freecell"], "give the deal: --seed N (or --ms N"),
])
def test_bad_numbers_and_games_are_one_line(cli, args, says):
    result = cli(*args)
    assert result.code == 2
    assert says in result.err and len(result.err.strip().splitlines()) == 1, result.err
    assert result.out == ""
    assert cli("play").out.startswith("No unfinished games")  # nothing was saved


def test_the_loader_refuses_the_numbering_where_it_cannot_hold():
    text = """name: big
piles:
  foundation: {role: foundation, count: 8, build: {rank: up, suit: same-suit}, empty: {rank: A}}
  tableau: {role: tableau, count: 8}
deck: {decks: 2}
numbering: microsoft
deal:
  - {to: tableau, counts: 13}
"""
    with pytest.raises(VariantError, match=r"big.yaml:6: numbering: the microsoft numbering deals one deck of 52"):
        load_variant_text(text, "big.yaml")
    with pytest.raises(VariantError, match=r"unknown numbering 'microsft'.*did you mean 'microsoft'"):
        load_variant_text(text.replace("microsoft", "microsft").replace("deck: {decks: 2}\n", ""), "big.yaml")


def test_the_table_header_says_deal_n():
    game = Game.new(Rules.of(get_variant("freecell")), 617, numbering="microsoft")
    assert "deal #617" in make_app(game).header_text(80).plain
    ours = Game.new(Rules.of(get_variant("freecell")), 617)
    assert "freecell-617" in make_app(ours).header_text(80).plain
