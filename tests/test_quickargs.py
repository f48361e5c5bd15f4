"""The fast path for ``solitaire play`` reads a command line exactly as Typer does, or not at all."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest
import typer.main
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.core import TyperGroup

from solitaire.cli import quickargs
from solitaire.cli.main import app, play
from solitaire.cli.quickargs import declared, quick_args

GROUP = typer.main.get_command(app)
assert isinstance(GROUP, TyperGroup)  # the app has subcommands
PLAY = GROUP.commands["play"]


def typer_reads(args: list[str]) -> tuple[dict[str, Any], list[str]] | None:
    """What Typer passes to ``play`` for these words (None if it refuses the line)."""
    try:
        ctx = PLAY.make_context("play", list(args))
    except Exception:
        return None
    return dict(ctx.params), list(ctx.args)


def quick_reads(args: list[str]) -> tuple[dict[str, Any], list[str]] | None:
    values = quick_args(quickargs.PLAY, list(args))
    if values is None:
        return None
    extra = values.pop("extra")
    return values, list(extra)


def test_the_written_out_declaration_is_plays_own():
    """PLAY copies play's Typer declaration so the fast path needs no Typer; they must agree."""
    assert declared(play) == quickargs.PLAY


@pytest.mark.parametrize("args", [
    [],  # no variant: play itself says what is missing
    ["klondike"],
    ["klondike", "--seed", "48213", "--new"],
    ["klondike", "--draw", "3", "--seed=0", "--plain"],
    ["klondike", "--redeals", "unlimited", "--relaxed", "--four-colour", "--hints"],
    ["--deal", "klondike-d3-48213"],
    ["--seed", "7", "klondike", "--json"],
    ["calculation", "--daily", "--any-deal"],
    ["klondike", "--position", "game.json"],
    ["yukon", "--wild", "2", "--tame=x", "--seed", "3"],  # a variant's own options pass through
])
def test_plain_lines_read_as_typer_reads_them(args):
    quick = quick_reads(args)
    assert quick is not None
    assert quick == typer_reads(args)


@pytest.mark.parametrize("args", [
    ["klondike", "--help"],
    ["--help"],
    ["klondike", "-h"],
    ["klondike", "--seed", "-1"],
    ["klondike", "--seed", "x"],
    ["klondike", "--seed", "007"],
    ["klondike", "--seed"],
    ["klondike", "--seed", "1", "--seed", "2"],
    ["klondike", "--new=yes"],
    ["--wild", "2", "klondike"],  # an unknown option before the variant
    ["klondike", "extra"],
    ["klondike", "--", "--seed"],
])
def test_anything_else_is_left_to_typer(args):
    assert quick_reads(args) is None


WORDS = st.sampled_from([
    "klondike", "calculation", "3", "0", "07", "-1", "x", "unlimited", "--seed", "--seed=5", "--draw",
    "--draw=1", "--redeals", "--relaxed", "--new", "--plain", "--json", "--deal", "--position", "--wild",
    "--wild=2", "--help", "-h", "--", "--new=1", "",
])


@settings(max_examples=400, deadline=None)
@given(st.lists(WORDS, max_size=7))
def test_whatever_the_fast_path_accepts_typer_reads_the_same(args):
    quick = quick_reads(args)
    if quick is not None:
        assert quick == typer_reads(args)


def test_play_does_not_load_typer_or_pydantic(solitaire_home):
    """Typer and its checks (pydantic) take a tenth of a second to load; a plain ``play`` line
    never needs them."""
    code = ("import sys; from solitaire.cli.main import main; rc = main(['play', 'klondike', '--plain', "
            "'--seed', '5']); print('LOADED' if {'typer', 'pydantic', 'click'} & set(sys.modules) else 'CLEAN')")
    out = subprocess.run([sys.executable, "-c", code], input="draw\nquit\n", capture_output=True, text=True,
                         env={**os.environ, "SOLITAIRE_HOME": str(solitaire_home)}, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "CLEAN"
