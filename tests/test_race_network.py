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
from websockets.asyncio.client import connect

from solitaire.cli.race.client import RaceClient, RaceError
from solitaire.cli.race.messages import parse_link
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
