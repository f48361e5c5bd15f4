"""The race server on a network: a client or a host's own output that stalls nobody, bounded
input, limits per connection and per address, seat tokens, TLS, and where ``race host``
listens. Loopback only (127.0.0.1); fake clocks for rates and timeouts."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import re
import shlex
import shutil
import socket
import ssl
import subprocess
import sys
from asyncio.subprocess import Process
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import ClientConnection, connect

from solitaire.cli.race.client import RaceClient, RaceError
from solitaire.cli.race.messages import CLIENT_TYPES, BadMessage, decode, parse_link
from solitaire.cli.race.server import RaceServer, Settings, Table

OPTIONS = {"draw": 1}
WIN_SEED = 1298
F_SETPIPE_SZ = 1031  # Linux: set a pipe's capacity


def run(coro: Coroutine[Any, Any, None], timeout: float = 60) -> None:
    asyncio.run(asyncio.wait_for(coro, timeout))


async def open_table(**server_kw: Any) -> tuple[RaceServer, Table, str]:
    server = RaceServer(allow_seconds=True, **server_kw)
    await server.start()
    server.deal_seed = lambda _settings: WIN_SEED
    table = server.open_table(Settings("klondike", dict(OPTIONS)))
    return server, table, server.link(table)


def pipe(stream: Any) -> Any:
    """A subprocess's pipe, which the process was started with."""
    assert stream is not None
    return stream


def read_line(fd: int) -> dict[str, Any]:
    """One line from a pipe, a byte at a time (nothing after it is read)."""
    data = b""
    while not data.endswith(b"\n"):
        byte = os.read(fd, 1)
        assert byte, f"the pipe closed after {data!r}"
        data += byte
    line: dict[str, Any] = json.loads(data)
    return line


async def host_process(*args: str) -> tuple[Process, int, dict[str, Any]]:
    """``solitaire race host --json ARGS`` in a subprocess whose stdout is a bare pipe, read
    only when the test says so: returns the process, the pipe's end and the opened line."""
    out, into = os.pipe()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "solitaire.cli.main", "race", "host", "--draw", "1", "--name", "ann", "--json",
        *args, stdin=asyncio.subprocess.PIPE, stdout=into, stderr=asyncio.subprocess.PIPE)
    os.close(into)
    opened = await asyncio.get_running_loop().run_in_executor(None, read_line, out)
    return proc, out, opened


# --------------------------------------------------------------------------- nobody stalls the table


def test_a_host_whose_output_is_never_read_stalls_nobody() -> None:
    """The host's bridge runs in the table's own event loop: its stdout, once nobody reads it,
    must not stop the table. The host is cut off like any client that falls behind; the
    friends play on, every move answered; the table closes when the host's input ends, saying why."""
    async def go() -> None:
        proc, out, opened = await host_process()
        fcntl.fcntl(out, F_SETPIPE_SZ, 4096)  # a one-page pipe: some 40 lines fill it
        assert read_line(out)["event"] == "welcome"
        friends = [await RaceClient.join(opened["link"], name) for name in ("bob", "cid", "dan")]
        for friend in friends:
            await friend.send("ready")
            await friend.wait("ack", re="ready")
        pipe(proc.stdin).write(b"start\n")
        await pipe(proc.stdin).drain()
        for friend in friends:
            await friend.wait("start", timeout=30)
        # from here on nobody reads the host's stdout; each friend moves within its burst of 200
        moves = 0
        while not any(m["type"] == "disconnected" and m["seat"] == 0 for m in friends[0].messages):
            friend = friends[moves % 3]
            await friend.send("move", move="draw")
            assert (await friend.wait("reply", timeout=10))["moves"] == moves // 3 + 1
            moves += 1
            assert moves < 3 * 180, "the host was never cut off"
        assert moves > 256  # it fell behind by more than 256 messages first
        for friend in friends:  # and the friends race on
            await friend.send("move", move="draw")
            assert (await friend.wait("reply", timeout=10))["ok"]
        pipe(proc.stdin).close()
        assert await asyncio.wait_for(proc.wait(), 30) == 0
        with pytest.raises(ConnectionError):
            await friends[0].wait("never", timeout=10)
        assert friends[0].ws.close_code == 1001
        assert (friends[0].ws.close_reason or "").startswith(
            "the host (ann) was cut off (slow: more than 256 messages unread)")
        os.close(out)
    run(go(), 120)


# --------------------------------------------------------------------------- bounded input


async def raw_socket(server: RaceServer, table_id: str) -> ClientConnection:
    return await connect(f"ws://127.0.0.1:{server.port}/{table_id}", proxy=None, compression=None)


DEEP = "[" * 2000 + "]" * 2000  # 4,000 bytes: under the size limit, far over any sane depth
HOSTILE = [DEEP, '{"v": 1, "type": "hello", "token": "\\ud800", "name": "eve"}',
           '{"v": 1, "type": "hello", "token": "x", "name": 1' + "0" * 3000 + "}",
           '{"v": 1, "type": "hello", "token": "x", "name": 1e999}',
           '{"v": 1, "type": "hello", "token": "x", "name": NaN}']


@pytest.mark.parametrize("raw", HOSTILE, ids=["deep", "surrogate", "long-number", "huge-float", "nan"])
def test_hostile_json_before_the_hello_is_bad_json_not_a_crash(raw: str) -> None:
    async def go() -> None:
        server, table, link = await open_table()
        ws = await raw_socket(server, table.id)
        await ws.send(raw)
        refusal = json.loads(await ws.recv())
        assert (refusal["type"], refusal["code"]) == ("error", "bad-json")
        await ws.wait_closed()
        assert ws.close_code == 1008  # refused like any first message that is not a hello
        bob = await RaceClient.join(link, "bob")  # the server is fine
        assert bob.welcome["role"] == "player"
        await server.close()
    run(go())


def test_hostile_json_after_the_hello_is_refused_and_the_connection_goes_on() -> None:
    async def go() -> None:
        server, _table, link = await open_table()
        bob = await RaceClient.join(link, "bob")
        late = ['{"v": 1, "type": "ready", "id": "\\udfff"}', '{"v": 1, "type": "ready", "seat": [[[[[0]]]]]}']
        for raw in [*HOSTILE, *late]:
            await bob.ws.send(raw)
            assert (await bob.wait("error"))["code"] == "bad-json"
        await bob.send("ready", id=7)
        ack = await bob.wait("ack")
        assert (ack["re"], ack["id"]) == ("ready", 7)
        await server.close()
    run(go())


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=300), json_values.map(lambda v: json.dumps({"v": 1, "type": "move", "move": v})),
                 json_values.map(json.dumps)))
def test_decode_answers_anything_with_a_message_or_a_refusal(raw: str) -> None:
    try:
        msg = decode(raw)
    except BadMessage as exc:
        assert exc.code in {"bad-json", "bad-message", "bad-version", "unknown-type"} and str(exc)
        return
    assert isinstance(msg, dict) and msg["type"] in CLIENT_TYPES
    json.dumps(msg, allow_nan=False).encode("utf-8")  # whatever is accepted can be echoed as it is


# --------------------------------------------------------------------------- on a network: limits, seat tokens


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def hello(ws: ClientConnection, token: str, name: str = "x") -> dict[str, Any]:
    await ws.send(json.dumps({"v": 1, "type": "hello", "token": token, "name": name}))
    answer: dict[str, Any] = json.loads(await ws.recv())
    return answer


def test_a_connection_that_never_says_hello_is_dropped_by_the_clock() -> None:
    async def go() -> None:
        clock = FakeClock()
        server, table, link = await open_table(clock=clock, hello_timeout=10)
        token = parse_link(link)[3]
        silent, talker = await raw_socket(server, table.id), await raw_socket(server, table.id)
        await hello(talker, token)
        clock.now += 9.9
        server.sweep()
        assert not server.kills
        clock.now += 0.1
        server.sweep()
        refusal = json.loads(await silent.recv())
        assert (refusal["code"], refusal["re"]) == ("no-hello", "hello") and "10 seconds" in refusal["error"]
        await silent.wait_closed()
        assert silent.close_code == 1008 and server.kills == {"no-hello": 1}
        await talker.send('{"v": 1, "type": "state"}')  # one who said hello stays, however long after
        assert json.loads(await talker.recv())["type"] in ("table", "ack")
        await server.close()
    run(go())


def test_the_message_rate_is_timed_by_the_clock_and_honest_players_never_hit_it() -> None:
    async def go() -> None:
        clock = FakeClock()
        server, table, link = await open_table(clock=clock, rate=10, burst=20)
        ann = await RaceClient.join(link, "ann", host_key=table.host_key)
        bob = await RaceClient.join(link, "bob")
        for _ in range(300):  # ten a second, by the clock, for 30 seconds
            clock.now += 0.1
            await bob.send("state")
            await bob.wait("ack")
        for _ in range(20):  # then a burst of 20, at one instant
            await ann.send("state")
        for _ in range(20):
            await ann.wait("ack")
        assert not server.kills
        await ann.send("state")  # the 21st at that instant
        assert (await ann.wait("error"))["code"] == "flood"
        assert server.kills == {"flood": 1}
        await bob.send("state")
        assert (await bob.wait("ack"))["re"] == "state"
        await server.close()
    run(go())


def test_connections_per_address_are_limited() -> None:
    async def go() -> None:
        server, table, link = await open_table(per_address=3)
        token = parse_link(link)[3]
        first = [await raw_socket(server, table.id) for _ in range(3)]
        for ws in first:
            assert (await hello(ws, token))["type"] == "welcome"
        extra = await raw_socket(server, table.id)
        refusal = json.loads(await extra.recv())
        assert refusal["code"] == "too-many-connections"
        await extra.wait_closed()
        assert extra.close_code == 1008
        await first[0].close()
        await first[0].wait_closed()
        for _ in range(10_000):  # the server's handler sees it go within a few turns of the loop
            if len(server.connections) == 2:
                break
            await asyncio.sleep(0)
        assert len(server.connections) == 2
        again = await raw_socket(server, table.id)
        assert (await hello(again, token))["type"] == "welcome"
        await server.close()
    run(go())


def test_a_seat_token_takes_the_seat_back_once_and_never_from_a_live_connection() -> None:
    async def go() -> None:
        server, table, link = await open_table(probe_timeout=5)
        ann = await RaceClient.join(link, "ann", host_key=table.host_key)
        bob = await RaceClient.join(link, "bob")
        token = bob.seat_token
        with pytest.raises(RaceError, match=r"seat-taken|connected and answering"):
            await RaceClient.join(link, "eve", seat_token=token)  # bob is there and answers
        await bob.send("ready")
        assert (await bob.wait("ack"))["re"] == "ready"  # bob kept his seat
        bob.ws.transport.abort()
        await ann.wait("disconnected", seat=1)
        back = await RaceClient.join(link, "bob", seat_token=token)
        assert back.welcome["resumed"] and back.seat_token != token  # a fresh token, for next time
        back.ws.transport.abort()
        await ann.wait("disconnected", seat=1)
        with pytest.raises(RaceError, match="no seat at this table has that seat token"):
            await RaceClient.join(link, "eve", seat_token=token)  # the old one is used up
        again = await RaceClient.join(link, "bob", seat_token=back.seat_token)
        assert again.welcome["seat"] == 1
        await server.close()
    run(go())


def test_a_seat_token_replaces_a_half_open_connection_that_does_not_answer() -> None:
    async def go() -> None:
        server, table, link = await open_table(probe_timeout=0.5)
        ann = await RaceClient.join(link, "ann", host_key=table.host_key)
        bob = await RaceClient.join(link, "bob")
        before = table.players[1].conn  # the server's side of bob's first connection
        bob.ws.transport.pause_reading()  # as a machine gone from the network: no pong comes back
        back = await RaceClient.join(link, "bob", seat_token=bob.seat_token)
        conn = table.players[1].conn
        assert back.welcome["resumed"] is True and conn is not None and before is not None and conn is not before
        await ann.wait("reconnected", seat=1)
        bob.ws.transport.abort()
        await server.close()
    run(go())


def make_certificate(folder: Path) -> tuple[str, str]:
    cert, key = str(folder / "cert.pem"), str(folder / "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", key, "-out", cert],
                   check=True, capture_output=True)
    return cert, key


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command to make a certificate")
def test_tls_with_a_certificate_and_key(tmp_path: Path) -> None:
    cert, key = make_certificate(tmp_path)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)

    async def go() -> None:
        server, _table, link = await open_table(ssl=context)
        assert link.endswith("&tls=1")
        with pytest.raises(RaceError, match=r"certificate we cannot trust.*--cafile"):
            await RaceClient.join(link, "eve")  # self-signed: not trusted without the host's certificate
        bob = await RaceClient.join(link, "bob", cafile=cert)
        assert bob.welcome["role"] == "player"
        with pytest.raises(RaceError, match=r"did not accept|cannot reach"):
            await RaceClient.join(link.replace("&tls=1", ""), "eve")  # plain ws:// to a wss:// table
        await server.close()
    run(go())


# --------------------------------------------------------------------------- race host on a network


@pytest.mark.parametrize("args,error", [
    (["--port", "70000"], "--port must be a whole number from 0 to 65535, got '70000'"),
    (["--race", "fast"], "--race must be one of finish, timed, got 'fast'"),
    (["--name", "n" * 5000], "--name is at most 24 characters, got 5000"),
    (["--public", "example.org:99999"],
     "--public's port must be a whole number from 1 to 65535, got 'example.org:99999'"),
    (["--public", "example.org/x"], "--public is HOST or HOST:PORT"),
    (["--key", "key.pem"], "--key goes with --cert"),
    (["--cert", "/nonexistent.pem"], "cannot use the certificate /nonexistent.pem"),
    (["--bind", "256.0.0.1"], "cannot open a table on 256.0.0.1 port 0"),
    (["--web", "--web-port", "x"], "--web-port must be a whole number from 0 to 65535, got 'x'"),
])
def test_race_host_refuses_bad_options_in_one_line(cli: Any, args: list[str], error: str) -> None:
    result = cli("race", "host", "--json", *args, input="quit\n")
    assert result.code == 2 and result.out == ""
    assert result.err.startswith(f"solitaire: {error}") and result.err.count("\n") == 1, result.err


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command to make a certificate")
def test_race_host_says_in_words_why_a_certificate_cannot_be_used(cli: Any, tmp_path: Path) -> None:
    cert, _ = make_certificate(tmp_path)
    (tmp_path / "other").mkdir()
    _, other_key = make_certificate(tmp_path / "other")
    text = tmp_path / "notes.txt"
    text.write_text("not a certificate\n")
    cases = [
        (["--cert", str(text)], "it is not a PEM file holding the certificate and its private key"),
        (["--cert", cert], "it is not a PEM file holding the certificate and its private key"),  # no key in it
        (["--cert", cert, "--key", str(text)], "the key file is not a PEM private key"),
        (["--cert", cert, "--key", other_key], "the key does not belong to the certificate"),
    ]
    for args, reason in cases:
        result = cli("race", "host", "--json", *args, input="quit\n")
        assert result.code == 2 and result.out == "", args
        assert result.err.startswith("solitaire: cannot use the certificate ") and reason in result.err, result.err
        assert result.err.count("\n") == 1 and "_ssl.c" not in result.err, result.err


def test_race_join_refuses_a_long_name(cli: Any) -> None:
    result = cli("race", "join", "solitaire://127.0.0.1:9/T?token=x", "--name", "n" * 5000, "--json")
    assert (result.code, result.err) == (2, "solitaire: --name is at most 24 characters, got 5000\n")


def test_race_host_on_loopback_says_how_to_open_the_table(cli: Any) -> None:
    result = cli("race", "host", "--json", input="quit\n")
    assert result.code == 0
    assert result.err == ("solitaire: the table is open to this machine only: --bind 0.0.0.0 opens it to your "
                          "network (docs/race.md: across the internet)\n")
    opened = result.json_lines()[0]
    assert opened["link"].startswith(f"solitaire://127.0.0.1:{opened['port']}/")


def test_race_host_public_names_the_link_and_the_host_still_sits_down(cli: Any) -> None:
    result = cli("race", "host", "--json", "--public", "example.org:9000", input="quit\n")
    opened, welcome = result.json_lines()[:2]
    assert parse_link(opened["link"])[:2] == ("example.org", 9000) and opened["port"] != 9000
    assert welcome["event"] == "welcome" and welcome["host"] is True and result.err == ""


def test_bind_all_names_the_outward_address_unless_public(monkeypatch: pytest.MonkeyPatch) -> None:
    from solitaire.cli.race import client

    monkeypatch.setattr(client, "outward_address", lambda ipv6=False: "2001:db8::7" if ipv6 else "192.0.2.7")
    assert client.Network("0.0.0.0").link_host() == ("192.0.2.7", None)
    assert client.Network("::").link_host() == ("2001:db8::7", None)
    assert client.Network("0.0.0.0", ("example.org", 9000)).link_host() == ("example.org", 9000)
    assert client.Network("127.0.0.1").link_host() is None
    server = RaceServer("0.0.0.0", public=("2001:db8::7", None))
    server.port = 8765
    table = server.open_table()
    assert parse_link(server.link(table))[:2] == ("2001:db8::7", 8765)
    assert server.link(table).startswith("solitaire://[2001:db8::7]:8765/")


def test_outward_address_is_an_address_of_this_machine() -> None:
    from solitaire.cli.race.client import outward_address

    address = outward_address()
    with socket.socket() as sock:
        sock.bind((address, 0))  # only an address of this machine can be bound


def test_a_joiner_is_told_the_host_quit() -> None:
    async def go() -> None:
        out, into = os.pipe()
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "solitaire.cli.main", "race", "host", "--json", "--name", "ann",
            stdin=asyncio.subprocess.PIPE, stdout=into, stderr=asyncio.subprocess.PIPE)
        os.close(into)
        opened = await asyncio.get_running_loop().run_in_executor(None, read_line, out)
        bob = await RaceClient.join(opened["link"], "bob")
        pipe(proc.stdin).write(b"quit\n")
        await pipe(proc.stdin).drain()
        with pytest.raises(ConnectionError):
            await bob.wait("never", timeout=30)
        assert (bob.ws.close_code, bob.ws.close_reason) == (1001, "the host (ann) quit")
        assert await asyncio.wait_for(proc.wait(), 30) == 0
        os.close(out)
    run(go())


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command to make a certificate")
def test_race_host_with_tls_races_a_join_subprocess(tmp_path: Path) -> None:
    cert, key = make_certificate(tmp_path)

    async def go() -> None:
        out, into = os.pipe()
        host = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "solitaire.cli.main", "race", "host", "--json", "--name", "ann", "--cert", cert,
            "--key", key, stdin=asyncio.subprocess.PIPE, stdout=into, stderr=asyncio.subprocess.PIPE)
        os.close(into)
        opened = await asyncio.get_running_loop().run_in_executor(None, read_line, out)
        assert opened["link"].endswith("&tls=1")
        guest = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "solitaire.cli.main", "race", "join", opened["link"], "--name", "bob",
            "--cafile", cert, "--json", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE)
        welcome = json.loads(await asyncio.wait_for(pipe(guest.stdout).readline(), 30))
        assert welcome["event"] == "welcome" and welcome["seat"] == 1, welcome
        pipe(guest.stdin).write(b"ready\n")
        await pipe(guest.stdin).drain()
        while "ok" not in (line := json.loads(await asyncio.wait_for(pipe(guest.stdout).readline(), 30))):
            pass
        assert line == {"ok": True, "error": None, "command": "ready"}
        pipe(guest.stdin).write(b"quit\n")
        await pipe(guest.stdin).drain()
        assert await asyncio.wait_for(guest.wait(), 30) == 0
        pipe(host.stdin).write(b"quit\n")
        await pipe(host.stdin).drain()
        assert await asyncio.wait_for(host.wait(), 30) == 0
        os.close(out)
    run(go())


# --------------------------------------------------------------------------- leaving and coming back


async def join_process(*args: str) -> Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "solitaire.cli.main", "race", "join", *args, "--json",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def first_line_then_quit(proc: Process) -> tuple[dict[str, Any], str]:
    welcome = json.loads(await asyncio.wait_for(pipe(proc.stdout).readline(), 30))
    pipe(proc.stdin).write(b"quit\n")
    await pipe(proc.stdin).drain()
    _out, err = await asyncio.wait_for(proc.communicate(), 30)
    return welcome, err.decode()


def test_leaving_prints_the_command_that_takes_the_seat_back_and_a_new_join_offers_it() -> None:
    async def go() -> None:
        server, table, link = await open_table()
        ann = await RaceClient.join(link, "ann", host_key=table.host_key)
        welcome, err = await first_line_then_quit(await join_process(link, "--name", "bob"))
        assert welcome["seat"] == 1
        command = f"solitaire race join '{link}' --resume {welcome['seat_token']}"
        assert err == f"solitaire: you left seat 1: within 60 s, {command} takes it back\n"
        await ann.wait("disconnected", seat=1)
        # joining again with the link alone: the seat is offered
        _welcome2, err2 = await first_line_then_quit(await join_process(link, "--name", "bob"))
        assert re.fullmatch(rf"solitaire: you left seat 1 here \d+ s ago: add --resume {welcome['seat_token']} "
                            rf"to take it back\n.*", err2, re.S), err2
        # and the printed command takes it back
        args = shlex.split(command)[3:]
        back, _err = await first_line_then_quit(await join_process(*args))
        assert (back["resumed"], back["seat"]) == (True, 1)
        assert [p.name for p in table.players] == ["ann", "bob", "bob"]  # the second join sat apart
        await server.close()
    run(go())


def test_a_seat_is_remembered_for_60_seconds_only() -> None:
    from solitaire.cli.race.client import left_seat, remember_seat

    link = "solitaire://127.0.0.1:9/T?token=x"
    bob = RaceClient.__new__(RaceClient)
    bob.welcome = {"role": "player", "seat": 2, "seat_token": "tok", "host": False}
    assert remember_seat(link, bob, now=1000.0) == f"solitaire race join '{link}' --resume tok"
    assert left_seat(link, now=1059.9) == {"token": "tok", "seat": 2, "left": 1000.0}
    assert left_seat(link, now=1060.0) is None
    assert left_seat(link.replace(":9/", ":10/"), now=1001.0) is None  # another table
    host = RaceClient.__new__(RaceClient)
    host.welcome = {"role": "player", "seat": 0, "seat_token": "h", "host": True}
    watcher = RaceClient.__new__(RaceClient)
    watcher.welcome = {"role": "spectator", "seat": None, "seat_token": None, "host": False}
    assert remember_seat(link, host) is None and remember_seat(link, watcher) is None


def test_the_table_asks_whether_to_take_the_seat_back(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from solitaire.cli.race import commands, ui
    from solitaire.cli.race.client import remember_seat

    link = "solitaire://127.0.0.1:9/T?token=x"
    bob = RaceClient.__new__(RaceClient)
    bob.welcome = {"role": "player", "seat": 1, "seat_token": "tok", "host": False}
    remember_seat(link, bob)
    joined: list[str | None] = []
    offered: list[dict[str, Any] | None] = []
    monkeypatch.setattr(commands, "on_terminal", lambda: True)
    def run_join_ui(link: str, name: str, resume: str | None, cafile: str | None = None,
                    web: str | None = None, comeback: dict[str, Any] | None = None) -> int:
        joined.append(resume)
        offered.append(comeback)
        return 0

    monkeypatch.setattr(ui, "run_join_ui", run_join_ui)
    for answer, resume in [("y\n", "tok"), ("n\n", None), ("\n", "tok")]:
        result = cli("race", "join", link, input=answer)
        assert result.code == 0 and re.match(r"You left seat 1 at this table \d+ s ago\. Take it back\?", result.out)
        assert joined.pop() == resume
    assert offered == [None, None, None]  # a terminal asks before the table starts
    # a browser's session (race host --web) runs with that browser's own home: the seat left
    # there is offered on the table's screen (tests/test_race_ui.py, tests/test_web.py)
    result = cli("race", "join", link, "--web-session", "http://127.0.0.1:9/?token=x", input="y\n")
    assert result.code == 0 and result.out == "" and joined.pop() is None
    back = offered.pop()
    assert back is not None and back["seat"] == 1 and back["token"] == "tok"


def test_the_hosts_lobby_says_how_to_open_a_loopback_table() -> None:
    from solitaire.cli.race.ui import LobbyScreen, RaceApp

    async def go() -> None:
        server, table, link = await open_table()
        host = await RaceClient.join(link, "ann", host_key=table.host_key)
        friend = await RaceClient.join(link, "bob")
        texts = []
        for client in (host, friend):
            app = RaceApp(client, link, tick=False)
            async with app.run_test(size=(120, 30)) as pilot:
                for _ in range(500):  # bounded in turns of the app
                    if isinstance(app.screen, LobbyScreen):
                        break
                    await pilot.pause()
                rendered: Any = app.screen.query_one("#lobby-link").render()  # Text or Content: both have .plain
                texts.append(rendered.plain)
        assert link in texts[0] and "--bind 0.0.0.0 opens it to your network" in texts[0]
        assert link in texts[1] and "--bind" not in texts[1]  # only the host can open it
        await server.close()
    run(go())


def test_a_name_too_long_for_a_hello_is_refused_by_the_client_naming_the_name() -> None:
    async def go() -> None:
        server, table, link = await open_table()
        with pytest.raises(RaceError, match=r"the name is too long \(5000 characters\)"):
            await RaceClient.join(link, "n" * 5000)
        assert not server.connections and not table.players  # nothing was sent
        await server.close()
    run(go())
