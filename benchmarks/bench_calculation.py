"""Calculation's own search, compiled against Python, side by side: deals decided and time.

    python benchmarks/bench_calculation.py --deals 1..100 --timeout 10
    python benchmarks/bench_calculation.py --deals 1..1000 --timeout 10 --engines compiled
    python benchmarks/bench_calculation.py --searches 7,40 --engines compiled

Each engine solves the deals as ``solitaire solve calculation --seeds A..B --json`` would
(full information, one process a batch, ``--jobs 1``), the compiled search (the plugin's
``native/`` crate, the default when installed) and the Python reference
(``SOLITAIRE_ENGINE=python``) by turns, ``--chunk`` deals at a time, so both meet the same
machine load. It prints, for each, the deals won, proved lost and unknown with 95% Wilson
intervals, the median and p95 seconds a deal, and the CPU seconds of its processes; with
``--rows DIR`` it keeps every deal's JSON line, one file an engine.

``--searches SEEDS`` times the plugin's two searches alone on whole deals instead, in this
process: the exact search from the deal (``search.exact``, no limit but ``--max-states``) and
the beam at ``--width`` with each estimate (``search.run_beam``), each engine by turns, with
the answer and positions stored (the same in both engines) and the seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ENGINES = {"compiled": {}, "python": {"SOLITAIRE_ENGINE": "python"}}


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 100.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return round(100 * max(0.0, centre - half), 2), round(100 * min(1.0, centre + half), 2)


def batch(engine: str, first: int, last: int, budget: list[str]) -> tuple[list[dict[str, Any]], float]:
    """One engine's rows for deals first..last and the CPU seconds its process used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-m", "solitaire.cli", "solve", "calculation", "--seeds", f"{first}..{last}", "--json",
         "--jobs", "1", *budget],
        capture_output=True, text=True, check=False, env={**os.environ, **ENGINES[engine]})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith('{"seed"')]
    if len(rows) != last - first + 1:
        raise SystemExit(f"{engine}: {len(rows)} rows for deals {first}..{last}: {done.stderr.strip()[-300:]}")
    return rows, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def searches(seeds: list[int], engines: list[str], max_states: int, width: int) -> None:
    """Each search alone on whole deals, the engines by turns (see the module's docstring)."""
    import time

    from solitaire.core import Game, Rules, get_variant
    from solitaire.core.solver import variant_knowledge
    from solitaire.variants.calculation.search import exact, run_beam

    rules = Rules.of(get_variant("calculation"), {})
    know: Any = variant_knowledge(rules)
    print("| deal | search | engine | answer | positions | seconds |")
    print("|---:|---|---|---|---:|---:|")
    for seed in seeds:
        game = Game.new(rules, seed)
        cards = [c % 13 for c in game.piles[know.waste] + game.piles[know.stock][::-1]]
        lengths = [len(game.piles[f]) for f in know.found]
        reserves = [[c % 13 for c in game.piles[r]] for r in know.reserves]
        for engine in engines:
            native = engine == "compiled"
            began = time.perf_counter()
            answer, _, stored = exact(lengths, reserves, cards, float("inf"), max_states, native=native)
            print(f"| {seed} | exact | {engine} | {answer} | {stored} | {time.perf_counter() - began:.2f} |")
            for kind in (1, 2, 0):
                began = time.perf_counter()
                found = run_beam(lengths, reserves, cards, width, float("inf"), kind, native=native)
                print(f"| {seed} | beam {width} wide, estimate {kind} | {engine} | "
                      f"{'win' if found.path else 'none'} | {found.states} | {time.perf_counter() - began:.2f} |",
                      flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1..100", help="A..B (default 1..100)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds a deal (default 10)")
    parser.add_argument("--states", type=int, help="a states budget instead of seconds")
    parser.add_argument("--chunk", type=int, default=10, help="deals an engine solves in its turn (default 10)")
    parser.add_argument("--engines", default="compiled,python", help="compiled,python (default both)")
    parser.add_argument("--rows", type=Path, help="a folder for every deal's JSON line, one file an engine")
    parser.add_argument("--searches", help="SEEDS (comma-separated): time the two searches alone on these deals")
    parser.add_argument("--max-states", type=int, default=5_000_000, help="the exact search's budget (--searches)")
    parser.add_argument("--width", type=int, default=2025, help="the beam's width (--searches)")
    args = parser.parse_args()
    first, last = (int(x) for x in args.deals.split(".."))
    budget = ["--states", str(args.states)] if args.states else ["--timeout", str(args.timeout)]
    engines = [e for e in args.engines.split(",") if e]
    if not engines or any(e not in ENGINES for e in engines):
        raise SystemExit(f"--engines: a list of {', '.join(ENGINES)}")
    if args.searches:
        searches([int(s) for s in args.searches.split(",")], engines, args.max_states, args.width)
        return
    rows: dict[str, list[dict[str, Any]]] = {e: [] for e in engines}
    cpu = dict.fromkeys(engines, 0.0)
    for start in range(first, last + 1, args.chunk):
        end = min(last, start + args.chunk - 1)
        for engine in engines:
            got, seconds = batch(engine, start, end, budget)
            rows[engine] += got
            cpu[engine] += seconds
        print(f"deals {first}..{end} done", file=sys.stderr, flush=True)
    print(f"Calculation, deals {args.deals}, {' '.join(budget)}, by turns of {args.chunk}\n")
    print("| engine | deals | won % | proved % | unknown % | decided % | median s | p95 s | CPU s |")
    print("|---|---:|---|---|---|---:|---:|---:|---:|")
    for engine in engines:
        got = rows[engine]
        n = len(got)
        count = {r: sum(1 for row in got if row["result"] == r) for r in ("win", "unwinnable", "unknown")}
        cells = [f"{100 * count[r] / n:.1f} {list(wilson(count[r], n))}".replace(", ", "-") for r in count]
        secs = sorted(row["seconds"] for row in got)
        p95 = secs[min(n - 1, int(0.95 * n))]
        decided = 100 * (count["win"] + count["unwinnable"]) / n
        print(f"| {engine} | {n} | {' | '.join(cells)} | {decided:.1f} | {statistics.median(secs):.4f} | "
              f"{p95:.3f} | {cpu[engine]:.1f} |")
        if args.rows:
            args.rows.mkdir(parents=True, exist_ok=True)
            (args.rows / f"calculation-{engine}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in got))
    differ = [a["seed"] for a, b in zip(*(rows[e] for e in engines), strict=True)
              if {a["result"], b["result"]} == {"win", "unwinnable"}] if len(engines) == 2 else []
    print(f"\nDeals won by one engine and proved lost by the other: {differ or 'none'}")


if __name__ == "__main__":
    main()
