"""Find, for each game, a deal the solver wins and its winning line, for the tests that play
a whole won game through the JSON protocol (tests/test_won_games.py).

    python benchmarks/find_won_lines.py golf canfield --seeds 1..40 --states 200000
    python benchmarks/find_won_lines.py freecell --option cells=2 --seeds 1..20
    nice python benchmarks/find_won_lines.py gypsy --engine native --seeds 1..10 --states 5000000
    nice python benchmarks/find_won_lines.py spiderette --guided --seeds 1..10 --states 1000000

With ``--guided`` the compiled core's guided pass runs alone (a beam search, ``--width`` positions a
level, or ever wider rounds; docs/solver.md): what wins whole deals of the Spider family.
``--by-deals`` (with ``--guided``) runs the beam by deals (a card of a stock dealt onto the
columns costs less than a loose one, positions are grouped by the cards left in the stock, no
group more than half the beam): what won Spider of four suits.

With ``--keep SUITS`` (for a game the solver wins no whole deal of within a budget) each deal
is first taken to a late position: every card not of ``SUITS`` is put home, on foundations of
their own, and the cards of ``SUITS`` stay where the deal put them, in its order and face down
where it dealt them face down; the line wins from there.

Writes ``tests/data/won/GAME.txt`` (``GAME.OPTIONS.txt`` for other options than the defaults,
``OPTIONS`` as a pool's file is named, e.g. ``freecell.cells-2.txt``): a comment saying how the
line was found, ``seed N``, ``option NAME=VALUE`` lines for the options given, then one move a
line in notation (with ``--keep``: ``position GAME.json``, the late position's file beside it,
instead of the seed). Not a test: run it by hand when a game is added or its rules change.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from solitaire.core import Game, Rules, get_variant
from solitaire.core.solver import options_slug, parse_range, solve
from solitaire.core.solver.native import ENGINES, guided

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


def late(defn: Any, rules: Rules, seed: int, keep: str) -> dict[str, Any]:
    """Deal ``seed``, then put every card not of the suits ``keep`` home: the position."""
    position = Game.new(rules, seed).to_position()
    piles = position["piles"]
    gone: Counter[str] = Counter()  # the suits put home, a count of cards each
    for index, name in enumerate(rules.names):
        if index in rules.foundations:
            continue
        pile = piles[name]
        for face in ("down", "up"):
            gone.update(card[-1] for card in pile[face] if card[-1] not in keep)
            pile[face] = [card for card in pile[face] if card[-1] in keep]
        if not pile["up"] and pile["down"] and rules.flip[index]:
            pile["up"] = [pile["down"].pop()]
    empty = [rules.names[f] for f in rules.foundations if not piles[rules.names[f]]["up"]]
    for suit, count in sorted(gone.items()):
        assert count % 13 == 0, (suit, count)
        for _ in range(count // 13):
            piles[empty.pop(0)]["up"] = [rank + suit for rank in "A23456789TJQK"]
    position["seed"] = None
    try:
        Game.from_position(defn, position)
    except Exception:  # foundations built down (Spider's whole suits): the King first
        for f in rules.foundations:
            piles[rules.names[f]]["up"].reverse()
        Game.from_position(defn, position)
    return position


def start_game(defn: Any, rules: Rules, seed: int, position: dict[str, Any] | None) -> Game:
    return Game.from_position(defn, position) if position else Game.new(rules, seed)


def find(name: str, options: dict[str, Any], seeds: range, states: int, command: str, keep: str = "",
         engine: str = "auto", beam: bool = False, width: int | None = None, by_deals: bool = False) -> bool:
    """Write the first seed of ``seeds`` the solver wins; False when it wins none. With
    ``keep``, when no seed is won whole, the first whose late position the solver wins. ``engine``
    is passed to :func:`solve` (a native win's line is replayed by the tests through the kernel);
    ``beam``: the compiled core's guided pass alone, ``width`` positions a level (None: widening)."""
    defn = get_variant(name)
    values = defn.resolve_options(options)
    rules = Rules.of(defn, values)
    slug = options_slug(defn, values)
    tries: list[tuple[int, dict[str, Any] | None]] = [(seed, None) for seed in seeds]
    if keep:
        tries += [(seed, late(defn, rules, seed, keep)) for seed in seeds]
    for seed, start in tries:
        game = start_game(defn, rules, seed, start)
        try:
            result = (guided(game, states, width, by_deals=by_deals) if beam
                      else solve(game, timeout=None, max_states=states, engine=engine))
        except RuntimeError as error:  # --guided: no compiled core, or one that does not speak the game
            raise SystemExit(f"{name}: {error}") from None
        if result.result != "win":
            continue
        game = start_game(defn, rules, seed, start)
        for move in result.moves:
            game.play(move)
        assert game.won, (name, seed)
        given = {o.name: o.show(values[o.name]) for o in defn.options if values[o.name] != o.default}
        won = f"seed {seed}" if start is None else f"deal {seed}'s late position"
        head = [f"# {command} ({datetime.date.today().isoformat()}): the solver won {won}"
                f" in {result.states} states ({result.engine} engine{', guided pass' if beam else ''})"]
        path = won_file(defn.name, slug)
        path.with_suffix(".json").unlink(missing_ok=True)
        if start:
            head += [f"# The solver won no deal of {seeds.start}..{seeds.stop - 1} whole within {states} states:",
                     f"# this game starts from deal {seed} with every card not of {', '.join(keep)} put home, the",
                     f"# others where the deal put them ({path.stem}.json)",
                     f"position {path.stem}.json"]
            path.with_suffix(".json").write_text(json.dumps(start) + "\n")
        else:
            head += [f"seed {seed}"]
        head += [f"option {k}={v}" for k, v in given.items()]
        path.write_text("\n".join(head + list(result.moves)) + "\n")
        print(f"{name} [{slug}]: " + ("" if start is None else "late position of ")
              + f"seed {seed}, {len(result.moves)} moves, {result.states} states", flush=True)
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
    parser.add_argument("--keep", default="", metavar="SUITS",
                        help="start from a late position: only the cards of these suits (e.g. S) left to play")
    parser.add_argument("--engine", default="auto", choices=ENGINES,
                        help="the solver's engine (auto: the compiled core where it speaks the game)")
    parser.add_argument("--guided", action="store_true",
                        help="the compiled core's guided pass alone (a beam search: the Spider family)")
    parser.add_argument("--width", type=int, default=None,
                        help="with --guided: the beam's width (default: rounds ever wider)")
    parser.add_argument("--by-deals", action="store_true",
                        help="with --guided: the beam by deals (for a stock dealt onto the columns)")
    args = parser.parse_args()
    if args.width is not None and (not args.guided or args.width < 1):
        parser.error("--width is a whole number from 1, with --guided")
    if args.by_deals and not args.guided:
        parser.error("--by-deals goes with --guided")
    OUT.mkdir(parents=True, exist_ok=True)
    command = "python benchmarks/find_won_lines.py " + " ".join(sys.argv[1:])
    for name in args.games:
        find(name, parse_options(args.option), parse_range(args.seeds), args.states, command, args.keep,
             args.engine, args.guided, args.width, args.by_deals)


if __name__ == "__main__":
    main()
