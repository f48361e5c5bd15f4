"""The race's screens in Arabic, right to left (#15/#17): the lobby and the end screen pinned
at 80x24 with the words in the order a terminal that does not lay out right-to-left text needs
(``SOLITAIRE_BIDI=visual``, see solitaire.cli.bidi), and the progress panel and notices checked.

The table's messages are recorded from a real RaceServer (its own event loop, a deal the test
knows), then replayed into the app, so that the pictures depend on nothing but the screens.
Regenerate with ``pytest tests/test_race_bidi.py --snapshot-update`` and look at each picture
(tests/__snapshots__/test_race_bidi/) before committing it.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.screen import Screen

from solitaire.cli.bidi import visual
from solitaire.cli.race.client import RaceClient
from solitaire.cli.race.server import RaceServer, Settings
from solitaire.cli.race.ui import EndScreen, LobbyScreen, RaceApp, RaceScreen
from solitaire.core.i18n import _, set_language

LINK = "solitaire://127.0.0.1:8765/T4BLE?token=TOKEN"  # shown in the lobby: fixed for the picture
DEAL = 1298


class Replay(RaceClient):
    """A client that has been sent ``messages`` after ``welcome``, and then nothing more."""

    def __init__(self, welcome: dict[str, Any], messages: list[dict[str, Any]]) -> None:
        self.welcome = welcome
        self.messages = [welcome, *messages]
        self.pending = list(messages)
        self.keep = True
        self.sent: list[str] = []

    async def next(self, timeout: float | None = 10.0) -> dict[str, Any] | None:
        if self.pending:
            return self.pending.pop(0)
        await asyncio.Event().wait()  # the table says nothing more
        return None

    async def send(self, type_: str, **fields: Any) -> None:
        self.sent.append(type_)

    async def close(self) -> None:
        pass


def recorded() -> dict[str, list[dict[str, Any]]]:
    """What the host (آمنة) received: in the lobby with bob ready, then a race bob resigned."""

    async def go() -> dict[str, list[dict[str, Any]]]:
        server = RaceServer()
        await server.start()
        server.deal_seed = lambda _settings: DEAL
        table = server.open_table(Settings("klondike", {"draw": 1}))
        link = server.link(table)
        host = await RaceClient.join(link, "آمنة", host_key=table.host_key)
        bob = await RaceClient.join(link, "bob")
        await bob.send("ready")
        await bob.wait("ack", re="ready")
        await host.wait("table")
        while not all(p["ready"] or p["host"] for p in (await host.wait("table"))["players"]):
            pass
        lobby = list(host.messages)
        await host.send("start")
        await bob.wait("start")
        for _k in range(3):
            await bob.send("move", move="draw")
            await bob.wait("reply")
        await host.send("move", move="draw")
        await host.wait("reply")
        await bob.send("resign")
        await host.wait("end")
        race = list(host.messages)
        await bob.close()
        await host.close()
        await server.close()
        return {"lobby": lobby, "race": race}

    return asyncio.run(asyncio.wait_for(go(), 120))


@pytest.fixture(scope="module")
def messages() -> dict[str, list[dict[str, Any]]]:
    return recorded()


@pytest.fixture
def arabic(monkeypatch):
    monkeypatch.setenv("SOLITAIRE_BIDI", "visual")
    set_language("ar")
    yield
    set_language()


def app_of(messages: list[dict[str, Any]]) -> RaceApp:
    return RaceApp(Replay(messages[0], messages[1:]), LINK, tick=False)


async def shown(pilot: Any, kind: type[Screen[Any]]) -> None:
    """Until the app shows the screen the replayed messages lead to (a state, not a time)."""
    for _k in range(10_000):
        if isinstance(pilot.app.screen, kind) and pilot.app.screen.query("#status"):
            break
        await pilot.pause(0.01)
    await pilot.pause()


def test_the_lobby_in_arabic_reads_right_to_left_80x24(snap_compare, arabic, messages):
    app = app_of(messages["lobby"])

    async def lobby(pilot: Any) -> None:
        await shown(pilot, LobbyScreen)
        status = str(app.screen.query_one("#status").render())
        assert status == visual(_("s starts when every friend is ready; c settings; q closes the table"))
        assert status != _("s starts when every friend is ready; c settings; q closes the table")

    assert snap_compare(app, terminal_size=(80, 24), run_before=lobby)


def test_the_end_screen_in_arabic_reads_right_to_left_80x24(snap_compare, arabic, messages):
    app = app_of(messages["race"])

    async def end(pilot: Any) -> None:
        await shown(pilot, EndScreen)
        assert str(app.screen.query_one("#end-title").render()) == visual(_("You won!"))

    assert snap_compare(app, terminal_size=(80, 24), run_before=end)


def test_the_progress_panel_and_notices_in_arabic_are_in_visual_order(arabic, messages):
    race = messages["race"]
    before_end = race[:next(k for k, m in enumerate(race) if m.get("type") == "resigned")]
    app = app_of(before_end)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await shown(pilot, RaceScreen)
            progress = str(app.screen.query_one("#progress").render())
            assert visual(_("Players")) in progress.split("\n")[0]
            assert visual(_("moves {n}").format(n=3)) in progress  # bob's three draws
            assert "bob" in progress
            await pilot.press("u")
            status = str(app.screen.query_one("#status").render())
            assert status == visual(_("no undo in a race")) != _("no undo in a race")
            app.handle({"type": "disconnected", "seat": 1, "name": "bob", "seconds": 60})
            await pilot.pause()
            status = str(app.screen.query_one("#status").render())
            assert status == visual(_("{name} lost the connection ({seconds} s to come back)").format(
                name="bob", seconds=60))

    asyncio.run(asyncio.wait_for(go(), 120))
