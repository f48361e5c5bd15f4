"""The race for every game: progress and the timed race's result come from the game's ``win:``
(cards home, or piles cleared), never from Klondike's piles; the deal's "unchecked" is passed on.

Played over a real server on 127.0.0.1 with the protocol's clients, as in tests/test_race.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_race import assert_no_leaks, open_table, play, run, seat, start

from solitaire.cli.race.messages import progress, standing
from solitaire.cli.race.server import Settings
from solitaire.core import Game, Rules, get_variant

# the first 166 moves of a won deal of one-suit Spider (seed 5): the last puts a whole suit home
SPIDER_LINE = (Path(__file__).parent / "data" / "race" / "spider-suits-1-seed-5.txt").read_text().split("\n")
SPIDER = [m for m in SPIDER_LINE if m]


def test_progress_counts_what_each_game_wins_by():
    golf = Game.new(Rules.of(get_variant("golf"), {}), 5)
    before = progress(golf)
    assert (before["left"], before["hidden"]) == (35, 0)  # seven columns of five to clear
    golf.play("draw")  # a card home from the stock: nearer to nothing in Golf
    drawn = progress(golf)
    assert drawn["home"] == before["home"] + 1 and drawn["left"] == 35
    golf.pop()
    golf.play("t4 w")
    cleared = progress(golf)
    assert cleared["left"] == 34
    assert standing(golf) > standing(Game.new(golf.rules, 5))

    calculation = Game.new(Rules.of(get_variant("calculation"), {}), 4)
    assert progress(calculation)["home"] == 4  # its four foundations are dealt their first card
    calculation.play("draw")
    calculation.play("w f4")
    assert progress(calculation)["home"] == 5 and progress(calculation)["hidden"] == 0

    spider = Game.new(Rules.of(get_variant("spider"), {"suits": 1}), 5)
    hidden = progress(spider)["hidden"]
    assert (progress(spider)["home"], hidden) == (0, 44)  # 54 dealt, the ten tops face up
    for move in SPIDER:
        spider.play(move)
    assert progress(spider)["home"] == 13 and progress(spider)["hidden"] < hidden


# (game, options, seed, bob's moves, cid's moves): bob is nearer a win as the game counts it,
# cid has more cards home (Golf) or as many (Spider) or fewer (Calculation)
CASES = {
    "golf": ("golf", {}, 5, ["t4 w"], ["draw"]),
    "calculation": ("calculation", {}, 4, ["draw", "w f4"], ["draw", "w r1"]),
    "spider": ("spider", {"suits": 1}, 5, SPIDER, SPIDER[:-1]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_timed_race_is_won_as_the_game_declares(case):
    variant, options, seed, bob_moves, cid_moves = CASES[case]

    async def go() -> None:
        server, table, _link = await open_table(seed, settings=Settings(variant, dict(options), "timed", 3600))
        ann, bob, cid = await seat(server, table, "ann", "bob", "cid")
        starts = await start([ann, bob, cid])
        win = starts[0]["win"]
        if variant == "golf":
            assert win == {"home": 0, "clear": ["t1", "t2", "t3", "t4", "t5", "t6", "t7"], "hides": False}
        else:
            assert win["home"] == (104 if variant == "spider" else 52) and win["clear"] == []
            assert win["hides"] is (variant == "spider")
        await play(bob, bob_moves)
        await play(cid, cid_moves)
        moved = await ann.wait("progress", seat=1, moves=len(bob_moves))
        expected = progress(server.tables[table.id].players[1].game)
        assert {k: moved[k] for k in ("home", "left", "hidden", "moves")} == expected
        table.clock.cancel()
        table._time_up()  # what the race's timer calls when the hour is over
        end = await ann.wait("end")
        assert (end["reason"], end["draw"], end["winners"]) == ("time", False, [1])
        for c in (ann, bob, cid):
            assert_no_leaks(c)
        await server.close()
    run(go())


@pytest.mark.parametrize("proved", [True, False])
def test_the_race_says_when_its_deal_is_unchecked(proved):
    async def go() -> None:
        server, table, _link = await open_table()
        server.deal_seed = lambda _settings: (4, proved)  # the test hook: (seed, proved)
        ann, bob = await seat(server, table, "ann", "bob")
        starts = await start([ann, bob])
        for s in starts:
            assert s.get("unchecked", False) is (not proved)
        await bob.send("state")
        state = await bob.wait("ack", re="state")
        assert state.get("unchecked", False) is (not proved)
        await server.close()
    run(go())


# --------------------------------------------------------------------- no leaks, any family

WON = Path(__file__).parent / "data" / "won"


def won_line(name: str) -> tuple[int, list[str]]:
    """A won deal's seed and moves, from tests/data/won/NAME.txt (``seed N``, one move a line)."""
    lines = [ln.strip() for ln in (WON / f"{name}.txt").read_text().splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    assert lines[0].startswith("seed ")
    return int(lines[0].split()[1]), lines[1:]


def freecell_line() -> tuple[int, list[str]]:
    entry = json.loads((Path(__file__).parent / "data" / "family_freecell_wins.json").read_text())["freecell"]
    return int(entry["seed"]), list(entry["moves"])


# (variant, options, seed and moves, whether the moves win): FreeCell has no stock, Pyramid's
# stock shows only its top card, Spider deals face down outside the stock, Golf's stock is closed
FAMILIES = {
    "freecell": ("freecell", {}, freecell_line, True),
    "pyramid": ("pyramid", {}, lambda: won_line("pyramid"), True),
    "golf": ("golf", {}, lambda: won_line("golf"), True),
    "spider": ("spider", {"suits": 1}, lambda: (5, SPIDER), False),
}


@pytest.mark.parametrize("family", list(FAMILIES))
def test_no_message_leaks_a_card_in_any_family(family):
    variant, options, line, wins = FAMILIES[family]
    seed, moves = line()

    async def go() -> None:
        # a won line is played as fast as the replies come: above a person's flood limit
        server, table, _link = await open_table(seed, settings=Settings(variant, dict(options)), burst=10_000)
        ann, bob, cid = await seat(server, table, "ann", "bob", "cid")
        await start([ann, bob, cid])
        await play(cid, moves[:2])
        last = await play(bob, moves)
        assert last["won"] is wins
        if wins:
            for c in (ann, bob, cid):
                end = await c.wait("end")
                assert end["winners"] == [1]
        else:
            await ann.wait("progress", seat=1, moves=len(moves))
        replies = [m for m in bob.messages if m["type"] == "reply"]
        assert len(replies) == len(moves)  # every position bob saw is among those checked
        for c in (ann, bob, cid):
            assert_no_leaks(c)
        await server.close()
    run(go(), timeout=120)
