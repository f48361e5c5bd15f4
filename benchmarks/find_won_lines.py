"""Find, for each game, a deal the solver wins and its winning line, for the tests that play
a whole won game through the JSON protocol (tests/test_won_games.py).

    python benchmarks/find_won_lines.py golf canfield --seeds 1..40 --states 200000

Writes ``tests/data/won/GAME.txt``: the seed on the first line (``seed N``), then one move a
line in notation. Not a test: run it by hand when a game is added or its rules change.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from solitaire.core import Game, Rules, get_variant
from solitaire.core.solver import solve

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "won"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="+")
    parser.add_argument("--seeds", default="1..40", help="A..B: the deals to try, in order")
    parser.add_argument("--states", type=int, default=200_000, help="the solver's budget per deal")
    args = parser.parse_args()
    first, last = (int(x) for x in args.seeds.split(".."))
    OUT.mkdir(parents=True, exist_ok=True)
    for name in args.games:
        rules = Rules.of(get_variant(name))
        for seed in range(first, last + 1):
            result = solve(Game.new(rules, seed), timeout=None, max_states=args.states)
            if result.result == "win":
                game = Game.new(rules, seed)
                for move in result.moves:
                    game.play(move)
                assert game.won, (name, seed)
                (OUT / f"{name}.txt").write_text(f"seed {seed}\n" + "\n".join(result.moves) + "\n")
                print(f"{name}: seed {seed}, {len(result.moves)} moves, {result.states} states")
                break
        else:
            print(f"{name}: no win in seeds {args.seeds} within {args.states} states each")


if __name__ == "__main__":
    main()
