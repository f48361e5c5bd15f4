"""Build the pools of won deals that new games are dealt from (core/solver/pools.py).

    nice -n 10 python benchmarks/build_pools.py golf tripeaks --seeds 1..200 --states 20000 --want 30
    nice -n 10 python benchmarks/build_pools.py freecell --option cells=2 --seeds 1..100

Solves each deal of ``--seeds`` with full information within ``--states`` and writes the seeds
the solver WON (never "unknown", never "unwinnable") to ``<yaml folder>/winnable/GAME/OPTIONS.txt``,
the file the loader reads, with a header saying the command, the budget and the date. It stops
at ``--want`` won seeds, and writes nothing when fewer than ``--least`` are won (a pool of a
few deals would deal the same few games again and again). The first seeds of the file are
those the conformance kit wins again within its own budget (it replays the first few,
``Budget.pool_seeds``): the builder checks them with that budget and puts them first; where
too few of the wins are that cheap, ``--kit-tries N`` tries up to N deals after ``--seeds`` at
the kit's budget for more, and with still too few no pool is written. For a game whose wins nearly all
take the guided pass more than that (Maria, Black Widow), ``--kit-states N`` gives the kit a
budget of its own, written in the pool's header (``# kit-states: N``), which the kit reads.
``--seeds-from FILE`` takes the deals from the lines of a batch (``solitaire solve GAME --seeds
A..B --states N --json``, or a catalogue row's deal lines): only those it won are solved again,
so a pool costs a few minutes after the catalogue's hours. With
``--won-lines`` it also writes the shortest won line to tests/data/won/ (as
benchmarks/find_won_lines.py does) when the game has none there.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench_catalogue import deal_lines
from find_won_lines import parse_options, won_file

from solitaire.core import Game, Rules, get_variant
from solitaire.core.conformance import DEFAULT_BUDGET
from solitaire.core.solver import options_slug, parse_range, pool_path, solve
from solitaire.core.solver.pools import KIT_STATES


def build(name: str, options: dict[str, Any], seeds: Sequence[int], states: int, want: int, command: str,
          won_lines: bool, least: int = 10, kit_tries: int = 0, kit_states: int = DEFAULT_BUDGET.pool_states,
          batch: int | None = None) -> None:
    """Solve ``seeds`` in order within ``states`` and write the pool. ``batch``: the number of
    deals of the batch the seeds were taken from (the seeds are those it won), for the header."""
    defn = get_variant(name)
    values = defn.resolve_options(options)
    rules = Rules.of(defn, values)
    slug = options_slug(defn, values)
    path = pool_path(defn, values)
    assert path is not None, name
    won: dict[int, tuple[int, tuple[str, ...]]] = {}  # seed -> (states, the winning line)
    tried = 0
    after = seeds[0] if seeds else 1  # the first seed not tried
    for seed in seeds:
        tried += 1
        after = seed + 1
        result = solve(Game.new(rules, seed), timeout=None, max_states=states)
        if result.result == "win":
            won[seed] = (result.states, result.moves)
            print(f"{name} [{slug}]: seed {seed} won in {result.states} states ({len(won)}/{want})", flush=True)
            if len(won) >= want:
                break
    if len(won) < least:  # a pool of a few deals would deal the same few games again and again
        print(f"{name} [{slug}]: {len(won)} seeds of {tried} won within {states} states, fewer than {least}; "
              "no pool written", flush=True)
        return
    # the kit's seeds first: the cheapest wins, checked again with the kit's budget
    kit: list[int] = []
    budget = kit_states
    for seed in sorted(won, key=lambda s: won[s][0]):
        if len(kit) == DEFAULT_BUDGET.pool_seeds:
            break
        if solve(Game.new(rules, seed), timeout=None, max_states=budget).result == "win":
            kit.append(seed)
    # too few of them won within the kit's budget (a game whose wins take the guided pass
    # hundreds of thousands of states): the deals after those tried, at the kit's budget, until
    # enough are won (each a won seed of the pool too) or `kit_tries` are tried
    extra = [0, 0]  # deals tried at the kit's budget, and won
    for seed in range(after, after + kit_tries):
        if len(kit) >= DEFAULT_BUDGET.pool_seeds:
            break
        result = solve(Game.new(rules, seed), timeout=None, max_states=budget)
        extra[0] += 1
        if result.result == "win":
            won[seed] = (result.states, result.moves)
            kit.append(seed)
            extra[1] += 1
            print(f"{name} [{slug}]: seed {seed} won within the kit's {budget} states", flush=True)
    if len(kit) < DEFAULT_BUDGET.pool_seeds:
        print(f"{name} [{slug}]: {len(kit)} seeds won within the kit's {budget} states, fewer than the "
              f"{DEFAULT_BUDGET.pool_seeds} it replays; no pool written (--kit-tries N tries more deals at that "
              "budget)", flush=True)
        return
    rest = sorted(s for s in won if s not in kit)
    shown = ", ".join(f"--{o.name} {o.show(values[o.name])}" for o in defn.options) or "no options"
    more = f", and {extra[1]} of {extra[0]} more at the kit's {budget} states" if extra[0] else ""
    of = (f"{len(won)} of the {len(seeds)} deals a batch of {batch} won, solved again" if batch is not None
          else f"{len(won) - extra[1]} of {tried} deals tried")
    head = [f"# Seeds the solver has won: {defn.title} ({shown}), {of} at {states} states a deal{more}.",
            f"# Built by: {command} ({datetime.date.today().isoformat()}).",
            f"# The first {len(kit)} are won again within {budget} states (the conformance kit replays them)."]
    if budget != DEFAULT_BUDGET.pool_states:  # the kit reads it (core/solver/pools.py, pool_kit_states)
        head.append(f"{KIT_STATES} {budget}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(head + [str(s) for s in kit + rest]) + "\n")
    print(f"{name} [{slug}]: {len(won)} seeds written to {path}", flush=True)
    line = won_file(defn.name, slug)
    if won_lines and not line.exists():
        seed = min(won, key=lambda s: (len(won[s][1]), s))
        given = [f"option {o.name}={o.show(values[o.name])}" for o in defn.options if values[o.name] != o.default]
        note = f"# {command} ({datetime.date.today().isoformat()}): the solver won seed {seed} in {won[seed][0]} states"
        line.write_text("\n".join([note, f"seed {seed}", *given, *won[seed][1]]) + "\n")
        print(f"{name} [{slug}]: won line written to {line}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="+")
    parser.add_argument("--seeds", default="1..100", help="A..B: the deals to try, in order")
    parser.add_argument("--states", type=int, default=200_000, help="the solver's budget per deal")
    parser.add_argument("--want", type=int, default=30, help="stop after this many won seeds")
    parser.add_argument("--least", type=int, default=10, help="write no pool of fewer won seeds than this")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an option of the games (repeat for more)")
    parser.add_argument("--won-lines", action="store_true", help="also write a won line where a game has none")
    parser.add_argument("--kit-tries", type=int, default=0,
                        help="where fewer won seeds than the conformance kit replays are won within its "
                             "budget, try up to this many deals after --seeds at that budget")
    parser.add_argument("--kit-states", type=int, default=DEFAULT_BUDGET.pool_states,
                        help="the states the conformance kit wins the first seeds again within (written in the "
                             f"pool's header when not its own {DEFAULT_BUDGET.pool_states})")
    parser.add_argument("--seeds-from", type=Path, metavar="FILE",
                        help="instead of --seeds: the deals a batch won (the JSON lines of solve --json)")
    args = parser.parse_args()
    command = "python benchmarks/build_pools.py " + " ".join(sys.argv[1:])
    seeds: Sequence[int] = parse_range(args.seeds)
    batch = None
    if args.seeds_from is not None:
        if len(args.games) != 1 or args.kit_tries:
            parser.error("--seeds-from takes the won deals of one game's batch: name one game, no --kit-tries")
        seeds, batch = won_in_batch(args.seeds_from)
    for name in args.games:
        build(name, parse_options(args.option), seeds, args.states, args.want, command,
              args.won_lines, args.least, args.kit_tries, args.kit_states, batch)


def won_in_batch(path: Path) -> tuple[list[int], int]:
    """The seeds a batch's JSON lines say were won, in order, and how many deals it holds (a deal
    solved twice, as a resumed catalogue batch may, counts once: its last line)."""
    rows = deal_lines(path.read_text())
    return sorted(s for s, r in rows.items() if r.get("result") == "win"), len(rows)


if __name__ == "__main__":
    main()
