"""``deal``, ``variants`` and ``stats``: a plain line runs without Typer's checks (pydantic),
read exactly as Typer reads it, or is left to Typer."""

from __future__ import annotations

from typing import Any

import pytest
import typer.core
import typer.main
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire.cli import commands, quickargs
from solitaire.cli.quickargs import declared


def typer_group() -> typer.core.TyperGroup:
    group = typer.main.get_command(commands.app)
    assert isinstance(group, typer.core.TyperGroup)
    return group


APP = typer_group()
TYPER_COMMANDS = {name: commands.deal if name == "deal" else function
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
                                            ("stats", quickargs.STATS)])
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
])
def test_plain_lines_read_as_typer_reads_them(words: list[str]) -> None:
    plain = plain_reads(words)
    assert plain is not None
    assert plain == typer_reads(words)


@pytest.mark.parametrize("words", [
    ["deal", "klondike"],  # --seed is required: Typer says so
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
    ["solve", "klondike", "--seed", "1"],  # not one of these commands
    [],
])
def test_anything_else_is_left_to_typer(words: list[str]) -> None:
    assert plain_reads(words) is None


WORDS = st.sampled_from([
    "klondike", "calculation", "3", "0", "07", "-1", "x", "unlimited", "--seed", "--seed=5", "--draw",
    "--draw=1", "--redeals", "--relaxed", "--json", "--json=1", "--wild", "--wild=2", "--help", "-h", "--", "",
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


def test_mistakes_on_the_plain_path_are_one_line_and_change_nothing(cli: Any, solitaire_home: Any) -> None:
    assert cli("variants").code == 0  # the start-up cache is written
    before = sorted(p.name for p in solitaire_home.rglob("*"))
    for words, message in [(["deal", "nosuch", "--seed", "1"], "unknown variant 'nosuch'"),
                           (["deal", "klondike", "--seed", "1", "--wild", "2"], "klondike has no option --wild"),
                           (["stats", "nosuch"], "unknown variant 'nosuch'")]:
        assert commands.plain_command(words) is not None
        result = cli(*words)
        assert result.code == 2 and result.out == ""
        assert result.err.startswith(f"solitaire: {message}") and result.err.count("\n") == 1
    assert sorted(p.name for p in solitaire_home.rglob("*")) == before
