"""Every catalogue game through the solver: the share of deals decided, won and proved lost,
and the time a deal, in one table (issue #14's "every catalogue game").

    python benchmarks/bench_catalogue.py --deals 1000 --timeout 10 --jobs 2
    python benchmarks/bench_catalogue.py --deals 100 --states 50000 --games golf,freecell,klondike

Each game is solved as ``solitaire solve GAME --seeds 1..N --json`` would (deals 1 to N, its
default options, full information, the engine ``solve`` picks), in a process of its own, one
game after another. A game's summary is kept in ``--results`` (a folder, one JSON file a game
and budget), so a long run can stop and go on later: a game already there is not solved
again (``--again`` solves it anyway; ``--table`` solves nothing and prints the table of the games
there). Each deal's line (no moves) is kept beside it, once and in order, in ``GAME-N-BUDGET.deals.jsonl``
(since session 30), which ``build_pools.py --seeds-from`` reads. At the end it prints the Markdown table of
docs/performance.md ("Every game"): won, proved and unknown with 95% Wilson intervals,
decided, median and p95 seconds a deal, the engine, and Solvitaire's published winnability
where the issue gives one (Blake and Gent, 2019). With ``--timeout`` the seconds are wall
clock, so a loaded machine decides fewer deals; ``--states`` gives the same answers on any
machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

#: Solvitaire's published winnability (Blake and Gent, "The Winnability of Klondike and Many
#: Other Single-Player Card Games", 2019), for the games and rules the issue quotes: our
#: game, its options, the figure as the paper gives it
#: (The paper's "thoughtful Klondike", 81.945 % ± 0.084 % with draw 3, is Klondike solved
#: with every card known, which is our `klondike --draw 3 --relaxed`, not our Thoughtful: there
#: every tableau card is dealt face up, and runs the deal laid out move from under other cards,
#: so more deals are won; docs/performance.md, "Session 28".)
PUBLISHED = {
    ("klondike", "--draw 3 --relaxed"): "81.945 % ± 0.084 % (Klondike draw 3, thoughtful)",
    ("freecell", ""): "99.999 %",
    ("bakers-game", ""): "about 75 %",
}


def games() -> list[str]:
    from solitaire.core import registry

    return [d.name for d in registry().sorted() if d.provider == "solitaire-table"]


def deal_lines(text: str) -> dict[int, dict[str, Any]]:
    """Each deal's line of ``solitaire solve --seeds A..B --json`` output, by seed: a deal
    solved twice (a resumed batch) is its last line; the summary line and a line a stop cut
    short are left out. build_pools.py --seeds-from reads a batch the same way."""
    rows: dict[int, dict[str, Any]] = {}
    for line in text.splitlines():
        try:
            r = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(r, dict) and "seed" in r:
            rows[int(r["seed"])] = r
    return rows


def solve(game: str, options: str, deals: int, budget: list[str], jobs: int, partial: Path,
          chunk: int) -> dict[str, Any]:
    """One game's batch, as the command line runs it, ``chunk`` deals a command: its summary,
    engines and methods. Each chunk's deal lines are appended to ``partial`` as they come, and
    deals already there are not solved again, so a batch stopped part way goes on where it was."""
    from solitaire.cli.solve import batch_summary

    rows: dict[int, dict[str, Any]] = {}
    if partial.exists():
        text = partial.read_text()
        rows = deal_lines(text)  # a line cut short by a stop is not there: that deal is solved again
        if not text.endswith("\n"):  # a stop cut the last line: the next one starts afresh
            with partial.open("a") as out:
                out.write("\n")
    wall = sum(r.get("seconds", 0.0) for r in rows.values())
    first = 1
    while first <= deals:
        if all(s in rows for s in range(first, min(first + chunk, deals + 1))):
            first += chunk
            continue
        last = min(first + chunk - 1, deals)
        start = min(s for s in range(first, last + 1) if s not in rows)  # a chunk a stop cut: from its first gap
        command = [sys.executable, "-m", "solitaire.cli", "solve", game, *options.split(),
                   "--seeds", f"{start}..{last}", "--json", "--jobs", str(jobs), *budget]
        began = time.perf_counter()
        with partial.open("a") as out, subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                                         text=True) as done:
            assert done.stdout is not None and done.stderr is not None
            for line in done.stdout:
                if line.startswith("{") and '"summary"' not in line:
                    r = json.loads(line)
                    r.pop("moves", None)  # a won line's moves: not part of the table, and most of the bytes
                    rows[r["seed"]] = r
                    out.write(json.dumps(r, separators=(",", ":")) + "\n")
                    out.flush()
            error = done.stderr.read()
        if done.returncode != 0:
            raise SystemExit(f"{game} {start}..{last}: exit {done.returncode}: {error.strip()[-300:]}")
        wall += time.perf_counter() - began
        first += chunk
    deals_rows = [rows[s] for s in range(1, deals + 1)]
    counts = {"win": 0, "unwinnable": 0, "unknown": 0}
    for r in deals_rows:
        counts[r["result"]] += 1
    summary = batch_summary(counts, [r["seconds"] for r in deals_rows], wall)
    engines = sorted({r.get("engine", "") for r in deals_rows})
    methods: dict[str, int] = {}
    for r in deals_rows:
        if r["result"] != "unknown":
            methods[r.get("method") or "?"] = methods.get(r.get("method") or "?", 0) + 1
    with partial.with_name(partial.name.replace(".partial.jsonl", ".deals.jsonl")).open("w") as kept:
        for r in deals_rows:  # each deal once, in order: what a pool is built from (build_pools --seeds-from)
            kept.write(json.dumps(r, separators=(",", ":")) + "\n")
    return {"game": game, "options": options, "deals": deals, "budget": budget, "summary": summary,
            "engines": engines, "decided_by": methods, "wall_s": round(wall, 1)}


def row(result: dict[str, Any]) -> str:
    s = result["summary"]

    def share(key: str) -> str:
        lo, hi = s[key]["ci95"]
        return f"{s[key]['percent']:.1f} [{lo:.1f}-{hi:.1f}]"

    decided = s["win"]["percent"] + s["unwinnable"]["percent"]
    name = result["game"] + (f" {result['options']}" if result["options"] else "")
    published = PUBLISHED.get((result["game"], result["options"]), "")
    by = ", ".join(f"{k} {v}" for k, v in sorted(result["decided_by"].items()))
    return (f"| {name} | {result['deals']} | {share('win')} | {share('unwinnable')} | {share('unknown')} | "
            f"{decided:.1f} | {s['median_seconds']:.3f} | {s['p95_seconds']:.3f} | {', '.join(result['engines'])} | "
            f"{by} | {published} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=100)
    budget = parser.add_mutually_exclusive_group(required=True)
    budget.add_argument("--timeout", type=float, help="seconds a deal (wall clock)")
    budget.add_argument("--states", type=int, help="states each pass may store (the same answers anywhere)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--games", help="comma-separated games (default: every built-in game)")
    parser.add_argument("--options", action="append", default=[],
                        help="GAME=OPTIONS, e.g. 'klondike=--draw 3': options for a game (repeatable)")
    parser.add_argument("--results", type=Path, default=Path("benchmarks/results/catalogue"))
    parser.add_argument("--again", action="store_true", help="solve games already in --results again")
    parser.add_argument("--table", action="store_true",
                        help="solve nothing: the table of the games already in --results, and the games not there")
    parser.add_argument("--chunk", type=int, default=50,
                        help="deals a command; each chunk's deals are kept as they come, so a stop loses none")
    args = parser.parse_args()
    flags = ["--timeout", str(args.timeout)] if args.timeout is not None else ["--states", str(args.states)]
    tag = f"t{args.timeout:g}" if args.timeout is not None else f"s{args.states}"
    extra: dict[str, list[str]] = {}
    for spec in args.options:
        game, _, opts = spec.partition("=")
        extra.setdefault(game, []).append(opts)
    chosen = args.games.split(",") if args.games else games()
    args.results.mkdir(parents=True, exist_ok=True)
    results = []
    missing = []
    for game in chosen:
        for options in extra.get(game, [""]):
            slug = f"{game}{options.replace(' ', '').replace('--', '-')}-{args.deals}-{tag}.json"
            path = args.results / slug
            if path.exists() and not args.again:
                result = json.loads(path.read_text())
            elif args.table:
                missing.append(f"{game} {options}".strip())
                continue
            else:
                partial = path.with_suffix(".partial.jsonl")
                if args.again:
                    partial.unlink(missing_ok=True)
                result = solve(game, options, args.deals, flags, args.jobs, partial, args.chunk)
                path.write_text(json.dumps(result, indent=1))
                partial.unlink()
            print(f"{game} {options}: {row(result)}", file=sys.stderr, flush=True)
            results.append(result)
    budget_words = f"{args.timeout:g} s a deal" if args.timeout is not None else f"{args.states:,} states a pass"
    print(f"\n{args.deals} deals a game (1..{args.deals}), {budget_words}, `--jobs {args.jobs}`\n")
    print("| game | deals | won % | proved % | unknown % | decided % | median s | p95 s | engine | decided by | "
          "Solvitaire (published) |")
    print("|---|---:|---|---|---|---:|---:|---:|---|---|---|")
    for result in results:
        print(row(result))
    if missing:
        print(f"\nNot run yet ({len(missing)}): {', '.join(missing)}")


if __name__ == "__main__":
    main()
