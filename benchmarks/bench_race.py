"""Load test of the race server: 50 tables of 4 bots on one server, move latency p50/p99.

    python benchmarks/bench_race.py [--tables 50] [--moves 100] [--think 0.1]

The server runs in a child process (one asyncio loop, as ``solitaire race host`` runs it);
the bots run in this process. Each bot joins, readies, and once its host starts, sends
``--moves`` moves picked at random from a list of notation moves (some legal, some refused:
the server checks each with the kernel either way), waiting a random 0..``--think`` seconds
between moves like a quick player. Latency is from sending a move to receiving its reply.
Not a test: the figures go in docs/race.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import statistics
import sys
import time
from multiprocessing.connection import Connection

MOVES = ["draw", "draw", "draw", "w f", "w t1", "w t2", "w t3", "w t4", "w t5", "w t6", "w t7",
         "t1 f", "t2 f", "t3 f", "t4 f", "t5 f", "t6 f", "t7 f", "t7 t1", "t6 t2", "t5 t3", "t4 t1"]


def serve(tables: int, pipe: Connection) -> None:
    from solitaire.cli.race.server import RaceServer, Settings

    async def main() -> None:
        server = RaceServer(rate=1000, burst=2000)
        await server.start()
        opened = []
        for _ in range(tables):
            table = server.open_table(Settings("klondike", {"draw": 1}))
            opened.append((server.link(table), table.host_key))
        pipe.send(opened)
        await asyncio.get_running_loop().run_in_executor(None, pipe.recv)  # until told to stop
        await server.close()

    asyncio.run(main())


async def bot(link: str, name: str, host_key: str | None, friends: int, moves: int, think: float,
              latencies: list[float], rng: random.Random) -> None:
    from solitaire.cli.race.client import RaceClient

    client = await RaceClient.join(link, name, host_key=host_key)
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
        tasks.append(bot(link, f"host{t}", host_key, 3, moves, think, latencies, random.Random(rng.random())))
        for i in range(3):
            tasks.append(bot(link, f"bot{t}-{i}", None, 3, moves, think, latencies, random.Random(rng.random())))
    await asyncio.gather(*tasks)
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--think", type=float, default=0.1)
    args = parser.parse_args()
    ours, theirs = multiprocessing.Pipe()
    proc = multiprocessing.Process(target=serve, args=(args.tables, theirs))
    proc.start()
    opened = ours.recv()
    start = time.perf_counter()
    latencies = asyncio.run(run_bots(opened, args.moves, args.think))
    seconds = time.perf_counter() - start
    ours.send("stop")
    proc.join(10)
    latencies.sort()
    ms = [x * 1000 for x in latencies]
    p50 = statistics.median(ms)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(json.dumps({"tables": args.tables, "bots": args.tables * 4, "moves": len(ms),
                      "seconds": round(seconds, 2), "moves_per_second": round(len(ms) / seconds),
                      "p50_ms": round(p50, 2), "p99_ms": round(p99, 2), "max_ms": round(ms[-1], 2),
                      "python": sys.version.split()[0]}))


if __name__ == "__main__":
    main()
