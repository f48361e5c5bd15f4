"""Benchmark the solver on random Klondike deals (full information).

    python benchmarks/bench_solver.py --deals 200 --timeout 10 --draw 1 --relaxed --jobs 2
    python benchmarks/bench_solver.py --deals 50 --states 200000 --engines native,python

Prints won / proved unwinnable / unknown (with 95% Wilson intervals), median and p95 seconds
a deal, states per second, peak memory (resident set of a worker), which pass decided, and
checks that every win replays move by move to a won game. The deals are a fixed random
sample of seeds (``--sample-seed``), so runs compare. ``--engines native,python`` solves
each deal with both engines by turns (the compiled core and the Python engine, same budget),
prints a summary for each, and counts the deals the two answer differently (a win against a
proof would be a bug) and the deals they decide pass for pass (the same answer, by the same
pass, after the same number of states stored).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import resource
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from solitaire.cli.solve import wilson


def run_one(task: tuple[str, dict[str, Any], int, float, int | None, str, bool]) -> dict[str, Any]:
    from solitaire.core import Game, Rules, get_variant
    from solitaire.core.solver import native, search

    variant, options, seed, timeout, states, engine, guided = task
    def solve(game: Game, timeout: float | None, max_states: int = 3_000_000) -> search.SolveResult:
        if engine == "python":
            return search.solve(game, timeout=timeout, max_states=max_states)
        return native.solve(game, timeout=timeout, max_states=max_states, engine=engine, guided=guided)

    rules = Rules.of(get_variant(variant), options)
    cpu = time.process_time()
    if states is None:
        result = solve(Game.new(rules, seed), timeout=timeout)
    else:  # a budget in states, no deadline: the same search on any machine
        result = solve(Game.new(rules, seed), timeout=None, max_states=states)
    cpu = time.process_time() - cpu
    replays = None
    if result.result == "win":
        game = Game.new(rules, seed)
        try:
            for move in result.moves:
                game.play(move)
            replays = game.won
        except Exception:
            replays = False
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"seed": seed, "engine": result.engine, "result": result.result, "seconds": result.seconds,
            "states": result.states, "method": result.method, "cpu_s": cpu, "moves": len(result.moves),
            "replays": replays, "peak_kb": peak_kb}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--draw", type=int, choices=(1, 3), default=1)
    ap.add_argument("--relaxed", action="store_true", help="foundation cards may come back (the C++ figures' rules)")
    ap.add_argument("--redeals", default="unlimited")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--variant", default="klondike")
    ap.add_argument("--sample-seed", type=int, default=2026)
    ap.add_argument("--states", type=int, default=None,
                    help="budget each pass by the states it stores, without a deadline (--timeout ignored)")
    ap.add_argument("--json", action="store_true", help="one JSON line per deal, then the summary")
    ap.add_argument("--engines", default="auto",
                    help="'auto' (the compiled core where it speaks the game), 'python', 'native', or "
                         "'native,python': both by turns on each deal")
    ap.add_argument("--no-guided", action="store_true",
                    help="the compiled core without its guided pass (the portfolio before it)")
    args = ap.parse_args(argv)
    engines = args.engines.split(",")
    if not set(engines) <= {"auto", "native", "python"}:
        ap.error("--engines takes auto, native, python or native,python")

    options: dict[str, Any] = {"draw": args.draw, "redeals": None if args.redeals == "unlimited" else int(args.redeals)}
    if args.relaxed:
        options["relaxed"] = True
    if args.variant != "klondike":
        options = {}
    seeds = random.Random(args.sample_seed).sample(range(1_000_000_000), args.deals)
    # both engines by turns: deal i runs them in turn order i (so neither always runs first)
    tasks = [(args.variant, options, s, args.timeout, args.states, e, not args.no_guided)
             for i, s in enumerate(seeds) for e in (engines if i % 2 == 0 else engines[::-1])]
    began = time.perf_counter()
    rows = []
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for row in pool.map(run_one, tasks, chunksize=1):
                rows.append(row)
                if args.json:
                    print(json.dumps(row), flush=True)
                else:
                    print(f"\r{len(rows)}/{len(tasks)}", end="", file=sys.stderr, flush=True)
    else:
        for task in tasks:
            rows.append(run_one(task))
            if args.json:
                print(json.dumps(rows[-1]), flush=True)
            else:
                print(f"\r{len(rows)}/{len(tasks)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    wall = time.perf_counter() - began
    groups = [rows] if len(engines) == 1 else [[r for r in rows if r["engine"] == e] for e in sorted(
        {r["engine"] for r in rows})]
    for group in groups:
        summary = summarize(group, args, options, wall)
        if args.json:
            print(json.dumps(summary))
        else:
            for key, value in summary.items():
                print(f"{key:>14}: {value}")
            print()
    if len(engines) > 1:
        answers: dict[int, set[str]] = {}
        for r in rows:
            if r["result"] != "unknown":
                answers.setdefault(r["seed"], set()).add(r["result"])
        disagree = sorted(seed for seed, got in answers.items() if len(got) > 1)
        # the same search: the same answer, by the same pass, after the same states stored
        runs: dict[int, set[tuple[str, str, int]]] = {}
        for r in rows:
            runs.setdefault(r["seed"], set()).add((r["result"], r["method"], r["states"]))
        differ = sorted(seed for seed, got in runs.items() if len(got) > 1)
        same = f"{len(runs) - len(differ)}/{len(runs)}"
        if args.json:
            print(json.dumps({"disagreements": disagree, "pass_for_pass": same, "differ": differ}))
        else:
            print(f"  disagreements: {disagree}")
            print(f"  pass for pass: {same} deals (the same answer, pass and states; differ: {differ})")
    return 1 if len(engines) > 1 and disagree else 0


def summarize(rows: list[dict[str, Any]], args: argparse.Namespace, options: dict[str, Any],
              wall: float) -> dict[str, Any]:
    n = len(rows)
    counts = {k: sum(r["result"] == k for r in rows) for k in ("win", "unwinnable", "unknown")}
    secs = sorted(r["seconds"] for r in rows)
    states = sum(r["states"] for r in rows)
    busy = sum(r["seconds"] for r in rows)
    cpu = sum(r["cpu_s"] for r in rows)
    by: dict[str, int] = {}
    for r in rows:
        if r["result"] != "unknown":
            by[r["method"]] = by.get(r["method"], 0) + 1
    return {
        "variant": args.variant, "options": options, "engine": ",".join(sorted({r["engine"] for r in rows})),
        "deals": n, "timeout": args.timeout, "states": args.states,
        "jobs": args.jobs,
        **{k: round(100 * v / n, 1) for k, v in counts.items()},
        **{f"{k}_ci95": [round(100 * x, 1) for x in wilson(v, n)] for k, v in counts.items()},
        "decided": round(100 * (counts["win"] + counts["unwinnable"]) / n, 1),
        "median_s": round(statistics.median(secs), 3),
        "p95_s": round(secs[min(n - 1, math.ceil(0.95 * n) - 1)], 3),
        "states_per_s": round(states / busy) if busy else 0,
        "states_per_cpu_s": round(states / cpu) if cpu else 0,  # fairer than wall-clock on a busy machine
        "peak_rss_mb": round(max(r["peak_kb"] for r in rows) / 1024, 1),
        "decided_by": by,
        "wins_replayed": f"{sum(r['replays'] is True for r in rows)}/{counts['win']}",
        "wall_s": round(wall, 1),
    }


if __name__ == "__main__":
    sys.exit(main())
