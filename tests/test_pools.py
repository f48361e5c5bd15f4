"""The shipped pools of won deals (``variants/<family>/winnable/<game>/<options>.txt``): each
belongs to a game of its folder, says how it was built, holds seeds only, once each, and is
shipped in the wheel (pyproject's package-data). The conformance kit wins their first seeds
again (tests/test_conformance.py); benchmarks/build_pools.py builds them."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

from solitaire.core import registry
from solitaire.core.shuffle import MAX_SEED
from solitaire.core.solver import load_pool, pool_path

ROOT = Path(__file__).resolve().parents[1]
POOLS = sorted((ROOT / "variants").glob("*/winnable/*/*.txt"))
PACKAGE_DATA = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]


def test_every_game_of_the_catalogue_but_a_few_hard_ones_ships_a_pool():
    games = {p.parent.name for p in POOLS}
    assert {"klondike", "calculation", "freecell", "golf", "tripeaks", "canfield"} <= games
    assert len(games) >= 20


@pytest.mark.parametrize("path", POOLS, ids=[f"{p.parent.name}/{p.stem}" for p in POOLS])
def test_a_pool_is_a_games_own_says_how_it_was_built_and_holds_seeds_once(path):
    defn = registry().get(path.parent.name)
    assert defn.path is not None and Path(defn.path).resolve().parent == path.parents[2].resolve()
    default = pool_path(defn, {})
    assert default is not None and default.parent == path.parent
    lines = path.read_text().splitlines()
    assert any(line.startswith("# Built by") for line in lines[:3]), "the header says how it was built"
    words = [line.split("#", 1)[0].strip() for line in lines]
    assert all(not w or (w.isdigit() and int(w) <= MAX_SEED) for w in words)
    seeds = load_pool(path)
    assert seeds and len(seeds) == len(set(seeds))


@pytest.mark.parametrize("folder", sorted({p.parents[2] for p in POOLS}), ids=lambda p: p.name)
def test_the_wheel_ships_every_pool(folder):
    package = f"solitaire.variants.{folder.name}"
    patterns = PACKAGE_DATA.get(package, [])
    for pool in POOLS:
        if pool.parents[2] == folder:
            assert any(fnmatch(pool.relative_to(folder).as_posix(), p) for p in patterns), (package, pool)
