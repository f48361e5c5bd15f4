"""``deal``, ``variants``, ``stats`` and ``solve``: a plain line runs without Typer's checks (pydantic),
read exactly as Typer reads it, or is left to Typer."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
import typer.core
import typer.main
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire.cli import commands, quickargs, solve
from solitaire.cli.quickargs import declared


def typer_group() -> typer.core.TyperGroup:
    group = typer.main.get_command(commands.app)
    assert isinstance(group, typer.core.TyperGroup)
    return group


APP = typer_group()
# the Typer declarations of the commands whose plain path calls a function split from it
SPLIT: dict[str, Callable[..., None]] = {"deal": commands.deal, "solve": solve.solve_command}
TYPER_COMMANDS: dict[str, Callable[..., None]] = {name: SPLIT.get(name, function)
                                                  for name, (_, function) in commands.PLAIN.items()}

Read = tuple[dict[str, Any], list[str]]


def typer_reads(words: list[str]) -> Read | None:
    """What Typer passes to the command these words name (None if it refuses the line)."""
    try:
        ctx = APP.commands[words[0]].make_context(words[0], list(words[1:]))
    except Exception:
        return None
    return dict(ctx.params), list(ctx.args)


def plain_reads(words: list[str]) -> Read | None:
    plain = commands.plain_command(words)
    if plain is None:
        return None
    values = dict(plain[1])
    return values, values.pop("extra", [])


@pytest.mark.parametrize(("name", "copy"), [("deal", quickargs.DEAL), ("variants", quickargs.VARIANTS),
                                            ("stats", quickargs.STATS), ("solve", quickargs.SOLVE)])
def test_the_written_out_declarations_are_the_commands_own(name: str, copy: quickargs.Declared) -> None:
    assert declared(TYPER_COMMANDS[name]) == copy


@pytest.mark.parametrize("words", [
    ["deal", "klondike", "--seed", "1"],
    ["deal", "klondike", "--seed=0", "--draw", "3", "--json"],
    ["deal", "--seed", "48213", "klondike", "--redeals", "unlimited", "--relaxed"],
    ["deal", "yukon", "--seed", "3", "--wild", "2", "--tame=x"],  # a variant's own options pass through
    ["variants"],
    ["variants", "--json"],
    ["stats"],
    ["stats", "klondike", "--json"],
    ["stats", "--json", "calculation"],
    ["solve", "klondike", "--seed", "1", "--timeout", "5"],
    ["solve", "klondike", "--seed=3", "--states", "2000", "--json", "--hint"],
    ["solve", "--seeds", "1..20", "klondike", "--draw", "3", "--jobs", "2", "--timeout=0.5"],
    ["solve", "klondike", "--seeds", "0..9", "--cluster", "tcp://127.0.0.1:8786", "--relaxed"],
    ["solve", "klondike", "--position", "deal.json", "--redeals", "unlimited"],
    ["solve", "yukon", "--seed", "3", "--wild", "2"],  # a variant's own options pass through
    ["solve", "klondike"],  # the body says what is missing, as after Typer
    ["deal", "klondike"],  # so for a deal without --seed or --ms
    ["deal", "freecell", "--ms", "617", "--json"],
    ["solve", "klondike", "--seed", "1", "--jobs", "0", "--states", "0"],  # so for bad numbers it checks
])
def test_plain_lines_read_as_typer_reads_them(words: list[str]) -> None:
    plain = plain_reads(words)
    assert plain is not None
    assert plain == typer_reads(words)


@pytest.mark.parametrize("words", [
    ["deal", "--seed", "1"],  # so is the variant
    ["deal", "klondike", "--seed", "-1"],
    ["deal", "klondike", "--seed", "x"],
    ["deal", "klondike", "--seed", "1", "--seed", "2"],
    ["deal", "klondike", "--seed", "1", "--help"],
    ["variants", "--help"],
    ["variants", "extra"],
    ["variants", "--wild"],
    ["stats", "klondike", "calculation"],
    ["stats", "--json=1"],
    ["solve", "--seed", "1"],  # the variant is required: Typer says so
    ["solve", "klondike", "--timeout", "1e3"],  # anything but a plain decimal is Typer's to read
    ["solve", "klondike", "--timeout", "inf"],
    ["solve", "klondike", "--timeout", "-1"],
    ["solve", "klondike", "--timeout", "5."],
    ["solve", "klondike", "--states", "-5"],
    ["play", "klondike", "--seed", "1"],  # not one of these commands
    [],
])
def test_anything_else_is_left_to_typer(words: list[str]) -> None:
    assert plain_reads(words) is None


WORDS = st.sampled_from([
    "klondike", "calculation", "3", "0", "07", "-1", "x", "unlimited", "--seed", "--seed=5", "--draw",
    "--draw=1", "--redeals", "--relaxed", "--json", "--json=1", "--wild", "--wild=2", "--help", "-h", "--", "",
    "--timeout", "--timeout=0.5", "2.25", "1e3", "inf", "nan", "5.", ".5", "--states", "--jobs", "--memory", "--seeds",
    "1..3", "--hint", "--cluster", "--position",
])


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(commands.PLAIN)), st.lists(WORDS, max_size=6))
def test_whatever_the_plain_path_accepts_typer_reads_the_same(name: str, words: list[str]) -> None:
    plain = plain_reads([name, *words])
    if plain is not None:
        assert plain == typer_reads([name, *words])


def test_a_plain_line_and_a_typer_line_print_the_same(cli: Any) -> None:
    plain = cli("deal", "klondike", "--seed", "5", "--draw", "3")
    assert commands.plain_command(["deal", "klondike", "--seed", "5", "--draw", "3"]) is not None
    through_typer = cli("deal", "klondike", "--draw", "3", "--seed", "5", "--")  # "--" is never plain
    assert commands.plain_command(["deal", "klondike", "--draw", "3", "--seed", "5", "--"]) is None
    assert plain.code == through_typer.code == 0
    assert plain.out == through_typer.out and plain.out.startswith("Klondike")


@pytest.mark.parametrize("words", [
    ["solve", "klondike", "--seed", "1", "--states", "2000", "--json"],
    ["solve", "klondike", "--seed", "2", "--states", "2000"],
    ["solve", "klondike", "--seed", "1", "--hint"],
    # (one thread: in two, which thread decides first, and so the states the other passes
    # stored by then, depends on the machine)
    ["solve", "klondike", "--seeds", "1..2", "--states", "500", "--timeout", "60", "--threads", "1"],
    ["solve", "klondike", "--seed", "1", "--timeout", "0"],  # a mistake: the same line on stderr
    ["solve", "klondike", "--seed", "1", "--wild", "2"],
])
def test_a_plain_solve_line_and_a_typer_line_print_the_same(cli: Any, words: list[str]) -> None:
    assert commands.plain_command(words) is not None
    assert commands.plain_command([*words, "--"]) is None
    plain, through_typer = cli(*words), cli(*words, "--")
    assert plain.code == through_typer.code
    assert plain.err == through_typer.err
    # a batch's summary line and a result carry the seconds each took: compare the rest
    def timeless(out: str) -> str:
        return re.sub(r"\d+\.\d+ s\b|\"(median_|p95_)?seconds\": ?[0-9.e-]+", "T", out)
    assert timeless(plain.out) == timeless(through_typer.out)
    assert plain.out or plain.err


def test_mistakes_on_the_plain_path_are_one_line_and_change_nothing(cli: Any, solitaire_home: Any) -> None:
    assert cli("variants").code == 0  # the start-up cache is written
    before = sorted(p.name for p in solitaire_home.rglob("*"))
    for words, message in [(["deal", "nosuch", "--seed", "1"], "unknown variant 'nosuch'"),
                           (["deal", "klondike", "--seed", "1", "--wild", "2"], "klondike has no option --wild"),
                           (["stats", "nosuch"], "unknown variant 'nosuch'"),
                           (["solve", "klondike", "--seed", "1", "--memory", "0"], "--memory must be at least 1"),
                           (["solve", "klondike", "--seeds", "5..2"], "a seed range is A..B with whole numbers A <= B"),
                           (["solve", "klondike", "--seed", "1", "--seeds", "1..2"],
                            "give one of --seed, --ms, --seeds or --position")]:
        assert commands.plain_command(words) is not None
        result = cli(*words)
        assert result.code == 2 and result.out == ""
        assert result.err.startswith(f"solitaire: {message}") and result.err.count("\n") == 1
    assert sorted(p.name for p in solitaire_home.rglob("*")) == before
