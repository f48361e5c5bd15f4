"""Benchmark the solver on Microsoft's numbered FreeCell deals (issue #14).

    python benchmarks/bench_freecell_ms.py --deals ms1..ms2000 --jobs 2
    python benchmarks/bench_freecell_ms.py --deals ms1..ms32000 --jobs 2 --chunk 1000
    python benchmarks/bench_freecell_ms.py --deals ms1..ms1000 --python /other/.venv/bin/python

Runs ``solitaire solve freecell --seeds msA..msB --timeout T --jobs J --json`` (the command a
player would type) on chunks of ``--chunk`` deals and reports, over all of them: won / proved
unwinnable / unknown, the median and p95 of the seconds each deal took (the ``seconds`` of its
JSON line: wall-clock, from the solver's start to the end of the replay of its line through the
kernel), which pass decided, the median length of the winning lines, and the deals not won.

``--python`` adds interpreters (another checkout's virtual environment, say), each running the
same command from its own installation; the chunks are run by turns (chunk 1 on each, then
chunk 2 on each, ...), so that a change in the machine's load falls on all of them alike.
``--json FILE`` writes the per-deal records and the summaries.

``--cpu`` instead solves the deals in this process, one after the other, and reports the CPU
seconds of each solve (``time.thread_time``: the search and the replay of its line), which a
loaded machine inflates far less than the wall-clock seconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

CLI = "import sys; from solitaire.cli.main import main; sys.argv = ['solitaire'] + sys.argv[1:]; sys.exit(main())"


def deal_range(text: str) -> tuple[int, int]:
    """``msA..msB`` (or ``A..B``) as (A, B)."""
    first, sep, last = text.partition("..")
    if not sep:
        raise argparse.ArgumentTypeError(f"deals are msA..msB, got {text!r}")
    try:
        a, b = int(first.removeprefix("ms")), int(last.removeprefix("ms"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"deals are msA..msB, got {text!r}") from None
    if not 1 <= a <= b:
        raise argparse.ArgumentTypeError(f"deals are msA..msB with 1 <= A <= B, got {text!r}")
    return a, b


def run_chunk(python: str, first: int, last: int, timeout: float, jobs: int) -> tuple[list[dict[str, Any]], float]:
    """The per-deal JSON lines of one ``solve --seeds`` run, and its wall-clock seconds."""
    command = [python, "-c", CLI, "solve", "freecell", "--seeds", f"ms{first}..ms{last}",
               "--timeout", str(timeout), "--jobs", str(jobs), "--json"]
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"{python}: exit {done.returncode}: {done.stderr.strip()[-500:]}")
    rows = []
    for line in done.stdout.splitlines():
        record = json.loads(line)
        if record.get("summary"):
            continue
        rows.append({"deal": record["seed"], "result": record["result"], "seconds": record["seconds"],
                     "states": record["states"], "method": record["method"], "moves": len(record["moves"])})
    if len(rows) != last - first + 1:
        raise SystemExit(f"{python}: {len(rows)} answers for {last - first + 1} deals")
    return rows, wall


def run_cpu(first: int, last: int, timeout: float) -> tuple[list[dict[str, Any]], float]:
    """Each deal solved here, in turn, with the thread's CPU seconds it took."""
    from solitaire.core import Game, Rules, get_variant
    from solitaire.core.solver import solve

    rules = Rules.of(get_variant("freecell"), {})
    rows = []
    began = time.perf_counter()
    for deal in range(first, last + 1):
        game = Game.new(rules, deal, numbering="microsoft")  # the numbering --ms names
        cpu = time.thread_time()
        result = solve(game, timeout=timeout)
        cpu = time.thread_time() - cpu
        rows.append({"deal": deal, "result": result.result, "seconds": round(cpu, 5), "states": result.states,
                     "method": result.method, "moves": len(result.moves)})
    return rows, time.perf_counter() - began


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(rows: list[dict[str, Any]], wall: float) -> dict[str, Any]:
    seconds = [r["seconds"] for r in rows]
    counts = {k: sum(1 for r in rows if r["result"] == k) for k in ("win", "unwinnable", "unknown")}
    methods: dict[str, int] = {}
    for r in rows:
        if r["result"] != "unknown":
            methods[r["method"]] = methods.get(r["method"], 0) + 1
    won = [r["moves"] for r in rows if r["result"] == "win"]
    return {"deals": len(rows), **counts, "median_s": round(statistics.median(seconds), 4),
            "p95_s": round(percentile(seconds, 0.95), 4), "max_s": round(max(seconds), 4),
            "median_moves": statistics.median(won) if won else None, "methods": methods,
            "not_won": [(r["deal"], r["result"]) for r in rows if r["result"] != "win"],
            "wall_s": round(wall, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=deal_range, default=(1, 2000), help="msA..msB (default ms1..ms2000)")
    parser.add_argument("--jobs", type=int, default=2, help="solve's --jobs (default 2)")
    parser.add_argument("--timeout", type=float, default=10.0, help="solve's --timeout a deal (default 10)")
    parser.add_argument("--chunk", type=int, default=500, help="deals a run of solve (default 500)")
    parser.add_argument("--python", action="append", default=[],
                        help="another interpreter to run the same deals with, by turns (repeatable)")
    parser.add_argument("--json", type=Path, help="write the records and summaries here")
    parser.add_argument("--cpu", action="store_true", help="solve here, one deal at a time, and time CPU seconds")
    args = parser.parse_args()
    if args.cpu:
        got, wall = run_cpu(args.deals[0], args.deals[1], args.timeout)
        s = summary(got, wall)
        print(f"in process, CPU seconds a deal, ms{args.deals[0]}..ms{args.deals[1]}: won {s['win']}, "
              f"proved unwinnable {s['unwinnable']}, unknown {s['unknown']}; median {s['median_s']} s, "
              f"p95 {s['p95_s']} s, max {s['max_s']} s; lines median {s['median_moves']} moves; by {s['methods']}")
        return
    pythons = [sys.executable, *args.python]
    first, last = args.deals
    rows: dict[str, list[dict[str, Any]]] = {p: [] for p in pythons}
    walls = dict.fromkeys(pythons, 0.0)
    for a in range(first, last + 1, args.chunk):
        b = min(last, a + args.chunk - 1)
        for p in pythons:
            got, wall = run_chunk(p, a, b, args.timeout, args.jobs)
            rows[p].extend(got)
            walls[p] += wall
        print(f"ms{a}..ms{b} done", file=sys.stderr, flush=True)
    out = {p: summary(rows[p], walls[p]) for p in pythons}
    for p, s in out.items():
        print(f"{p}: {s['deals']} deals ms{first}..ms{last}, --jobs {args.jobs}: won {s['win']}, "
              f"proved unwinnable {s['unwinnable']}, unknown {s['unknown']}; median {s['median_s']} s, "
              f"p95 {s['p95_s']} s, max {s['max_s']} s; lines median {s['median_moves']} moves; "
              f"by {s['methods']}; not won {s['not_won']}; {s['wall_s']} s in all")
    if args.json is not None:
        args.json.write_text(json.dumps({"summaries": out, "deals": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
