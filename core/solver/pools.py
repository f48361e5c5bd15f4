"""Winnable deals: the shipped pools of seeds the solver has won, and live solving when a
variant has none for an option set (see docs/solver.md, "Winnable deals")."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from ..game import Game
from ..rules import Rules
from .native import solve
from .search import WIN


def options_slug(defn: Any, options: dict[str, Any]) -> str:
    """A file name for an option set: the options that differ from the defaults, e.g. ``draw-3``."""
    values = defn.resolve_options(options)
    parts = []
    for o in defn.options:
        v = values[o.name]
        if v == o.default:
            continue
        if o.kind == "flag":
            parts.append(o.name)
        else:
            parts.append(f"{o.name}-{o.show(v) if hasattr(o, 'show') else v}")
    return "-".join(parts) or "default"


def pool_path(defn: Any, options: dict[str, Any]) -> Path | None:
    """Where the shipped pool of won seeds for these options lives: beside the variant's YAML,
    in a folder of the game's own (``winnable/klondike/draw-3.txt``), so that the games of one
    folder never share a pool."""
    if getattr(defn, "path", None) is None:
        return None
    name = str(defn.name).rpartition(":")[2]  # a game renamed DIST:NAME on a clash keeps its own folder
    return Path(defn.path).parent / "winnable" / name / f"{options_slug(defn, options)}.txt"


_POOLS: dict[Path, list[int]] = {}


def load_pool(path: Path) -> list[int]:
    if path not in _POOLS:
        seeds: list[int] = []
        try:
            for line in path.read_text().splitlines():
                word = line.split("#", 1)[0].strip()
                if word.isdigit():
                    seeds.append(int(word))
        except OSError:
            pass
        _POOLS[path] = seeds
    return _POOLS[path]


KIT_STATES = "# kit-states:"  # a pool's header line: the states the conformance kit gives its first seeds


def pool_kit_states(path: Path) -> int | None:
    """The states budget a pool's header asks the conformance kit to win its first seeds within
    (a line ``# kit-states: N``), for a game whose wins nearly all take the guided pass more than
    the kit's own budget; None when the header names none. Raises ValueError, naming the file and
    line, for a malformed one."""
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.startswith(KIT_STATES):
            word = line[len(KIT_STATES):].strip()
            if not word.isdigit() or int(word) == 0:
                raise ValueError(f"{path}:{number}: {KIT_STATES} wants a positive whole number of states, "
                                 f"got {word!r}")
            return int(word)
    return None


LIVE_TRIES = 8  # deals tried live under a budget in states


def winnable_seed(defn: Any, options: dict[str, Any], rng: random.Random | None = None,
                  bound: float = 0.12, seeds_below: int = 1_000_000_000,
                  states: int | None = None, tries: int = LIVE_TRIES) -> tuple[int, bool]:
    """A seed the solver has won under these options: ``(seed, proved)``.

    From the shipped pool when there is one; else random seeds solved live, each within a
    share of ``bound`` seconds; when the bound runs out the last seed is returned with
    ``proved`` False. With ``states``, the live search counts states, not seconds (the same
    answer on any machine): up to ``tries`` deals, each searched until a pass has stored
    ``states`` states.
    """
    rng = rng or random.SystemRandom()
    path = pool_path(defn, options)
    if path is not None:
        pool = load_pool(path)
        if pool:
            return rng.choice(pool), True
    rules = Rules.of(defn, options)
    seed = rng.randrange(seeds_below)
    if states is not None:
        for i in range(tries):
            if i:
                seed = rng.randrange(seeds_below)
            if solve(Game.new(rules, seed), timeout=None, max_states=states, greedy_share=1.0).result == WIN:
                return seed, True
        return seed, False
    end = time.perf_counter() + bound
    while True:
        left = end - time.perf_counter()
        if left <= 0:
            return seed, False
        result = solve(Game.new(rules, seed), timeout=left, greedy_share=1.0)
        if result.result == WIN:
            return seed, True
        seed = rng.randrange(seeds_below)


def parse_range(text: str) -> range:
    """``A..B`` (inclusive) as a range; raise ValueError."""
    a, sep, b = text.partition("..")
    if not sep or not a.strip().isdigit() or not b.strip().isdigit() or int(b) < int(a):
        raise ValueError(f"a seed range is A..B with whole numbers A <= B, got {text!r}")
    return range(int(a), int(b) + 1)
