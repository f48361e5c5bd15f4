"""Find, for each game, a deal the solver wins and its winning line, for the tests that play
a whole won game through the JSON protocol (tests/test_won_games.py).

    python benchmarks/find_won_lines.py golf canfield --seeds 1..40 --states 200000
    python benchmarks/find_won_lines.py freecell --option cells=2 --seeds 1..20

Writes ``tests/data/won/GAME.txt`` (``GAME.OPTIONS.txt`` for other options than the defaults,
``OPTIONS`` as a pool's file is named, e.g. ``freecell.cells-2.txt``): a comment saying how the
line was found, ``seed N``, ``option NAME=VALUE`` lines for the options given, then one move a
line in notation. Not a test: run it by hand when a game is added or its rules change.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path
from typing import Any

from solitaire.core import Game, Rules, get_variant
from solitaire.core.solver import options_slug, parse_range, solve

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "won"


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``["cells=2", "wrap=on"]`` as ``{"cells": "2", "wrap": "on"}`` (the variant parses the values)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"an option is NAME=VALUE, got {pair!r}")
        options[name.strip()] = value.strip()
    return options


def won_file(name: str, slug: str) -> Path:
    return OUT / (f"{name}.txt" if slug == "default" else f"{name}.{slug}.txt")


def find(name: str, options: dict[str, Any], seeds: range, states: int, command: str) -> bool:
    """Write the first seed of ``seeds`` the solver wins; False when it wins none."""
    defn = get_variant(name)
    values = defn.resolve_options(options)
    rules = Rules.of(defn, values)
    slug = options_slug(defn, values)
    for seed in seeds:
        result = solve(Game.new(rules, seed), timeout=None, max_states=states)
        if result.result != "win":
            continue
        game = Game.new(rules, seed)
        for move in result.moves:
            game.play(move)
        assert game.won, (name, seed)
        given = {o.name: o.show(values[o.name]) for o in defn.options if values[o.name] != o.default}
        head = [f"# {command} ({datetime.date.today().isoformat()}): the solver won seed {seed} "
                f"in {result.states} states", f"seed {seed}"]
        head += [f"option {k}={v}" for k, v in given.items()]
        won_file(defn.name, slug).write_text("\n".join(head + list(result.moves)) + "\n")
        print(f"{name} [{slug}]: seed {seed}, {len(result.moves)} moves, {result.states} states", flush=True)
        return True
    print(f"{name} [{slug}]: no win in seeds {seeds.start}..{seeds.stop - 1} within {states} states each",
          flush=True)
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="+")
    parser.add_argument("--seeds", default="1..40", help="A..B: the deals to try, in order")
    parser.add_argument("--states", type=int, default=200_000, help="the solver's budget per deal")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an option of the games (repeat for more)")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    command = "python benchmarks/find_won_lines.py " + " ".join(sys.argv[1:])
    for name in args.games:
        find(name, parse_options(args.option), parse_range(args.seeds), args.states, command)


if __name__ == "__main__":
    main()
