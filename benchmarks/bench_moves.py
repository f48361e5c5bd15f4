"""How fast the kernel's hot path is: legal-move generation, apply (push) and undo (pop).

Plays random legal games from fixed seeds and times the three operations a solver calls
millions of times. Not a test: run it by hand and put the figures in docs/performance.md.

    python benchmarks/bench_moves.py                  # Klondike draw 1 and draw 3
    python benchmarks/bench_moves.py --variant calculation --games 300

Each step generates the legal moves, applies one picked at random, and every so often
unwinds the game with pop() back to the deal (so undo is timed as often as apply).
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from typing import Any

from solitaire.core import Game, Rules, get_variant


def run(variant: str, options: dict[str, Any], games: int, steps: int, seed: int) -> dict[str, Any]:
    rules = Rules.of(get_variant(variant), options)
    rng = random.Random(seed)
    gen = push = pop = 0
    t_gen = t_push = t_pop = 0.0
    clock = time.perf_counter
    for deal in range(games):
        game = Game.new(rules, deal)
        moves_made = 0
        for _ in range(steps):
            t0 = clock()
            moves = game.legal_moves()
            t1 = clock()
            gen += 1
            t_gen += t1 - t0
            if not moves:
                break
            move = moves[rng.randrange(len(moves))]
            t0 = clock()
            game.push(move)
            t1 = clock()
            push += 1
            moves_made += 1
            t_push += t1 - t0
        t0 = clock()
        while game.history:
            game.pop()
        t1 = clock()
        pop += moves_made
        t_pop += t1 - t0
    total = t_gen + t_push + t_pop
    return {
        "variant": variant,
        "options": options,
        "legal_moves_per_s": gen / t_gen,
        "push_per_s": push / t_push,
        "pop_per_s": pop / t_pop,
        "cycle_per_s": push / total,  # one generate + apply + undo
        "steps": push,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="klondike")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--steps", type=int, default=200, help="moves per game at most")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the random move choice")
    args = parser.parse_args(argv)
    defn = get_variant(args.variant)
    option_sets = [{"draw": 1}, {"draw": 3}] if any(o.name == "draw" for o in defn.options) else [{}]
    print(f"python {platform.python_version()} on {platform.machine()}, {args.games} games x {args.steps} moves")
    print(f"{'variant':<22} {'legal_moves/s':>14} {'push/s':>12} {'pop/s':>12} {'gen+push+pop/s':>15}")
    for options in option_sets:
        r = run(args.variant, options, args.games, args.steps, args.seed)
        label = args.variant + "".join(f" {k}={v}" for k, v in options.items())
        print(f"{label:<22} {r['legal_moves_per_s']:>14,.0f} {r['push_per_s']:>12,.0f} "
              f"{r['pop_per_s']:>12,.0f} {r['cycle_per_s']:>15,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
