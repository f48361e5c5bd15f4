"""Load test of the race server: tables of 4 bots on one server, move latency p50/p99, and
the same under hostile clients.

    python benchmarks/bench_race.py [--tables 50] [--moves 100] [--think 0.1]
    python benchmarks/bench_race.py --hostile [--tables 20] [--attackers 4]

The server runs in a child process (one asyncio loop, as ``solitaire race host`` runs it,
with its real limits); the bots run in this process. Each bot joins, readies, and once its
host starts, sends ``--moves`` moves picked at random from a list of notation moves (some
legal, some refused: the server checks each with the kernel either way), waiting a random
0..``--think`` seconds between moves like a quick player. Latency is from sending a move to
receiving its reply. Each table's four bots connect from an address of their own
(127.0.1.T: the whole of 127/8 is this machine), as four friends behind one router would.

With ``--hostile`` the bots play twice, on fresh tables: first alone ("before"), then while
a third process runs ``--attackers`` of each kind of hostile client ("during"), each from
its own loopback address 127.0.2.N and in a loop until the bots are done: floods, frames
over the size limit, malformed and deeply nested JSON, forged seat tokens, connections that
never say hello, clients that never read, and 100 connections at once from one address.
It prints both phases' figures (with ``server_cpu``, the share of a core the server used,
and how late its loop ran a 20 ms timer), what the attackers got and what the server cut
off. The attackers' process runs at the lowest priority (``nice 19``): on a real network their
CPU is their own, not the server's.
Loopback only; everything stops by itself. Not a test: the figures go in docs/race.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import secrets
import statistics
import sys
import time
from collections import Counter
from typing import Any

MOVES = ["draw", "draw", "draw", "w f", "w t1", "w t2", "w t3", "w t4", "w t5", "w t6", "w t7",
         "t1 f", "t2 f", "t3 f", "t4 f", "t5 f", "t6 f", "t7 f", "t7 t1", "t6 t2", "t5 t3", "t4 t1"]
KINDS = ["flood", "oversized", "malformed", "forged-seat", "silent", "mole", "crowd"]


def serve(pipe: Any, limits: dict[str, Any]) -> None:
    from solitaire.cli.race.server import RaceServer, Settings

    async def main() -> None:
        server = RaceServer(**limits)
        await server.start()
        loop = asyncio.get_running_loop()
        lags: list[float] = []

        async def watch() -> None:  # how late the server's loop runs a 20 ms timer
            while True:
                due = loop.time() + 0.02
                await asyncio.sleep(0.02)
                lags.append(loop.time() - due)

        watcher = loop.create_task(watch())
        while True:
            request = await loop.run_in_executor(None, pipe.recv)
            if request == "stop":
                break
            if request == "kills":
                pipe.send(dict(server.kills))
                continue
            if request == "cpu":  # the server's own CPU seconds so far, and its loop's lags since last asked
                pipe.send((time.process_time(), sorted(lags)))
                lags.clear()
                continue
            opened = []
            for _ in range(request):  # a number of tables to open
                table = server.open_table(Settings("klondike", {"draw": 1}))
                opened.append((server.link(table), table.host_key))
            pipe.send(opened)
        watcher.cancel()
        await server.close()

    asyncio.run(main())


async def bot(link: str, name: str, host_key: str | None, friends: int, moves: int, think: float,
              latencies: list[float], rng: random.Random, address: str) -> None:
    from solitaire.cli.race.client import RaceClient

    client = await RaceClient.join(link, name, host_key=host_key, local_addr=(address, 0))
    if host_key is None:
        await client.send("ready")
    else:
        while True:  # the host starts once every friend is seated and ready
            view = await client.wait("table", timeout=60)
            if len(view["players"]) == friends + 1 and all(p["ready"] for p in view["players"][1:]):
                break
        await client.send("start")
    await client.wait("start", timeout=60)
    for _ in range(moves):
        await asyncio.sleep(rng.random() * think)
        sent = time.perf_counter()
        await client.send("move", move=rng.choice(MOVES))
        reply = await client.wait("reply", timeout=60)
        latencies.append(time.perf_counter() - sent)
        if reply.get("won"):
            break
    await client.close()


async def run_bots(opened: list[tuple[str, str]], moves: int, think: float) -> list[float]:
    latencies: list[float] = []
    rng = random.Random(1)
    tasks = []
    for t, (link, host_key) in enumerate(opened):
        address = f"127.0.1.{t % 250 + 1}"
        tasks.append(bot(link, f"host{t}", host_key, 3, moves, think, latencies, random.Random(rng.random()), address))
        for i in range(3):
            tasks.append(bot(link, f"bot{t}-{i}", None, 3, moves, think, latencies, random.Random(rng.random()),
                             address))
    await asyncio.gather(*tasks)
    return latencies


def figures(latencies: list[float], seconds: float) -> dict[str, Any]:
    ms = sorted(x * 1000 for x in latencies)
    return {"moves": len(ms), "seconds": round(seconds, 2), "moves_per_second": round(len(ms) / seconds),
            "p50_ms": round(statistics.median(ms), 2), "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 2),
            "max_ms": round(ms[-1], 2)}


# --------------------------------------------------------------------------- hostile clients


async def attack(kind: str, n: int, link: str, until: float, outcomes: Counter[str]) -> None:
    """One attacker of ``kind``, from 127.0.2.N, again and again until ``until`` (time.monotonic)."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidHandshake

    from solitaire.cli.race.messages import parse_link

    host, port, table, token = parse_link(link)
    address = f"127.0.2.{KINDS.index(kind) * 16 + n + 1}"
    uri = f"ws://{host}:{port}/{table}"
    hello = json.dumps({"v": 1, "type": "hello", "token": token, "name": kind})

    async def one(ws: Any) -> None:
        if kind == "flood":
            await ws.send(hello)
            while True:
                await ws.send('{"v":1,"type":"state"}')
                await asyncio.sleep(0)  # as fast as it can, yet letting the other attackers run
        elif kind == "oversized":
            await ws.send(hello)
            await ws.send('{"v":1,"type":"move","move":"' + "x" * 1_000_000 + '"}')
        elif kind == "malformed":
            for raw in ["[" * 2000 + "]" * 2000, '{"v":1,"type":"hello","token":"\\ud800"}', "{not json"] * 30:
                await ws.send(raw)
        elif kind == "forged-seat":
            await ws.send(json.dumps({"v": 1, "type": "hello", "token": token, "name": "eve",
                                      "seat_token": secrets.token_urlsafe(24)}))
        elif kind == "silent":
            pass  # says nothing: the server drops it after its hello timeout
        elif kind == "mole":
            await ws.send(hello)
            ws.transport.pause_reading()
            while True:
                await ws.send('{"v":1,"type":"state"}')
                await asyncio.sleep(0.005)
        await ws.wait_closed()

    async def crowd() -> None:
        async def member() -> None:
            try:
                async with connect(uri, proxy=None, compression=None, local_addr=(address, 0),
                                   open_timeout=15) as ws:
                    await ws.send(hello)
                    first = json.loads(await ws.recv())
                    outcomes["crowd-welcomed" if first["type"] == "welcome" else f"crowd-{first.get('code')}"] += 1
                    await asyncio.sleep(1)  # the welcomed stay a while, holding their places
            except ConnectionClosed as exc:
                outcomes[f"crowd-{exc.rcvd.code if exc.rcvd else 1006}"] += 1
            except (OSError, InvalidHandshake, TimeoutError):
                outcomes["crowd-refused"] += 1
        await asyncio.gather(*(member() for _ in range(100)))

    while time.monotonic() < until:
        if kind == "crowd":
            await crowd()
            continue
        try:
            async with connect(uri, proxy=None, compression=None, local_addr=(address, 0), max_size=None,
                               open_timeout=15) as ws:
                try:
                    await asyncio.wait_for(one(ws), max(0.1, until - time.monotonic()))
                except TimeoutError:
                    outcomes[f"{kind}-still-open"] += 1
                    ws.transport.abort()
                    continue
                outcomes[f"{kind}-{ws.close_code}"] += 1
        except ConnectionClosed as exc:
            outcomes[f"{kind}-{exc.rcvd.code if exc.rcvd else 1006}"] += 1
        except (OSError, InvalidHandshake, TimeoutError):
            outcomes[f"{kind}-refused"] += 1


def attackers(link: str, per_kind: int, seconds: float, pipe: Any, niceness: int = 19) -> None:
    import os

    os.nice(niceness)  # an attacker's CPU is its own machine's: here, it takes only what is left

    async def main() -> Counter[str]:
        outcomes: Counter[str] = Counter()
        until = time.monotonic() + seconds
        await asyncio.gather(*(attack(kind, n, link, until, outcomes) for kind in KINDS for n in range(per_kind)))
        return outcomes

    pipe.send(dict(asyncio.run(main())))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=None, help="tables of 4 bots (50; 20 with --hostile)")
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--think", type=float, default=0.1)
    parser.add_argument("--hostile", action="store_true", help="measure before and during hostile clients")
    parser.add_argument("--attackers", type=int, default=4, help="with --hostile: attackers of each kind")
    parser.add_argument("--attackers-nice", type=int, default=19, metavar="N",
                        help="with --hostile: the attackers' process's niceness (0: as the bots and the server)")
    args = parser.parse_args()
    tables = args.tables or (20 if args.hostile else 50)
    ours, theirs = multiprocessing.Pipe()
    # without --hostile the bots may go faster than a person: lift the rate limit for them
    limits: dict[str, Any] = {} if args.hostile else {"rate": 1000, "burst": 2000, "per_address": 1000}
    proc = multiprocessing.Process(target=serve, args=(theirs, limits))
    proc.start()
    out: dict[str, Any] = {"tables": tables, "bots": tables * 4, "think": args.think,
                           "python": sys.version.split()[0]}

    def phase() -> dict[str, Any]:
        ours.send(tables)
        opened = ours.recv()
        ours.send("cpu")
        cpu, _lags = ours.recv()
        start = time.perf_counter()
        latencies = asyncio.run(run_bots(opened, args.moves, args.think))
        seconds = time.perf_counter() - start
        ours.send("cpu")
        cpu_after, lags = ours.recv()
        return {**figures(latencies, seconds), "server_cpu": round((cpu_after - cpu) / seconds, 2),
                "server_loop_lag_p99_ms": round(lags[int(len(lags) * 0.99)] * 1000, 1) if lags else None,
                "server_loop_lag_max_ms": round(lags[-1] * 1000, 1) if lags else None}

    if not args.hostile:
        out.update(phase())
    else:
        out["before"] = phase()
        ours.send(1)
        (target, _key), = ours.recv()  # the attackers' table: they have its link (a rogue friend)
        a_ours, a_theirs = multiprocessing.Pipe()
        seconds = out["before"]["seconds"] * 1.5 + 15  # outlasts the bots' second run
        attack_proc = multiprocessing.Process(target=attackers, args=(target, args.attackers, seconds, a_theirs,
                                                                         args.attackers_nice))
        attack_proc.start()
        time.sleep(2)  # the attack under way before the bots start
        out["during"] = phase()
        out["attackers"] = {"per_kind": args.attackers, "outcomes": dict(sorted(a_ours.recv().items()))}
        attack_proc.join(30)
        ours.send("kills")
        out["server_cut_off"] = ours.recv()
    ours.send("stop")
    proc.join(10)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
