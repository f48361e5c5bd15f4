"""The table's play, continued: quick clicks on the stock, nothing acting while Finish plays
the cards home, asking again before leaving a game, the won table, the header at narrow
widths, a notice on opening and the solver's hint (run in a thread).

Helpers (Pilot clicks and drags, frozen clock, near-won positions) come from ``test_tui``.
"""

from __future__ import annotations

import re
import threading
import time
from typing import Any

from klondike_helpers import near_won, suit
from test_tui import IDX, KLONDIKE, click, drag, make_app, pilot_test, position, top_screen, view, won
from textual.widgets import Button

from solitaire.cli import stats
from solitaire.cli.tui.app import TableView, WinScreen
from solitaire.core import Game, Rules, get_variant, solver


class FakeClock:
    """A clock the test moves by hand: no waiting, whatever the machine's load."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class FakeTicks:
    """The Finish animation's timer, ticked by the test: each tick plays one card."""

    def __init__(self) -> None:
        self.step: Any = None
        self.stopped = False

    def __call__(self, delay: float, step: Any) -> FakeTicks:
        self.step, self.stopped = step, False
        return self

    def stop(self) -> None:
        self.stopped = True

    def tick(self) -> None:
        assert self.step is not None and not self.stopped
        self.step()


def status_of(app) -> str:
    return str(app.query_one("#status").render())


def header_of(app) -> str:
    info = app.query_one("#info")
    return "".join(info.render_line(0).text).rstrip()


def played(options: dict[str, Any] | None = None) -> tuple[int, int]:
    recorded = stats.summary("klondike", KLONDIKE.resolve_options(options or {}))
    return recorded["played"], recorded["won"]


# ---------------------------------------------------------------- the stock


@pilot_test
async def test_two_quick_clicks_on_the_stock_draw_twice():
    app = make_app(Game.new(Rules.of(KLONDIKE), 5))
    async with app.run_test(size=(80, 24)) as pilot:
        await click(pilot, app, "stock", times=2)  # the second click comes as a double-click
        assert app.game.moves == 2 and len(app.game.piles[IDX["waste"]]) == 2
        await click(pilot, app, "stock", times=3)
        assert app.game.moves == 5


# ---------------------------------------------------------------- Finish


@pilot_test
async def test_nothing_acts_on_the_game_while_finish_plays_the_cards_home(solitaire_home):
    game = position(seed=77, t1=["KH", "QS"], t2=["KS"], t3=["QH"], f3=suit("H", 11), f4=suit("S", 11))
    ticks = FakeTicks()
    app = make_app(game, dealt=True, finish_ticks=ticks)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("down")
        while app.view.cursor != IDX["t1"]:
            await pilot.press("left")
        await pilot.press("f")
        assert app.locked()
        # the queen of spades could go home by key, drag or double-click; n and R would leave
        await pilot.press("a", "n", "R", "d", "u", "h", "space", "f")
        await drag(pilot, app, "t3", "f3")
        await click(pilot, app, "t1", times=2)
        assert app.locked() and app.game is game and app.game.moves == 0  # no tick yet: no card has moved
        for played_home in range(1, 4):  # a card a tick, and nothing else acts between them
            ticks.tick()
            await pilot.press("u", "n", "f")
            assert app.game is game and app.game.moves == played_home and app.locked()
        ticks.tick()  # the last card: the animation ends
        assert ticks.stopped and not app.locked()
        await pilot.pause()
        assert app.game is game and won(app) and app.game.moves == 4
        assert isinstance(top_screen(app), WinScreen) and app.won_summary is not None and "Moves  4" in app.won_summary
    assert played() == (1, 1)


@pilot_test
async def test_finish_plays_the_stock_and_the_waste_out_too():
    game = position(t1=[], stock=["KH"], waste=["QS"], f4=suit("S", 11))
    app = make_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.finish_available() and "press f" in status_of(app)
        await pilot.press("f")
        for _ in range(1000):  # until the animation ends (it stops early once won)
            await pilot.pause(0.02)
            if won(app):
                break
        assert won(app) and app.game.moves == 4  # QS home, the KH drawn, home, the KS home
        assert sum(1 for move in app.game.history if move[2] == 0) == 1  # one draw among them


@pilot_test
async def test_autoplay_is_off_until_A_and_then_sends_the_safe_cards_home():
    app = make_app(position())  # the kings of hearts and spades are left: both safe home
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")  # nothing to draw: refused, and nothing goes home by itself
        assert app.game.moves == 0
        await pilot.press("A")
        await pilot.pause()
        assert won(app) and app.game.moves == 2
        assert isinstance(top_screen(app), WinScreen)


@pilot_test
async def test_autoplay_plays_after_each_move_once_on():
    # the KH is safe home once the QH is: the player puts the QH home, autoplay the KH
    app = make_app(position(t1=["KH"], t3=["QH"], f3=suit("H", 11)), autoplay=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await click(pilot, app, "t3", times=2)  # double-click: the QH home
        await pilot.pause()
        assert won(app) and app.game.moves == 3  # the QH by the player, the KH and KS by autoplay


# ---------------------------------------------------------------- n and R ask again


@pilot_test
async def test_n_asks_again_before_leaving_a_game_with_moves(solitaire_home):
    app = make_app(Game.new(Rules.of(KLONDIKE), 5), dealt=True)
    async with app.run_test(size=(80, 24)) as pilot:
        first = app.game
        await pilot.press("n")  # no moves yet: a new deal at once
        assert app.game is not first and app.game.moves == 0
        first = app.game
        await pilot.press("d")
        before = first.to_position()
        await pilot.press("n")
        assert app.game is first and first.to_position() == before
        assert "press n again for a new deal; this game counts as lost" in status_of(app)
        assert played() == (0, 0)
        await pilot.press("left", "n")  # another key in between: ask again
        assert app.game is first and first.to_position() == before
        await click(pilot, app, "t1")  # so does a click
        await pilot.press("n")
        assert app.game is first and "press n again" in status_of(app)
        await pilot.press("n")
        assert app.game is not first and app.game.moves == 0
        assert "press n again" not in status_of(app)
    assert played() == (1, 0)  # the game left counts as lost


@pilot_test
async def test_R_asks_again_before_restarting_a_game_with_moves(solitaire_home):
    app = make_app(Game.new(Rules.of(KLONDIKE, {"draw": 3}), 5), dealt=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d", "d")
        game = app.game
        before = game.to_position()
        await pilot.press("R")
        assert app.game is game and game.to_position() == before
        assert "press R again to restart this deal; this game counts as lost" in status_of(app)
        await pilot.press("r", "R")  # redo in between (refused: nothing to redo): ask again
        assert app.game is game and game.to_position() == before
        await pilot.press("d", "R")  # a move in between: ask again
        assert app.game is game and game.moves == 3
        await pilot.press("R")
        assert app.game.moves == 0 and app.game.seed == 5 and not app.game.piles[IDX["waste"]]
        await pilot.press("R")  # no moves: at once, and nothing more is recorded
        assert app.game.moves == 0
    assert played({"draw": 3}) == (1, 0)


# ---------------------------------------------------------------- the won table


@pilot_test
async def test_escape_on_the_win_screen_shows_the_won_table_and_undo_is_refused(solitaire_home):
    app = make_app(position(seed=77), dealt=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await click(pilot, app, "t1", times=2)
        await click(pilot, app, "t2", times=2)
        await pilot.pause()
        assert isinstance(top_screen(app), WinScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running and not isinstance(top_screen(app), WinScreen)
        assert won(app) and "won — n for a new deal, R to play it again, q to quit" in status_of(app)
        assert not app.query_one("#finish").display
        await pilot.press("u")
        assert won(app) and app.game.moves == 2
        assert "the game is won: n for a new deal, R to play it again" in status_of(app)
        await pilot.press("R")  # a won game: at once
        assert app.game.moves == 0 and not won(app)
        await pilot.press("q")
    assert app.return_code == 0
    assert played() == (1, 1)


@pilot_test
async def test_a_won_game_stays_won_even_where_a_card_could_come_back(solitaire_home):
    data = near_won(seed=78)
    data["options"] = {"relaxed": True}  # the top card of a foundation may come back
    app = make_app(Game.from_position(KLONDIKE, data), dealt=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await click(pilot, app, "t1", times=2)
        await click(pilot, app, "t2", times=2)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        won_position = app.game.to_position()
        assert app.game.refusal(app.game.parse_move("f4 t1")) is None  # legal, were the game not won
        await drag(pilot, app, "f4", "t1")
        await click(pilot, app, "f3")
        await click(pilot, app, "t2")
        assert won(app) and app.game.to_position() == won_position
        assert "the game is won" in status_of(app) and not isinstance(top_screen(app), WinScreen)
    assert played({"relaxed": True}) == (1, 1)  # recorded once


@pilot_test
async def test_a_double_click_on_a_buried_card_sends_nothing_home():
    from klondike_helpers import load

    game = load({"t1": "2D 3D | KS QH JS TH 9C", "f1": "AC 2C 3C 4C 5C 6C 7C 8C"})
    app = make_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await click(pilot, app, "t1", 3, times=2)  # the queen, under three cards
        await pilot.pause()
        assert app.game.moves == 0 and app.game.piles[IDX["t1"]][-1] == game.piles[IDX["t1"]][-1]
        await click(pilot, app, "t1", 6, times=2)  # the nine of clubs, on top: home it goes
        await pilot.pause()
        assert app.game.moves == 1 and len(app.game.piles[IDX["f1"]]) == 9


# ---------------------------------------------------------------- the header


def long_code_game() -> Game:
    game = Game.new(Rules.of(KLONDIKE, {"draw": 3, "redeals": 2, "relaxed": True}), 987654321)
    for _ in range(12):
        game.play("draw")
    return game


def shows_counts(line: str, game: Game) -> bool:
    moves = re.search(r"moves (\d+)|(\d+) mv", line)
    score = re.search(r"score (-?\d+)|(-?\d+) pts", line)
    return (moves is not None and int(moves.group(1) or moves.group(2)) == game.moves
            and score is not None and int(score.group(1) or score.group(2)) == game.score)


@pilot_test
async def test_the_header_keeps_time_moves_and_score_at_any_width():
    for width in (40, 50, 60, 80, 132):
        game = long_code_game()
        app = make_app(game, outline=True)
        async with app.run_test(size=(width, 24)) as pilot:
            await pilot.pause()
            line = header_of(app)
            assert "0:42" in line and shows_counts(line, game), (width, line)
            if width >= 60:
                assert "klondike-d3-red2-rel-987654321" in line, (width, line)
            if width >= 132:
                assert "Klondike" in line and "hints on" in line and "moves 12" in line, line


@pilot_test
async def test_the_header_fits_again_when_the_window_narrows():
    game = long_code_game()
    app = make_app(game, outline=True)
    async with app.run_test(size=(132, 24)) as pilot:
        assert "hints on" in header_of(app)
        await pilot.resize_terminal(40, 24)
        await pilot.pause()
        line = header_of(app)
        assert "0:42" in line and shows_counts(line, game), line


# ---------------------------------------------------------------- a notice on opening


@pilot_test
async def test_a_notice_shows_in_the_status_line_when_the_table_opens():
    notice = "the saved klondike game could not be read; moved it to klondike.unreadable.json"
    app = make_app(Game.new(Rules.of(KLONDIKE), 5), notice=notice)
    async with app.run_test(size=(132, 24)) as pilot:
        await pilot.pause()
        assert notice in status_of(app)
        await pilot.press("d")
        assert notice not in status_of(app)


# ---------------------------------------------------------------- the solver's hint


@pilot_test
async def test_the_hint_is_the_solvers_as_in_the_line_mode():
    app = make_app(Game.new(Rules.of(KLONDIKE), 11))
    expected, _wins = solver.player_hint(Game.new(Rules.of(KLONDIKE), 11))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")  # "hint: thinking…" until the solver answers (see below)
        await app.workers.wait_for_complete()
        await pilot.pause()
        if expected is None:
            assert status_of(app) == "hint: no useful move"
        else:
            assert status_of(app) == f"hint: {expected}"
            src, dst, n = app.game.parse_move(expected)
            if n:
                assert view(app).picked == (src, n) and app.view.cursor == dst
        assert app.game.moves == 0


def hint_until_stopped(stopped: threading.Event, seconds: float):
    """A stand-in for ``solver.player_hint`` that thinks for ``seconds`` at most, asking
    ``stop`` between its guesses as the real one does; it sets ``stopped`` when told to stop."""
    def think(game, stop=None):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if stop is not None and stop():
                stopped.set()
                return None, 0
            time.sleep(0.01)
        return "draw", 0

    return think


@pilot_test
async def test_a_move_made_while_the_hint_is_thinking_discards_it(monkeypatch):
    release = threading.Event()
    asked = []

    def slow_hint(game, stop=None):
        asked.append(game)
        release.wait(30)
        return "t1 t2", 3

    monkeypatch.setattr(solver, "player_hint", slow_hint)
    app = make_app(Game.new(Rules.of(KLONDIKE), 11))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        assert status_of(app) == "hint: thinking…"
        await pilot.press("d")  # the table still answers, and the hint is out of date
        assert app.game.moves == 1
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not status_of(app).startswith("hint") and view(app).picked is None
        assert asked and asked[0] is not app.game  # it worked on a copy


@pilot_test
async def test_quitting_while_the_hint_is_thinking_stops_it_at_once(monkeypatch):
    stopped = threading.Event()
    monkeypatch.setattr(solver, "player_hint", hint_until_stopped(stopped, 30))
    app = make_app(Game.new(Rules.of(KLONDIKE), 11))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        assert status_of(app) == "hint: thinking…"
        await pilot.press("q")
    assert stopped.is_set()  # asked to stop, not left to think its 30 s while the program waits


def test_the_real_hint_gives_up_when_told_to_stop():
    game = Game.new(Rules.of(KLONDIKE), 11)
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return True

    assert solver.player_hint(game, stop=stop) == (None, 0) and asked == [1]



@pilot_test
async def test_a_new_deal_from_the_table_is_saved_before_its_first_move(solitaire_home):
    from solitaire.cli import saves

    app = make_app(Game.new(Rules.of(KLONDIKE, {"draw": 3}), 11), dealt=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")  # no move yet: at once
        dealt = app.game
        assert dealt.seed != 11
    saved = saves.read_save(KLONDIKE)  # what `solitaire play klondike` resumes
    assert saved is not None
    back, _, _ = saved
    assert back.seed == dealt.seed and back.piles == dealt.piles and back.rules.options["draw"] == 3


@pilot_test
async def test_a_move_stops_the_hint_being_worked_out(monkeypatch):
    stopped = threading.Event()
    monkeypatch.setattr(solver, "player_hint", hint_until_stopped(stopped, 10))
    app = make_app(Game.new(Rules.of(KLONDIKE), 11))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await pilot.press("d")
        await app.workers.wait_for_complete()
        assert stopped.is_set() and app.game.moves == 1
        assert not status_of(app).startswith("hint")


@pilot_test
async def test_the_question_of_n_goes_when_its_time_is_up():
    from solitaire.cli.tui.app import CONFIRM_S

    clock = FakeClock()
    app = make_app(Game.new(Rules.of(KLONDIKE), 11), dealt=True, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        first = app.game
        await pilot.press("d")
        await pilot.press("n")
        assert "press n again" in status_of(app)
        clock.now += CONFIRM_S - 0.5
        app.lapse_confirm()  # as its timer would: not yet
        assert "press n again" in status_of(app)
        clock.now += 1
        app.lapse_confirm()  # the time is up
        assert "press n again" not in status_of(app)
        await pilot.press("n")  # late: it asks again rather than deal
        assert app.game.seed == 11 and "press n again" in status_of(app)
        clock.now += CONFIRM_S + 1
        await pilot.press("n")  # a second press after the time is up asks again too
        assert app.game.seed == 11 and "press n again" in status_of(app)
        await pilot.press("n")  # in time: a new deal
        assert app.game is not first and app.game.moves == 0


@pilot_test
async def test_a_window_too_small_is_told_in_the_windows_own_size():
    app = make_app(Game.new(Rules.of(get_variant("calculation")), 5))
    async with app.run_test(size=(27, 13)) as pilot:
        await pilot.pause()
        table = app.query_one("#table", TableView)
        text = " ".join("".join(seg.text for seg in table.render_line(y)).strip() for y in range(table.size.height))
        assert " ".join(text.split()) == "window too small: it needs 28x12, it is 27x13"
        assert table.hits == []


@pilot_test
async def test_cards_that_cannot_be_picked_up_say_why_as_the_line_mode_does():
    calc = get_variant("calculation")
    game = Game.new(Rules.of(calc), 5)
    r1 = Rules.of(calc).index["r1"]
    for _ in range(2):  # two cards parked on r1
        game.play("draw")
        game.play("w r1")
    app = make_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        x, y = app.table.point_of(r1, 0)  # the lower card, under the other
        await pilot.click("#table", offset=(x, y))
        assert status_of(app) == "only the top card of r1 moves" and view(app).picked is None
    draw3 = Game.new(Rules.of(KLONDIKE, {"draw": 3}), 5)
    draw3.play("draw")
    klondike = make_app(draw3)
    async with klondike.run_test(size=(80, 24)) as pilot:
        await click(pilot, klondike, "waste", len(draw3.piles[IDX["waste"]]) - 2)  # fanned, under the top
        assert status_of(klondike) == "only the top card of waste moves"


@pilot_test
async def test_a_draw_hint_puts_the_cursor_on_the_stock_and_space_there_lets_cards_go(monkeypatch):
    monkeypatch.setattr(solver, "player_hint", lambda game, stop=None: ("draw", 0))
    game = Game.new(Rules.of(KLONDIKE), 11)
    app = make_app(game)
    async with app.run_test(size=(80, 24)) as pilot:
        app.view.cursor = IDX["t1"]
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert status_of(app) == "hint: draw" and app.view.cursor == IDX["stock"]
        await pilot.press("space")  # the hint's move
        assert app.game.moves == 1
        app.view.cursor = IDX["t1"]
        await pilot.press("space")  # t1's card in hand
        assert view(app).picked is not None
        app.view.cursor = IDX["stock"]
        await pilot.press("space")  # the stock takes no cards: space lets go, as a click does
        assert view(app).picked is None and app.game.moves == 1


@pilot_test
async def test_c_says_which_colours_the_suits_are_in():
    app = make_app(Game.new(Rules.of(KLONDIKE), 11))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        assert view(app).four_colour and status_of(app) == "four colours: clubs green, diamonds blue"
        await pilot.press("c")
        assert not view(app).four_colour and status_of(app) == "two colours: red and black"


# ---------------------------------------------------------------- the clock


def screen_text(app) -> str:
    shot: str = app.export_screenshot()
    return shot


@pilot_test
async def test_the_clock_starts_at_the_first_move_and_stops_while_paused_or_in_the_help():
    from solitaire.cli import saves
    from solitaire.cli.tui.app import HelpScreen, PauseScreen, SolitaireApp

    clock = FakeClock()
    tracker = saves.Tracker(Game.new(Rules.of(KLONDIKE), 5), dealt=False, clock=clock)
    app = SolitaireApp(tracker, tick=False)
    async with app.run_test(size=(80, 24)) as pilot:
        clock.now += 50  # idle before the first move: not counted
        assert tracker.elapsed() == 0
        await pilot.press("d")
        clock.now += 10
        assert tracker.elapsed() == 10
        assert "♠" in screen_text(app) or "♣" in screen_text(app) or "♥" in screen_text(app)
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(top_screen(app), PauseScreen)
        shown = screen_text(app)
        assert "Paused" in shown and not any(sym in shown for sym in "♠♥♦♣")  # the cards hidden
        clock.now += 300
        await pilot.press("d", "u")  # nothing acts on the game behind the pause
        assert tracker.elapsed() == 10 and app.game.moves == 1
        await pilot.press("p")
        await pilot.pause()
        assert not isinstance(top_screen(app), PauseScreen)
        clock.now += 5
        assert tracker.elapsed() == 15
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(top_screen(app), HelpScreen)
        clock.now += 60
        await pilot.press("escape")
        await pilot.pause()
        clock.now += 1
        assert tracker.elapsed() == 16


def test_a_resumed_game_keeps_its_time_and_counts_on_from_its_next_move():
    from solitaire.cli import saves

    clock = FakeClock()
    tracker = saves.Tracker(Game.new(Rules.of(KLONDIKE), 5), elapsed=30.0, clock=clock, enabled=False)
    clock.now += 100
    assert tracker.elapsed() == 30
    tracker.game.play("draw")
    tracker.changed()
    clock.now += 2
    assert tracker.elapsed() == 32
    tracker.pause()
    tracker.pause()  # twice is once
    clock.now += 50
    tracker.resume()
    clock.now += 1
    assert tracker.elapsed() == 33


# ---------------------------------------------------------------- words as the table shows them


@pilot_test
async def test_a_refusal_spells_its_cards_with_symbols_as_the_table_shows_them():
    app = make_app(position())
    async with app.run_test(size=(80, 24)) as pilot:
        await click(pilot, app, "t2")
        await click(pilot, app, "t1")
        assert status_of(app) == "K♠ does not go on K♥: t1 builds down in alternating colours"
        assert view(app).picked == (IDX["t2"], 1)


@pilot_test
async def test_the_win_screen_offers_the_same_deal_with_the_key_the_status_line_names():
    app = make_app(position(seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await click(pilot, app, "t1", times=2)
        await click(pilot, app, "t2", times=2)
        await pilot.pause()
        assert isinstance(top_screen(app), WinScreen)
        labels = [str(b.label) for b in app.screen.query(Button)]
        assert "Play it again (R)" in labels
        await pilot.press("R")  # as the won table's status line says: the same deal, from its start
        await pilot.pause()
        assert not isinstance(top_screen(app), WinScreen)
        assert app.game.moves == 0 and not won(app) and app.game.seed == 7


# ---------------------------------------------------------------- saved, resumed, copied


@pilot_test
async def test_q_says_where_the_game_went_and_a_resumed_game_says_so(solitaire_home):
    from solitaire.cli import saves
    from solitaire.cli.tui.app import SolitaireApp

    game = Game.new(Rules.of(KLONDIKE), 21)
    app = SolitaireApp(saves.Tracker(game), tick=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d", "d", "q")
    assert app.goodbye() == "your game is saved: 'solitaire play klondike' resumes it"
    saved = saves.read_save(KLONDIKE)
    assert saved is not None
    again, elapsed, dealt = saved
    back = SolitaireApp(saves.Tracker(again, elapsed, dealt), tick=False)
    async with back.run_test(size=(80, 24)):
        assert status_of(back) == "your saved game, resumed at move 2: n deals a new one"
    won_app = make_app(position())
    async with won_app.run_test(size=(80, 24)) as pilot:
        await click(pilot, won_app, "t1", times=2)
        await click(pilot, won_app, "t2", times=2)
    assert won_app.game.won and won_app.goodbye() is None


@pilot_test
async def test_y_copies_the_share_code_through_the_terminal():
    app = make_app(Game.new(Rules.of(KLONDIKE, {"draw": 3}), 48213))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("y")
        assert app.clipboard == "klondike-d3-48213"
        assert "copied klondike-d3-48213" in status_of(app)
