"""The Textual table: real clicks, drags and keys through whole games, and snapshots.

Positions are built so a win is a few moves away. The clock is frozen (``tick=False`` and a
tracker whose elapsed time is fixed) so snapshots do not depend on how fast the machine is.
"""

from __future__ import annotations

import asyncio
import functools
import os
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from klondike_helpers import near_won, suit
from textual.screen import Screen

from solitaire.cli import saves, stats
from solitaire.cli.tui.app import HELP_TEXT, HelpScreen, SolitaireApp, WinScreen
from solitaire.cli.tui.table import View, draw, hit_test
from solitaire.core import Game, Rules, get_variant
from solitaire.core.cards import card_symbol

KLONDIKE = get_variant("klondike")
IDX = Rules.of(KLONDIKE).index


def pilot_test(fn):
    """Run an async Pilot test in its own event loop (no pytest-asyncio needed)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        asyncio.run(fn(*args, **kwargs))

    return wrapper


class FrozenTracker(saves.Tracker):
    def elapsed(self) -> float:
        return 42.0


def top_screen(app: SolitaireApp) -> Screen[Any]:
    """The screen on top, read afresh (a key or a message may have changed it since)."""
    return app.screen


def won(app: SolitaireApp) -> bool:
    """Whether the game on the table is won, read afresh."""
    return app.game.won


def view(app: SolitaireApp) -> View:
    """What the table shows, read afresh (a key or a click may have changed it since)."""
    return app.view


def make_app(game: Game, dealt: bool = False, **kwargs) -> SolitaireApp:
    kwargs.setdefault("tick", False)
    kwargs.setdefault("finish_delay", 0.01)
    return SolitaireApp(FrozenTracker(game, dealt=dealt), **kwargs)


def position(**kwargs) -> Game:
    return Game.from_position(KLONDIKE, near_won(**kwargs))


async def click(pilot, app, pile: str, card: int | None = None, times: int = 1) -> None:
    x, y = app.table.point_of(IDX[pile], card)
    await pilot.click("#table", offset=(x, y), times=times)
    await pilot.pause()


async def drag(pilot, app, src: str, dst: str, card: int | None = None) -> None:
    x0, y0 = app.table.point_of(IDX[src], card)
    x1, y1 = app.table.point_of(IDX[dst])
    await pilot.mouse_down("#table", offset=(x0, y0))
    await pilot.hover("#table", offset=(x0 + 1, y0 + 1))
    await pilot.hover("#table", offset=(x1, y1))
    await pilot.mouse_up("#table", offset=(x1, y1))
    await pilot.pause()


@pilot_test
async def test_click_click_then_double_click_wins_and_the_win_screen_offers_a_new_deal(solitaire_home):
    app = make_app(position(seed=77), dealt=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await click(pilot, app, "t1")  # pick up the king of hearts
        assert view(app).picked == (IDX["t1"], 1)
        await click(pilot, app, "t1")  # click it again: let go
        assert view(app).picked is None
        await click(pilot, app, "t1")
        await click(pilot, app, "f3")  # put it down on the hearts
        assert app.game.piles[IDX["t1"]] == [] and len(app.game.piles[IDX["f3"]]) == 13
        await click(pilot, app, "t2", times=2)  # double-click: the king of spades goes home
        await pilot.pause()
        assert won(app)
        assert isinstance(top_screen(app), WinScreen)
        assert app.won_summary is not None and "Moves  2" in app.won_summary and "New best" in app.won_summary
        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(top_screen(app), WinScreen)
        assert app.game.moves == 0 and not won(app) and app.game.seed is not None
    recorded = stats.summary("klondike", KLONDIKE.resolve_options())
    assert (recorded["played"], recorded["won"], recorded["fewest_moves"]) == (1, 1, 2)


@pilot_test
async def test_a_refused_put_down_says_why_and_keeps_the_cards_in_hand():
    app = make_app(position())
    async with app.run_test(size=(80, 24)) as pilot:
        await click(pilot, app, "t1")
        await click(pilot, app, "f1")  # the clubs are complete
        assert view(app).picked == (IDX["t1"], 1)
        assert "full" in app.message or "does not go" in app.message
        assert app.game.moves == 0


@pilot_test
async def test_drag_and_drop_moves_a_run_and_a_card(solitaire_home):
    game = position(t1=["KH", "QS"], t2=["KS"], f4=suit("S", 11))
    app = make_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        # drag the king-queen run from t1 onto the empty t3
        await drag(pilot, app, "t1", "t3", card=0)
        assert [len(app.game.piles[IDX[p]]) for p in ("t1", "t3")] == [0, 2]
        # and the queen of spades to its foundation
        await drag(pilot, app, "t3", "f4")
        assert len(app.game.piles[IDX["f4"]]) == 12
        assert view(app).picked is None and app.view.drag_at is None
        # a drop on nothing puts the cards back
        x, y = app.table.point_of(IDX["t3"])
        await pilot.mouse_down("#table", offset=(x, y))
        await pilot.hover("#table", offset=(x + 2, y + 8))
        await pilot.mouse_up("#table", offset=(x + 2, y + 8))
        await pilot.pause()
        assert app.game.moves == 2 and view(app).picked is None
        # the move was saved
        assert saves.read_save(KLONDIKE) is not None


@pilot_test
async def test_click_the_stock_to_draw_and_keys_for_undo_redo_and_a_whole_win():
    game = position(stock=["KS"], t2=[])
    app = make_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await click(pilot, app, "stock")
        assert app.game.piles[IDX["waste"]] and app.game.moves == 1
        await pilot.press("u")
        assert app.game.moves == 0 and app.game.piles[IDX["stock"]]
        await pilot.press("r")
        assert app.game.moves == 1
        # keyboard: the cursor starts on the stock; right to the waste, pick up, put on f4
        await pilot.press("right", "space")
        assert view(app).picked == (IDX["waste"], 1)
        for _ in range(4):
            await pilot.press("right")
        assert app.view.cursor == IDX["f4"]
        await pilot.press("enter")
        assert len(app.game.piles[IDX["f4"]]) == 13
        # down to the tableau, left to t1, send the king home with 'a'
        await pilot.press("down")
        while app.view.cursor != IDX["t1"]:
            await pilot.press("left")
        await pilot.press("a")
        await pilot.pause()
        assert won(app) and isinstance(top_screen(app), WinScreen)
        assert app.won_summary is not None and "not counted" in app.won_summary
        await pilot.press("s")  # same deal again
        await pilot.pause()
        assert app.game.moves == 0 and app.game.piles[IDX["stock"]]
        await pilot.press("q")
    assert app.return_code == 0  # q quit the app


@pilot_test
async def test_finish_plays_the_cards_home_one_by_one():
    game = position(t1=["KH", "QS"], t2=["KS"], t3=["QH"], f3=suit("H", 11), f4=suit("S", 11))
    app = make_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.finish_available()
        assert app.query_one("#finish").display
        await pilot.click("#finish")
        for _ in range(1000):  # until the animation ends (it stops early once won)
            await pilot.pause(0.02)
            if won(app):
                break
        assert won(app) and app.game.moves == 4
        await pilot.pause()
        assert isinstance(top_screen(app), WinScreen)


@pilot_test
async def test_hints_are_off_until_asked_and_outline_only_legal_destinations():
    app = make_app(Game.new(Rules.of(KLONDIKE), 11))
    async with app.run_test(size=(80, 24)) as pilot:
        game = app.game
        src, dst, n = next(m for m in game.legal_moves() if m[2] and app.game.rules.role[m[0]] == "tableau")
        await click(pilot, app, game.rules.names[src], len(game.piles[src]) - n)
        assert view(app).picked == (src, n) and app.view.outlined == frozenset()
        await pilot.press("escape", "o")
        assert app.outline
        await click(pilot, app, game.rules.names[src], len(game.piles[src]) - n)
        legal = {d for s, d, k in game.legal_moves() if s == src and k == n}
        assert dst in app.view.outlined and app.view.outlined == legal
        await pilot.press("h")
        assert app.message.startswith("hint: ")


@pilot_test
async def test_help_screen_new_deal_and_restart_keys():
    app = make_app(Game.new(Rules.of(KLONDIKE, {"draw": 3}), 5))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(top_screen(app), HelpScreen)
        await pilot.press("escape")
        assert not isinstance(top_screen(app), HelpScreen)
        await pilot.press("d", "d")
        assert len(app.game.piles[IDX["waste"]]) == 6
        await pilot.press("R", "R")  # the game has moves: R twice
        assert app.game.moves == 0 and app.game.seed == 5 and not app.game.piles[IDX["waste"]]
        await pilot.press("d")
        first = app.game
        await pilot.press("n", "n")  # a new deal: a different game object, from its start
        assert app.game is not first and app.game.moves == 0 and app.game.rules.options["draw"] == 3
        await pilot.press("c")
        assert app.view.four_colour


@pilot_test
async def test_help_fits_80x24_whole_and_q_quits_from_it():
    app = make_app(Game.new(Rules.of(KLONDIKE, {"draw": 3}), 5))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        text, box = app.screen.query_one("#help-text"), app.screen.query_one("#help")
        lines = HELP_TEXT.rstrip("\n").splitlines()
        assert max(len(line.replace("[b]", "").replace("[/b]", "")) for line in lines) <= text.size.width
        assert text.size.height == len(lines) + 1  # no line wraps (the last line is blank)
        assert box.virtual_size.height == box.size.height  # nothing cut off at the bottom
        assert app.screen.query_one("#help-close").region.bottom <= box.region.bottom
        await pilot.press("q")  # as the status line says: q quits, from the help too
        await pilot.pause()
        assert app.return_code == 0 and not app.is_running


@pilot_test
async def test_a_key_typed_right_after_escape_still_counts():
    """Terminals send escape and a key typed at once after it as one sequence (alt+KEY)."""
    app = make_app(Game.new(Rules.of(KLONDIKE, {"draw": 3}), 5))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("space")  # the cursor starts on the stock: draw
        await pilot.press("alt+d")  # escape, d
        await pilot.pause()
        assert app.game.moves == 2 and view(app).picked is None
        await pilot.press("question_mark", "alt+q")  # escape closes the help, q quits
        await pilot.pause()
        assert app.return_code == 0 and not app.is_running


_KNOWN_SOLUTION_TEXT = (  # klondike-d3-48213, as the solver found it (126 moves), written out so
    # that a change to the solver cannot change what this test plays
    "t5 t2, t3 t5, t5 t3 2, t6 t4, draw, draw, draw, draw, w t4, t6 t4, t3 t6 3, t6 t5 4, "
    "t6 t4, w t2, w t2, w t4, draw, draw, w t4, draw, draw, draw, draw, draw, draw, draw, "
    "w t1, draw, draw, w t4, draw, draw, draw, draw, draw, draw, w t4, t1 t2 2, draw, draw, "
    "draw, draw, draw, w t1, w t1, w f1, t3 f1, t2 t3 6, w t1, w t3, w f2, t6 f2, t6 f3, "
    "t5 f3, t5 f2, t4 f2, t7 t3, t7 t3, t7 t5, t7 t3, t7 f1, t7 f4, t3 f1, t4 f1, draw, "
    "w t6, w f4, t5 f4, t4 t6 7, draw, w t4, draw, draw, w t4, t2 t4, t4 t2 4, t4 t6, t4 t2, "
    "t5 t3, t5 f2, t3 t5 2, t3 f1, t7 f1, t5 t3 3, t5 f3, t3 f3, t5 f4, t3 f4, t6 f3, t3 f3, "
    "t6 f4, t3 f4, t6 f3, t6 f4, t3 f3, t3 f4, draw, draw, w t6, w f3, t3 f3, t1 f3, draw, "
    "draw, draw, w f4, w f2, w f1, t3 f4, t3 f3, t1 f4, t1 f3, draw, w f2, t6 f2, t2 f2, "
    "t6 f1, t2 f1, t6 f2, t2 f2, t6 f1, t2 f1, t2 f4, t6 f2, t3 f2, t6 f1"
)
KNOWN_SOLUTION = _KNOWN_SOLUTION_TEXT.split(", ")


@pilot_test
async def test_a_whole_deal_from_its_seed_to_the_win_screen_by_mouse_and_keys(solitaire_home):
    """Deal klondike-d3-48213 and play a known solution through the table, every move by
    real input: the stock by click and by key, cards by click-click, by drag and by
    double-click; after each input the table's game is exactly the solution's next position."""
    rules = Rules.of(KLONDIKE, {"draw": 3})
    solution = KNOWN_SOLUTION
    shadow = Game.new(rules, 48213)
    app = make_app(Game.new(rules, 48213), dealt=True)
    foundations = [IDX[f"f{i}"] for i in range(1, 5)]
    ways = {"click stock": 0, "d key": 0, "click-click": 0, "drag": 0, "double-click": 0}
    async with app.run_test(size=(80, 24)) as pilot:
        for i, text in enumerate(solution):
            src, dst, n = shadow.parse_move(text)
            piles = app.game.piles
            if src == IDX["stock"]:
                way = "click stock" if i % 2 else "d key"
                if way == "d key":
                    await pilot.press("d")
                    await pilot.pause()
                else:
                    await click(pilot, app, "stock")
            else:
                names = {v: k for k, v in IDX.items()}
                card = len(piles[src]) - n  # click the lowest card moved: it picks up the cards on it
                homes = [f for f in foundations if app.game.refusal((src, f, 1)) is None]
                if dst in foundations and n == 1 and homes == [dst] and i % 2:
                    way = "double-click"
                    await click(pilot, app, names[src], card, times=2)
                elif dst not in foundations and i % 3 == 0:
                    way = "drag"
                    await drag(pilot, app, names[src], names[dst], card)
                else:
                    way = "click-click"
                    await click(pilot, app, names[src], card)
                    await click(pilot, app, names[dst])
            ways[way] += 1
            shadow.play(text)
            assert app.game.piles == shadow.piles, f"move {i + 1} ({text}) by {way}"
        await pilot.pause()
        assert won(app) and isinstance(top_screen(app), WinScreen)
        assert app.won_summary is not None and f"Moves  {len(solution)}" in app.won_summary
    assert all(ways.values()), ways  # every way of playing was used
    recorded = stats.summary("klondike", KLONDIKE.resolve_options({"draw": 3}))
    assert (recorded["played"], recorded["won"]) == (1, 1)


# ---------------------------------------------------------------- snapshots


def snapshot_app(options: dict[str, Any], draws: int = 0, **kwargs) -> SolitaireApp:
    game = Game.new(Rules.of(KLONDIKE, options), 48213)
    for _ in range(draws):
        game.play("draw")
    return make_app(game, notice="", **kwargs)  # played here, not a saved game resumed: no notice


def test_snapshot_klondike_80x24(snap_compare):
    assert snap_compare(snapshot_app({"draw": 3}, draws=2), terminal_size=(80, 24))


def test_snapshot_klondike_132x43(snap_compare):
    assert snap_compare(snapshot_app({}, draws=1, four_colour=True), terminal_size=(132, 43))


@pytest.mark.parametrize("size", [(80, 24), (132, 43)])
def test_snapshot_calculation(snap_compare, size):
    game = Game.new(Rules.of(get_variant("calculation")), 48213)
    game.play("draw")
    assert snap_compare(make_app(game, notice=""), terminal_size=size)


# ---------------------------------------------------------------- no UI in line and JSON modes


@pytest.mark.parametrize("mode", ["--json", "--plain"])
def test_line_and_json_modes_never_import_textual(mode, solitaire_home):
    code = (f"import sys; from solitaire.cli.main import main; rc = main(['play', 'klondike', '{mode}']); "
            "print('TEXTUAL' if any(m.split('.')[0] == 'textual' for m in sys.modules) else 'CLEAN')")
    out = subprocess.run([sys.executable, "-c", code], input="draw\nquit\n", capture_output=True, text=True,
                         env={**os.environ, "SOLITAIRE_HOME": str(solitaire_home)}, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "CLEAN"


# ---------------------------------------------------------------- every face-up card readable


def shown_cards(game: Game) -> list[tuple[int, int]]:
    """(pile, card index) of every card a player must be able to read."""
    out = []
    for i, spec in enumerate(game.rules.piles):
        cards, down = game.piles[i], game.down[i]
        if spec.fan == "down":
            out += [(i, k) for k in range(down, len(cards))]
        else:
            show = (spec.show or 1) if spec.fan == "right" else 1
            out += [(i, k) for k in range(max(down, len(cards) - show), len(cards))]
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(["klondike", "calculation"]), seed=st.integers(0, 10**6),
       options=st.sampled_from([{}, {"draw": 3}]), size=st.sampled_from([(80, 24), (132, 43), (60, 20)]),
       picks=st.lists(st.integers(0, 1000), max_size=150))
def test_every_face_up_card_shows_its_rank_and_suit_where_a_click_finds_it(variant, seed, options, size, picks):
    defn = get_variant(variant)
    game = Game.new(Rules.of(defn, options if variant == "klondike" else {}), seed)
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        game.push(moves[pick % len(moves)])
    canvas, hits, _geo = draw(game, View(), size[0], size[1] - 2)
    text = ["".join(row) for row in canvas.chars]
    cut = any(line.lstrip().startswith("+") for line in text)  # a pile too long for the screen
    for pile, k in shown_cards(game):
        found = [h for h in hits if h.pile == pile and h.card == k]
        if not found and cut and game.rules.piles[pile].fan == "down":
            continue
        assert found, (pile, k)
        hit = found[-1]
        symbol = card_symbol(game.piles[pile][k])
        assert text[hit.y0][hit.x0:hit.x0 + len(symbol)] == symbol, (pile, k, text[hit.y0])
        assert hit_test(hits, hit.x0, hit.y0) == hit
    if variant == "klondike":
        assert not cut
