"""The conformance kit (solitaire.core.conformance): on every registered game, and catching broken ones.

The kit runs here twice over: in-process, one test per case (every check of every option set
of every installed game), and as the pytest plugin a third party runs, in a subprocess
(pytester), on a good plugin and on one whose deal loses a card.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import attrs
import pytest

from solitaire.core import VariantDef, build_registry, hookimpl, load_variant_file, load_variant_text, registry
from solitaire.core.conformance import CHECK_NAMES, Budget, Case, cases, check_variant
from solitaire.core.spec import ResolvedVariant

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]
YUKON_DIR = ROOT / "examples" / "solitaire-yukon" / "src"
YUKON_YAML = (YUKON_DIR / "solitaire_yukon" / "yukon.yaml").read_text()
CHEAP = Budget(examples=3, states=100, pool_seeds=1)

EVERY_CASE = [case for defn in registry().sorted() for case in cases(defn)]


def test_every_registered_game_is_in_the_kit():
    names = {case.name for case in EVERY_CASE}
    assert {"klondike", "calculation"} <= names
    for name in names:
        checks = {case.check for case in EVERY_CASE if case.name == name}
        assert checks == set(CHECK_NAMES), name
    ids = [case.test_name for case in EVERY_CASE]
    assert len(ids) == len(set(ids))
    assert "test_deck[klondike[draw-3]]" in ids and "test_loads[klondike]" in ids
    assert "test_pool[klondike[draw-3]]" in ids  # a pool ships for draw 3
    assert "test_pool[klondike[redeals-0]]" not in ids  # none does for this one


@pytest.mark.parametrize("case", EVERY_CASE, ids=lambda case: f"{case.check}-{case.id}")
def test_the_kit_passes_on_every_registered_game(case: Case):
    case.run()


def test_check_variant_runs_every_check_by_name_or_alias():
    assert check_variant("hopscotch", CHEAP) == []  # Calculation, with its pool: nothing skipped
    with pytest.raises(ValueError, match="unknown check 'decks'; the checks are: loads, deck"):
        check_variant("klondike", checks=("decks",))


# --------------------------------------------------------------------------- broken games


def lossy_variant(text: str = YUKON_YAML.replace("name: yukon", "name: lossy")) -> VariantDef:
    """A variant whose deal leaves one card out: its rules deal 10 cards to the last column, not 11."""

    @attrs.define(eq=False)
    class Lossy(VariantDef):
        def resolved(self, options: Any = None) -> ResolvedVariant:
            spec = super().resolved(options)
            step = spec.deal[0]
            return attrs.evolve(spec, deal=(attrs.evolve(step, counts=(*step.counts[:-1], 10)),))

    base = load_variant_text(text, "lossy.yaml")
    return Lossy(**{str(f.alias): getattr(base, f.name) for f in attrs.fields(VariantDef)})


def test_a_deal_that_loses_a_card_fails_the_deck_check():
    defn = lossy_variant()
    reg = build_registry(eps=[])
    reg.add(defn)
    with pytest.raises(AssertionError) as caught:
        check_variant(defn, CHEAP, registry=reg, checks=("loads", "deck", "random_play"))
    message = str(caught.value)
    assert "2 conformance check(s) failed" in message
    assert "test_deck[lossy[default]]: AssertionError: seed 0: the deal does not hold the deck, missing: " in message
    assert "test_random_play[lossy[default]]" in message
    assert "test_loads" not in message  # it loads and is listed: only what it deals is wrong


def test_a_variant_not_in_the_registry_fails_the_loads_check():
    defn = load_variant_text(YUKON_YAML, "yukon.yaml")
    expected = r"test_loads\[yukon\]: AssertionError: yukon is not listed by the registry"
    with pytest.raises(AssertionError, match=expected):
        check_variant(defn, CHEAP, registry=build_registry(eps=[]), checks=("loads",))


def test_a_broken_plugin_is_one_failing_loads_case():
    missing = Path("/nonexistent/x.yaml")
    bad = type("Plugin", (), {"register_variants": hookimpl(lambda self, register: register(missing))})()
    reg = build_registry(eps=[], plugins=[("x", "solitaire-x", bad)])
    [case] = cases("x", registry=reg)
    assert case.test_name == "test_loads[x]"
    with pytest.raises(pytest.fail.Exception, match="x is installed but does not load: "):
        case.run()


def write_pooled_variant(folder: Path, pool: str) -> VariantDef:
    folder.mkdir()
    (folder / "yukon.yaml").write_text(YUKON_YAML)
    (folder / "winnable" / "yukon").mkdir(parents=True)  # where pool_path looks: a folder of the game's own
    (folder / "winnable" / "yukon" / "default.txt").write_text(pool)
    return load_variant_file(folder / "yukon.yaml")


def pool_case(folder: Path, pool: str, budget: Budget = CHEAP) -> Case:
    defn = write_pooled_variant(folder, pool)
    reg = build_registry(eps=[])
    reg.add(defn)
    [case] = cases(defn, budget, registry=reg, checks=("pool",))
    return case


def test_the_pool_check_reads_every_line_and_wins_the_first_seeds(tmp_path):
    case = pool_case(tmp_path / "bad", "# won seeds\n12x\n")
    with pytest.raises(AssertionError, match=r"default.txt:2: '12x' is not a seed"):
        case.run()


# Yukon's pool: its first seed, 4, is won within the kit's 20,000 states but not within 50
YUKON_POOL = (ROOT / "variants" / "yukon" / "winnable" / "yukon" / "default.txt").read_text()
STINGY = Budget(examples=3, states=100, pool_seeds=1, pool_states=50)


def test_the_pool_check_wins_the_first_seeds_within_its_budget(tmp_path):
    assert pool_case(tmp_path / "cheap", YUKON_POOL).run() is None  # the default budget: won
    with pytest.raises(AssertionError, match=r"default.txt: seed 4 is not won again within 50 states"):
        pool_case(tmp_path / "stingy", YUKON_POOL, STINGY).run()


def test_a_pool_can_ask_the_kit_for_more_states_in_its_header(tmp_path):
    # a game whose wins nearly all take the guided pass more than the kit's budget (Maria) says so
    case = pool_case(tmp_path / "asks", "# kit-states: 20000\n" + YUKON_POOL, STINGY)
    assert case.run() is None
    for bad in ("", "lots", "0", "-5"):
        with pytest.raises(AssertionError, match=r"default.txt:1: # kit-states: wants a positive whole number of "
                                                 r"states, got '.*'"):
            pool_case(tmp_path / f"bad{bad}", f"# kit-states: {bad}\n" + YUKON_POOL, STINGY).run()


def test_the_pool_check_is_skipped_with_a_reason_without_a_pool():
    defn = load_variant_text(YUKON_YAML, "yukon.yaml")
    [case] = cases(defn, CHEAP, checks=("pool",))
    with pytest.raises(pytest.skip.Exception, match="yukon ships no pool of won seeds for default"):
        case.run()


# --------------------------------------------------------------------------- the pytest plugin


def install_fake_distribution(where: Path, module: str, entry: str, code: str) -> None:
    """A plugin as pip would leave it: the module, and a dist-info folder naming its entry point
    (pytester's subprocess has its folder on PYTHONPATH)."""
    (where / f"{module}.py").write_text(textwrap.dedent(code))
    info = where / f"{module}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module.replace('_', '-')}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[solitaire]\n{entry} = {module}\n")


LOSSY_PLUGIN = f'''
    import copy
    import attrs
    from solitaire.core import VariantDef, hookimpl, load_variant_text

    TEXT = {YUKON_YAML.replace("name: yukon", "name: lossy")!r}

    @attrs.define(eq=False)
    class Lossy(VariantDef):
        def resolved(self, options=None):
            spec = super().resolved(options)
            step = spec.deal[0]
            return attrs.evolve(spec, deal=(attrs.evolve(step, counts=(*step.counts[:-1], 10)),))

    @hookimpl
    def register_variants(register):
        base = load_variant_text(TEXT, "lossy.yaml")
        register(Lossy(**{{f.alias: getattr(base, f.name) for f in attrs.fields(VariantDef)}}))
'''

GOOD_PLUGIN = f'''
    from pathlib import Path
    from solitaire.core import hookimpl

    @hookimpl
    def register_variants(register):
        register(Path({str(YUKON_DIR / "solitaire_yukon" / "yukon.yaml")!r}))
'''


@pytest.mark.slow
def test_the_plugin_passes_a_good_game_and_fails_a_broken_one(pytester):
    install_fake_distribution(pytester.path, "good_game", "yukon", GOOD_PLUGIN)
    install_fake_distribution(pytester.path, "lossy_game", "lossy", LOSSY_PLUGIN)
    # the example's Yukon beside the built-in one answers to its qualified name (the built-in,
    # which ships a pool, keeps the bare name)
    good = pytester.runpytest_subprocess("--solitaire-variant", "good-game:yukon", "--solitaire-examples", "3", "-rs")
    good.assert_outcomes(passed=5, skipped=1)
    good.stdout.fnmatch_lines(["*SKIPPED*good-game:yukon ships no pool of won seeds for default*"])

    bad = pytester.runpytest_subprocess("--solitaire-variant", "lossy", "--solitaire-examples", "3",
                                        "-k", "loads or deck", "--tb=line")
    bad.assert_outcomes(passed=1, failed=1)
    bad.stdout.fnmatch_lines(["collected 6 items / 4 deselected / 2 selected",
                              "*conformance.py:*: AssertionError: seed 0: the deal does not hold the deck, missing: *",
                              "FAILED solitaire-conformance::test_deck[[]lossy[[]default[]][]]*"])


@pytest.mark.slow
def test_the_plugin_lists_its_tests_and_refuses_bad_options_in_one_line(pytester):
    listed = pytester.runpytest_subprocess("--solitaire-variant", "all", "--solitaire-variant", "klondike",
                                           "--collect-only", "-q")
    listed.stdout.fnmatch_lines(["solitaire-conformance::test_loads[[]calculation[]]",
                                 "solitaire-conformance::test_deck[[]klondike[[]draw-3[]][]]"])
    assert sum("test_loads[klondike]" in line for line in listed.outlines) == 1  # named twice, run once

    unknown = pytester.runpytest_subprocess("--solitaire-variant", "klondyke")
    assert unknown.ret == pytest.ExitCode.USAGE_ERROR
    unknown.stderr.fnmatch_lines(["ERROR: --solitaire-variant: unknown variant 'klondyke'*"])
    assert len([line for line in unknown.errlines if line.strip()]) == 1

    zero = pytester.runpytest_subprocess("--solitaire-variant", "klondike", "--solitaire-examples", "0")
    assert zero.ret == pytest.ExitCode.USAGE_ERROR
    zero.stderr.fnmatch_lines(["ERROR: --solitaire-examples and --solitaire-states take a whole number of at least 1"])

    nothing = pytester.runpytest_subprocess()  # without the option the kit adds nothing
    assert nothing.ret == pytest.ExitCode.NO_TESTS_COLLECTED
