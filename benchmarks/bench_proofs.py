"""How large are the proofs the exact search has not reached? The compiled core's exact search
alone (`solitaire.core.solver.native.exact`: none of the portfolio's other passes) on chosen
deals, with a budget in states well past what 10 s buys, one line a deal: its answer, the
states it stored and its CPU seconds.

    python benchmarks/bench_proofs.py klondike --option relaxed=true --unknown-in \\
        benchmarks/results/klondike-draw1-1000-timeout10-threads2-arena.txt --states 8000000
    python benchmarks/bench_proofs.py klondike --option relaxed=true --option draw=3 --seeds 26,104

A proof's size says what a faster search or a smaller one would decide: a deal proved in N
states is decided within a time budget once the exact search stores N states in it.
``--unknown-in`` reads the deals left unknown from a results file of `solve --json` lines or
of ``seed result ...`` lines (as benchmarks/results/klondike-draw1-*.txt).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import yaml


def unknown_seeds(path: Path) -> list[int]:
    seeds = []
    for line in path.read_text().splitlines():
        if line.startswith("{"):
            row = json.loads(line)
            if row.get("result") == "unknown" and "seed" in row:
                seeds.append(int(row["seed"]))
        elif line and not line.startswith("#"):
            words = line.split()
            if len(words) > 1 and words[1] == "unknown":
                seeds.append(int(words[0]))
    return seeds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE (YAML), e.g. draw=3 (repeatable)")
    deals = parser.add_mutually_exclusive_group(required=True)
    deals.add_argument("--seeds", help="comma-separated seeds")
    deals.add_argument("--unknown-in", type=Path, help="the deals a results file left unknown")
    parser.add_argument("--states", type=int, default=8_000_000, help="states the exact search may store")
    args = parser.parse_args()

    from solitaire.core import Game, Rules
    from solitaire.core.plugins import registry
    from solitaire.core.solver import native

    defn = registry().get(args.game)
    if defn is None:
        raise SystemExit(f"no game {args.game!r}")
    options = {}
    for spec in args.option:
        name, _, value = spec.partition("=")
        options[name] = yaml.safe_load(value)
    rules = Rules.of(defn, options)
    seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else unknown_seeds(args.unknown_in)
    print(f"# {args.game} {options}, the exact search alone, up to {args.states:,} states a deal", flush=True)
    print("# seed result states cpu_s", flush=True)
    for seed in seeds:
        began = time.process_time()
        result = native.exact(Game.new(rules, seed), args.states)
        print(seed, result.result, result.states, round(time.process_time() - began, 2), flush=True)


if __name__ == "__main__":
    main()
