"""Two hosts: two network namespaces joined by a virtual cable (a veth pair), the host's
``race host --json`` in one, the guest's ``race join --json`` in the other, racing a whole
race through the link to a win: the host deals a deal with a known won line
(tests/data/won/klondike.txt, by the tests-only ``--deal-seed``), the guest plays the line, and
both see the race end with the guest's win. Needs root and ``ip``; skipped with the reason where namespaces cannot
be made. Only the addresses 10.231.0.1 and 10.231.0.2, inside the namespaces made here."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from solitaire.cli.race.messages import parse_link

HOST_ADDRESS, GUEST_ADDRESS = "10.231.0.1", "10.231.0.2"


def won_klondike() -> tuple[int, list[str]]:
    """Klondike's won deal (draw 1, its default): ``seed N``, then one move a line."""
    lines = (Path(__file__).parent / "data" / "won" / "klondike.txt").read_text().splitlines()
    lines = [ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")]
    assert lines[0].startswith("seed ")
    return int(lines[0].split()[1]), lines[1:]


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=30)


@contextmanager
def two_namespaces() -> Iterator[tuple[str, str]]:
    if shutil.which("ip") is None:
        pytest.skip("no 'ip' command (iproute2) to make network namespaces")
    if os.geteuid() != 0:
        pytest.skip("making network namespaces needs root")
    host, guest = f"sol-race-{os.getpid()}-h", f"sol-race-{os.getpid()}-g"
    made: list[str] = []
    try:
        try:
            for ns in (host, guest):
                ip("netns", "add", ns)
                made.append(ns)
            ip("link", "add", f"vh{os.getpid()}", "type", "veth", "peer", "name", f"vg{os.getpid()}")
        except subprocess.CalledProcessError as exc:
            pytest.skip(f"cannot make network namespaces here: {exc.stderr.decode().strip() or exc}")
        for ns, end, address in ((host, f"vh{os.getpid()}", HOST_ADDRESS), (guest, f"vg{os.getpid()}", GUEST_ADDRESS)):
            ip("link", "set", end, "netns", ns)
            ip("-n", ns, "addr", "add", f"{address}/24", "dev", end)
            ip("-n", ns, "link", "set", end, "up")
            ip("-n", ns, "link", "set", "lo", "up")
        yield host, guest
    finally:
        for ns in made:  # the veth pair goes with its namespaces
            subprocess.run(["ip", "netns", "delete", ns], capture_output=True, timeout=30)


async def start(ns: str, *args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        "ip", "netns", "exec", ns, sys.executable, "-m", "solitaire.cli.main", "race", *args, "--json",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


class Lines:
    """A --json process's lines, and the commands sent to it."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    async def until(self, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        for _ in range(5_000):  # bounded in lines, not in time
            assert self.proc.stdout is not None and self.proc.stderr is not None
            raw = await asyncio.wait_for(self.proc.stdout.readline(), 60)
            assert raw, (await self.proc.stderr.read()).decode()
            line: dict[str, Any] = json.loads(raw)
            if check(line):
                return line
        raise AssertionError("never came")

    async def say(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text.encode() + b"\n")
        await self.proc.stdin.drain()


def test_a_whole_race_to_a_win_between_two_network_namespaces() -> None:
    seed, line = won_klondike()
    with two_namespaces() as (host_ns, guest_ns):
        async def go() -> None:
            host = Lines(await start(host_ns, "host", "--bind", HOST_ADDRESS, "--draw", "1", "--name", "ann",
                                     "--deal-seed", str(seed)))
            guest_proc = None
            try:
                opened = await host.until(lambda o: o.get("event") == "opened")
                assert parse_link(opened["link"])[:2] == (HOST_ADDRESS, opened["port"])
                guest_proc = await start(guest_ns, "join", opened["link"], "--name", "bob")
                guest = Lines(guest_proc)
                welcome = await guest.until(lambda o: o.get("event") == "welcome")
                assert (welcome["role"], welcome["seat"]) == ("player", 1)
                await guest.say("ready")
                await guest.until(lambda o: o.get("command") == "ready")
                await host.until(lambda o: o.get("event") == "table" and o["players"][-1]["ready"])
                await host.say("start")
                await guest.until(lambda o: o.get("event") == "start")
                reply: dict[str, Any] = {}
                for move in line:  # one at a time: each reply before the next move
                    await guest.say(move)
                    reply = await guest.until(lambda o: "position" in o and "ok" in o)
                    assert reply["ok"], (move, reply)
                assert reply["won"] is True
                for side in (guest, host):  # both see the race end, won by the guest (seat 1)
                    end = await side.until(lambda o: o.get("event") == "end")
                    assert (end["reason"], end["winners"]) == ("won", [1]), end
                await guest.say("quit")
                assert await asyncio.wait_for(guest_proc.wait(), 60) == 0
                await host.say("quit")
                assert await asyncio.wait_for(host.proc.wait(), 60) == 0
            finally:
                for proc in (host.proc, guest_proc):
                    if proc is not None and proc.returncode is None:
                        proc.kill()
                        await proc.wait()

        asyncio.run(asyncio.wait_for(go(), 300))
