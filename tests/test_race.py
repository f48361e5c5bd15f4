"""Races over the network: a real server on 127.0.0.1, real clients (in-process and a
``solitaire race join`` subprocess). Every message a client receives is inspected for leaks."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from typing import Any

import pytest
from websockets.asyncio.client import connect

from solitaire.cli.race.client import RaceClient, RaceError
from solitaire.cli.race.messages import parse_link, progress
from solitaire.cli.race.server import RaceServer, Settings
from solitaire.core import Game, Rules, get_variant
from solitaire.core.solver import solve

OPTIONS = {"draw": 1}
WIN_SEED = 1298  # the solver wins it under draw 1
RULES = Rules.of(get_variant("klondike"), OPTIONS)
SOLUTION = list(solve(Game.new(RULES, WIN_SEED)).moves)
TIMED_SEED = 4  # winnable, and 't7 t1' at the start turns a card up with no card going home
CARD = re.compile(r'"(?:[A2-9TJQK][CDHS])"')


def run(coro, timeout: float = 30):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def open_table(seed: int = WIN_SEED, settings: Settings | None = None, **server_kw):
    server = RaceServer(allow_seconds=True, **server_kw)
    await server.start()
    server.deal_seed = lambda _settings: seed  # the test hook: never reachable from the wire
    table = server.open_table(settings or Settings("klondike", dict(OPTIONS)))
    return server, table, server.link(table)


async def seat(server, table, *names: str) -> list[RaceClient]:
    """The host (first name) and friends, seated in this order."""
    link = server.link(table)
    clients = [await RaceClient.join(link, names[0], host_key=table.host_key)]
    for name in names[1:]:
        clients.append(await RaceClient.join(link, name))
    return clients


async def start(clients: list[RaceClient]) -> list[dict[str, Any]]:
    for c in clients[1:]:
        await c.send("ready")
        await c.wait("ack", re="ready")
    await clients[0].send("start")
    return [await c.wait("start") for c in clients]


def check_position(position: dict[str, Any], rules: Rules = RULES) -> None:
    """A player's own position shows no seed, and no card the player may not see in this
    game: its piles are the game's own, their face-down cards "??", and its stock (if it has
    one) shows nothing when closed, only its top card under ``open: top`` (Pyramid)."""
    assert "seed" not in position
    assert set(position["piles"]) == set(rules.names), sorted(position["piles"])
    for name, pile in position["piles"].items():
        assert set(pile["down"]) <= {"??"}, (name, pile)
    if rules.stock is None:
        return
    stock = position["piles"][rules.names[rules.stock]]
    if not rules.stock_open:
        assert stock["up"] == [], stock
    elif rules.stock_top_only:
        assert len(stock["up"]) <= 1 and (stock["up"] or not stock["down"]), stock


def rules_of(settings: dict[str, Any]) -> Rules:
    return Rules.of(get_variant(settings["variant"]), settings["options"])


def assert_no_leaks(client: RaceClient) -> None:
    """Before each race's end: no seed anywhere, no face-down card, no card but one's own.
    Each position is checked against the piles of the game the table plays (its settings)."""
    racing = False
    rules = RULES
    for msg in client.messages:
        text = json.dumps(msg)
        assert '"seed"' not in text, msg
        if "settings" in msg:
            rules = rules_of(msg["settings"])
        if msg["type"] == "start":
            racing = True
        if msg["type"] == "end":
            racing = False
            continue
        rest = dict(msg)
        own = rest.pop("own", None)
        if msg["type"] == "reply" or (msg["type"] == "ack" and "position" in msg):
            own = {"position": rest.pop("position")}
        if own is not None:
            check_position(own["position"], rules)
        if racing or msg["type"] != "end":
            assert not CARD.search(json.dumps(rest)), f"a card outside one's own position: {msg}"


async def play(client: RaceClient, moves: list[str]) -> dict[str, Any]:
    reply = {}
    for m in moves:
        await client.send("move", move=m)
        reply = await client.wait("reply")
        assert reply["ok"], reply
    return reply


# --------------------------------------------------------------------------- the core race


def test_link_carries_host_port_table_and_a_long_token():
    async def go() -> None:
        server, table, link = await open_table()
        host, port, table_id, token = parse_link(link)
        assert (host, port, table_id) == ("127.0.0.1", server.port, table.id) and len(token) >= 32
        await server.close()
    run(go())


def test_lobby_ready_start_and_a_win_ends_the_race_for_all():
    async def go() -> None:
        server, table, _link = await open_table()
        host, bob, cid = await seat(server, table, "ann", "bob", "cid")
        await bob.send("start")
        assert (await bob.wait("error"))["code"] == "not-host"
        await host.send("start")
        refusal = await host.wait("error")
        assert refusal["code"] == "not-ready" and "bob, cid" in refusal["error"]
        await bob.send("move", move="draw")
        assert (await bob.wait("error"))["code"] == "not-racing"
        starts = await start([host, bob, cid])
        assert [s["seat"] for s in starts] == [0, 1, 2]
        first = starts[0]["own"]["position"]
        assert all(s["own"]["position"] == first for s in starts)  # one deal for everyone
        for m in ["undo", "hint"]:
            await bob.send("move", move=m)
            assert (await bob.wait("reply"))["error"] in ("no undo in a race", "no hints in a race")
        await bob.send("move", move="t1 t1")
        refused = await bob.wait("reply")
        assert refused["ok"] is False and refused["moves"] == 0
        await play(cid, SOLUTION[:3])
        progress = await host.wait("progress", seat=2, moves=3)
        assert set(progress) >= {"home", "left", "hidden", "moves"}
        await play(host, SOLUTION)
        ends = [await c.wait("end") for c in (host, bob, cid)]
        for end in ends:
            assert (end["reason"], end["winners"], end["draw"]) == ("won", [0], False)
            assert [t["result"] for t in end["tables"]] == ["won", "lost", "lost"]
            cards = [c for pile in end["tables"][1]["position"]["piles"].values() for c in pile["down"] + pile["up"]]
            assert len(cards) == 52 and "??" not in cards  # every table is shown at the end
        assert {s["name"]: s["wins"] for s in ends[0]["score"]} == {"ann": 1, "bob": 0, "cid": 0}
        await bob.send("move", move="draw")
        assert (await bob.wait("error"))["code"] == "not-racing"
        for c in (host, bob, cid):
            assert_no_leaks(c)
            await c.close()
        await server.close()
    run(go())


def test_start_needs_a_friend():
    async def go() -> None:
        server, table, _link = await open_table()
        (host,) = await seat(server, table, "ann")
        await host.send("start")
        assert (await host.wait("error"))["code"] == "no-friends"
        await server.close()
    run(go())


def tableau_flip_move() -> str:
    """A first move of the test deal that turns a tableau card up without a card going home."""
    game = Game.new(RULES, TIMED_SEED)
    for m in game.legal_moves():
        if RULES.role[m[0]] == "tableau" and RULES.role[m[1]] == "tableau":
            before = progress(game)["hidden"]
            game.push(m)
            after = progress(game)["hidden"]
            game.pop()
            if after < before:
                return game.move_text(m)
    raise AssertionError("the test deal has no turning move at the start")


def first_home() -> list[str]:
    """The solution up to its first card home."""
    game = Game.new(RULES, TIMED_SEED)
    solution = solve(game.copy()).moves
    for i, m in enumerate(solution):
        game.play(m)
        if any(game.piles[f] for f in RULES.foundations):
            return list(solution[:i + 1])
    raise AssertionError


@pytest.mark.parametrize("case", ["foundation", "face-up", "draw"])
def test_timed_race_tie_breaks_when_the_time_is_up(case):
    async def go() -> None:
        # an hour's race whose clock the test runs out once the moves are made: the result
        # never depends on how fast a loaded machine plays them
        server, table, _link = await open_table(TIMED_SEED, settings=Settings("klondike", dict(OPTIONS), "timed", 3600))
        ann, bob, cid = await seat(server, table, "ann", "bob", "cid")
        starts = await start([ann, bob, cid])
        assert starts[0]["settings"]["race"] == "timed" and 3500 < starts[0]["seconds_left"] <= 3600
        if case == "foundation":
            await play(bob, first_home())
            await play(cid, [tableau_flip_move()])
        elif case == "face-up":
            await play(bob, [tableau_flip_move()])
            await play(cid, ["draw"])
        table.clock.cancel()
        table._time_up()  # what the race's timer calls when the hour is over
        end = await ann.wait("end")
        assert end["reason"] == "time"
        if case == "draw":
            assert end["draw"] is True and end["winners"] == [0, 1, 2]
            assert [t["result"] for t in end["tables"]] == ["drawn"] * 3
        else:
            assert end["draw"] is False and end["winners"] == [1]
            assert [t["result"] for t in end["tables"]] == ["lost", "won", "lost"]
        for c in (ann, bob, cid):
            assert_no_leaks(c)
        await server.close()
    run(go())


def test_a_timed_race_ends_by_itself():
    async def go() -> None:
        server, table, _link = await open_table(TIMED_SEED, settings=Settings("klondike", dict(OPTIONS), "timed", 1))
        ann, bob = await seat(server, table, "ann", "bob")
        await start([ann, bob])
        end = await ann.wait("end", timeout=30)  # the timer fires however loaded the machine is
        assert (end["reason"], end["draw"], end["winners"]) == ("time", True, [0, 1])
        assert table.clock is None and table.state == "ended"
        await server.close()
    run(go())


def test_timed_race_won_outright_before_time():
    async def go() -> None:
        server, table, _link = await open_table(settings=Settings("klondike", dict(OPTIONS), "timed", 60))
        ann, bob = await seat(server, table, "ann", "bob")
        await start([ann, bob])
        await play(bob, SOLUTION)
        end = await ann.wait("end")
        assert (end["reason"], end["winners"]) == ("won", [1])
        assert table.clock is None
        await server.close()
    run(go())


def test_a_join_subprocess_races_a_whole_race():
    async def go() -> None:
        server, table, link = await open_table()
        (ann,) = await seat(server, table, "ann")
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "solitaire.cli.main", "race", "join", link, "--name", "bot", "--json",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        lines: list[dict[str, Any]] = []
        stdin, stdout, stderr = proc.stdin, proc.stdout, proc.stderr
        assert stdin is not None and stdout is not None and stderr is not None  # all three are pipes

        async def line() -> dict[str, Any]:
            raw = await asyncio.wait_for(stdout.readline(), 15)
            assert raw, (await stderr.read()).decode()
            lines.append(json.loads(raw))
            return lines[-1]

        async def until(pred) -> dict[str, Any]:
            while True:
                obj = await line()
                if pred(obj):
                    return obj

        async def say(text: str) -> None:
            stdin.write(text.encode() + b"\n")
            await stdin.drain()

        welcome = await line()
        assert welcome["event"] == "welcome" and welcome["role"] == "player" and welcome["seat"] == 1
        await say("ready")
        assert (await until(lambda o: "ok" in o)) == {"ok": True, "error": None, "command": "ready"}
        await ann.send("start")
        started = await until(lambda o: o.get("event") == "start")
        check_position(started["own"]["position"])
        await say("draw")
        reply = await until(lambda o: "ok" in o)
        assert reply["ok"] and reply["moves"] == 1 and set(reply) == {
            "ok", "error", "position", "score", "moves", "won", "over"}
        check_position(reply["position"])
        await say("undo")
        assert (await until(lambda o: "ok" in o))["error"] == "no undo in a race"
        await say("offer-draw")
        await ann.wait("offer", seat=1)
        await ann.send("decline-draw")
        cancelled = await until(lambda o: o.get("event") == "offer-cancelled")
        assert cancelled["reason"] == "declined"
        await say("resign")
        end = await until(lambda o: o.get("event") == "end")
        assert end["reason"] == "last-left" and end["winners"] == [0]
        await say("quit")
        assert await asyncio.wait_for(proc.wait(), 15) == 0
        fake = RaceClient.__new__(RaceClient)
        fake.messages = [{"type": o.get("event", "reply"), **o} for o in lines if "event" in o or "position" in o]
        assert_no_leaks(fake)
        await server.close()
    run(go())


# --------------------------------------------------------------------------- hostile input


def test_malformed_messages_are_refused_and_the_connection_goes_on():
    async def go() -> None:
        server, table, _link = await open_table()
        _ann, bob = await seat(server, table, "ann", "bob")
        cases: list[tuple[str | bytes, str]] = [
            ("{not json", "bad-json"), ("[1, 2]", "bad-message"), ('{"type": "ready"}', "bad-version"),
            ('{"v": 1, "type": "teleport"}', "unknown-type"), (b"\x00\x01", "bad-json")]
        for raw, code in cases:
            await bob.ws.send(raw)
            assert (await bob.wait("error"))["code"] == code
        await bob.send("hello", token="x")
        assert (await bob.wait("error"))["code"] == "already-joined"
        await bob.send("ready")
        assert (await bob.wait("ack"))["re"] == "ready"
        await server.close()
    run(go())


def test_oversized_message_disconnects_only_its_sender():
    async def go() -> None:
        server, table, _link = await open_table()
        ann, bob = await seat(server, table, "ann", "bob")
        await bob.send("move", move="x" * 10_000)
        assert bob._reader is not None
        await asyncio.wait_for(bob._reader, 5)
        assert bob.ws.close_code == 1009  # message too big
        await ann.send("state")
        assert (await ann.wait("ack"))["re"] == "state"
        await server.close()
    run(go())


def test_wrong_token_wrong_table_and_no_hello_are_refused():
    async def go() -> None:
        server, table, link = await open_table()
        _host, port, table_id, token = parse_link(link)
        with pytest.raises(RaceError, match="no table here has that token"):
            await RaceClient.join(link.replace(token, "guess" + token[5:]), "eve")
        with pytest.raises(RaceError, match="no table here has that token"):
            await RaceClient.join(link.replace(table_id, "nothere"), "eve")
        with pytest.raises(RaceError, match="no seat at this table has that seat token"):
            await RaceClient.join(link, "eve", seat_token="stolen")
        async with connect(f"ws://127.0.0.1:{port}/{table_id}", proxy=None) as ws:
            await ws.send('{"v": 1, "type": "ready"}')
            refusal = json.loads(await ws.recv())
            assert refusal["code"] == "no-hello"
        assert table.players == []
        await server.close()
    run(go())


def test_moves_for_another_seat_and_from_spectators_are_refused():
    async def go() -> None:
        server, table, _link = await open_table()
        ann, bob, cid, dan, eve = await seat(server, table, "ann", "bob", "cid", "dan", "eve")
        assert eve.welcome["role"] == "spectator"
        await start([ann, bob, cid, dan])
        await bob.send("move", move="draw", seat=0)
        refusal = await bob.wait("error")
        assert refusal["code"] == "not-your-seat"
        await eve.send("move", move="draw")
        assert (await eve.wait("error"))["code"] == "spectator"
        await ann.send("state")
        assert (await ann.wait("ack", re="state"))["own"]["moves"] == 0  # nothing was played for ann
        await server.close()
    run(go())


def test_a_flood_disconnects_only_the_flooder():
    async def go() -> None:
        server, table, _link = await open_table(rate=5, burst=10)
        ann, bob = await seat(server, table, "ann", "bob")
        for _ in range(30):
            await bob.send("state")
        flood = await bob.wait("error", code="flood")
        assert "too many messages" in flood["error"]
        assert bob._reader is not None
        await asyncio.wait_for(bob._reader, 5)
        assert bob.ws.close_code == 1008 and "flood" in server.kills
        await ann.send("state")
        assert (await ann.wait("ack"))["re"] == "state"
        await server.close()
    run(go())


async def mole(server, link: str, name: str = "mole"):
    """A client that says hello and then never reads a byte: its transport is paused, so
    nothing sent to it is read and no ping of the server's is answered."""
    _host, port, table_id, token = parse_link(link)
    ws = await connect(f"ws://127.0.0.1:{port}/{table_id}", proxy=None, compression=None)
    await ws.send(json.dumps({"v": 1, "type": "hello", "token": token, "name": name}))
    json.loads(await ws.recv())  # the welcome
    ws.transport.pause_reading()
    return ws


def test_a_client_that_never_reads_is_cut_off_after_max_behind_messages_and_nobody_waits():
    async def go() -> None:
        server, table, link = await open_table(rate=10_000, burst=2_000, max_behind=64)
        ann, bob = await seat(server, table, "ann", "bob")
        await start([ann, bob])
        ws = await mole(server, link)
        asked = 0
        while "slow" not in server.kills and asked < 1_000:  # asks and asks, never reads a reply
            await ws.send('{"v":1,"type":"state"}')
            asked += 1
            if asked % 10 == 0:
                await ann.send("move", move="draw")
                assert (await ann.wait("reply"))["ok"]  # the others play on meanwhile
        assert server.kills["slow"] == 1
        sent = asked + asked // 10 + 2  # its answers, ann's progress, and the welcome and table
        assert 64 <= sent <= 64 + 16  # cut off once 64 behind (give or take a ping): not thousands later
        assert len(table.spectators) == 0
        await bob.send("state")
        assert (await bob.wait("ack"))["re"] == "state"
        ws.transport.abort()
        await server.close()
    run(go())


def test_nothing_a_player_sends_after_being_cut_off_counts():
    async def go() -> None:
        server, table, link = await open_table(rate=10_000, burst=2_000, max_behind=8, close_timeout=0.5)
        ann = (await seat(server, table, "ann"))[0]
        ws = await mole(server, link, "bob")  # seated, never reads
        for _ in range(20):
            await ws.send('{"v":1,"type":"state"}')
        await ann.wait("disconnected", seat=1)  # cut off
        for _ in range(5):
            await ws.send('{"v":1,"type":"ready"}')  # still arriving while the socket closes
        for _ in range(100_000):
            if len(server.connections) == 1:  # its handler has read all it will ever read
                break
            await asyncio.sleep(0)
        assert len(server.connections) == 1 and server.kills == {"slow": 1}
        assert table.players[1].ready is False
        ws.transport.abort()
        await server.close()
    run(go())


def test_a_client_that_reads_every_message_is_never_behind():
    async def go() -> None:
        server, table, _link = await open_table(rate=10_000, burst=2_000, max_behind=64)
        ann, bob = await seat(server, table, "ann", "bob")
        await start([ann, bob])
        for _ in range(300):  # 900 messages to the two of them, far more than 64
            await bob.send("move", move="draw")
            await bob.wait("reply")
        await ann.wait("progress", seat=1, moves=300)
        assert not server.kills
        await server.close()
    run(go())


# --------------------------------------------------------------------------- offers, resigning, connections, spectators


def test_draw_offer_accepted_by_everyone_still_racing():
    async def go() -> None:
        server, table, _link = await open_table()
        ann, bob, cid = await seat(server, table, "ann", "bob", "cid")
        await start([ann, bob, cid])
        await cid.send("resign")  # out: the offer needs only those still racing
        await ann.wait("resigned", seat=2)
        await bob.send("offer-draw")
        await ann.wait("offer", seat=1)
        await ann.send("accept-draw")
        end = await bob.wait("end")
        assert (end["reason"], end["draw"], end["winners"]) == ("draw-agreed", True, [0, 1])
        assert [t["result"] for t in end["tables"]] == ["drawn", "drawn", "lost"]
        await server.close()
    run(go())


@pytest.mark.parametrize("how", ["refusal", "move"])
def test_draw_offer_cancelled(how):
    async def go() -> None:
        server, table, _link = await open_table()
        ann, bob, cid = await seat(server, table, "ann", "bob", "cid")
        await start([ann, bob, cid])
        await ann.send("offer-draw")
        await bob.wait("offer", seat=0)
        await bob.send("accept-draw")
        await cid.wait("offer-accepted", seat=1)
        if how == "refusal":
            await cid.send("decline-draw")
        else:
            await cid.send("move", move="draw")
        cancelled = await ann.wait("offer-cancelled")
        assert cancelled["reason"] == ("declined" if how == "refusal" else "move") and cancelled["seat"] == 2
        await bob.send("accept-draw")
        assert (await bob.wait("error"))["code"] == "no-offer"
        assert table.state == "racing"
        await server.close()
    run(go())


def test_resign_down_to_the_last_player():
    async def go() -> None:
        server, table, _link = await open_table()
        ann, bob, cid = await seat(server, table, "ann", "bob", "cid")
        await start([ann, bob, cid])
        await ann.send("resign")
        await cid.wait("resigned", seat=0)
        await ann.send("move", move="draw")
        assert (await ann.wait("error"))["code"] == "not-racing"
        await play(bob, ["draw"])  # the others race on
        await bob.send("resign")
        end = await ann.wait("end")
        assert (end["reason"], end["winners"]) == ("last-left", [2])
        assert [t["result"] for t in end["tables"]] == ["lost", "lost", "won"]
        await server.close()
    run(go())


def test_a_lost_connection_comes_back_within_the_window():
    async def go() -> None:
        server, table, link = await open_table(reconnect_window=5)
        ann, bob = await seat(server, table, "ann", "bob")
        await start([ann, bob])
        before = await play(bob, SOLUTION[:5])
        token = bob.seat_token
        bob.ws.transport.abort()  # a crash, no goodbye
        gone = await ann.wait("disconnected", seat=1)
        assert gone["seconds"] == 5
        back = await RaceClient.join(link, "bob", seat_token=token)
        assert back.welcome["resumed"] is True and back.welcome["seat"] == 1
        assert back.welcome["own"]["position"] == before["position"]
        await ann.wait("reconnected", seat=1)
        await play(back, SOLUTION[5:])
        end = await ann.wait("end")
        assert end["winners"] == [1]
        assert_no_leaks(back)
        await server.close()
    run(go())


def test_a_lost_connection_past_the_window_resigns():
    async def go() -> None:
        server, table, link = await open_table(reconnect_window=0.3)
        ann, bob = await seat(server, table, "ann", "bob")
        await start([ann, bob])
        token = bob.seat_token
        bob.ws.transport.abort()
        resigned = await ann.wait("resigned", seat=1)
        assert resigned["reason"] == "left"
        end = await ann.wait("end")
        assert (end["reason"], end["winners"]) == ("last-left", [0])
        with pytest.raises(RaceError, match="seat token"):
            await RaceClient.join(link, "bob", seat_token=token)
        await server.close()
    run(go())


def test_one_who_comes_back_after_the_race_ended_is_told_how_it_ended():
    async def go() -> None:
        server, table, link = await open_table(reconnect_window=5)
        ann, bob = await seat(server, table, "ann", "bob")
        await start([ann, bob])
        token = bob.seat_token
        bob.ws.transport.abort()
        await ann.wait("disconnected", seat=1)
        await ann.send("resign")  # bob, still within his window, is the last one racing
        end = await ann.wait("end")
        back = await RaceClient.join(link, "bob", seat_token=token)
        assert back.welcome["resumed"] is True and back.welcome["state"] == "ended"
        again = await back.wait("end")
        assert (again["reason"], again["winners"]) == (end["reason"], end["winners"]) == ("last-left", [1])
        assert again["tables"] == end["tables"]
        await server.close()
    run(go())


def test_spectators_watch_counts_only_and_see_every_table_at_the_end():
    async def go() -> None:
        server, table, link = await open_table()
        ann, bob, cid, dan, eve = await seat(server, table, "ann", "bob", "cid", "dan", "eve")
        assert eve.welcome["role"] == "spectator" and eve.welcome["seat_token"] is None
        await start([ann, bob, cid, dan])
        late = await RaceClient.join(link, "fay")
        assert late.welcome["role"] == "spectator" and late.welcome["state"] == "racing"
        await eve.wait("start")
        await play(bob, SOLUTION[:8])
        seen = await late.wait("progress", seat=1, moves=8)
        assert set(seen) >= {"home", "left", "hidden", "moves"}
        await late.send("resign")
        assert (await late.wait("error"))["code"] == "spectator"
        await play(bob, SOLUTION[8:])
        end = await late.wait("end")
        assert len(end["tables"]) == 4 and all(t["position"] for t in end["tables"])
        for c in (eve, late, ann):
            assert_no_leaks(c)
        await server.close()
    run(go())


# --------------------------------------------------------------------------- again, settings


def test_again_rotates_the_seats_and_keeps_the_score():
    async def go() -> None:
        server, table, _link = await open_table()
        ann, bob, cid = await seat(server, table, "ann", "bob", "cid")
        await start([ann, bob, cid])
        await play(bob, SOLUTION)
        await ann.wait("end")
        await bob.send("again")
        assert (await bob.wait("error"))["code"] == "not-host"
        await ann.send("again")
        starts = [await c.wait("start") for c in (ann, bob, cid)]
        assert [s["seat"] for s in starts] == [1, 2, 0]  # each moved one seat along
        assert starts[0]["race"] == 2
        assert [p["name"] for p in starts[0]["players"]] == ["cid", "ann", "bob"]
        await play(ann, SOLUTION)
        end = await cid.wait("end")
        assert end["winners"] == [1]
        assert {s["name"]: (s["wins"], s["losses"]) for s in end["score"]} == {
            "ann": (1, 1), "bob": (1, 1), "cid": (0, 2)}
        for c in (ann, bob, cid):
            assert_no_leaks(c)
        await server.close()
    run(go())


def test_change_settings_seats_a_newcomer_and_keeps_the_score():
    async def go() -> None:
        server, table, link = await open_table()
        ann, bob = await seat(server, table, "ann", "bob")
        await start([ann, bob])
        await ann.send("settings", race="timed", minutes=10)
        assert (await ann.wait("error"))["code"] == "racing"
        await ann.send("resign")
        await bob.wait("end")
        new = await RaceClient.join(link, "neo")
        assert new.welcome["role"] == "spectator"
        await bob.send("settings", race="timed", minutes=10)
        assert (await bob.wait("error"))["code"] == "not-host"
        bads: list[dict[str, Any]] = [{"minutes": 7, "race": "timed"}, {"options": {"draw": 2}}, {"variant": "nope"},
                                      {"race": "timed", "seconds": 0}]
        for bad in bads:
            await ann.send("settings", **bad)
            assert (await ann.wait("error"))["code"] == "bad-settings"
        await ann.send("settings", race="timed", minutes=10, options={"draw": 3})
        seated = await new.wait("welcome")
        assert seated["role"] == "player" and seated["seat"] == 2 and seated["state"] == "lobby"
        assert seated["settings"]["minutes"] == 10 and seated["settings"]["options"]["draw"] == 3
        assert {s["name"]: s["wins"] for s in seated["score"]} == {"ann": 0, "bob": 1, "neo": 0}
        starts = await start([ann, bob, new])
        assert starts[2]["own"]["position"]["options"]["draw"] == 3 and starts[2]["seconds_left"] > 500
        await server.close()
    run(go())


GREEK = re.compile(r"[\u0370-\u03ff]")


def test_refusals_come_in_the_language_each_hello_names_and_the_code_stays_english():
    """#17: ``lang`` in the hello (a language shipped, else ignored) is the language of the
    reasons that connection gets; the process's own language is neither used nor changed."""
    from solitaire.core.i18n import language, set_language

    async def hello(port: int, table_id: str, **fields: Any) -> dict[str, Any]:
        async with connect(f"ws://127.0.0.1:{port}/{table_id}", proxy=None) as ws:
            await ws.send(json.dumps({"v": 1, "type": "hello", "name": "eve", **fields}))
            answer: dict[str, Any] = json.loads(await ws.recv())
            return answer

    async def go() -> None:
        server, table, link = await open_table()
        _host, port, table_id, token = parse_link(link)
        host = await RaceClient.join(link, "ann", host_key=table.host_key, lang="el")
        greek = await RaceClient.join(link, "bob", lang="el")
        other = await RaceClient.join(link, "cid", lang="xx-YY")  # not shipped: English
        await host.send("again")  # in the lobby: refused, in Greek
        refused = await host.wait("error", re="again")
        assert refused["code"] == "not-ended" and GREEK.search(refused["error"]), refused
        for friend in (greek, other):
            await friend.send("ready")
            await friend.wait("ack", re="ready")
        await host.send("start")
        for c in (host, greek, other):
            await c.wait("start")
        replies = {}
        for c in (greek, other):
            await c.send("move", move="t1 t2")  # refused by the rules
            replies[c] = await c.wait("reply")
        assert not replies[greek]["ok"] and not replies[other]["ok"]
        assert GREEK.search(replies[greek]["error"]), replies[greek]["error"]
        assert not GREEK.search(replies[other]["error"]) and replies[other]["error"].isascii()
        refusals = {}
        for c in (greek, other):
            await c.send("ready")  # not in the lobby: refused by the table
            refusals[c] = await c.wait("error", re="ready")
        assert refusals[greek]["code"] == refusals[other]["code"] == "not-lobby"
        assert refusals[other]["error"] == "ready is for the lobby, before the start"
        assert GREEK.search(refusals[greek]["error"]) and refusals[greek]["error"] != refusals[other]["error"]
        # a bad seat token, in Greek, in English for an unknown language or none at all
        bad = {lang: await hello(port, table_id, token=token, seat_token="stolen", **({"lang": lang} if lang else {}))
               for lang in ("el", "xx", None)}
        assert {m["code"] for m in bad.values()} == {"bad-seat-token"}
        assert GREEK.search(bad["el"]["error"])
        assert bad["xx"]["error"] == bad[None]["error"] and bad[None]["error"].startswith("no seat at this table")
        wrong = await hello(port, table_id, token="guess", lang=["el"])  # not a code: ignored
        assert wrong["code"] == "bad-token" and wrong["error"] == "no table here has that token: check the link"
        for c in (host, greek, other):
            await c.close()
        await server.close()

    set_language("uk")  # the process speaks Ukrainian: no connection is answered in it
    try:
        run(go())
        assert language() == "uk"
    finally:
        set_language()


def test_a_player_who_says_leave_is_told_left_and_a_dropped_one_lost():
    async def go() -> None:
        server, table, _link = await open_table()
        ann, bob, cid = await seat(server, table, "ann", "bob", "cid")
        await bob.leave()  # quit on purpose: "leave", then the close
        gone = await ann.wait("disconnected", seat=1)
        assert (gone["name"], gone["reason"]) == ("bob", "left")
        cid.ws.transport.abort()  # the network drops: no word first
        dropped = await ann.wait("disconnected", seat=2)
        assert dropped["name"] == "cid" and "reason" not in dropped
        await ann.close()
        await server.close()
    run(go())
