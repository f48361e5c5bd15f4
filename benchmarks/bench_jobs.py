"""Measure ``solitaire solve --jobs N`` and ``--memory MB``: speed-up, peak memory, bytes a state.

    python benchmarks/bench_jobs.py jobs --seeds 1..32 --states 20000 --jobs 1 2
    python benchmarks/bench_jobs.py memory --seeds 1..8 --states 1000000 --memory 0 64
    python benchmarks/bench_jobs.py per-state --variant klondike --engine native --states 100000 200000

``jobs`` runs the batch through the CLI once for each ``--jobs`` value (a fresh process each),
prints its wall time, the speed-up over the first value, the load average before it, and
checks that every run printed the same rows but for the seconds. ``memory`` runs the batch
once for each ``--memory`` value (0: none) and prints the peak resident memory of the
process (``ru_maxrss`` of the child). ``per-state`` solves deals of the variant that run out
of a states budget (the answer "unknown": every pass stored its whole budget), each in a
fresh process, and prints the peak resident memory the search added over the states
budget: the bytes a stored state costs, which ``solitaire.core.solver.native.BYTES_A_STATE``
holds (docs/performance.md, "Memory").
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time
from typing import Any


def _cli(words: list[str]) -> tuple[float, int, str]:
    """Run ``solitaire WORDS`` in a fresh process: its wall seconds, peak RSS (KiB) and output."""
    code = ("import resource, sys, runpy; sys.argv = ['solitaire'] + sys.argv[1:]\n"
            "from solitaire.cli.main import main\n"
            "try:\n    code = main()\nexcept SystemExit as e:\n    code = e.code\n"
            "print('PEAK', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "
            "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
            "sys.exit(code)")
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, *words], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - began
    if done.returncode != 0:
        sys.exit(f"solitaire {' '.join(words)} failed: {done.stderr.strip()}")
    match = re.search(r"PEAK (\d+) (\d+)", done.stderr)
    peak = max(int(match.group(1)), int(match.group(2))) if match else 0
    return seconds, peak, done.stdout


def _timeless(out: str) -> str:
    return re.sub(r'"(median_|p95_)?seconds":[0-9.e-]+', '"seconds":T', out)


def jobs(args: argparse.Namespace) -> None:
    base = ["solve", args.variant, "--seeds", args.seeds, "--states", str(args.states)]
    first: tuple[float, str] | None = None
    for n in args.jobs:
        load = os.getloadavg()[0]
        seconds, peak, out = _cli([*base, "--jobs", str(n)])
        if first is None:
            first = (seconds, _timeless(out))
        same = _timeless(out) == first[1]
        print(f"--jobs {n}: {seconds:6.2f} s wall, speed-up {first[0] / seconds:4.2f}x, "
              f"peak RSS {peak / 1024:.0f} MiB, load before {load:.2f}, "
              f"rows {'identical' if same else 'DIFFERENT'}", flush=True)
        if not same:
            sys.exit("the rows differ from the first run's")


def memory(args: argparse.Namespace) -> None:
    base = ["solve", args.variant, "--seeds", args.seeds, "--states", str(args.states), "--jobs", str(args.jobs[0])]
    for mb in args.memory:
        seconds, peak, out = _cli([*base, *(["--memory", str(mb)] if mb else [])])
        summary = json.loads(out.strip().splitlines()[-1])
        counts = {k: summary[k]["count"] for k in ("win", "unwinnable", "unknown")}
        print(f"--memory {mb or 'none'}: peak RSS {peak / 1024:.0f} MiB, {seconds:.2f} s, {counts}", flush=True)


def _one(variant: str, seed: int, states: int, engine: str) -> dict[str, Any]:
    """Solve one deal in this process: the result and the resident memory before and at peak."""
    from solitaire.core import Game, Rules, get_variant
    from solitaire.core.solver import native

    def rss(field: str) -> int:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith(field))

    rules = Rules.of(get_variant(variant))
    game = Game.new(rules, seed)
    if engine == "native":
        native.core(rules)  # loaded before the measure starts
    before = rss("VmRSS:")
    result = native.solve(game, timeout=None, max_states=states, engine=engine)
    return {"seed": seed, "result": result.result, "states": result.states, "before_kb": before,
            "peak_kb": rss("VmHWM:"), "cards": len(rules.deck)}


def per_state(args: argparse.Namespace) -> None:
    first, _, last = args.seeds.partition("..")
    for states in args.states_list:
        rows = []
        for seed in range(int(first), int(last) + 1):
            done = subprocess.run([sys.executable, __file__, "one", args.variant, str(seed), str(states), args.engine],
                                  capture_output=True, text=True, check=True)
            row = json.loads(done.stdout)
            if row["result"] == "unknown":  # every pass ran to its budget
                rows.append(row)
                if len(rows) == args.deals:
                    break
        if not rows:
            print(f"{args.variant} {args.engine} {states} states: no deal ran out of the budget", flush=True)
            continue
        worst = max((r["peak_kb"] - r["before_kb"]) * 1024 / states for r in rows)
        mean = sum((r["peak_kb"] - r["before_kb"]) * 1024 / states for r in rows) / len(rows)
        print(f"{args.variant} ({rows[0]['cards']} cards) {args.engine}, {states} states a pass, "
              f"{len(rows)} deals out of budget (seeds {', '.join(str(r['seed']) for r in rows)}): "
              f"{mean:.0f} bytes a state on average, {worst:.0f} at most", flush=True)


def main() -> None:
    if sys.argv[1:2] == ["one"]:
        variant, seed, states, engine = sys.argv[2:6]
        print(json.dumps(_one(variant, int(seed), int(states), engine)))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    for name in ("jobs", "memory"):
        p = sub.add_parser(name)
        p.add_argument("--variant", default="klondike")
        p.add_argument("--seeds", default="1..32")
        p.add_argument("--states", type=int, default=20000)
        p.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
        if name == "memory":
            p.add_argument("--memory", type=int, nargs="+", default=[0, 64])
    p = sub.add_parser("per-state")
    p.add_argument("--variant", default="klondike")
    p.add_argument("--engine", default="native", choices=("native", "python"))
    p.add_argument("--states", dest="states_list", type=int, nargs="+", default=[100000, 200000])
    p.add_argument("--seeds", default="1..60")
    p.add_argument("--deals", type=int, default=3)
    args = parser.parse_args()
    {"jobs": jobs, "memory": memory, "per-state": per_state}[args.mode](args)
    print(f"(peak memory of this script: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MiB)")


if __name__ == "__main__":
    main()
