"""The full-screen race table: Pilot drives the Textual app against a real RaceServer on
127.0.0.1 (in this process); the other players are API clients (RaceClient)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from typing import Any

import attrs
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Button

from solitaire.cli.race.client import RaceClient
from solitaire.cli.race.server import RaceServer, Settings, Table
from solitaire.cli.race.ui import (
    ConfirmScreen,
    EndScreen,
    LobbyScreen,
    RaceApp,
    RaceScreen,
    SettingsScreen,
)
from solitaire.cli.tui.table import with_symbols
from solitaire.core import Game, Rules, get_variant
from solitaire.core.cards import HIDDEN, card_name, card_symbol
from solitaire.core.view import Observation

OPTIONS = {"draw": 1}
WIN_SEED = 1298  # the solver wins it under draw 1
RULES = Rules.of(get_variant("klondike"), OPTIONS)
# the solver's win of WIN_SEED, written here (solving it at import would race the machine's clock;
# test_a_friend_wins... plays it through the server, which checks every move)
SOLUTION = [m.replace("_", " ") for m in """
    draw draw draw draw draw draw draw w_f1 draw draw draw draw draw draw draw w_f2 draw draw
    draw w_f3 w_f3 draw draw draw draw w_f4 t7_f4 draw draw draw draw draw draw draw w_f3 draw
    w_f2 draw w_f1 draw draw w_f3 draw draw draw draw draw draw draw draw draw draw w_f3 w_t2
    w_t5 draw draw draw draw draw draw w_t6 draw w_t2 t3_t2 t3_t4 t3_f3 t6_f3 draw draw draw
    draw w_t3 t2_t3_4 t1_t5 draw w_t1 t2_t6 draw draw draw w_t2 t7_t2 t4_t7_2 t7_t6_3 t7_t2
    t7_t3 draw draw draw draw w_t3 t5_t3_3 t5_f2 t6_f2 t3_t4 t3_f2 t4_t3_2 t4_t2 draw w_t7 draw
    w_t2 t5_t2 t5_f4 t5_f1 t3_f1 t6_f1 t6_f2 draw draw draw draw w_t4 t6_t4_2 t6_f2 t2_f2 t6_t1
    t6_f3 t6_f4 t3_f4 t3_f1 t4_f1 draw draw w_f4 t3_f4 t3_f1 t3_f2 t4_f4 t2_f1 t4_f3 t2_f2 t6_f1
    t2_f1 t1_f1 t3_f3 t3_f2 t7_f3 t7_f2 t1_f2 t3_f3 t7_f3 draw w_f4 t4_f4 w_f4 t2_f4 t2_f1 t3_f4
""".split()]  # noqa: SIM905 (a word list reads best as text)
STOCK, WASTE = RULES.index["stock"], RULES.index["waste"]


WAITING: list[str] = []  # what until() waits for, for the message if the test runs out of time


def pilot_test(fn):
    """Run an async Pilot test in its own event loop, bounded in time (generously: a bound
    against a hang, never a measure of speed)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        WAITING.clear()
        try:
            asyncio.run(asyncio.wait_for(fn(*args, **kwargs), 300))
        except TimeoutError:
            raise AssertionError(f"never happened: {WAITING[-1] if WAITING else 'the test'}") from None

    return wrapper


def plain(widget: Widget) -> str:
    """The text a widget shows."""
    shown = widget.render()
    assert isinstance(shown, Content), shown
    return shown.plain


async def open_table(**settings: Any) -> tuple[RaceServer, Table, str]:
    server = RaceServer(allow_seconds=True)
    await server.start()
    server.deal_seed = lambda _settings: WIN_SEED  # the test hook: never reachable from the wire
    table = server.open_table(Settings("klondike", dict(OPTIONS), **settings))
    return server, table, server.link(table)


async def until(pilot, check, what: str = "the condition") -> None:
    """Let the app run until ``check()`` holds (the server's answer has arrived). No time
    limit of its own, which a loaded machine could overrun: the whole test is bounded (see
    pilot_test), and a wait that never ends says what it waited for."""
    WAITING.append(what)
    while not check():
        await pilot.pause(0.01)
    WAITING.pop()


async def host_app(name: str = "ann", **settings: Any) -> tuple[RaceServer, Table, RaceApp]:
    """A table whose host is the UI; returns server, table, app (not yet running)."""
    server, table, link = await open_table(**settings)
    client = await RaceClient.join(link, name, host_key=table.host_key)
    return server, table, RaceApp(client, link, tick=False)


async def ready_friend(table, link: str, name: str = "bob") -> RaceClient:
    friend = await RaceClient.join(link, name)
    await friend.send("ready")
    await friend.wait("ack", re="ready")
    return friend


async def started(pilot, app, friend) -> None:
    await until(pilot, lambda: on(app, LobbyScreen) and app.can_start(), "start enabled")
    await pilot.press("s")
    await until(pilot, lambda: on(app, RaceScreen) and app.board is not None, "the race")
    await friend.wait("start")


@contextlib.asynccontextmanager
async def racing_bob(**settings):
    """The host's UI (ann) racing bob, an API client, at a new table: yields pilot, app,
    table and bob; closes bob and the server after."""
    server, table, app = await host_app(**settings)
    async with app.run_test(size=(100, 30)) as pilot:
        bob = await ready_friend(table, server.link(table))
        await started(pilot, app, bob)
        yield pilot, app, table, bob
    await bob.close()
    await server.close()


def on(app, kind) -> bool:
    """``app`` shows a screen of this kind, composed and painted with the latest state."""
    if not isinstance(app.screen, kind) or not app.screen.query("#status"):
        return False
    return bool(plain(app.screen.query_one("#status")))


def own(app: RaceApp) -> dict[str, Any]:
    """The player's own table, as the server last sent it (there is one once seated)."""
    assert app.own is not None
    return app.own


def board(app: RaceApp) -> Game:
    """The player's own table as drawn (there is one once seated)."""
    assert app.board is not None
    return app.board


def race_screen(app: RaceApp) -> RaceScreen:
    screen = app.screen
    assert isinstance(screen, RaceScreen), screen
    return screen


def progress(app) -> str:
    return plain(app.screen.query_one("#progress"))


def status(app) -> str:
    return plain(app.screen.query_one("#status"))


@pilot_test
async def test_lobby_ready_from_the_ui_and_the_host_starts():
    server, table, link = await open_table()
    host = await RaceClient.join(link, "ann", host_key=table.host_key)
    client = await RaceClient.join(link, "bob")
    app = RaceApp(client, link, tick=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: on(app, LobbyScreen))
        text = plain(app.screen.query_one("#lobby-players"))
        assert "ann" in text and "bob (you)" in text and "not ready" in text
        assert link in plain(app.screen.query_one("#lobby-link"))
        assert not app.screen.query_one("#start").display  # only the host starts
        await pilot.press("r")
        await until(pilot, lambda: table.players[1].ready, "bob ready")
        await until(pilot, lambda: "Not ready" in str(app.screen.query_one("#ready", Button).label))
        await host.send("start")
        await until(pilot, lambda: on(app, RaceScreen), "the race screen")
        assert app.board is not None and app.board.moves == 0
        assert "ann" in progress(app) and "you" in progress(app)
    await host.close()
    await server.close()


@pilot_test
async def test_host_starts_plays_by_keys_and_clicks_and_sees_the_others_progress():
    server, table, app = await host_app()
    link = server.link(table)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: on(app, LobbyScreen))
        assert app.screen.query_one("#start").disabled  # nobody to race yet
        await pilot.press("s")
        await until(pilot, lambda: "at least one friend" in status(app), "refused")
        bob = await ready_friend(table, link)
        await started(pilot, app, bob)
        # a move by key: the cursor starts on the stock, d draws; the server's reply shows it
        await pilot.press("d")
        await until(pilot, lambda: own(app)["moves"] == 1, "the draw acknowledged")
        server_game = table.players[0].game
        assert server_game is not None
        assert server_game.moves == 1
        assert board(app).piles[WASTE] == server_game.piles[WASTE]
        # a move by click on the stock
        x, y = race_screen(app).table_view.point_of(STOCK)
        await pilot.click("#table", offset=(x, y))
        await until(pilot, lambda: own(app)["moves"] == 2, "the click acknowledged")
        assert server_game.moves == 2 and board(app).piles[WASTE] == server_game.piles[WASTE]
        # a move the rules refuse, by clicks: refused here, with the reason the server would
        # give, nothing sent, and the card stays in hand, as at the solo table
        tableau = [i for i, role in enumerate(RULES.role) if role == "tableau"]
        src, dst = next((s, d) for s in tableau for d in tableau
                        if s != d and server_game.refusal((s, d, 1)) is not None)
        refusal = server_game.refusal((src, dst, 1))
        assert refusal is not None
        reason = with_symbols(refusal)  # spelled as the table shows cards
        assert reason != refusal
        sent = len(app.client.messages)
        for pile in (src, dst):
            x, y = race_screen(app).table_view.point_of(pile)
            await pilot.click("#table", offset=(x, y))
        await until(pilot, lambda: status(app) == reason, "the refusal")
        assert own(app)["moves"] == server_game.moves == 2
        assert len(app.client.messages) == sent and race_screen(app).view.picked == (src, 1)
        await pilot.press("escape")
        # while a move is unanswered the board may be out of date: the server judges alone
        app.unanswered = 1
        for pile in (src, dst):
            x, y = race_screen(app).table_view.point_of(pile)
            await pilot.click("#table", offset=(x, y))
        await until(pilot, lambda: len(app.client.messages) > sent and status(app) == reason, "the server's refusal")
        app.unanswered = 0
        # another player moves: the progress panel follows
        await bob.send("move", move="draw")
        await bob.wait("reply")
        await until(pilot, lambda: "moves 1" in progress(app).split("bob")[1], "bob's progress")
        # undo and hints are refused in one line, nothing is sent
        sent = len(app.client.messages)
        for key, notice in (("u", "no undo in a race"), ("h", "no hints in a race")):
            await pilot.press(key)
            assert status(app) == notice
        await pilot.pause(0.05)
        assert len(app.client.messages) == sent and server_game.moves == own(app)["moves"]
    await bob.close()
    await server.close()


@pilot_test
async def test_a_dropped_connection_comes_back_to_the_same_seat_by_itself():
    async with racing_bob() as (pilot, app, _table, bob):
        await pilot.press("d")  # ann draws
        await until(pilot, lambda: app.own is not None and app.own["moves"] == 1, "the draw")
        first = app.client
        first.ws.transport.abort()  # the network drops: no closing handshake
        await until(pilot, lambda: app.client is not first and "Back at the table" in status(app), "back")
        assert not app.closed and app.own["moves"] == 1 and on(app, RaceScreen)
        await bob.wait("reconnected", seat=0)
        await pilot.press("d")  # and plays on, on the same seat
        await until(pilot, lambda: app.own["moves"] == 2, "the second draw")
        await bob.wait("progress", seat=0, moves=2)  # the others see it
        second = app.client
        second.ws.transport.abort()  # dropped again within the minute: say how to come back by hand
        await until(pilot, lambda: app.closed, "given up")
        assert app.client is second and "--resume " + second.seat_token in status(app)


@pilot_test
async def test_a_seat_already_given_up_is_not_tried_again_and_the_notice_says_why():
    async with racing_bob() as (pilot, app, table, _bob):
        table.server.reconnect_window = 0  # the table gives the seat up at once
        first = app.client
        first.ws.transport.abort()
        await until(pilot, lambda: app.closed, "given up")
        assert app.client is first and "Could not come back" in status(app) and "seat token" in status(app)


@pilot_test
async def test_a_spectator_seated_later_keeps_its_seat_token_to_come_back_with():
    server, table, link = await open_table()
    ann = await RaceClient.join(link, "ann", host_key=table.host_key)
    bob = await ready_friend(table, link)
    await ann.send("start")
    await bob.wait("start")
    watcher = await RaceClient.join(link, "cid")  # the race is on: cid watches
    app = RaceApp(watcher, link, tick=False)
    async with app.run_test(size=(100, 30)) as pilot:
        assert (app.client.seat_token, app.role) == (None, "spectator")
        await bob.send("resign")  # ann, the last one racing, wins
        await ann.wait("end")
        await ann.send("settings", race="timed", minutes=10)  # back to the lobby: cid sits down
        await until(pilot, lambda: app.role == "player", "cid seated")
        assert app.client.seat_token == table.players[-1].token and app.me() is not None
    await ann.close()
    await bob.close()
    await server.close()


@pilot_test
async def test_a_table_that_closes_is_not_rejoined():
    server, _table, app = await host_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: on(app, LobbyScreen))
        first = app.client
        await server.close()  # the table goes away with a closing handshake
        await until(pilot, lambda: app.closed, "closed")
        assert app.client is first and "closed the connection" in status(app)


@pilot_test
async def test_resign_asks_first_and_the_end_screen_shows_result_score_and_tables():
    async with racing_bob() as (pilot, app, table, _bob):
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")  # not after all
        await until(pilot, lambda: on(app, RaceScreen))
        assert table.players[0].status == "racing"
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: on(app, EndScreen), "the end screen")
        assert table.players[0].status == "lost" and table.players[1].status == "won"
        text = plain(app.screen.query_one("#end-text"))
        assert plain(app.screen.query_one("#end-title")) == "You lost."
        assert "bob: the last one racing" in text and "ann" in text and "1-0-0" in text
        # every table is revealed: the one shown has no face-down card hidden from view
        shown = app.screen.games[0]
        assert shown.piles == table.players[0].game.piles and not any(shown.down)
        await pilot.press("2")
        assert app.screen.shown == 1
        # Again (the host): a new race, seats moved one along
        await pilot.press("g")
        await until(pilot, lambda: on(app, RaceScreen), "the next race")
        assert table.race_no == 2 and app.own["moves"] == 0


@pilot_test
async def test_draw_offers_go_by_seat_when_two_players_share_a_name():
    server, table, app = await host_app(name="player")
    async with app.run_test(size=(100, 30)) as pilot:
        friend = await ready_friend(table, server.link(table), name="player")
        await started(pilot, app, friend)
        await friend.send("offer-draw")
        await until(pilot, lambda: "player offers a draw: y accepts, n declines." in status(app), "their offer")
        await friend.send("decline-draw")  # they take it back
        await until(pilot, lambda: status(app) == "player withdrew the draw offer", "withdrawn")
        await pilot.press("equals_sign")
        await friend.wait("offer")
        await friend.send("decline-draw")
        await until(pilot, lambda: status(app) == "player declined the draw", "declined by the other")
    await friend.close()
    await server.close()


@pilot_test
async def test_a_friend_wins_and_the_ui_shows_it_and_a_draw_offer_is_answered_by_keys():
    async with racing_bob() as (pilot, app, table, bob):
        await bob.send("offer-draw")
        await until(pilot, lambda: "bob offers a draw" in status(app), "the offer shown")
        await pilot.press("n")
        await bob.wait("offer-cancelled")
        await until(pilot, lambda: status(app) == "you declined the draw", "the refusal said as one's own")
        await pilot.press("equals_sign")  # ann's own offer, taken back
        await until(pilot, lambda: "You offered a draw" in status(app) and "(n withdraws it)" in status(app))
        await bob.wait("offer")
        await pilot.press("n")
        await until(pilot, lambda: status(app) == "you withdrew your draw offer", "the offer withdrawn")
        for move in SOLUTION:
            await bob.send("move", move=move)
            assert (await bob.wait("reply"))["ok"]
        await until(pilot, lambda: on(app, EndScreen), "the end screen")
        assert plain(app.screen.query_one("#end-title")) == "You lost."
        assert "bob put every card home" in plain(app.screen.query_one("#end-text"))
        # Change settings (the host): back to the lobby with the new settings
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen))
        assert app.screen.query_one("#flags").value == "--variant klondike --race finish --draw 1"
        app.screen.query_one("#flags").value = "--race timed --minutes 10 --draw 3"
        await pilot.press("enter")
        await until(pilot, lambda: on(app, LobbyScreen), "the lobby")
        assert "Klondike draw 3, timed 10 min" in plain(app.screen.query_one("#lobby-title"))
        assert table.settings.seconds == 600 and table.settings.options == {"draw": 3}


@pilot_test
async def test_the_ui_never_receives_or_holds_a_face_down_card():
    async with racing_bob() as (pilot, app, table, _bob):
        for _ in range(5):
            await pilot.press("d")
        await until(pilot, lambda: app.own["moves"] == 5, "five draws")
        game = table.players[0].game
        # what the client received: face-down cards only as "??"
        for msg in app.client.messages:
            for key in ("own", "position"):
                pos = msg.get(key, {}).get("position") if key == "own" else msg.get(key)
                if pos:
                    assert all(set(p["down"]) <= {HIDDEN} for p in pos["piles"].values()) and "seed" not in pos
        # what the UI holds: the player's view, exactly the face-up cards; the board drawn puts
        # the unseen cards face down in card order (stand-ins), whatever the real order is
        assert app.seen == attrs.evolve(Observation.of(game), seed=None)  # the seed is never sent
        shown = board(app)
        assert shown.down == game.down and shown.seed is None
        for i, pile in enumerate(shown.piles):
            assert pile[shown.down[i]:] == game.piles[i][game.down[i]:]
        stand_ins = [c for p, d in zip(shown.piles, shown.down, strict=True) for c in p[:d]]
        assert stand_ins == sorted(stand_ins) == list(app.seen.unseen())


def table_text(app: RaceApp) -> str:
    """What the race table's widget shows, as text."""
    view = race_screen(app).table_view
    view._paint()
    return "\n".join("".join(seg.text for seg in line) for line in view._lines)


def shown_cards(app: RaceApp) -> set[str]:
    """The cards on the race screen (the table, the status and the progress lines)."""
    text = "\n".join((table_text(app), status(app), progress(app)))
    return {card_name(c) for c in range(52) if card_symbol(c) in text}


def sent_face_up(position: dict[str, Any]) -> set[str]:
    return {c for pile in position["piles"].values() for c in pile["up"]}


@pilot_test
async def test_a_move_that_turns_a_card_up_shows_only_what_the_server_sent():
    async with racing_bob() as (pilot, app, table, _bob):
        screen = race_screen(app)
        turning = SOLUTION.index("t7 f4")  # t7's top goes home: the card under it turns up
        for k, text in enumerate(SOLUTION[:turning + 1]):
            if text == "draw":
                await pilot.press("d")
            else:
                drawn, seen = board(app), app.seen
                screen.submit(drawn.parse_move(text))  # as a pick and a put do
                # sent, not answered yet: nothing was played on the board drawn (redrawn now)
                assert board(app) is drawn and app.seen is seen and Observation.of(drawn) == seen
                assert shown_cards(app) <= sent_face_up(own(app)["position"])
            await until(pilot, lambda k=k: own(app)["moves"] == k + 1 and not app.unanswered, text)
            await pilot.pause()
            shown = shown_cards(app)
            assert shown and shown <= sent_face_up(own(app)["position"])
        t7 = RULES.index["t7"]
        up = own(app)["position"]["piles"]["t7"]["up"]
        game = table.players[0].game
        assert len(up) == 1 and up == [card_name(game.piles[t7][-1])]  # the card turned up, as sent
        assert up[0] in shown_cards(app)


@pilot_test
async def test_timed_race_shows_the_clock_and_a_spectator_watches():
    server, table, app = await host_app(race="timed", seconds=600)
    link = server.link(table)
    async with app.run_test(size=(100, 30)) as pilot:
        assert "timed 10 min" in plain(app.screen.query_one("#lobby-title"))
        bob = await ready_friend(table, link)
        await started(pilot, app, bob)
        info = plain(app.screen.query_one("#race-info"))
        assert " left" in info and "timed 10 min" in info
        watcher = await RaceClient.join(link, "eve")
        assert watcher.welcome["role"] == "spectator"
        await until(pilot, lambda: "watching: 1" in progress(app), "the spectator counted")
        await watcher.close()
    await bob.close()
    await server.close()


def test_without_a_terminal_race_says_so_in_one_line(cli):
    for args in (["race", "host"], ["race", "join", "solitaire://127.0.0.1:9/T?token=x"]):
        result = cli(*args)
        assert result.code == 2 and result.out == ""
        assert result.err.strip() == "solitaire: the race table needs a terminal: run it on one, or add " \
                                     "--json to race from the command line"


# ---------------------------------------------------------------- buttons, help, the end screen at 80x24


@pilot_test
async def test_every_lobby_button_does_what_its_key_does():
    server, table, link = await open_table()
    host_client = await RaceClient.join(link, "ann", host_key=table.host_key)
    host = RaceApp(host_client, link, tick=False)
    bob_app = RaceApp(await RaceClient.join(link, "bob"), link, tick=False)
    async with bob_app.run_test(size=(80, 24)) as bob_pilot:
        await until(bob_pilot, lambda: on(bob_app, LobbyScreen))
        await bob_pilot.click("#ready")
        await until(bob_pilot, lambda: table.players[1].ready, "bob ready by the button")
        await bob_pilot.click("#quit")  # not the host, not racing: leaves at once
        await until(bob_pilot, lambda: not bob_app.is_running, "bob gone")
    friend = await ready_friend(table, link, "cid")
    async with host.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: on(host, LobbyScreen) and host.can_start(), "start enabled")
        await pilot.click("#settings")
        await until(pilot, lambda: isinstance(host.screen, SettingsScreen), "the settings box")
        await pilot.press("escape")
        await until(pilot, lambda: on(host, LobbyScreen))
        await pilot.click("#quit")
        await until(pilot, lambda: isinstance(host.screen, ConfirmScreen), "asked before closing the table")
        await pilot.press("n")
        await until(pilot, lambda: on(host, LobbyScreen))
        await pilot.click("#start")
        await until(pilot, lambda: on(host, RaceScreen), "the race, by the button")
    await friend.close()
    await host_client.close()
    await server.close()


@pilot_test
async def test_y_copies_the_link_in_the_lobby():
    server, table, app = await host_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: on(app, LobbyScreen))
        await pilot.press("y")
        await until(pilot, lambda: "copied the link" in status(app))
        assert app.clipboard == server.link(table)
    await server.close()


async def to_the_end(pilot, app) -> None:
    await pilot.press("x")
    await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
    await pilot.press("y")
    await until(pilot, lambda: on(app, EndScreen), "the end screen")


@pilot_test
async def test_every_end_screen_button_does_what_its_key_does_and_it_fits_80x24():
    async with racing_bob() as (pilot, app, table, _bob):
        await pilot.resize_terminal(80, 24)
        await to_the_end(pilot, app)
        await pilot.pause()
        side, view = app.screen.query_one("#end-side"), app.screen.query_one("#end-table")
        assert side.virtual_size.height <= side.size.height  # nothing cut off
        assert view.geo is not None and view.geo.card_w >= 5  # cards, not slivers like │f│
        for button in app.screen.query("Button"):
            assert button.region.right <= side.region.right
        await pilot.click("#settings")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings box")
        await pilot.press("escape")
        await until(pilot, lambda: on(app, EndScreen))
        await pilot.click("#quit")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "asked before closing the table")
        await pilot.press("n")
        await until(pilot, lambda: on(app, EndScreen))
        await pilot.click("#again")
        await until(pilot, lambda: on(app, RaceScreen), "the next race, by the button")
        assert table.race_no == 2


@pilot_test
async def test_a_draw_offer_shows_even_behind_a_notice_and_the_race_table_has_help():
    async with racing_bob() as (pilot, app, _table, bob):
        await pilot.press("u")
        assert status(app) == "no undo in a race"
        await bob.send("offer-draw")
        await until(pilot, lambda: "bob offers a draw: y accepts, n declines." in status(app), "the offer shown")
        assert "no undo in a race" in status(app)
        await pilot.press("question_mark")
        await until(pilot, lambda: app.screen.query("#help-text"), "the help")
        assert "offer a draw" in str(app.screen.query_one("#help-text").render())
        await pilot.press("escape")
        await until(pilot, lambda: on(app, RaceScreen))
        await pilot.press("n")
        await until(pilot, lambda: status(app) == "you declined the draw")


@pilot_test
async def test_the_race_keys_line_names_the_arrows_and_f_is_offered_once_the_cards_are_up():
    from klondike_helpers import near_won

    from solitaire.cli.race.ui import FINISH_LINE, KEYS_LINE

    assert "arrows" in KEYS_LINE and len(KEYS_LINE) <= 78
    async with racing_bob() as (_pilot, app, _table, _bob):
        assert status(app) == KEYS_LINE  # cards face down: no finish yet
        for data in (near_won(), near_won(stock=["KH"], t1=[])):  # the stock's card unseen: the server finds the way
            app.show_own({**data, "options": OPTIONS})
            app.refresh_base()
            assert status(app) == FINISH_LINE


@pilot_test
async def test_a_browsers_lobby_shows_and_copies_the_pages_link():
    server, table, _link = await open_table()
    link = server.link(table)
    page = f"http://127.0.0.1:9/?token={table.token}"
    guest = await RaceClient.join(link, "guest 1")
    app = RaceApp(guest, link, tick=False, web=page, web_only=True)  # race join --web-session PAGE
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: on(app, LobbyScreen))
        shown = plain(app.screen.query_one("#lobby-link"))
        assert page in shown and link not in shown  # the browser's friends get the page, not loopback
        await pilot.press("y")
        await until(pilot, lambda: "copied the link" in status(app))
        assert app.clipboard == page
    await guest.close()
    await server.close()


@pilot_test
async def test_a_browsers_session_asks_before_taking_its_seat_back_and_a_stale_token_is_refused():
    """A browser's session (the app joins itself): the seat its browser left is offered on the
    screen; a stale seat token is refused with the table's reason and the app joins as a newcomer."""
    from solitaire.cli.race.ui import Comeback

    async with racing_bob() as (_pilot, _host, table, bob):
        link = table.server.link(table)
        token = bob.seat_token
        assert token is not None
        await bob.send("move", move="draw")
        await bob.wait("reply")
        await bob.close()  # the tab closed: the seat is kept
        back = RaceApp(None, link, tick=False, web_only=True, comeback=Comeback("guest 2", 1, 3, token, {}))
        async with back.run_test(size=(100, 30)) as second:
            await until(second, lambda: isinstance(back.screen, ConfirmScreen), "the offer")
            assert "You left seat 1 at this table 3 s ago" in plain(back.screen.query_one("#question"))
            await second.press("y")
            await until(second, lambda: on(back, RaceScreen) and back.own is not None, "the seat back")
            assert back.role == "player" and own(back)["moves"] == 1 and back.client.seat_token != token
        await back.client.close()
        stale = RaceApp(None, link, tick=False, web_only=True, comeback=Comeback("guest 3", 1, 9, token, {}))
        async with stale.run_test(size=(100, 30)) as third:
            await until(third, lambda: isinstance(stale.screen, ConfirmScreen), "the offer")
            await third.press("y")
            await until(third, lambda: on(stale, RaceScreen), "joined as a newcomer")
            assert stale.role == "spectator"
            assert status(stale).startswith("Could not take the seat back: the table refused: ")
            assert "\n" not in status(stale) and "seat token" in status(stale)
        await stale.client.close()
        declined = RaceApp(None, link, tick=False, web_only=True, comeback=Comeback("guest 4", 1, 9, token, {}))
        async with declined.run_test(size=(100, 30)) as fourth:
            await until(fourth, lambda: isinstance(declined.screen, ConfirmScreen), "the offer")
            await fourth.press("n")
            await until(fourth, lambda: on(declined, RaceScreen), "joined as a newcomer")
            assert declined.role == "spectator" and "Could not" not in status(declined)
        await declined.client.close()


@pilot_test
async def test_q_leaves_says_so_to_the_table_and_prints_the_command_that_takes_the_seat_back(capsys):
    """``race_ui`` itself, run headless: bob quits the lobby with q; ann is told bob *left* (not
    lost the connection), and the terminal is told the command that takes the seat back, which
    does."""
    from solitaire.cli.race import ui

    server, table, link = await open_table()
    ann = await RaceClient.join(link, "ann", host_key=table.host_key)
    apps: list[RaceApp] = []
    original = RaceApp.run_async

    async def quit_at_once(pilot) -> None:
        apps.append(pilot.app)
        await until(pilot, lambda: on(pilot.app, LobbyScreen), "the lobby")
        await pilot.press("q")

    async def headless(self, **_kw):
        return await original(self, headless=True, size=(100, 30), auto_pilot=quit_at_once)

    RaceApp.run_async = headless  # type: ignore[method-assign]
    try:
        code = await ui.race_ui(link, "bob")
    finally:
        RaceApp.run_async = original  # type: ignore[method-assign]
    assert code == 0 and apps and apps[0].leaving
    gone = await ann.wait("disconnected", seat=1)
    assert (gone["name"], gone["reason"]) == ("bob", "left")
    token = apps[0].client.seat_token
    assert token
    printed = capsys.readouterr().err.strip().splitlines()
    assert printed[-1].startswith("solitaire: ") and f"solitaire race join '{link}' --resume {token}" in printed[-1]
    back = await RaceClient.join(link, "bob", seat_token=token)  # the command's seat, taken back
    assert back.welcome["seat"] == 1
    await ann.wait("reconnected", seat=1)
    await back.close()
    await ann.close()
    await server.close()


def test_the_notice_says_left_or_lost_the_connection_as_the_server_tells():
    app = RaceApp(None, "solitaire://127.0.0.1:1/T?token=x", tick=False)
    app.refresh_base = lambda: None  # type: ignore[method-assign]
    app.handle({"type": "disconnected", "seat": 1, "name": "bob", "seconds": 60, "reason": "left"})
    assert app.notice == "bob left (60 s to come back)"
    app.handle({"type": "disconnected", "seat": 1, "name": "bob", "seconds": 60})
    assert app.notice == "bob lost the connection (60 s to come back)"
