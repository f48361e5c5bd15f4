"""``solitaire check`` reports every loader mistake of an option set, and the loader refuses a
game option named like a command's own flag or a choice holding ``-`` (share codes split on it)."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer.main

from solitaire.cli.commands import app
from solitaire.core import VariantError, load_variant_text
from solitaire.core.spec import RESERVED_OPTIONS

GOOD = """name: good
options:
  draw: {choices: [1, 3], default: 1}
piles:
  stock: {role: stock, draw: {count: $draw, to: waste}}
  waste: {role: waste}
  foundation: {role: foundation, count: 4, build: {rank: up, suit: same-suit}, empty: {rank: A}}
  tableau: {role: tableau, count: 7, build: {rank: down, suit: alternate-colour}}
deal:
  - {to: tableau, counts: [1, 2, 3, 4, 5, 6, 7]}
  - {to: stock, rest: true}
"""


def game_option_flags() -> set[str]:
    """The own flags of every command that takes a game's options (its extra words), as option
    names: what the Typer declarations say, with click's --help."""
    root = typer.main.get_command(app)
    commands = [root.commands[name] for name in ("play", "deal", "solve")]  # type: ignore[attr-defined]
    commands.append(root.commands["race"].commands["host"])  # type: ignore[attr-defined]
    flags = {"help"}
    for command in commands:
        assert command.context_settings.get("allow_extra_args"), command.name  # it takes a game's options
        for param in command.params:
            flags |= {o[2:].replace("-", "_") for o in param.opts if o.startswith("--")}
    return flags


def test_the_reserved_option_names_are_the_commands_flags():
    assert game_option_flags() == RESERVED_OPTIONS


@pytest.mark.parametrize("name", sorted(RESERVED_OPTIONS))
def test_an_option_named_like_a_flag_is_refused_with_its_line(name):
    text = GOOD.replace("  draw: {choices: [1, 3], default: 1}\n",
                        f"  draw: {{choices: [1, 3], default: 1}}\n  {name}: {{type: flag}}\n")
    with pytest.raises(VariantError) as info:
        load_variant_text(text, "good.yaml")
    flag = "--" + name.replace("_", "-")
    assert str(info.value) == (f"good.yaml:4: options.{name}: {flag} is the command line's own flag: "
                               "name the option otherwise")


@pytest.mark.parametrize("choices, says", [
    ("[one-two, three]", "options.mode.choices[0]: a choice may not hold '-' (share codes are joined with it), "
                         "got 'one-two'"),
    ("[2, -1]", "options.mode.choices[1]: a choice may not be negative (share codes are joined with '-'), got -1"),
])
def test_a_choice_a_share_code_could_not_name_is_refused(choices, says):
    text = GOOD.replace("  draw: {choices: [1, 3], default: 1}\n",
                        f"  draw: {{choices: [1, 3], default: 1}}\n  mode: {{choices: {choices}, default: 2}}\n")
    with pytest.raises(VariantError, match=r"^good\.yaml:4: ") as info:
        load_variant_text(text, "good.yaml")
    assert str(info.value).endswith(says)


def test_check_reports_every_loader_mistake_of_an_option_set(cli, tmp_path: Path):
    text = (GOOD.replace("to: waste}", "to: wsate}")
            .replace("empty: {rank: A}}", "empty: {rank: A}, fill-from: nowhere}")
            .replace("alternate-colour}}", "alternate-colour}, accepts-from: [stock, nosuch]}")
            .replace("options:\n", "options:\n  seed: {choices: [1, 2], default: 1}\n"))
    path = tmp_path / "many.yaml"
    path.write_text(text, encoding="utf-8")
    result = cli("check", str(path))
    assert result.code == 1
    assert result.out.splitlines() == [
        f"{path}:3: options.seed: --seed is the command line's own flag: name the option otherwise",
        f"{path}:6: piles.stock.draw.to: unknown pile group 'wsate'; expected one of: stock, waste, foundation, "
        "tableau (did you mean 'waste'?)",
        f"{path}:8: piles.foundation.fill-from: unknown pile group 'nowhere'; expected one of: stock, waste, "
        "foundation, tableau",
        f"{path}:9: piles.tableau.accepts-from[1]: unknown pile group 'nosuch'; expected one of: stock, waste, "
        "foundation, tableau",
    ]


def test_check_reads_on_in_every_option_set_and_says_each_mistake_once(cli, tmp_path: Path):
    text = (GOOD.replace("to: waste}", "to: {if: {draw: 3}, then: wsate, else: waste}}")
            .replace("count: 4, build", "count: {if: {draw: 3}, then: 0, else: 4}, build"))
    path = tmp_path / "sets.yaml"
    path.write_text(text, encoding="utf-8")
    result = cli("check", str(path))
    assert result.code == 1
    lines = result.out.splitlines()
    assert len(lines) == 2 and all(line.endswith("(with --draw 3)") for line in lines), lines
    assert lines[0].startswith(f"{path}:5: piles.stock.draw.to: unknown pile group 'wsate'")
    assert lines[1].startswith(f"{path}:7: piles.foundation.count: a foundation group needs at least 1 pile")


def test_a_clean_file_is_ok(cli, tmp_path: Path):
    path = tmp_path / "good.yaml"
    path.write_text(GOOD, encoding="utf-8")
    result = cli("check", str(path))
    assert (result.code, result.out) == (0, f"{path}: ok\n")
