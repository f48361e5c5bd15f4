"""How long a hint from the player's view takes: the Python engine and the compiled core by turns.

    python benchmarks/bench_hints.py                           # every game, both engines
    python benchmarks/bench_hints.py --games klondike-1,freecell --seeds 4 --depths 0,20,60
    python benchmarks/bench_hints.py --engines native --states 2000,5000,10000   # the budget's cost
    python benchmarks/bench_hints.py --engines none --cli 8 --protocol 3         # the user's whole path

The positions are reached by random legal play from fixed seeds (deal ``s``, then ``depth``
random legal moves from a generator seeded by ``s`` and ``depth``), at several depths; a
position already over is skipped. On each one ``player_hint`` runs once per engine, the
engines by turns (which goes first alternates), with the same guesses and budget in states,
so each engine's answer is the same on any run and only the seconds move; the compiled
core's runs are repeated for each ``--threads`` (the guesses solved side by side, as many
at a time: the same answer, a shorter wait where processors are free). Every hint is
checked to be a legal move. Prints p50, p95 and max seconds a hint (wall clock: what the
player waits) per game and engine, p50 and p95 CPU seconds (the process's own time, the
fairer figure on a machine shared with other work), the won guesses a hint (of
``--samples``), and how often the two engines gave the same move. With ``--check STATES``
each hint is also judged against the real deal (every card known): of the positions a
full-information solve (the compiled core, STATES a pass) wins from, how many it still wins
after the hinted move ("on a won line"; a hint of nothing counts as off it).

``--cli N`` also times the whole path a user sees, start-up included: ``solitaire solve
klondike --seed S --hint`` for N seeds, each engine (``SOLITAIRE_ENGINE=python`` for the
Python one), and ``solitaire --version`` (the start-up alone), with each process's CPU
seconds (user + system). ``--protocol N`` plays N
Klondike deals through the JSON protocol (``solitaire play klondike --seed S --json --new``,
with ``SOLITAIRE_HOME`` a folder of its own, removed at the end),
following the hints: ``hint``, then the hinted move (``draw`` when there is none), ``--moves``
times, and times each ``hint`` line's reply (and the CPU seconds the process spent on it,
from /proc on Linux). Not a test: run it by hand and put the figures in
docs/performance.md ("Hints").
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

from solitaire.core import Game, Rules, get_variant
from solitaire.core.solver import native, player, player_hint

#: label -> (variant, options)
GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "klondike-1": ("klondike", {"draw": 1}),
    "klondike-3": ("klondike", {"draw": 3}),
    "freecell": ("freecell", {}),
    "spider": ("spider", {}),
    "golf": ("golf", {}),
    "pyramid": ("pyramid", {}),
    "canfield": ("canfield", {}),
    "forty-thieves": ("forty-thieves", {}),
    "yukon": ("yukon", {}),
    "double-klondike": ("double-klondike", {}),
    "calculation": ("calculation", {}),
}


def catalogue() -> list[str]:
    """Every built-in game's name (the plugin that ships with the package)."""
    from solitaire.core import registry

    return [d.name for d in registry().sorted() if d.provider == "solitaire-table"]


def position(rules: Rules, seed: int, depth: int) -> Game | None:
    """Deal ``seed`` after ``depth`` random legal moves, or None when the game is over first."""
    game = Game.new(rules, seed)
    rng = random.Random(seed * 1000 + depth)
    for _ in range(depth):
        moves = game.legal_moves()
        if not moves:
            return None
        game.push(moves[rng.randrange(len(moves))])
    return None if game.won or not game.legal_moves() else game


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def legal(game: Game, move: str | None) -> bool:
    if move is None:
        return True
    try:
        return game.refusal(game.parse_move(move)) is None
    except Exception:
        return False


def won_from(game: Game, check: int) -> bool:
    """The real deal (every card known) is won from here: a full-information solve in the
    compiled core (the front door), ``check`` states a pass, finds a win."""
    if game.won:
        return True
    return native.solve(game, timeout=None, max_states=check).result == "win"


def bench_game(label: str, seeds: int, depths: list[int], engines: list[str], samples: int,
               budgets: list[int], threads: list[int], check: int = 0,
               work: float = player.WORK) -> list[dict[str, Any]]:
    variant, options = GAMES[label]
    rules = Rules.of(get_variant(variant), options)
    # the Python engine solves one guess after another whatever ``threads`` says: one run of it
    runs = [(engine, states, n) for engine in engines for states in budgets
            for n in (threads if engine != "python" else threads[:1])]
    seconds: dict[tuple[str, int, int], list[float]] = {run: [] for run in runs}
    cpu: dict[tuple[str, int, int], list[float]] = {run: [] for run in runs}
    wins: dict[tuple[str, int, int], int] = {run: 0 for run in runs}
    moves: dict[tuple[str, int, int], list[str | None]] = {run: [] for run in runs}
    # with ``check``: the positions whose real deal is won from there, and of those the hints
    # after which it is still won (the hint is on a winning line of the real deal)
    winnable = 0
    kept: dict[tuple[str, int, int], int] = {run: 0 for run in runs}
    used = ""
    turn = 0
    for seed in range(seeds):
        for depth in depths:
            game = position(rules, seed, depth)
            if game is None:
                continue
            chosen, reason = native.choose(game)
            used = chosen if chosen == "native" else f"python ({reason})"
            order = runs if turn % 2 == 0 else runs[::-1]
            turn += 1
            answers = {}
            for run in order:
                engine, states, n = run
                c0, t0 = time.process_time(), time.perf_counter()
                kind = engine.partition("-")[2]
                move, won = player_hint(game, samples=samples, states=states, engine=engine.partition("-")[0],
                                        threads=n, full=kind == "full",
                                        work=None if kind == "states" else
                                        work * max(1.0, len(rules.deck) / player.CARDS) if kind == "flat"
                                        else work)
                seconds[run].append(time.perf_counter() - t0)
                cpu[run].append(time.process_time() - c0)
                if not legal(game, move):
                    raise SystemExit(f"{label} seed {seed} depth {depth}: {engine} hinted {move!r}, not a legal move")
                wins[run] += won
                answers[run] = move
            for run in runs:
                moves[run].append(answers[run])
            if check and won_from(game, check):
                winnable += 1
                after: dict[str | None, bool] = {}
                for run in runs:
                    move = answers[run]
                    if move not in after:
                        played = game.copy()
                        if move is not None:
                            played.play(move)
                        after[move] = move is not None and won_from(played, check)
                    kept[run] += after[move]
    rows = []
    for run in runs:
        engine, states, n = run
        if not seconds[run]:
            continue
        same = None
        if len(engines) > 1:
            other = next(r for r in runs if r[0] != engine and r[1] == states and r[2] == n) \
                if any(r[0] != engine and r[2] == n for r in runs) else \
                next(r for r in runs if r[0] != engine and r[1] == states)
            same = sum(a == b for a, b in zip(moves[run], moves[other], strict=True))
        rows.append({"game": label, "engine": engine, "states": states, "threads": 1 if engine == "python" else n,
                     "runs_in": used if engine != "python" else "python", "positions": len(seconds[run]),
                     "p50": statistics.median(seconds[run]),
                     "p95": quantile(seconds[run], 0.95), "max": max(seconds[run]),
                     "cpu50": statistics.median(cpu[run]), "cpu95": quantile(cpu[run], 0.95),
                     "wins": wins[run] / len(seconds[run]),
                     "same": same, "winnable": winnable if check else None, "kept": kept[run]})
    return rows


def command() -> list[str]:
    found = shutil.which("solitaire", path=os.path.dirname(sys.executable)) or shutil.which("solitaire")
    if found is None:
        raise SystemExit("the solitaire command is not on PATH (pip install -e .)")
    return [found]


HOME = tempfile.mkdtemp(prefix="bench-hints-")  # the games played leave no save in the user's folder


def environment(engine: str) -> dict[str, str]:
    env = dict(os.environ, SOLITAIRE_HOME=HOME)
    env.pop(native.ENGINE_VARIABLE, None)
    if engine == "python":
        env[native.ENGINE_VARIABLE] = "python"
    return env


def bench_cli(seeds: int, engines: list[str]) -> list[dict[str, Any]]:
    """``solitaire solve klondike --seed S --hint`` for each seed, the engines by turns, and
    ``solitaire --version`` (start-up alone)."""
    base = command()
    cases = [("solitaire --version", "auto", [*base, "--version"])]
    cases += [(f"solitaire solve klondike --seed S --hint ({engine})", engine, [*base, "solve", "klondike", "--seed",
               "{seed}", "--hint"]) for engine in engines]
    times: dict[str, list[float]] = {name: [] for name, _, _ in cases}
    cpu: dict[str, list[float]] = {name: [] for name, _, _ in cases}
    for seed in range(1, seeds + 1):
        for name, engine, argv in cases:
            words = [w.format(seed=seed) for w in argv]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            done = subprocess.run(words, env=environment(engine), capture_output=True, text=True, check=False)
            times[name].append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            if done.returncode != 0:
                raise SystemExit(f"{' '.join(words)} failed: {done.stderr.strip()}")
            if "--hint" in words:
                move = done.stdout.strip().removeprefix("hint: ")
                game = Game.new(Rules.of(get_variant("klondike"), {}), seed)
                if move != "no useful move" and not legal(game, move):
                    raise SystemExit(f"{' '.join(words)} hinted {move!r}, not a legal move")
    return [{"what": name, "runs": len(t), "p50": statistics.median(t), "p95": quantile(t, 0.95), "max": max(t),
             "cpu50": statistics.median(cpu[name]), "cpu95": quantile(cpu[name], 0.95)} for name, t in times.items()]


def process_cpu(pid: int) -> float | None:
    """A running process's CPU seconds so far (user + system, all its threads), where
    /proc tells (Linux), at its clock's resolution (1/100 s); else None."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bench_protocol(deals: int, moves: int, engines: list[str]) -> list[dict[str, Any]]:
    """Klondike through the JSON protocol, following the hints: each ``hint`` line's reply timed."""
    rows = []
    for engine in engines:
        times: list[float] = []
        cpu: list[float] = []
        for seed in range(1, deals + 1):
            with subprocess.Popen([*command(), "play", "klondike", "--seed", str(seed), "--json", "--new"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  text=True, env=environment(engine)) as proc:
                assert proc.stdin is not None and proc.stdout is not None

                def say(line: str) -> dict[str, Any]:
                    assert proc.stdin is not None and proc.stdout is not None
                    proc.stdin.write(line + "\n")
                    proc.stdin.flush()
                    reply: dict[str, Any] = json.loads(proc.stdout.readline())
                    return reply

                first = json.loads(proc.stdout.readline())
                if first.get("won"):
                    continue
                for _ in range(moves):
                    c0, t0 = process_cpu(proc.pid), time.perf_counter()
                    reply = say("hint")
                    times.append(time.perf_counter() - t0)
                    c1 = process_cpu(proc.pid)
                    if c0 is not None and c1 is not None:
                        cpu.append(c1 - c0)
                    hinted = reply.get("hint")
                    after = say(hinted or "draw")
                    if hinted is not None and not after["ok"]:
                        raise SystemExit(f"deal {seed}: the protocol's hint {hinted!r} was refused: {after['error']}")
                    if after["won"] or after["over"]:
                        break
                proc.stdin.write("quit\n")
                proc.stdin.flush()
        row = {"what": f"JSON protocol 'hint' reply ({engine})", "runs": len(times),
               "p50": statistics.median(times), "p95": quantile(times, 0.95), "max": max(times)}
        if cpu:
            row.update(cpu50=statistics.median(cpu), cpu95=quantile(cpu, 0.95))
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default=",".join(GAMES),
                        help=f"comma-separated, of {', '.join(GAMES)}, or any game's name (its default "
                             "options), or 'all' (every built-in game, default options)")
    parser.add_argument("--seeds", type=int, default=4, help="deals per game (seeds 0..N-1)")
    parser.add_argument("--depths", default="0,15,40", help="random legal moves played before the hint")
    parser.add_argument("--engines", default="python,auto",
                        help="python, auto (the front door: the compiled core where it speaks the game), "
                             "auto-full (the same, each guess solved in full: player_hint(full=True), the "
                             "reference), auto-states (the same with no bound on a guess's work, only on its "
                             "states: player_hint(work=None)), auto-flat (the same work a state in every "
                             "game, not fewer positions for a deck of more than player.CARDS cards), or none "
                             "(only --cli / --protocol)")
    parser.add_argument("--samples", type=int, default=6, help="guesses of the hidden cards a hint")
    parser.add_argument("--states", default="2000", help="states a guess may store (comma-separated to compare)")
    parser.add_argument("--work", type=float, default=player.WORK,
                        help="positions a guess's search may reach, a state of its budget (player_hint's work; "
                             "auto-states has no such bound)")
    parser.add_argument("--threads", default="1,2",
                        help="threads a hint solves its guesses in, in the compiled core (comma-separated)")
    parser.add_argument("--check", type=int, default=0, metavar="STATES",
                        help="also judge each hint by a full-information solve of the real deal (STATES a pass): "
                             "of the positions won from there, how many are still won after the hinted move")
    parser.add_argument("--cli", type=int, default=0, metavar="N", help="also time `solitaire solve --hint` N times")
    parser.add_argument("--protocol", type=int, default=0, metavar="N",
                        help="also time the JSON protocol's hint on N deals")
    parser.add_argument("--moves", type=int, default=10, help="hints a deal through the protocol")
    args = parser.parse_args(argv)
    engines = [] if args.engines == "none" else args.engines.split(",")
    for engine in engines:
        if engine not in ("python", "auto", "auto-full", "auto-states", "auto-flat"):
            parser.error(f"an engine is python, auto, auto-full, auto-states or auto-flat, got {engine!r}")
    labels = catalogue() if args.games == "all" else args.games.split(",")
    for label in labels:
        if label not in GAMES:
            try:
                get_variant(label)
            except LookupError:  # UnknownVariantError
                parser.error(f"unknown game {label!r}: one of {', '.join(GAMES)}, or a game's name")
            GAMES[label] = (label, {})
    depths = [int(d) for d in args.depths.split(",")]
    budgets = [int(s) for s in args.states.split(",")]
    threads = [int(n) for n in args.threads.split(",")]
    print(f"python {platform.python_version()} on {platform.machine()}, compiled core "
          f"{native.native_version() or 'not installed'}, load average {os.getloadavg()[0]:.1f}; "
          f"{args.samples} guesses a hint, seeds 0..{args.seeds - 1}, depths {args.depths}, work {args.work:g}")
    if engines:
        print(f"{'game':<11} {'engine':<7} {'states':>6} {'thr':>3} {'runs in':<14} {'hints':>5} {'p50 s':>7} "
              f"{'p95 s':>7} {'max s':>7} {'cpu p50':>7} {'cpu p95':>7} {'won/hint':>8} {'same':>5}")
        for label in labels:
            for r in bench_game(label, args.seeds, depths, engines, args.samples, budgets, threads, args.check,
                                args.work):
                same = "" if r["same"] is None else f"{r['same']}/{r['positions']}"
                line = "" if r["winnable"] is None else f"{r['kept']}/{r['winnable']}"
                print(f"{r['game']:<11} {r['engine']:<7} {r['states']:>6} {r['threads']:>3} {r['runs_in'][:14]:<14} "
                      f"{r['positions']:>5} {r['p50']:>7.3f} {r['p95']:>7.3f} {r['max']:>7.3f} "
                      f"{r['cpu50']:>7.3f} {r['cpu95']:>7.3f} {r['wins']:>8.1f} {same:>5} {line:>13}", flush=True)
    shown = engines or ["python", "auto"]
    rows = (bench_cli(args.cli, shown) if args.cli else []) + \
        (bench_protocol(args.protocol, args.moves, shown) if args.protocol else [])
    if rows:
        print(f"{'the whole path':<52} {'runs':>4} {'p50 s':>7} {'p95 s':>7} {'max s':>7} "
              f"{'cpu p50':>7} {'cpu p95':>7}")
        for r in rows:
            cpus = f"{r['cpu50']:>7.3f} {r['cpu95']:>7.3f}" if "cpu50" in r else f"{'':>7} {'':>7}"
            print(f"{r['what']:<52} {r['runs']:>4} {r['p50']:>7.3f} {r['p95']:>7.3f} {r['max']:>7.3f} {cpus}",
                  flush=True)
    shutil.rmtree(HOME, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
