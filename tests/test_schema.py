"""The JSON Schema of the variant format (core/schema.py) and `solitaire check`."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from solitaire.core import SolitaireError, load_variant_text, spec
from solitaire.core.schema import FIELDS, MAPPINGS, check_file, schema, schema_text
from solitaire.core.yamlsource import load_yaml

ROOT = Path(__file__).resolve().parent.parent
PUBLISHED = ROOT / "docs" / "reference" / "variant.schema.json"
SHIPPED = sorted([*ROOT.glob("variants/*/*.yaml"), *ROOT.glob("examples/**/*.yaml")])
KLONDIKE = ROOT / "variants" / "klondike" / "klondike.yaml"


def validator() -> Draft202012Validator:
    return Draft202012Validator(schema())


def errors(text: str) -> list[str]:
    return [e.message for e in validator().iter_errors(load_yaml(text, "t.yaml"))]


def test_the_schema_is_a_valid_json_schema():
    Draft202012Validator.check_schema(schema())


def test_the_published_schema_is_current():
    assert PUBLISHED.read_text(encoding="utf-8") == schema_text(), \
        "regenerate it: python -m solitaire.core.schema > docs/reference/variant.schema.json"


def test_the_module_prints_the_schema(tmp_path):
    import subprocess

    out = subprocess.run([sys.executable, "-m", "solitaire.core.schema"], capture_output=True, text=True,
                         check=True, cwd=tmp_path).stdout
    assert json.loads(out) == schema()


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_yaml_validates(path):
    assert len(SHIPPED) >= 3
    tree = load_yaml(path.read_text(encoding="utf-8"), path.name)
    assert [e.message for e in validator().iter_errors(tree)] == []
    assert check_file(path) == []


def test_the_largest_file_the_limits_allow_validates():
    from test_yaml_fuzz import fuzz

    assert errors(fuzz.worst_case()) == []


def test_every_key_of_the_loader_is_in_the_schema_and_described():
    defs = schema()["$defs"]
    for name, (keys, required) in MAPPINGS.items():
        assert list(defs[name]["properties"]) == list(keys)
        assert set(required) <= set(keys)
        for key in keys:
            assert key in FIELDS[name], f"describe {name}.{key} in core/schema.py's FIELDS"
    assert MAPPINGS["pile-group"][0] is spec.PILE_KEYS and MAPPINGS["variant"][0] is spec.TOP_KEYS


def test_the_allowed_words_are_the_loaders():
    defs = schema()["$defs"]
    assert defs["role"]["enum"] == list(spec.ROLES)
    assert defs["rank-rule"]["enum"] == list(spec.RANK_RULES)
    assert set(defs["suit-rule"]["enum"]) == set(spec.SUIT_RULES) | set(spec.SUIT_SPELLINGS)
    assert defs["gives"]["enum"] == list(spec.GIVES)


MINIMAL = """
name: tiny
options:
  draw: {choices: [1, 3], default: 1}
  open: {type: flag}
piles:
  stock: {role: stock, draw: {count: DRAW, to: waste}}
  waste: {role: waste, gives: GIVES}
  foundation: {role: foundation, count: 4, empty: {rank: A}, build: BUILD}
deal:
  - {to: stock, rest: true}
"""


@pytest.mark.parametrize("draw,gives,build", [
    ("$draw", "top", "{rank: up}"),
    ("1", "{if: open, then: top, else: none}", "{rank: up, step: $draw}"),
    ("{if: {draw: 3}, then: 3, else: 1}", "$open", "{if: open, then: {rank: up}, else: {rank: up, wrap: true}}"),
    ("1", "top", "{rank: up, step: [1, $draw, 1, {if: open, then: 2}]}"),
])
def test_option_references_are_allowed_where_the_loader_resolves_them(draw, gives, build):
    text = MINIMAL.replace("DRAW", draw).replace("GIVES", gives).replace("BUILD", build)
    assert errors(text) == []


@pytest.mark.parametrize("bad", [
    "{rank: upp}", "{rank: up, colour: red}", "{rank: up, step: 13}", "{if: open}", "[up]", "$Draw",
])
def test_structural_mistakes_are_refused(bad):
    assert errors(MINIMAL.replace("DRAW", "1").replace("GIVES", "top").replace("BUILD", bad)) != []


# --------------------------------------------------------------------------- solitaire check


THREE_MISTAKES = """\
name: thrice
piles:
  stock:
    role: stock
    draw: {count: 1, to: waste}
  waste:
    role: wast
  foundation:
    role: foundation
    count: 4
    bulid: {rank: up}
    empty: {rank: A}
  tableau:
    role: tableau
    count: seven
deal:
  - {to: stock, rest: true}
"""


def test_check_reports_three_independent_mistakes_with_their_lines(cli, tmp_path):
    path = tmp_path / "thrice.yaml"
    path.write_text(THREE_MISTAKES, encoding="utf-8")
    result = cli("check", str(path))
    assert result.code == 1 and result.err == ""
    lines = result.out.splitlines()
    assert len(lines) == 3, lines
    assert lines[0].startswith(f"{path}:7: piles.waste.role: unknown value 'wast'")
    assert "did you mean 'waste'?" in lines[0]
    assert lines[1].startswith(f"{path}:11: piles.foundation.bulid: unknown key 'bulid'")
    assert "did you mean 'build'?" in lines[1]
    assert lines[2] == f"{path}:15: piles.tableau.count: expected a whole number, got 'seven'"


def test_check_adds_the_loaders_errors_for_each_option_set(cli, tmp_path):
    path = tmp_path / "sets.yaml"
    path.write_text(MINIMAL.replace("DRAW", "{if: open, then: $dram, else: 1}").replace("GIVES", "top").replace(
        "BUILD", "{rank: up, step: {if: {draw: 3}, then: [1, 2], else: 1}}"), encoding="utf-8")
    result = cli("check", str(path))
    assert result.code == 1
    lines = result.out.splitlines()
    assert len(lines) == 2 and len(set(lines)) == 2, lines
    assert lines[0].startswith(f"{path}:9: piles.foundation.build.step.then: ")
    assert lines[0].endswith("expected 4 values (one per pile), got 2 (with --draw 3)")
    assert lines[1].startswith(f"{path}:7: piles.stock.draw.count.then: unknown option '$dram'")
    assert lines[1].endswith("(with --open on)")


def test_check_says_ok_for_clean_files(cli):
    result = cli("check", str(KLONDIKE), str(SHIPPED[-1]))
    assert result.code == 0
    assert result.out.splitlines() == [f"{KLONDIKE}: ok", f"{SHIPPED[-1]}: ok"]


@pytest.mark.parametrize("content,expected", [
    (None, "no such file"),
    ("DIR", "is a directory"),
    (b"\x00\xff\xfe binary", "not UTF-8 text"),
    (b"a: [\n", "YAML syntax error"),
    (b"", "expected a mapping, got nothing"),
    (b"- 1\n- 2\n", "expected a mapping, got a list"),
])
def test_check_gives_one_line_for_a_file_it_cannot_read(cli, tmp_path, content, expected):
    path = tmp_path / "x.yaml"
    if content == "DIR":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    result = cli("check", str(path), str(KLONDIKE))
    assert result.code == 1 and result.err == ""
    first, second = result.out.splitlines()
    assert first.startswith(f"{path}:") and expected in first
    assert second == f"{KLONDIKE}: ok"


def test_check_without_a_file_is_a_usage_error(cli):
    result = cli("check")
    assert result.code == 2 and result.err.startswith("solitaire: ") and len(result.err.splitlines()) == 1


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_check_never_misses_what_the_loader_refuses(tmp_path, seed):
    """A mutated file: check never raises, each mistake is one line naming the file, and a file
    the loader refuses always gets at least one."""
    from test_yaml_fuzz import fuzz

    name, done, text = fuzz.mutant(random.Random(seed))
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    problems = check_file(path, name)
    try:
        load_variant_text(text, name)
    except SolitaireError:
        assert problems, done
    for line in problems:
        assert "\n" not in line and line.startswith(f"{name}:"), (done, line)


def test_check_names_the_key_whose_name_is_wrong(cli, tmp_path):
    path = tmp_path / "names.yaml"
    path.write_text("name: names\noptions:\n  Draw: {choices: [1], default: 1}\npiles:\n"
                    "  my stock: {role: stock, draw: {to: waste}}\n  waste: {role: waste}\n"
                    "  foundation: {role: foundation}\ndeal:\n  - {to: foundation, rest: true}\n", encoding="utf-8")
    lines = cli("check", str(path)).out.splitlines()
    assert lines[0] == (f"{path}:3: options.Draw: expected an option's name, "
                        "a lower-case word (letters, digits, '_'), got 'Draw'")
    assert lines[1].startswith(f"{path}:5: piles.my stock: expected a pile group's name")
