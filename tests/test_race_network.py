"""The race server on a network: a client or a host's own output that stalls nobody, bounded
input, limits per connection and per address, seat tokens, TLS, and where ``race host``
listens. Loopback only (127.0.0.1); fake clocks for rates and timeouts."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import connect

from solitaire.cli.race.client import RaceClient, RaceError
from solitaire.cli.race.messages import CLIENT_TYPES, BadMessage, decode, parse_link
from solitaire.cli.race.server import RaceServer, Settings

OPTIONS = {"draw": 1}
WIN_SEED = 1298
F_SETPIPE_SZ = 1031  # Linux: set a pipe's capacity


def run(coro, timeout: float = 60):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def open_table(**server_kw):
    server = RaceServer(allow_seconds=True, **server_kw)
    await server.start()
    server.deal_seed = lambda _settings: WIN_SEED
    table = server.open_table(Settings("klondike", dict(OPTIONS)))
    return server, table, server.link(table)


def read_line(fd: int) -> dict:
    """One line from a pipe, a byte at a time (nothing after it is read)."""
    data = b""
    while not data.endswith(b"\n"):
        byte = os.read(fd, 1)
        assert byte, f"the pipe closed after {data!r}"
        data += byte
    return json.loads(data)


async def host_process(*args: str):
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


def test_a_host_whose_output_is_never_read_stalls_nobody():
    """The host's bridge runs in the table's own event loop: its stdout, once nobody reads it,
    must not stop the table. The host is cut off like any client that falls behind; the
    friends play on, every move answered; the table closes when the host's input ends, saying why."""
    async def go():
        proc, out, opened = await host_process()
        fcntl.fcntl(out, F_SETPIPE_SZ, 4096)  # a one-page pipe: some 40 lines fill it
        assert read_line(out)["event"] == "welcome"
        friends = [await RaceClient.join(opened["link"], name) for name in ("bob", "cid", "dan")]
        for friend in friends:
            await friend.send("ready")
            await friend.wait("ack", re="ready")
        proc.stdin.write(b"start\n")
        await proc.stdin.drain()
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
        proc.stdin.close()
        assert await asyncio.wait_for(proc.wait(), 30) == 0
        with pytest.raises(ConnectionError):
            await friends[0].wait("never", timeout=10)
        assert friends[0].ws.close_code == 1001
        assert friends[0].ws.close_reason.startswith(
            "the host (ann) was cut off (slow: more than 256 messages unread)")
        os.close(out)
    run(go(), 120)


# --------------------------------------------------------------------------- bounded input


async def raw_socket(server, table_id: str):
    return await connect(f"ws://127.0.0.1:{server.port}/{table_id}", proxy=None, compression=None)


DEEP = "[" * 2000 + "]" * 2000  # 4,000 bytes: under the size limit, far over any sane depth
HOSTILE = [DEEP, '{"v": 1, "type": "hello", "token": "\\ud800", "name": "eve"}',
           '{"v": 1, "type": "hello", "token": "x", "name": 1' + "0" * 3000 + "}",
           '{"v": 1, "type": "hello", "token": "x", "name": 1e999}',
           '{"v": 1, "type": "hello", "token": "x", "name": NaN}']


@pytest.mark.parametrize("raw", HOSTILE, ids=["deep", "surrogate", "long-number", "huge-float", "nan"])
def test_hostile_json_before_the_hello_is_bad_json_not_a_crash(raw):
    async def go():
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


def test_hostile_json_after_the_hello_is_refused_and_the_connection_goes_on():
    async def go():
        server, table, link = await open_table()
        bob = await RaceClient.join(link, "bob")
        for raw in HOSTILE + ['{"v": 1, "type": "ready", "id": "\\udfff"}', '{"v": 1, "type": "ready", "seat": [[[[[0]]]]]}']:
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
def test_decode_answers_anything_with_a_message_or_a_refusal(raw):
    try:
        msg = decode(raw)
    except BadMessage as exc:
        assert exc.code in {"bad-json", "bad-message", "bad-version", "unknown-type"} and str(exc)
        return
    assert isinstance(msg, dict) and msg["type"] in CLIENT_TYPES
    json.dumps(msg, allow_nan=False).encode("utf-8")  # whatever is accepted can be echoed as it is
