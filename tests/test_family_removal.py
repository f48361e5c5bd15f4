"""The removal games (variants/pyramid, variants/removal): Pyramid, Relaxed Pyramid, Aces Up and
Monte Carlo. Their deals, each rule that makes them (pairs making 13, covered cards, discards
beaten by another pile's top card, pairs of touching cells, the closing of the gaps), a won
game of each through the JSON protocol, and the solver checked against the exhaustive search
on small positions of each (budgets in states).

Positions are built card by card (``position()``: the cards not named lie on the discard pile,
whose order no rule checks) and played through the Python API or ``solitaire play GAME
--position FILE --json``.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from solitaire.cli import saves
from solitaire.cli.tui.app import SolitaireApp
from solitaire.cli.tui.table import minimum_size
from solitaire.core import Game, IllegalMoveError, Rules, VariantError, get_variant, load_variant_text
from solitaire.core.cards import card_name, parse_card
from solitaire.core.rules import PAIR
from solitaire.core.solver import UNWINNABLE, WIN, exhaustive_search, solve

RANKS = "A23456789TJQK"
DECK = [r + s for s in "CDHS" for r in RANKS]
GAMES = ("pyramid", "relaxed-pyramid", "aces-up", "monte-carlo")


def position(game: str, piles: dict[str, list[str]], down: dict[str, int] | None = None) -> dict[str, Any]:
    """A position of ``game``: ``piles`` maps a pile to its cards, bottom to top (face up but
    ``down[pile]`` of them, and a stock that is not open face down); every other card is on the
    discard pile (``foundation``)."""
    rules = Rules.of(get_variant(game))
    names = Game.new(rules, 1).to_position()["piles"]
    out: dict[str, Any] = {name: {"down": [], "up": []} for name in names}
    placed = {c for cards in piles.values() for c in cards}
    out["foundation"]["up"] = [c for c in DECK if c not in placed]
    for name, cards in piles.items():
        d = len(cards) if name == "stock" and not rules.stock_open else (down or {}).get(name, 0)
        out[name] = {"down": cards[:d], "up": cards[d:]}
    return {"variant": game, "seed": None, "options": {}, "piles": out}


def load(pos: dict[str, Any]) -> Game:
    return Game.from_position(get_variant(pos["variant"]), pos)


def refused(game: Game, move: str) -> str:
    """The one-line reason ``move`` is refused; the game is left as it was."""
    before = game.to_position()
    with pytest.raises(IllegalMoveError) as caught:
        game.play(move)
    assert game.to_position() == before
    reason = str(caught.value)
    assert "\n" not in reason
    return reason


# ------------------------------------------------------------------ the deals

@pytest.mark.parametrize("game", GAMES)
def test_the_deal_holds_every_card_once_in_the_games_layout(cli, game):
    result = cli("deal", game, "--seed", "7", "--json")
    assert result.code == 0, result.err
    piles = json.loads(result.out)["piles"]
    cards = Counter(c for p in piles.values() for c in p["down"] + p["up"])
    assert cards == Counter(DECK)
    sizes = {name: len(p["down"]) + len(p["up"]) for name, p in piles.items()}
    tableau = [sizes[f"t{i}"] for i in range(1, 100) if f"t{i}" in sizes]
    faced = {name: len(p["up"]) for name, p in piles.items()}
    if game.endswith("pyramid"):
        assert tableau == [1] * 28 and sizes["waste"] == 1 and sizes["stock"] == 23
        assert faced["stock"] == 23, "the stock is open: its top card plays"
    elif game == "aces-up":
        assert tableau == [1] * 4 and sizes["stock"] == 48 and faced["stock"] == 0
    else:
        assert tableau == [1] * 25 and sizes["stock"] == 27 and faced["stock"] == 0
    assert sizes["foundation"] == 0
    assert all(faced[f"t{i}"] == 1 for i in range(1, len(tableau) + 1))


# ------------------------------------------------------------------ Pyramid

def pyramid(**piles: list[str]) -> Game:
    return load(position("pyramid", piles))


def test_pyramid_two_free_cards_making_13_go_together_and_undo_brings_them_back():
    game = pyramid(t22=["6H"], t23=["7C"], t16=["KD"])
    record = game.play("t23 t22")  # either order
    assert (record.kind, record.cards) == ("pair", ("6H", "7C"))
    assert game.piles[game.rules.index["foundation"]][-2:] == [parse_card("6H"), parse_card("7C")]
    assert game.legal_moves() == [(game.rules.index["t16"], game.rules.index["foundation"], 1)]
    game.undo()
    assert [card_name(game.piles[game.rules.index[t]][-1]) for t in ("t22", "t23")] == ["6H", "7C"]
    assert game.moves == 0


def test_pyramid_a_pair_that_does_not_make_13_is_refused_with_its_reason():
    game = pyramid(t22=["6H"], t23=["8C"])
    assert refused(game, "t22 t23") == ("6H and 8C do not pair: foundation takes two cards whose ranks add up to "
                                        "13 together (A=1, J=11, Q=12, K=13), or a King alone")


def test_pyramid_a_covered_card_is_refused_and_a_king_goes_alone():
    game = pyramid(t16=["6H"], t22=["7C"], t23=["KS"])
    assert refused(game, "t16 t22") == "t16 is covered: t22, t23 must go first"
    assert refused(game, "t22") == ("7C does not go alone: foundation takes two cards whose ranks add up to 13 "
                                    "together (A=1, J=11, Q=12, K=13), or a King alone")
    game.play("t23")  # a King alone: the pile's name is the move
    assert refused(game, "t16 t22") == "t16 is covered: t22 must go first"


def test_pyramid_the_stock_top_pairs_with_the_waste_top():
    game = pyramid(stock=["2D", "9S", "4C"], waste=["9H"], t28=["JD"])
    index = game.rules.index
    assert (index["stock"], index["waste"], PAIR) in game.legal_moves()
    assert refused(game, "stock t28").startswith("4C and JD do not pair")
    record = game.play("w stock")
    assert record.cards == ("4C", "9H")
    assert card_name(game.piles[index["stock"]][-1]) == "9S" and not game.piles[index["waste"]]
    game.play("draw")  # the stock still turns onto the waste
    assert card_name(game.piles[index["waste"]][-1]) == "9S"


def test_pyramid_shows_only_the_stocks_top_card_and_the_hint_guesses_the_rest(cli, solitaire_home):
    """``open: top``: the JSON protocol's position shows the stock's top card and the cards
    under it as "??" (as face-down cards), a draw brings the next one to light, and the
    table's hint never learns the order of the unseen cards."""
    game = Game.new(Rules.of(get_variant("pyramid"), {}), 1)
    stock = game.piles[game.rules.stock]  # type: ignore[index]
    out = cli("play", "pyramid", "--seed", "1", "--new", "--json", input="draw\nhint\n").out
    first, drawn, hinted = (json.loads(line) for line in out.splitlines())
    seen = first["position"]["piles"]["stock"]
    assert seen == {"down": ["??"] * (len(stock) - 1), "up": [card_name(stock[-1])]}
    after = drawn["position"]["piles"]
    assert after["stock"] == {"down": ["??"] * (len(stock) - 2), "up": [card_name(stock[-2])]}
    assert after["waste"]["up"][-1] == card_name(stock[-1])
    assert hinted["ok"] and hinted["position"] == drawn["position"]
    thoughtful = Game.new(Rules.of(get_variant("thoughtful"), {"open": True}), 1)  # open: true, every card seen
    out = cli("play", "thoughtful", "--open", "--seed", "1", "--new", "--json", input="").out
    view = json.loads(out.splitlines()[0])
    assert view["position"]["piles"]["stock"]["down"] == []
    assert len(view["position"]["piles"]["stock"]["up"]) == len(thoughtful.piles[thoughtful.rules.stock])  # type: ignore[index]


def test_relaxed_pyramid_is_won_once_the_pyramid_is_empty():
    pos = position("relaxed-pyramid", {"t28": ["6H"], "t27": ["7C"], "stock": ["2D", "9S"], "waste": ["QH"]})
    game = load(pos)
    before = game.won
    game.play("t27 t28")
    assert (before, game.won) == (False, True)
    strict = pyramid(t28=["6H"], t27=["7C"], stock=["2D", "9S"], waste=["QH"])
    strict.play("t27 t28")
    assert not strict.won


# ------------------------------------------------------------------ Aces Up

def aces_up(**piles: list[str]) -> Game:
    return load(position("aces-up", piles))


def test_aces_up_a_card_goes_only_while_a_higher_card_of_its_suit_shows():
    game = aces_up(t1=["5H"], t2=["9H"], t3=["KC"], t4=["AS"], stock=["2D", "3D", "4D", "6D"])
    game.play("t1")  # 9H beats 5H
    assert refused(game, "t2") == "9H cannot go to foundation: no higher heart tops another tableau pile"
    assert refused(game, "t3 f") == "KC cannot go to foundation: no higher club tops another tableau pile"
    assert refused(game, "t4") == "AS cannot go to foundation: no higher spade tops another tableau pile"
    game.play("t3 t1")  # an empty pile takes any top card
    assert refused(game, "t1 t2") == "KC does not go on 9H: t2 takes no card on top of another"


def test_aces_up_aces_rank_high_and_the_stock_deals_onto_each_pile():
    game = aces_up(t1=["KH"], t2=["AH"], t3=["2C"], t4=["3S"], stock=["4D", "5D", "6D", "7D"])
    game.play("t1")  # the Ace of hearts beats the King
    record = game.play("draw")
    assert record.cards == ("7D", "6D", "5D", "4D")
    assert [len(p) for p in game.piles[2:]] == [1, 2, 2, 2]


def test_aces_up_is_won_with_the_four_aces_one_to_a_pile():
    game = aces_up(t1=["AC"], t2=["AD"], t3=["AH", "AS"], t4=["2S"])
    game.play("t4")  # the Ace of spades beats the Two
    assert sum(len(game.piles[f]) for f in game.rules.foundations) == 48 and not game.won  # two Aces in t3
    game.play("t3 t4")
    assert game.won


# ------------------------------------------------------------------ Monte Carlo

def monte_carlo(cells: list[str | None], stock: list[str]) -> Game:
    piles = {f"t{i + 1}": [c] for i, c in enumerate(cells) if c}
    piles["stock"] = stock
    return load(position("monte-carlo", piles))


def test_monte_carlo_pairs_of_a_rank_in_touching_cells_only():
    game = monte_carlo(["5H", "8C", "5S", "2D", "8D", "8S", "JC"], [])
    index = game.rules.index
    assert refused(game, "t1 t3") == "t1 and t3 do not touch: only cards in cells that touch pair"
    assert refused(game, "t5 t6") == "t5 and t6 do not touch: only cards in cells that touch pair"  # no wrap
    assert refused(game, "t1 t2") == ("5H and 8C do not pair: foundation takes two cards of the same rank "
                                      "together in cells that touch (diagonals too)")
    assert game.legal_moves() == [(index["t2"], index["t6"], PAIR)]  # diagonally; no gap before a card
    game.play("t6 t2")
    assert game.legal_moves() == [game.rules.draw_move]  # no pair left; gaps before cards: close them


def test_monte_carlo_the_stock_closes_the_gaps_then_fills_the_cells_at_the_end():
    cells: list[str | None] = ["5H", "5S", "2D", None, "9C"]
    game = monte_carlo(cells, ["QD", "KD"])
    game.play("t1 t2")
    record = game.play("draw")
    rules = game.rules
    names = [card_name(game.piles[rules.index[f"t{i}"]][-1]) if game.piles[rules.index[f"t{i}"]] else None
             for i in range(1, 6)]
    assert names == ["2D", "9C", "KD", "QD", None]
    assert record.cards == ("KD", "QD")
    assert refused(game, "draw").startswith("nothing to close up")
    game.undo()
    assert [bool(game.piles[rules.index[f"t{i}"]]) for i in range(1, 6)] == [False, False, True, False, True]


# ------------------------------------------------------------------ won games, through the JSON protocol

WON = Path(__file__).parent / "data" / "won"


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_won_game_through_the_json_protocol(cli, solitaire_home, game):
    first, *moves = (WON / f"{game}.txt").read_text().split("\n")
    moves = [m for m in moves if m.strip()]
    result = cli("play", game, "--seed", first.split()[1], "--new", "--json", input="\n".join(moves) + "\n")
    assert result.code == 0, result.err
    replies = result.json_lines()[1:]
    assert [r["error"] for r in replies if not r["ok"]] == []
    assert replies[-1]["won"] and not any(r["won"] for r in replies[:-1])
    if game != "aces-up":
        assert any(len(m.split()) == 2 and m.split()[1].startswith(("t", "w", "s")) for m in moves), \
            "the line pairs cards"


# ------------------------------------------------------------------ the solver stays sound

def small(game: str, rng: random.Random, left: int) -> Game:
    """A position of ``game`` with ``left`` cards in play, placed at random where the game
    keeps cards (the Aces Up Aces always among them); the others discarded."""
    cards = rng.sample(DECK, len(DECK))
    piles: dict[str, list[str]] = {}
    if game == "aces-up":
        kept = [c for c in DECK if c[0] == "A"] + [c for c in cards if c[0] != "A"][:left // 2]
        rng.shuffle(kept)
        for c in kept:
            piles.setdefault(rng.choice(["t1", "t2", "t3", "t4", "stock", "stock"]), []).append(c)
        return load(position(game, piles))
    chosen: list[str] = []  # cards that all pair: a win is possible, not sure
    while len(chosen) < left:
        card = cards.pop()
        rank = RANKS.index(card[0]) + 1
        if game.endswith("pyramid") and rank == 13:
            chosen.append(card)
            continue
        mate = next(c for c in cards if RANKS.index(c[0]) + 1 == (rank if game == "monte-carlo" else 13 - rank))
        cards.remove(mate)
        chosen += [card, mate]
    rng.shuffle(chosen)
    if game == "monte-carlo":
        cells = rng.sample(range(1, 26), min(left, rng.randrange(left // 2, left + 1)))
    else:
        cells = rng.sample(range(11, 29), min(left, rng.randrange(left // 2, left + 1)))
    for i, c in zip(cells, chosen, strict=False):
        piles[f"t{i}"] = [c]
    rest = chosen[len(cells):]
    if game.endswith("pyramid") and rest and rng.random() < 0.5:
        piles["waste"] = rest[:rng.randrange(1, len(rest) + 1)]
        rest = rest[len(piles["waste"]):]
    if rest:
        piles["stock"] = rest
    return load(position(game, piles))


@pytest.mark.parametrize("game", GAMES)
def test_the_solver_agrees_with_the_exhaustive_search_on_small_positions(game):
    rng = random.Random(game)
    decided: Counter[str] = Counter()
    for k in range(24):
        g = small(game, rng, 8 + k % 5)
        exact = exhaustive_search(g, max_states=20_000)
        answer = solve(g, timeout=None, max_states=20_000)
        where = (game, k, g.to_position()["piles"])
        if answer.result == UNWINNABLE:
            assert exact.result != WIN, where
        if exact.result == WIN:
            assert answer.result != UNWINNABLE, where
        if answer.result == WIN:  # the line replays to a win
            replay = g.copy()
            for move in answer.moves:
                replay.play(move)
            assert replay.won, where
        if exact.result in (WIN, UNWINNABLE) and answer.result == exact.result:
            decided[exact.result] += 1
    assert decided[WIN] and decided[UNWINNABLE], decided  # both answers met, each proved both ways


# ------------------------------------------------------------------ the table at 80x24

class FrozenTracker(saves.Tracker):
    def elapsed(self) -> float:
        return 42.0


@pytest.mark.parametrize("game", GAMES)
def test_the_table_shows_each_game_whole_at_80x24(game):
    width, height = minimum_size(Game.new(Rules.of(get_variant(game)), 3))
    assert width <= 80 and height <= 22  # the table's share of an 80x24 terminal


def test_snapshot_pyramid_80x24(snap_compare, solitaire_home):
    game = Game.new(Rules.of(get_variant("pyramid")), 3)
    game.play("draw")
    app = SolitaireApp(FrozenTracker(game, dealt=False), tick=False, finish_delay=0.01, notice="")
    assert snap_compare(app, terminal_size=(80, 24))


# ------------------------------------------------------------------ mistakes in the YAML

MONTE_CARLO = (Path(get_variant("monte-carlo").path or "").read_text())


@pytest.mark.parametrize(("old", "new", "message"), [
    ("pairs: {match: same-rank, touching: true}", "pairs: {match: 27}",
     "expected a total of ranks from 2 to 26 (13: Pyramid) or 'same-rank', got 27"),
    ("grid: {rows: 5, columns: 5}", "grid: {rows: 4, columns: 5}",
     "a grid of 4 rows of 5 has 20 cells, but the group has 25 piles"),
    ("    grid: {rows: 5, columns: 5}    # t1..t5 the top row, reading order\n", "",
     "cards touch only in a grid: give tableau a 'grid: {rows: R, columns: C}'"),
    ("    label: Discard\n", "    label: Discard\n    build: {rank: any}\n",
     "a pairs pile takes what its pairs rule says: leave out 'build'"),
    ("    draw: {to: tableau, consolidate: true}", "    draw: {to: tableau, consolidate: 1}",
     "expected true or false, got"),
])
def test_a_mistake_in_the_removal_vocabulary_gets_one_line_naming_its_place(old, new, message):
    assert old in MONTE_CARLO
    with pytest.raises(VariantError) as caught:
        load_variant_text(MONTE_CARLO.replace(old, new), "mc.yaml")
    text = str(caught.value)
    assert "\n" not in text and text.startswith("mc.yaml:") and message in text, text


@pytest.mark.parametrize("game", ["pyramid", "monte-carlo"])
def test_a_game_with_pairs_and_closed_gaps_is_saved_and_resumed(cli, solitaire_home, game):
    first, *moves = (WON / f"{game}.txt").read_text().split("\n")
    played = [m for m in moves if m.strip()][:12]  # pairs, and the stock's action
    assert any(m == "draw" for m in played) and any(len(m.split()) == 2 for m in played)
    result = cli("play", game, "--seed", first.split()[1], "--new", "--json", input="\n".join(played) + "\nquit\n")
    left = result.json_lines()[-1]
    again = cli("play", game, "--json", input="undo\nquit\n").json_lines()
    assert again[0]["position"] == left["position"] and again[0]["moves"] == len(played)
    assert again[1]["ok"] and again[1]["moves"] == len(played) - 1


# ------------------------------------------------------------------ the pairs, against their definition

def touching(a: str, b: str) -> bool:
    """Two cells of Monte Carlo's grid touch (t1..t25, five to a row, no wrap)."""
    (ra, ca), (rb, cb) = divmod(int(a[1:]) - 1, 5), divmod(int(b[1:]) - 1, 5)
    return max(abs(ra - rb), abs(ca - cb)) == 1


def expected_pairs(game: Game) -> set[tuple[str, str]]:
    """The pairs the rules allow here, worked out from the cards' names and the games' words."""
    rules = game.rules
    name = rules.names
    free = {}
    for p in range(rules.count):
        pile = game.piles[p]
        if not pile or name[p] == "foundation" or game.down[p] == len(pile):
            continue
        if any(game.piles[c] for c in rules.covered[p]):
            continue
        free[name[p]] = RANKS.index(card_name(pile[-1])[0]) + 1
    out = set()
    for a, ra in free.items():
        for b, rb in free.items():
            if a < b and ((rules.name.endswith("pyramid") and ra + rb == 13)
                          or (rules.name == "monte-carlo" and ra == rb and touching(a, b))):
                out.add((a, b))
    return out


@pytest.mark.parametrize("game", ["pyramid", "monte-carlo"])
def test_the_pairs_offered_are_exactly_those_of_the_rules(game):
    rules = Rules.of(get_variant(game))
    rng = random.Random(game)
    for seed in range(1, 16):
        g = Game.new(rules, seed)
        for _ in range(40):
            legal = g.legal_moves()
            pairs = {tuple(sorted((rules.names[a], rules.names[b]))) for a, b, n in legal if n == PAIR}
            assert pairs == expected_pairs(g), (seed, g.to_position()["piles"])
            if not legal:
                break
            g.play(rng.choice(legal))


def test_in_the_table_a_card_clicked_onto_its_mate_pairs_them_and_onto_the_open_stock_too(solitaire_home):
    game = pyramid(t22=["6H"], t23=["7C"], t28=["2S"], stock=["3D", "JC"], waste=["4S"])
    app = SolitaireApp(FrozenTracker(game, dealt=False), tick=False, finish_delay=0.01, notice="")
    index = game.rules.index

    async def click(pilot: Any, pile: str) -> None:
        x, y = app.table.point_of(index[pile], None)
        await pilot.click("#table", offset=(x, y))
        await pilot.pause()

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await click(pilot, "t22")
            await click(pilot, "t23")
            assert not app.game.piles[index["t22"]] and not app.game.piles[index["t23"]]
            await click(pilot, "t28")  # 2S and the stock's JC make 13
            await click(pilot, "stock")
            assert not app.game.piles[index["t28"]] and card_name(app.game.piles[index["stock"]][-1]) == "3D"
            await click(pilot, "stock")  # with nothing in hand, a click on the stock draws
            assert card_name(app.game.piles[index["waste"]][-1]) == "3D"

    asyncio.run(run())
