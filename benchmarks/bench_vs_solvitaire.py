"""Our solver and Solvitaire side by side, by turns, on the same deals.

    python benchmarks/bench_vs_solvitaire.py --solvitaire /path/to/solvitaire --game klondike-draw1
    python benchmarks/bench_vs_solvitaire.py --solvitaire BIN --game freecell --deals 50 --timeout 10
    python benchmarks/bench_vs_solvitaire.py --show 12345 --game klondike-draw3   # one deal, both forms

Solvitaire (Blake & Gent's C++ solver, GPL, not part of this project) is built by whoever runs
this, outside the repository, and named with ``--solvitaire``. For each deal of a fixed random
sample of seeds (``--sample-seed``) the script deals OUR game (``Game.new``), writes that very
position as Solvitaire's JSON deal (``to_solvitaire``: tableau piles bottom card first, a
lower-case suit letter for a face-down card, the stock with its top card last), and solves it
with both: our ``solve`` (engine auto, the compiled core where it speaks the game) in this
process and Solvitaire in a subprocess (its ``--timeout`` in milliseconds, plus a wall-clock
guard), alternately first and second (deal i: ours first when i is even). Each answer is won,
proved unwinnable or unknown; a win of ours is replayed move by move in our kernel. The table
gives decided %, won %, proved %, median and p95 seconds (wall clock, and CPU seconds, fairer
on a shared machine) for each, and the deals the two answer differently: a win by one and a
proof by the other is a bug in one of them (or a difference of rules) and makes the exit
status 1.

The games (``--game``), each ours with the options that make its rules Solvitaire's:

* ``klondike-draw1`` / ``klondike-draw3``: Klondike, unlimited redeals, foundation cards may
  come back (ours ``--relaxed``; Solvitaire's ``klondike-deal-1`` / ``klondike``);
* ``klondike-draw1-strict`` / ``klondike-draw3-strict``: the same without foundation return
  (our default rules; Solvitaire's preset with ``"removable": false``, as custom rules);
* ``freecell``: four cells, runs moved as supermoves here, card by card there (the same game);
* ``bakers-game``: ours lets foundation cards come back, so Solvitaire gets its
  ``bakers-game`` with ``"removable": true`` (custom rules);
* ``golf``: no wrap (K-A) either side; ours is won when the tableau is cleared, Solvitaire's
  when every card is on the hole, the same thing (the stock can always be dealt out).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class GameSpec:
    """One game as both solvers speak it."""

    variant: str                      # ours
    options: dict[str, Any]           # ours
    solvitaire_type: str              # Solvitaire's preset (its --type), or the base of custom rules
    custom_rules: dict[str, Any] | None = None  # Solvitaire's rules JSON, where its preset differs
    note: str = ""


_KLONDIKE = {"tableau piles": {"count": 7, "build policy": "red-black", "spaces policy": "kings",
                               "move built group": "partial-if-card-above-buildable",
                               "diagonal deal": True, "face up cards": "top"}}


def _klondike_rules(deal: int, removable: bool) -> dict[str, Any]:
    return {**_KLONDIKE, "foundations": {"removable": removable},
            "stock": {"size": 24, "deal count": deal, "redeal": True}}


GAMES: dict[str, GameSpec] = {
    "klondike-draw1": GameSpec("klondike", {"draw": 1, "redeals": None, "relaxed": True}, "klondike-deal-1",
                               note="unlimited redeals, foundation cards may come back"),
    "klondike-draw3": GameSpec("klondike", {"draw": 3, "redeals": None, "relaxed": True}, "klondike",
                               note="unlimited redeals, foundation cards may come back"),
    "klondike-draw1-strict": GameSpec("klondike", {"draw": 1, "redeals": None}, "klondike-deal-1",
                                      _klondike_rules(1, False), "unlimited redeals, no foundation return"),
    "klondike-draw3-strict": GameSpec("klondike", {"draw": 3, "redeals": None}, "klondike",
                                      _klondike_rules(3, False), "unlimited redeals, no foundation return"),
    "freecell": GameSpec("freecell", {}, "free-cell", note="4 cells"),
    "bakers-game": GameSpec("bakers-game", {}, "bakers-game",
                            {"tableau piles": {"build policy": "same-suit"}, "cells": {"count": 4},
                             "foundations": {"removable": True}},
                            "4 cells, foundation cards may come back (ours does; Solvitaire's preset not)"),
    "golf": GameSpec("golf", {"wrap": False}, "golf", note="no K-A wrap"),
}


class ConversionError(ValueError):
    """A position Solvitaire's deal format cannot say."""


def solvitaire_card(name: str, face_down: bool = False) -> str:
    """Our card name as Solvitaire writes it: ``'TH'`` -> ``'10H'``; face down -> ``'10h'``."""
    rank, suit = name[:-1], name[-1]
    if rank == "T":
        rank = "10"
    return rank + (suit.lower() if face_down else suit.upper())


def to_solvitaire(game: Any) -> dict[str, Any]:
    """The game's position as Solvitaire's JSON deal (its ``deal_parser``): every list bottom
    card first (a stock's last card is its top, the first turned); in tableau piles a face-down
    card has a lower-case suit. Raises ConversionError for what the format cannot hold."""
    rules = game.rules
    position = game.to_position()["piles"]
    out: dict[str, Any] = {}
    tableau: list[list[str]] = []
    foundations: list[str] = []
    for i, name in enumerate(rules.names):
        role, pile = rules.role[i], position[name]
        down, up = list(pile["down"]), list(pile["up"])
        if role == "tableau":
            tableau.append([solvitaire_card(c, True) for c in down] + [solvitaire_card(c) for c in up])
        elif role == "stock":
            out["stock"] = [solvitaire_card(c) for c in down + up]
        elif role == "waste":
            if down + up:
                out["waste"] = [solvitaire_card(c) for c in down + up]
        elif role == "foundation":
            cards = [solvitaire_card(c) for c in down + up]
            if rules.variant.name == "golf":  # Golf's one foundation is Solvitaire's hole
                if not cards:
                    raise ConversionError("Golf's hole is empty: Solvitaire's deal needs its card")
                out["hole"] = cards[-1]
            else:
                foundations.extend(cards)
        elif role == "reserve":
            if down + up:  # Solvitaire's deal schema has no free cells
                raise ConversionError(f"{name} holds cards: Solvitaire's deal format has no free cells")
        else:
            raise ConversionError(f"a {role} pile ({name}) has no place in Solvitaire's deal format")
    out["tableau piles"] = tableau
    if foundations:
        out["foundations"] = foundations
    return {"tableau piles": out.pop("tableau piles"), **out}


def deal(spec: GameSpec, seed: int) -> Any:
    from solitaire.core import Game, Rules, get_variant

    return Game.new(Rules.of(get_variant(spec.variant), spec.options), seed)


# --- the two solvers ----------------------------------------------------------------------

@dataclass
class Answer:
    solver: str
    result: str            # "win", "unwinnable" or "unknown"
    seconds: float         # wall clock
    cpu: float             # CPU seconds
    states: int | None = None
    detail: str = ""
    replays: bool | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def run_ours(spec: GameSpec, seed: int, timeout: float) -> Answer:
    from solitaire.core.solver import solve

    game = deal(spec, seed)
    began, cpu = time.perf_counter(), time.process_time()
    result = solve(game, timeout=timeout)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - began
    replays = None
    if result.result == "win":
        check = deal(spec, seed)
        try:
            for move in result.moves:
                check.play(move)
            replays = bool(check.won)
        except Exception:
            replays = False
    return Answer("ours", result.result, wall, cpu, result.states, f"{result.engine}/{result.method}", replays)


_SOLVITAIRE_ANSWERS = {"solved": "win", "unsolvable": "unwinnable", "timed-out": "unknown",
                       "memory-limit-reached": "unknown"}


def solvitaire_command(binary: str, spec: GameSpec, deal_file: str, rules_file: str | None,
                       timeout: float, streamliners: str) -> list[str]:
    rules = ["--custom-rules", rules_file] if rules_file else ["--type", spec.solvitaire_type]
    return [binary, *rules, "--classify", "--timeout", str(max(1, round(timeout * 1000))),
            "--streamliners", streamliners, deal_file]


def parse_classify(text: str) -> tuple[str, int | None, int | None]:
    """Solvitaire's ``--classify`` line: the answer, its milliseconds and the states it
    searched. The line is ``, TYPE, MS, STATES, ... , TYPE``; with ``smart-solvability`` it
    holds the streamlined run's figures, then the exact run's (or blanks), then the final
    answer, and the milliseconds and states are summed over both runs. Raises ValueError on
    anything else."""
    for line in text.splitlines():
        fields = [f.strip() for f in line.split(",")]
        if len(fields) < 4 or fields[-1] not in _SOLVITAIRE_ANSWERS:
            continue
        ms = states = 0
        runs = 0
        for i, value in enumerate(fields[:-1]):
            if value in _SOLVITAIRE_ANSWERS and i + 2 < len(fields) - 1 and fields[i + 1].isdigit():
                ms += int(fields[i + 1])
                states += int(fields[i + 2])
                runs += 1
        if runs:
            return _SOLVITAIRE_ANSWERS[fields[-1]], ms, states
    raise ValueError(f"no answer in Solvitaire's output: {text.strip()[-200:]!r}")


def run_solvitaire(binary: str, spec: GameSpec, seed: int, timeout: float, workdir: str,
                   streamliners: str = "none") -> Answer:
    position = to_solvitaire(deal(spec, seed))
    deal_file = os.path.join(workdir, f"deal-{seed}.json")
    with open(deal_file, "w", encoding="utf-8") as f:
        json.dump(position, f)
    rules_file = None
    if spec.custom_rules is not None:
        rules_file = os.path.join(workdir, "rules.json")
        with open(rules_file, "w", encoding="utf-8") as f:
            json.dump(spec.custom_rules, f)
    command = solvitaire_command(binary, spec, deal_file, rules_file, timeout, streamliners)
    usage_file = os.path.join(workdir, "usage.txt")
    if os.access(GNU_TIME, os.X_OK):  # its CPU seconds and peak resident set, the child's own
        command = [GNU_TIME, "-f", "%U %S %M", "-o", usage_file, *command]
    guard = timeout + max(5.0, timeout)  # its own timeout should end it; this ends it if not
    began = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        out, _ = proc.communicate(timeout=guard)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return Answer("solvitaire", "unknown", time.perf_counter() - began, guard, None, "killed by the guard")
    wall = time.perf_counter() - began
    cpu, rss = _usage(usage_file)
    try:
        result, ms, states = parse_classify(out)
    except ValueError as e:
        return Answer("solvitaire", "unknown", wall, cpu, None, f"error: {e}")
    extra: dict[str, Any] = {"own_s": (ms or 0) / 1000}
    if rss is not None:
        extra["peak_rss_mb"] = rss
    return Answer("solvitaire", result, wall, cpu, states, "", extra=extra)


GNU_TIME = "/usr/bin/time"
_children_cpu = [0.0]


def _usage(usage_file: str) -> tuple[float, float | None]:
    """CPU seconds and peak resident set (MB) of the Solvitaire run just reaped: from GNU
    time's file where it ran under it, else the CPU from this process's children's total."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = usage.ru_utime + usage.ru_stime
    cpu, _children_cpu[0] = total - _children_cpu[0], total
    try:
        with open(usage_file, encoding="utf-8") as f:
            user, system, kb = f.read().split()[-3:]
        os.unlink(usage_file)
        return float(user) + float(system), int(kb) / 1024
    except (OSError, ValueError):
        return cpu, None


# --- the benchmark ------------------------------------------------------------------------

def summarize(rows: list[Answer], timeout: float) -> dict[str, Any]:
    """The shares (%) and seconds of one solver's answers; ``late``: answers (won or proved)
    that came after the budget (ours: a win's line replayed through the kernel after the
    search; Solvitaire: an answer near its timeout, with its process start and exit)."""
    n = len(rows)
    won = sum(r.result == "win" for r in rows)
    proved = sum(r.result == "unwinnable" for r in rows)
    secs = sorted(r.seconds for r in rows)
    cpus = sorted(r.cpu for r in rows)
    p95 = min(n - 1, math.ceil(0.95 * n) - 1)
    out: dict[str, Any] = {"deals": n, "decided": round(100 * (won + proved) / n, 1), "won": round(100 * won / n, 1),
           "proved": round(100 * proved / n, 1), "unknown": round(100 * (n - won - proved) / n, 1),
           "median_s": round(statistics.median(secs), 3), "p95_s": round(secs[p95], 3),
           "median_cpu_s": round(statistics.median(cpus), 3), "p95_cpu_s": round(cpus[p95], 3),
           "total_s": round(sum(secs), 1),
           "late": sum(r.result != "unknown" and r.seconds > timeout for r in rows)}
    own = sorted(r.extra["own_s"] for r in rows if "own_s" in r.extra)
    if own:  # the time Solvitaire reports itself, without its process start and its reading the deal
        out["median_own_s"] = round(statistics.median(own), 3)
        rss = [r.extra["peak_rss_mb"] for r in rows if "peak_rss_mb" in r.extra]
        out["peak_rss_mb"] = round(max(rss), 1) if rss else None
    if rows and rows[0].solver == "ours":
        out["wins_replayed"] = f"{sum(r.replays is True for r in rows)}/{won}"
        import resource

        out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--solvitaire", help="the Solvitaire binary (built outside this repository)")
    ap.add_argument("--game", choices=sorted(GAMES), default="klondike-draw1")
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds a deal, for each solver")
    ap.add_argument("--sample-seed", type=int, default=2026)
    ap.add_argument("--seeds", help="these deals (comma-separated seeds) instead of a sample, e.g. to re-run one")
    ap.add_argument("--streamliners", default="none",
                    choices=("none", "smart-solvability", "both", "suit-symmetry", "auto-foundations"),
                    help="Solvitaire's --streamliners (none: its exact search; smart-solvability: a tenth of "
                         "the time with its streamliners, then the exact search)")
    ap.add_argument("--json", action="store_true", help="one JSON line a deal, then the summary")
    ap.add_argument("--show", type=int, metavar="SEED", help="print one deal in both forms and stop")
    args = ap.parse_args(argv)
    spec = GAMES[args.game]
    if args.seeds:
        try:
            seeds = [int(s) for s in args.seeds.split(",")]
        except ValueError:
            ap.error(f"--seeds takes whole numbers separated by commas, got {args.seeds!r}")
        args.deals = len(seeds)
    else:
        seeds = random.Random(args.sample_seed).sample(range(1_000_000_000), max(0, args.deals))
    for seed in seeds + ([args.show] if args.show is not None else []):
        try:
            deal(spec, seed)
        except ValueError as e:
            ap.error(str(e))
    if args.show is not None:
        game = deal(spec, args.show)
        print(f"ours ({spec.variant}, seed {args.show}; bottom card first, face-down cards in brackets):")
        for name, pile in game.to_position()["piles"].items():
            print(f"  {name:>10}: " + " ".join([f"[{c}]" for c in pile["down"]] + list(pile["up"])))
        print("Solvitaire's deal (a lower-case suit is face down):")
        for key, value in to_solvitaire(game).items():
            print(f"  {key}: {json.dumps(value)}")
        return 0
    if not args.solvitaire:
        ap.error("--solvitaire PATH is needed (the binary)")
    binary = str(Path(args.solvitaire).resolve())
    if not os.access(binary, os.X_OK):
        ap.error(f"{args.solvitaire} is not an executable file")
    if args.deals < 1 or args.timeout <= 0:
        ap.error("--deals and --timeout must be positive")
    from solitaire.core.solver import solve

    solve(deal(spec, seeds[0]), timeout=None, max_states=1)  # our tables, built once a process, not timed
    ours: list[Answer] = []
    theirs: list[Answer] = []
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="vs-solvitaire-") as workdir:
        for i, seed in enumerate(seeds):
            order = ("ours", "solvitaire") if i % 2 == 0 else ("solvitaire", "ours")
            got: dict[str, Answer] = {}
            for who in order:
                if who == "ours":
                    got[who] = run_ours(spec, seed, args.timeout)
                else:
                    got[who] = run_solvitaire(binary, spec, seed, args.timeout, workdir, args.streamliners)
            ours.append(got["ours"])
            theirs.append(got["solvitaire"])
            if i == 0 and got["solvitaire"].detail.startswith("error"):  # it cannot read the deal or the line
                print(f"Solvitaire did not answer the first deal ({seed}): {got['solvitaire'].detail}",
                      file=sys.stderr)
                return 2
            if args.json:
                print(json.dumps({"seed": seed, "first": order[0],
                                  **{w: vars(a) for w, a in got.items()}}), flush=True)
            else:
                print(f"\r{i + 1}/{len(seeds)}", end="", file=sys.stderr, flush=True)
    if not args.json:
        print(file=sys.stderr)
    wall = time.perf_counter() - began
    disagree = [seed for seed, a, b in zip(seeds, ours, theirs, strict=True)
                if {a.result, b.result} == {"win", "unwinnable"}]
    only_ours = [seed for seed, a, b in zip(seeds, ours, theirs, strict=True)
                 if a.result != "unknown" and b.result == "unknown"]
    only_theirs = [seed for seed, a, b in zip(seeds, ours, theirs, strict=True)
                   if b.result != "unknown" and a.result == "unknown"]
    errors = [(seed, b.detail) for seed, b in zip(seeds, theirs, strict=True) if b.detail]
    summary = {"game": args.game, "ours": f"{spec.variant} {spec.options}",
               "solvitaire": "custom rules " + json.dumps(spec.custom_rules) if spec.custom_rules
               else f"--type {spec.solvitaire_type}", "streamliners": args.streamliners,
               "deals": args.deals, "timeout": args.timeout, "sample_seed": args.sample_seed,
               "results": {"ours": summarize(ours, args.timeout), "solvitaire": summarize(theirs, args.timeout)},
               "win_against_proof": disagree, "decided_by_ours_only": only_ours,
               "decided_by_solvitaire_only": only_theirs, "solvitaire_errors": errors,
               "wall_s": round(wall, 1), "load_avg": [round(x, 2) for x in os.getloadavg()]}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{args.game}: ours {spec.variant} {spec.options}; Solvitaire {summary['solvitaire']}, "
              f"streamliners {args.streamliners}")
        print(f"{args.deals} deals (--sample-seed {args.sample_seed}), {args.timeout:g} s each, by turns")
        keys = ["decided", "won", "proved", "unknown", "median_s", "p95_s", "median_cpu_s", "p95_cpu_s",
                "total_s", "late"]
        print(f"{'':>12} " + " ".join(f"{k:>12}" for k in keys))
        for who in ("ours", "solvitaire"):
            r = summary["results"][who]
            print(f"{who:>12} " + " ".join(f"{r[k]:>12}" for k in keys))
        print(f"wins replayed (ours): {summary['results']['ours']['wins_replayed']}; Solvitaire's own median "
              f"seconds (no process start): {summary['results']['solvitaire'].get('median_own_s')}; peak RSS MB "
              f"ours {summary['results']['ours']['peak_rss_mb']}, "
              f"Solvitaire {summary['results']['solvitaire'].get('peak_rss_mb')}")
        print(f"win against proof: {disagree}")
        print(f"decided by ours only: {only_ours}")
        print(f"decided by Solvitaire only: {only_theirs}")
        if errors:
            print(f"Solvitaire errors: {errors}")
        print(f"wall {wall:.1f} s, load average {summary['load_avg']}")
    return 1 if disagree or errors else 0


if __name__ == "__main__":
    sys.exit(main())
