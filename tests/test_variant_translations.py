"""A variant's words per language (``translations:`` in its YAML): the title, the description and
each option's help follow the language in use wherever a player reads them (``solitaire
variants``, ``rules``, the options' ``--help``, the table's help and the game picker); the
machine fields of ``--json`` stay as written. Every mistake in the block is one line with file,
line and key, from the loader and from ``solitaire check``.

The game is tests/variants/klondike-words.yaml: Klondike under another name, with Ukrainian
words for everything, a Greek description and an Arabic title in the short form (``titles:``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import solitaire.cli.commands
import solitaire.core
import solitaire.core.plugins
from solitaire.core import Rules, VariantError, load_variant_file, load_variant_text
from solitaire.core.explain import rules_text
from solitaire.core.i18n import set_language
from solitaire.core.plugins import build_registry

FIXTURE = Path(__file__).parent / "variants" / "klondike-words.yaml"
NAME = "klondike-words"
UK_DESCRIPTION = ("Класичний пасьянс: сім стовпців, що складаються вниз через колір, чотири бази, що "
                  "складаються вгору за мастю від туза до короля, і колода, яку відкривають по одній або по "
                  "три карти.")
UK_DRAW = "скільки карт відкривати з колоди за раз"
EN_DRAW = "cards turned from the stock at a time"
EN_DESCRIPTION_START = "The classic patience: seven columns"


@pytest.fixture
def words(monkeypatch):
    """The installed games and klondike-words, as every command and the picker see them."""
    registry = build_registry()
    registry.add(load_variant_file(FIXTURE, provider="tests"))
    for module in (solitaire.core, solitaire.core.plugins, solitaire.cli.commands):
        monkeypatch.setattr(module, "registry", lambda: registry)
    return registry.get(NAME)


# --------------------------------------------------------------------------- the API


def test_the_words_follow_the_language(words):
    assert words.local_title("uk") == "Косинка (слова)"
    assert words.local_title("ar") == "كلوندايك"  # the short form, beside the long one
    assert words.local_title("el") == "Klondike (words)"  # a language that gives no title
    assert words.local_description("uk") == UK_DESCRIPTION
    assert words.local_description("el").startswith("Η κλασική πασιέντζα")
    assert words.local_description("ro").startswith(EN_DESCRIPTION_START)
    draw, redeals, relaxed = words.options
    assert words.local_help(draw, "uk") == UK_DRAW
    assert words.local_help(redeals, "uk") == "скільки разів скид можна повернути в колоду"
    assert words.local_help(relaxed, "uk") == relaxed.help  # not given in Ukrainian: as written
    assert words.local_help(draw, "el") == EN_DRAW
    assert words.titles == {"ar": "كلوندايك", "uk": "Косинка (слова)"}  # both forms, for the names it answers to
    set_language("uk")
    assert (words.local_title(), words.local_description(), words.local_help(draw)) == (
        "Косинка (слова)", UK_DESCRIPTION, UK_DRAW)


def test_a_translated_title_is_a_name_to_play(cli, words):
    result = cli("deal", "косинка (слова)", "--seed", "3", "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["variant"] == NAME


# --------------------------------------------------------------------------- where a player reads them


def test_variants_lists_the_description_and_help_in_the_language(cli, words):
    uk = cli("--lang", "uk", "variants").out
    assert f"    {UK_DESCRIPTION}" in uk.splitlines()
    assert f"    --draw [1 | 3] (default 1): {UK_DRAW}" in uk.splitlines()
    english = cli("variants").out
    assert f"    --draw [1 | 3] (default 1): {EN_DRAW}" in english.splitlines()
    assert UK_DESCRIPTION not in english


def test_variants_json_keeps_the_machine_fields_as_written(cli, words):
    data = json.loads(cli("--lang", "uk", "variants", "--json").out)
    game = next(v for v in data["variants"] if v["name"] == NAME)
    assert game["title"] == "Klondike (words)"
    assert game["description"].startswith(EN_DESCRIPTION_START)
    assert game["options"]["draw"]["help"] == EN_DRAW
    assert game["titles"] == {"ar": "كلوندايك", "uk": "Косинка (слова)"}


def test_rules_speak_the_language(cli, words):
    out = cli("--lang", "uk", "rules", NAME).out
    assert out.startswith("Косинка (слова)\n")
    assert "Класичний пасьянс: сім стовпців" in out
    assert EN_DESCRIPTION_START not in out
    english = cli("rules", NAME).out
    assert english.startswith("Klondike (words)\n") and EN_DESCRIPTION_START in english
    data = json.loads(cli("--lang", "uk", "rules", NAME, "--json").out)
    assert data["title"] == "Klondike (words)" and data["description"].startswith(EN_DESCRIPTION_START)


@pytest.mark.parametrize("command", ["play", "deal", "solve"])
def test_the_options_help_speaks_the_language(cli, words, command):
    out = " ".join(cli("--lang", "uk", command, NAME, "--help").out.split())
    assert "Скільки карт відкривати з колоди за раз." in out  # capitalised, as the help's lines are
    assert "Allow the top card of a foundation back to the tableau." in out  # not given in Ukrainian
    english = " ".join(cli(command, NAME, "--help").out.split())
    assert "Cards turned from the stock at a time." in english


def test_the_table_help_shows_the_description_in_the_language(words):
    set_language("uk")
    text = rules_text(Rules.of(words), 72)
    assert text.startswith("Косинка (слова)\n")
    assert "Класичний пасьянс" in text


def test_the_picker_names_the_game_in_the_language(words):
    from solitaire.cli.tui.picker import entries

    set_language("uk")
    assert "Грати: Косинка (слова)" in [entry.label for entry in entries()]
    set_language("el")
    assert "Παίξτε Klondike (words)" in [entry.label for entry in entries()]


# --------------------------------------------------------------------------- mistakes

GAME = """\
name: words
options:
  draw: {choices: [1, 3], default: 1, help: cards turned at a time}
piles:
  stock: {role: stock, draw: {count: 1, to: waste}}
  waste: {role: waste, gives: top}
  foundation: {role: foundation, count: 4, build: {rank: up, suit: same-suit}, empty: {rank: A}}
deal:
  - {to: stock, rest: true}
"""

MISTAKES = {
    "translations: [uk]": "t.yaml:10: translations: expected a mapping, got a list",
    "translations: {UK: {title: x}}":
        "t.yaml:10: translations.UK: a language is a code of two or three lower-case letters, e.g. uk, got 'UK'",
    "translations: {uk: {name: x}}":
        "t.yaml:10: translations.uk.name: unknown key 'name'; expected one of: title, description, options",
    "translations: {uk: ~}": "t.yaml:10: translations.uk: expected a mapping, got nothing",
    "translations: {uk: {options: [draw]}}": "t.yaml:10: translations.uk.options: expected a mapping, got a list",
    "translations: {uk: {title: 5}}": "t.yaml:10: translations.uk.title: expected a title, got 5 (a number)",
    "translations: {uk: {description: [a]}}":
        "t.yaml:10: translations.uk.description: expected a description, got a list",
    "translations: {uk: {options: {speed: швидко}}}":
        "t.yaml:10: translations.uk.options.speed: the game declares no option 'speed'; its options: draw",
    "translations: {uk: {options: {drw: швидко}}}":
        "t.yaml:10: translations.uk.options.drw: the game declares no option 'drw'; its options: draw "
        "(did you mean 'draw'?)",
    "translations: {uk: {options: {draw: 3}}}":
        "t.yaml:10: translations.uk.options.draw: expected an option's help, got 3 (a number)",
    "titles: {uk: Косинка}\ntranslations: {uk: {title: Косинка}}":
        "t.yaml:11: translations.uk.title: the uk title is given twice, here and in titles: give it in one place",
}


@pytest.mark.parametrize("block", list(MISTAKES))
def test_a_mistake_in_the_block_is_one_line_with_its_place(block):
    with pytest.raises(VariantError) as refused:
        load_variant_text(GAME + block + "\n", "t.yaml")
    assert str(refused.value) == MISTAKES[block]


@pytest.mark.parametrize("block", list(MISTAKES))
def test_solitaire_check_shows_each_mistake(cli, tmp_path, monkeypatch, block):
    (tmp_path / "t.yaml").write_text(GAME + block + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = cli("check", "t.yaml")
    assert result.code == 1
    place = ": ".join(MISTAKES[block].split(": ")[:2])  # file:line: key.path, in the schema's words or the loader's
    assert [line for line in (result.out + result.err).splitlines() if line.startswith(place)], (result.out, result.err)


def test_solitaire_check_shows_every_mistake_of_the_block_at_once(cli, tmp_path, monkeypatch):
    block = "translations: {uk: {name: x, options: {speed: y}}, UK: {}}\n"
    (tmp_path / "t.yaml").write_text(GAME + block, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = cli("check", "t.yaml")
    assert result.code == 1
    shown = [line.split(": ")[1] for line in (result.out + result.err).splitlines() if line.startswith("t.yaml:")]
    assert sorted(shown) == ["translations.UK", "translations.uk.name", "translations.uk.options.speed"]


def test_a_good_block_loads_and_checks_clean(cli, tmp_path, monkeypatch):
    block = "translations:\n  uk: {title: Слова, description: Гра., options: {draw: скільки карт}}\n  ro: {}\n"
    defn = load_variant_text(GAME + block, "t.yaml")
    assert defn.local_title("uk") == "Слова" and defn.local_description("ro") == ""
    (tmp_path / "t.yaml").write_text(GAME + block, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = cli("check", "t.yaml")
    assert result.code == 0, (result.out, result.err)


def test_the_guide_s_example_block_loads_and_speaks():
    """docs/write-a-variant.md's ``translations:`` example, added to the example Yukon's file."""
    root = Path(__file__).resolve().parent.parent
    guide = (root / "docs" / "write-a-variant.md").read_text(encoding="utf-8")
    block = guide.split("### In other languages", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    yukon_file = root / "examples" / "solitaire-yukon" / "src" / "solitaire_yukon" / "yukon.yaml"
    yukon = yukon_file.read_text(encoding="utf-8")
    defn = load_variant_text(yukon + "\n" + block, "yukon.yaml")
    assert (defn.local_title("uk"), defn.local_title("el"), defn.local_title("ro")) == ("Юкон", "Γιούκον", "Yukon")
    assert defn.local_description("uk").startswith("Сім стовпців")
    set_language("uk")
    assert rules_text(Rules.of(defn)).startswith("Юкон\n")
