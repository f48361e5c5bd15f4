"""Variant files: a malformed file of each kind gets one precise line, ``file:line: key.path: message``.

Each case edits one line of a valid file (``BASE``) and checks the whole message: the file,
the line of the offending key, the key's path, and what was expected. The same message reaches
a plugin author through ``solitaire variants`` (see test_plugins.py) and ``load_variant_file``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from solitaire.core import Rules, VariantError, build_registry, hookimpl, load_variant_file, load_variant_text, spec


def found(match: re.Match[str] | None) -> re.Match[str]:
    """A match that the test needs (a failed assertion when there is none)."""
    assert match is not None
    return match

BASE = """\
name: thumb
title: Thumb
options:
  draw:
    choices: [1, 3]
    default: 1
piles:
  stock:
    role: stock
    draw: {count: $draw, to: waste}
  waste:
    role: waste
    alias: w
  foundation:
    role: foundation
    count: 4
    build: {rank: up, suit: same-suit}
    empty: {rank: A}
  tableau:
    role: tableau
    count: 7
    build: {rank: down, suit: alternate-colour}
    empty: {rank: K}
deal:
  - {to: tableau, counts: [1, 2, 3, 4, 5, 6, 7], face-up: 1}
  - {to: stock, rest: true}
layout:
  - [stock, waste, ~, foundation]
  - [tableau]
"""

ROLES = "stock, waste, foundation, tableau, reserve"
GROUPS = "stock, waste, foundation, tableau"
PILE_KEYS = ", ".join(spec.PILE_KEYS)
TOP_KEYS = ", ".join(spec.TOP_KEYS)

# (kind, text replaced, replacement, the whole message)
CASES = [
    ("unknown key", "    build: {rank: down, suit: alternate-colour}", "    bild: {rank: down, suit: alternate-colour}",
     f"thumb.yaml:22: piles.tableau.bild: unknown key 'bild'; expected one of: {PILE_KEYS} (did you mean 'build'?)"),
    ("unknown top-level key", "title: Thumb", "titel: Thumb",
     f"thumb.yaml:2: titel: unknown key 'titel'; expected one of: {TOP_KEYS} (did you mean 'title'?)"),
    ("unknown suit rule", "suit: alternate-colour}", "suit: alternate}",
     "thumb.yaml:22: piles.tableau.build.suit: unknown rule 'alternate'; expected one of: alternate-colour, "
     "same-suit, same-colour, different-suit, any-suit (did you mean 'alternate-colour'?)"),
    ("unknown rank rule", "{rank: down,", "{rank: downward,",
     "thumb.yaml:22: piles.tableau.build.rank: unknown rule 'downward'; expected one of: down, up, up-or-down, "
     "same, any, none (did you mean 'down'?)"),
    ("unknown role", "    role: tableau", "    role: tablo",
     f"thumb.yaml:20: piles.tableau.role: unknown role 'tablo'; expected one of: {ROLES} (did you mean 'tableau'?)"),
    ("unknown gives rule", "    alias: w", "    alias: w\n    gives: all",
     "thumb.yaml:14: piles.waste.gives: unknown rule 'all'; expected one of: top, run, any, pile, none"),
    ("wrong type", "    count: 7", "    count: seven",
     "thumb.yaml:21: piles.tableau.count: expected a whole number, got 'seven'"),
    ("wrong type: boolean", "{rank: up, suit: same-suit}", "{rank: up, suit: same-suit, wrap: sometimes}",
     "thumb.yaml:17: piles.foundation.build.wrap: expected true or false, got 'sometimes'"),
    ("wrong type: mapping", "    build: {rank: down, suit: alternate-colour}", "    build: [down]",
     "thumb.yaml:22: piles.tableau.build: expected a mapping, got a list"),
    ("missing required key", "    role: tableau\n", "",
     f"thumb.yaml:19: piles.tableau: missing key 'role'; expected one of: {ROLES}"),
    ("missing top-level key", "deal:\n  - {to: tableau, counts: [1, 2, 3, 4, 5, 6, 7], face-up: 1}\n"
     "  - {to: stock, rest: true}\n", "", "thumb.yaml:1: missing key 'deal'"),
    ("bad option reference", "$draw", "$nope",
     "thumb.yaml:10: piles.stock.draw.count: unknown option '$nope'; declared options: draw"),
    ("bad option in a condition", "    alias: w", "    alias: w\n    gives: {if: drew, then: top, else: none}",
     "thumb.yaml:14: piles.waste.gives.if: unknown option 'drew'; declared options: draw (did you mean 'draw'?)"),
    ("condition without then", "{count: $draw,", "{count: {if: draw},",
     "thumb.yaml:10: piles.stock.draw.count: missing key 'then': a choice by option is "
     "{if: OPTION, then: VALUE, else: VALUE}"),
    ("bad option default", "    default: 1", "    default: 2",
     "thumb.yaml:6: options.draw.default: bad default: --draw must be one of 1, 3, got 2"),
    ("bad option type", "    choices: [1, 3]\n", "    type: number\n",
     "thumb.yaml:5: options.draw.type: unknown option type 'number'; expected one of: choice, flag, count"),
    ("bad rank", "{rank: K}", "{rank: Z}",
     "thumb.yaml:23: piles.tableau.empty.rank: unknown rank 'Z': expected one of A 2 3 4 5 6 7 8 9 T J Q K"),
    ("bad card", "{rank: A}", "{cards: [AC, 2C, 3C, 1C]}",
     "thumb.yaml:18: piles.foundation.empty.cards[3]: unknown card '1C': expected a rank (A 2-9 T J Q K, or 10) "
     "and a suit (C D H S), e.g. 'TH'"),
    ("card dealt twice", "  - {to: tableau, counts", "  - {to: foundation, cards: [AC, AC, 3C, 4C]}\n"
     "  - {to: tableau, counts", "thumb.yaml:25: deal[0].cards[1]: AC is dealt twice"),
    ("deal not covering 52 cards", "  - {to: stock, rest: true}\n", "",
     "thumb.yaml:24: deal: the deal places 28 of the 52 cards: end with '- {to: stock, rest: true}' "
     "or deal them all"),
    ("deal over 52 cards", "[1, 2, 3, 4, 5, 6, 7]", "[10, 10, 10, 10, 10, 10, 10]",
     "thumb.yaml:24: deal: the deal needs 70 cards; the deck has 52"),
    ("a value per pile", "[1, 2, 3, 4, 5, 6, 7]", "[1, 2, 3]",
     "thumb.yaml:25: deal[0].counts: expected 7 values (one per pile), got 3"),
    ("rest before the end", "  - {to: stock, rest: true}\n",
     "  - {to: stock, rest: true}\n  - {to: waste, counts: 0}\n",
     "thumb.yaml:26: deal[1]: 'rest: true' must be the last deal step"),
    ("deal to an unknown group", "{to: tableau, counts", "{to: tableaus, counts",
     f"thumb.yaml:25: deal[0].to: unknown pile group 'tableaus'; expected one of: {GROUPS} "
     "(did you mean 'tableau'?)"),
    ("YAML syntax error", "    alias: w", "    alias: [w",
     "thumb.yaml:14: YAML syntax error: expected ',' or ']', but got ':'"),
    ("tab in YAML", "    alias: w", "\talias: w",
     "thumb.yaml:13: YAML syntax error: found character '\\t' that cannot start any token"),
    ("duplicate key", "    empty: {rank: K}", "    empty: {rank: K}\n    empty: {rank: Q}",
     "thumb.yaml:24: piles.tableau.empty: duplicate key (first given on line 23); give each key once"),
    ("layout naming an unknown pile", "[tableau]", "[tableaux]",
     f"thumb.yaml:29: layout[1][0]: unknown pile 'tableaux' in layout; expected a pile group ({GROUPS}), "
     "a pile (stock, waste, f1, f2, f3, f4, t1, t2, t3, t4, t5, t6, t7) or ~ for a gap (did you mean 'tableau'?)"),
    ("layout leaving a pile out", "  - [tableau]\n", "",
     "thumb.yaml:27: layout: the layout leaves out t1, t2, t3, t4, t5, t6, t7"),
    ("layout naming a pile twice", "  - [tableau]", "  - [tableau, t1]",
     "thumb.yaml:29: layout[1]: t1 appears twice in the layout"),
    ("accepts-from an unknown group", "    alias: w", "    alias: w\n    accepts-from: [tablo]",
     f"thumb.yaml:14: piles.waste.accepts-from[0]: unknown pile group 'tablo'; expected one of: {GROUPS} "
     "(did you mean 'tableau'?)"),
    ("stock drawing to an unknown group", "to: waste}", "to: wastes}",
     f"thumb.yaml:10: piles.stock.draw.to: unknown pile group 'wastes'; expected one of: {GROUPS} "
     "(did you mean 'waste'?)"),
    ("scoring an unknown group", "layout:", "scoring:\n  moves:\n    - {from: waste, to: foundations, points: 10}\n"
     "layout:", f"thumb.yaml:29: scoring.moves[0].to: unknown pile group 'foundations'; expected one of: {GROUPS} "
     "(did you mean 'foundation'?)"),
    ("scoring points not a number", "layout:", "scoring:\n  moves:\n    - {from: waste, to: foundation, "
     "points: ten}\nlayout:", "thumb.yaml:29: scoring.moves[0].points: expected a whole number of points, got 'ten'"),
    ("no foundation", "    role: foundation", "    role: reserve",
     "thumb.yaml:7: piles: a variant needs at least one pile group with role: foundation"),
    ("step out of range", "{rank: up, suit: same-suit}", "{rank: up, suit: same-suit, step: 13}",
     "thumb.yaml:17: piles.foundation.build.step: a step must be 1 to 12, got 13"),
    ("capacity below 1", "    alias: w", "    alias: w\n    capacity: 0",
     "thumb.yaml:14: piles.waste.capacity: expected a number of at least 1, got 0"),
    ("empty rule both ways", "{rank: A}", "{rank: A, cards: [AC, AD, AH, AS]}",
     "thumb.yaml:18: piles.foundation.empty: give exactly one of 'rank', 'cards' or 'base'"),
    ("empty rule of the wrong kind", "{rank: A}", "ace",
     "thumb.yaml:18: piles.foundation.empty: expected 'any', 'none', 'base', {rank: ...}, {cards: [...]} "
     "or {base: N}, got 'ace'"),
    ("a name used twice", "    alias: w", "    alias: t1",
     "thumb.yaml:19: piles.tableau: the name 't1' is already used by pile group 'waste'"),
    ("a command as a pile name", "    alias: w", "    alias: s",
     "thumb.yaml:11: piles.waste: the name 's' is a command and cannot name a pile"),
    ("two stocks", "  waste:\n    role: waste", "  waste:\n    role: stock",
     "thumb.yaml:11: piles.waste: a variant has at most one stock"),
    ("a stock without draw", "    draw: {count: $draw, to: waste}\n", "",
     "thumb.yaml:8: piles.stock: a stock needs 'draw: {count: N, to: PILE-GROUP}'"),
    ("a stock that gives", "    draw: {count: $draw, to: waste}", "    draw: {count: $draw, to: waste}\n    gives: top",
     "thumb.yaml:11: piles.stock.gives: only an open stock ('open: true' or 'open: top') gives its top card: "
     "a face-down stock gives cards only by drawing"),
    ("an open stock that is neither true, false nor top", "    draw: {count: $draw, to: waste}",
     "    draw: {count: $draw, to: waste}\n    open: half",
     "thumb.yaml:11: piles.stock.open: expected true, false or top, got 'half'"),
    ("draw on a pile that is not the stock", "    alias: w", "    alias: w\n    draw: {count: 1, to: stock}",
     "thumb.yaml:14: piles.waste.draw: only the stock draws and redeals"),
    ("a prefix without a count", "    alias: w", "    alias: w\n    prefix: x",
     "thumb.yaml:14: piles.waste.prefix: a prefix needs a count (the piles are named prefix1, prefix2 ...)"),
    ("bad variant name", "name: thumb", "name: Thumb Game",
     "thumb.yaml:1: name: a variant name must be a lower-case word (letters, digits, '-'), got 'Thumb Game'"),
]


@pytest.mark.parametrize("kind, old, new, message", CASES, ids=[c[0] for c in CASES])
def test_each_malformed_file_gets_its_precise_message(tmp_path, kind, old, new, message):
    assert BASE.count(old) == 1, "the case must change exactly one place"
    path = tmp_path / "thumb.yaml"
    path.write_text(BASE.replace(old, new))
    with pytest.raises(VariantError) as info:
        load_variant_file(path)
    assert str(info.value) == message
    assert "\n" not in str(info.value)


def test_the_base_file_is_valid():
    defn = load_variant_text(BASE, "thumb.yaml")
    assert defn.name == "thumb" and [o.name for o in defn.options] == ["draw"]


@pytest.mark.parametrize("text, message", [
    ("", "thumb.yaml:1: expected a mapping with keys such as name, piles and deal; got nothing"),
    ("- name: thumb\n", "thumb.yaml:1: expected a mapping with keys such as name, piles and deal; got a list"),
    ("name: [thumb\n", "thumb.yaml:2: YAML syntax error: expected ',' or ']', but got '<stream end>'"),
    ("a: 1\n---\nb: 2\n",
     "thumb.yaml:2: YAML syntax error: expected a single document in the stream, but found another document"),
])
def test_files_that_are_not_a_variant_at_all(text, message):
    with pytest.raises(VariantError) as info:
        load_variant_text(text, "thumb.yaml")
    assert str(info.value) == message


def test_an_error_in_an_option_branch_is_found_at_load_time():
    """Every option value is resolved on load, so a bad branch cannot wait for a player to pick it."""
    text = BASE.replace("    alias: w", "    alias: w\n    gives: {if: {draw: 3}, then: tops, else: top}")
    with pytest.raises(VariantError) as info:
        load_variant_text(text, "thumb.yaml")
    assert str(info.value) == ("thumb.yaml:14: piles.waste.gives.then: unknown rule 'tops'; expected one of: "
                               "top, run, any, pile, none (did you mean 'top'?)")


def test_unreadable_files(tmp_path):
    with pytest.raises(VariantError, match=r"nowhere\.yaml: cannot read: No such file or directory"):
        load_variant_file(tmp_path / "nowhere.yaml")
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"name: \xff\xfe\n")
    with pytest.raises(VariantError, match=r"binary\.yaml: not UTF-8 text"):
        load_variant_file(binary)


def test_a_plugin_author_sees_the_same_message_as_a_broken_plugin(tmp_path):
    path = tmp_path / "thumb.yaml"
    path.write_text(BASE.replace("suit: alternate-colour}", "suit: alternate}"))

    class Plugin:
        @hookimpl
        def register_variants(self, register):
            register(path)

    reg = build_registry(eps=[], plugins=[("thumb", "thumb-dist", Plugin())])
    assert reg.variants == {}
    [broken] = reg.broken
    assert (broken.name, broken.provider) == ("thumb", "thumb-dist")
    assert broken.reason == CASES[2][3]


def test_every_builtin_variant_file_loads():
    root = Path(spec.__file__).resolve().parents[1] / "variants"
    files = sorted(root.glob("*/*.yaml"))
    assert {f.stem for f in files} >= {"klondike", "calculation"}
    for f in files:
        assert load_variant_file(f).name == f.stem


# --------------------------------------------------------------------------- the reference


REFERENCE = Path(__file__).resolve().parents[1] / "docs" / "yaml-reference.md"


def schema_constants() -> dict[str, set[str]]:
    """Every vocabulary constant of core/spec.py: upper-case names holding words."""
    out = {}
    for name, value in vars(spec).items():
        if name.isupper() and not name.startswith("_") and isinstance(value, (tuple, frozenset, dict)) and value \
                and all(isinstance(v, str) for v in value):
            words = set(value) | (set(value.values()) if isinstance(value, dict) else set())
            out[name] = words
    return out


def documented() -> dict[str, set[str]]:
    """For each ``<!-- schema: NAME -->`` marker: the words of the table's first column (or, for
    a paragraph, every word in backticks) up to the next blank line."""
    out = {}
    lines = REFERENCE.read_text().splitlines()
    for i, line in enumerate(lines):
        marker = re.fullmatch(r"<!-- schema: (\w+) -->", line.strip())
        if not marker:
            continue
        block = []
        for following in lines[i + 1:]:
            if not following.strip():
                break
            block.append(following)
        if block[0].startswith("|"):
            words = {found(re.match(r"\| `([^`]+)` \|", row)).group(1) for row in block[2:]}
        else:
            words = set(re.findall(r"`([^`]+)`", " ".join(block)))
        assert marker.group(1) not in out, f"{marker.group(1)} documented twice"
        out[marker.group(1)] = words
    return out


def test_the_yaml_reference_lists_exactly_the_schema():
    constants = schema_constants()
    assert {"TOP_KEYS", "PILE_KEYS", "BUILD_KEYS", "ROLES", "RANK_RULES", "SUIT_RULES", "GIVES"} <= set(constants)
    docs = documented()
    assert set(docs) == set(constants), "every vocabulary constant of core/spec.py has a table, and only those"
    for name, words in constants.items():
        assert docs[name] == words, name


def test_the_yaml_reference_error_examples_are_real():
    text = REFERENCE.read_text()
    block = found(re.search(r"## Errors.*?```text\n(.*?)```", text, flags=re.S)).group(1)
    messages = {case[3] for case in CASES}
    for line in block.splitlines():
        assert line in messages, line


@pytest.mark.parametrize("rank", spec.RANK_RULES)
@pytest.mark.parametrize("suit", spec.SUIT_RULES)
def test_compiled_tables_say_what_the_declared_rule_says(rank, suit):
    """The rules' tables, built a row at a time, agree with ``BuildRule.fits`` on every pair of
    cards, for every rank and suit relation, step and wrap."""
    for step, wrap in ((1, False), (2, True), (4, True), (3, False)):
        build = f"{{rank: {rank}, suit: {suit}, step: {step}, wrap: {str(wrap).lower()}}}"
        text = BASE.replace("    build: {rank: down, suit: alternate-colour}", f"    build: {build}")
        rules = Rules.of(load_variant_text(text, "thumb.yaml"))
        pile = rules.group_piles["tableau"][0]
        rule = rules.piles[pile].build
        assert (rule.rank, rule.suit, rule.step, rule.wrap) == (rank, suit, step, wrap)
        run = rules.piles[pile].run
        wrong = [(lower, upper) for lower in range(52) for upper in range(52)
                 if rules.accept[pile][lower * 52 + upper] != rule.fits(lower, upper)
                 or rules.seq[pile][lower * 52 + upper] != run.fits(lower, upper)]
        assert wrong == []


# --------------------------------------------------------------------------- limits

from solitaire.core import limits  # noqa: E402

LAUGHS = "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(5))
FIVE_OPTIONS = "".join(f"  o{i}: {{choices: [{', '.join(map(str, range(16)))}], default: 0}}\n" for i in range(5))

# (limit, text replaced in BASE, replacement, the whole message)
LIMIT_CASES = [
    ("file size", "title: Thumb", "title: Thumb\n#" + "x" * limits.MAX_FILE_BYTES,
     f"thumb.yaml: more than {limits.MAX_FILE_BYTES} bytes; that is the most a variant file may have"),
    ("nesting", "title: Thumb", "title: " + "[" * 40 + "]" * 40,
     "thumb.yaml:2: title" + "[0]" * 31 + ": nested more than 32 mappings and lists deep"),
    ("nesting past libyaml's own bound", "title: Thumb", "title: " + "[" * 1200 + "]" * 1200,
     "thumb.yaml:2: nested more than 32 mappings and lists deep"),
    ("aliases", "title: Thumb", "title: &t Thumb\ndescription: [" + ", ".join(["*t"] * 101) + "]",
     f"thumb.yaml:3: description[100]: more than {limits.MAX_ALIASES} aliases; "
     "that is the most a variant file may use"),
    ("values, aliases expanded (billion laughs)", "title: Thumb",
     "title: Thumb\ndescription: &a [x, x, x, x, x, x, x, x, x]\n"
     + LAUGHS.rstrip("\n"),
     f"thumb.yaml:6: d[1][2][6][4]: more than {limits.MAX_VALUES} values (each alias expanded); "
     "that is the most a variant file may hold"),
    ("an alias inside its own anchor", "    empty: {rank: K}", "    empty: &e {rank: [K, *e]}",
     "thumb.yaml:23: piles.tableau.empty.rank[1]: an alias inside its own anchor (the value would contain itself)"),
    ("number length", "    count: 7", "    count: " + "7" * 5000,
     "thumb.yaml:21: piles.tableau.count: a number of 5000 characters; at most 32 are allowed"),
    ("piles in a group", "    count: 7", "    count: 1000000",
     "thumb.yaml:21: piles.tableau.count: expected a number of at most 64, got 1000000"),
    ("piles in all", "    count: 7", "    count: 61",
     "thumb.yaml:21: piles.tableau.count: more than 64 piles in all; that is the most a variant may have"),
    ("cards in a deal step", "counts: [1, 2, 3, 4, 5, 6, 7]", "counts: [1, 2, 3, 4, 5, 6, 417]",
     "thumb.yaml:25: deal[0].counts[6]: expected a number of at most 416, got 417"),
    ("cards drawn", "draw: {count: $draw, to: waste}", "draw: {count: 500, to: waste}",
     "thumb.yaml:10: piles.stock.draw.count: expected a number of at most 416, got 500"),
    ("deal steps", "  - {to: stock, rest: true}",
     "  - {to: tableau, counts: 0}\n" * 64 + "  - {to: stock, rest: true}",
     "thumb.yaml:24: deal: 66 deal steps; a deal may have at most 64"),
    ("options", "    default: 1\n", "    default: 1\n" + "".join(f"  f{i}: {{type: flag}}\n" for i in range(16)),
     "thumb.yaml:3: options: 17 options; a variant may declare at most 16"),
    ("choices", "choices: [1, 3]", "choices: [" + ", ".join(map(str, range(1, 18))) + "]",
     "thumb.yaml:5: options.draw.choices: 17 choices; an option may offer at most 16"),
    ("option sets", "    default: 1\n", "    default: 1\n" + FIVE_OPTIONS,
     "thumb.yaml:3: options: 77 option sets to check (the defaults and each option varied alone); "
     "at most 32 are allowed"),
    ("points", "layout:", "scoring: {turn-up: 2000000}\nlayout:",
     "thumb.yaml:27: scoring.turn-up: expected at most 1000000 points either way, got 2000000"),
]


@pytest.mark.parametrize("limit, old, new, message", LIMIT_CASES, ids=[c[0] for c in LIMIT_CASES])
def test_each_limit_is_enforced_with_one_line(tmp_path, limit, old, new, message):
    assert BASE.count(old) == 1, "the case must change exactly one place"
    path = tmp_path / "thumb.yaml"
    path.write_text(BASE.replace(old, new))
    loads: list[Callable[[], object]] = [lambda: load_variant_file(path),
                                         lambda: load_variant_text(path.read_text(), "thumb.yaml")]
    for load in loads:
        with pytest.raises(VariantError) as info:
            load()
        assert str(info.value) == message


def test_a_file_at_the_limits_loads():
    """Each limit is the most allowed, not one less: 64 piles, 16 options, 64 option sets."""
    text = BASE.replace("    count: 7", "    count: 58").replace(
        "counts: [1, 2, 3, 4, 5, 6, 7]", "counts: 0").replace(
        "    default: 1\n", "    default: 1\n" + "".join(f"  f{i}: {{type: flag}}\n" for i in range(15)))
    defn = load_variant_text(text, "thumb.yaml")
    assert len(defn.options) == limits.MAX_OPTIONS and len(Rules.of(defn).piles) == limits.MAX_PILES


def test_merge_keys_and_aliases_load_as_written_out():
    """``<<: *anchor`` takes in a mapping's keys; the mapping's own keys win."""
    up = "    build: {rank: up, suit: same-suit}"
    shared = BASE.replace(up, "    build: &up {rank: up, suit: same-suit}").replace(
        "    build: {rank: down, suit: alternate-colour}", "    build: {<<: *up, rank: down}")
    down = "    build: {rank: down, suit: alternate-colour}"
    written = BASE.replace(down, "    build: {rank: down, suit: same-suit}")
    a, b = Rules.of(load_variant_text(shared, "thumb.yaml")), Rules.of(load_variant_text(written, "thumb.yaml"))
    assert a.accept == b.accept and a.seq == b.seq
    assert load_variant_text(shared, "thumb.yaml").tree["piles"]["tableau"]["build"] == {"rank": "down",
                                                                                         "suit": "same-suit"}


def test_the_yaml_reference_states_every_limit():
    """The Limits table of the reference gives each constant of core/limits.py and its value."""
    text = REFERENCE.read_text()
    section = found(re.search(r"^## Limits\n(.*?)(?=^## )", text, flags=re.S | re.M)).group(1)
    stated = {name: int(value.replace(",", ""))
              for value, name in re.findall(r"^\| .*? \| ([\d,]+)[^|]* \| `(\w+)` \|", section, flags=re.M)}
    # the limits of command lines, JSON input and data files are docs/reference/limits.md's alone
    lines = {"MAX_LINE_BYTES", "MAX_ECHO_CHARS", "MAX_JSON_DEPTH", "MAX_JSON_NUMBER_CHARS", "MAX_DATA_FILE_BYTES"}
    constants = {name: getattr(limits, name) for name in dir(limits) if name.startswith("MAX_") and name not in lines}
    assert stated == constants


def test_an_option_value_past_a_limit_where_the_file_uses_it_is_a_users_mistake(cli):
    """``--redeals`` is a count with no upper bound of its own; where Klondike uses it, the
    limit is 1,000: a larger value is one line and exit status 2, not a traceback at the deal."""
    result = cli("play", "klondike", "--redeals", "5000", "--seed", "1", "--new", "--json", input="quit\n")
    assert (result.code, result.out) == (2, "")
    assert result.err == ("solitaire: klondike cannot be played with --redeals 5000: klondike.yaml:28: "
                          "piles.stock.redeals: expected a number of at most 1000, got 5000\n")
    played = cli("play", "klondike", "--redeals", "1000", "--seed", "1", "--new", "--json", input="quit\n")
    assert played.code == 0 and played.json_lines()[0]["position"]["options"]["redeals"] == 1000
