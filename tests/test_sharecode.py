"""Share codes: klondike-d3-48213 names a deal; --deal plays it; --daily plays today's."""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from solitaire.cli import sharecode
from solitaire.core import VariantDef, get_variant, registry


def all_option_sets(defn: VariantDef) -> Iterator[dict[str, Any]]:
    values: list[list[Any]] = []
    for o in defn.options:
        if o.kind == "flag":
            values.append([False, True])
        elif o.kind == "choice":
            values.append(list(o.choices))
        else:
            values.append([0, 1, 2, 7] + ([None] if o.unlimited else []))
    for combo in itertools.product(*values):
        yield dict(zip((o.name for o in defn.options), combo, strict=True))  # a value per option


@pytest.mark.parametrize("name", [d.name for d in registry().sorted()])
def test_round_trip_for_every_option_combination(name):
    defn = get_variant(name)
    for options in all_option_sets(defn):
        for seed in (0, 7, 48213, 999_999_999):
            code = sharecode.encode(defn, options, seed)
            back, opts, s, numbering = sharecode.decode(code)
            assert back.name == defn.name and s == seed and numbering is None
            assert defn.resolve_options(opts) == defn.resolve_options(options), code


def test_the_example_code():
    assert sharecode.encode(get_variant("klondike"), {"draw": 3}, 48213) == "klondike-d3-48213"
    assert sharecode.encode(get_variant("klondike"), {}, 48213) == "klondike-48213"


@pytest.mark.parametrize("code", ["klondike", "klondike-x", "nosuch-12", "klondike-d4-12", "klondike-zz-1",
                                  "klondike-d3-d1-5", "-5", ""])
def test_a_bad_code_is_one_line_exit_2(cli, code):
    out = cli("play", "--deal", code, "--json")
    assert out.code == 2 and out.out == ""
    assert len(out.err.strip().splitlines()) == 1 and "Traceback" not in out.err


def test_play_deal_plays_that_deal(cli):
    out = cli("play", "--deal", "klondike-d3-48213", "--json").json_lines()
    pos = out[0]["position"]
    assert pos["seed"] == 48213 and pos["options"]["draw"] == 3
    same = cli("play", "klondike", "--deal", "KLONDIKE-D3-48213", "--json", "--new").json_lines()
    assert same[0]["position"]["seed"] == 48213
    assert cli("play", "klondike", "--deal", "klondike-1", "--seed", "3").code == 2


def test_play_needs_a_variant_or_a_code(cli):
    out = cli("play", "--json")
    assert out.code == 2 and "klondike" in out.err


def test_daily_seed_is_fixed_per_day_and_differs_between_days(cli):
    day = datetime.date(2026, 1, 1)
    assert sharecode.daily_seed(day) == sharecode.daily_seed(datetime.date(2026, 1, 1))
    assert sharecode.daily_seed(day) != sharecode.daily_seed(datetime.date(2026, 1, 2))
    out = cli("play", "klondike", "--daily", "--json").json_lines()
    assert out[0]["position"]["seed"] == sharecode.daily_seed()
