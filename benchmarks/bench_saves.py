"""What saving costs per command, and what resuming costs, as a game grows long.

Plays one long game of random legal moves (a random undo now and then, and an undo whenever
no move is left) under a saves.Tracker in a temporary data folder, and times each command's
save (Tracker.changed: working out the command, appending its line) in windows ending at the
given lengths; then times reading the save back (replaying every command from the deal).
Not a test: run it by hand and put the figures in docs/table.md.

    python benchmarks/bench_saves.py                      # windows at 1,000, 5,000 and 25,000 commands
    python benchmarks/bench_saves.py --at 5000 --at 100000
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--at", type=int, action="append", help="command counts to report at")
    parser.add_argument("--window", type=int, default=500, help="commands timed before each count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    marks = sorted(args.at or [1_000, 5_000, 25_000])

    with tempfile.TemporaryDirectory() as home:
        os.environ["SOLITAIRE_HOME"] = home
        from solitaire.cli import saves
        from solitaire.core import Game, Rules, get_variant

        defn = get_variant("klondike")
        rng = random.Random(args.seed)
        game = Game.new(Rules.of(defn, {"draw": 3}), args.seed)
        tracker = saves.Tracker(game, dealt=True)
        tracker.begin()
        clock = time.perf_counter
        count = 0
        print(f"python {platform.python_version()} on {platform.machine()}, {sys.platform}")
        print(f"{'commands':>9} {'median ms':>10} {'p99 ms':>8} {'max ms':>8} {'file KB':>8} {'resume s':>9}")
        for mark in marks:
            times = []
            while count < mark:
                moves = game.legal_moves()
                if not moves or (game.history and rng.random() < 0.05):
                    game.undo()
                else:
                    game.play(moves[rng.randrange(len(moves))])
                if game.won:
                    break
                count += 1
                t0 = clock()
                tracker.changed()
                t1 = clock()
                if count > mark - args.window:
                    times.append((t1 - t0) * 1000)
            path = tracker.slot.path()
            t0 = clock()
            back = saves.read_save_file(defn, path)
            resume = clock() - t0
            assert back is not None and back.game.key() == game.key()
            times.sort()
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
            print(f"{count:>9,} {statistics.median(times):>10.3f} {p99:>8.3f} {times[-1]:>8.3f} "
                  f"{path.stat().st_size / 1024:>8.0f} {resume:>9.2f}")
        tracker.close()


if __name__ == "__main__":
    main()
