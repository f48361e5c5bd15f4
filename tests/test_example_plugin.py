"""The example third-party plugin (examples/solitaire-yukon): its rules, then a real install.

The first tests load the plugin in-process through ``build_registry`` and check Yukon's rules
with the Python API. The last one does what a user does: a fresh virtual environment,
``pip install`` of solitaire and of the example (each from a copy of its folder, so the
working tree is left alone), then ``solitaire variants`` and ``solitaire play yukon --json``.
"""

from __future__ import annotations

import importlib.util
import inspect
import itertools
import json
import os
import re
import shutil
import subprocess
import venv
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from solitaire.core import Game, IllegalMoveError, Rules, build_registry, get_variant, hookimpl, hookspecs
from solitaire.core.cards import COLOUR, RANK, SUIT, card_name
from solitaire.core.conformance import Budget, check_variant

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "solitaire-yukon"
PACKAGE = EXAMPLE / "src" / "solitaire_yukon"
QUALIFIED = "solitaire-yukon:yukon"  # the example's name beside the built-in Yukon: DISTRIBUTION:NAME


def load_plugin_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("solitaire_yukon_under_test", PACKAGE / "__init__.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def yukon_registry():
    reg = build_registry(plugins=[("yukon", "solitaire-yukon", load_plugin_module())])
    assert reg.broken == []
    return reg


@pytest.fixture(scope="module")
def yukon(yukon_registry):
    return yukon_registry.get("solitaire-yukon:yukon")  # solitaire's own Yukon has the bare name


def test_yukon_passes_the_conformance_kit(yukon_registry):
    """What `pytest --solitaire-variant yukon` runs, in-process: every check but the pool's,
    which is skipped (the example ships no pool of won seeds)."""
    skipped = check_variant("solitaire-yukon:yukon", Budget(examples=5), registry=yukon_registry)
    assert skipped == [f"test_pool[{QUALIFIED}[default]]: {QUALIFIED} ships no pool of won seeds for default "
                       "(no winnable/yukon/default.txt beside its YAML)"]


def test_the_example_and_the_built_in_yukon_coexist(yukon_registry, yukon):
    """The built-in Yukon keeps the bare name (the kernel's games load first); the example
    answers to its qualified name, and says so; neither is broken, and they deal alike."""
    built_in = yukon_registry.get("yukon")
    assert built_in.provider == "solitaire-table" and yukon.provider == "solitaire-yukon"
    assert yukon.name == "solitaire-yukon:yukon" and yukon_registry.get("solitaire-table:yukon") is built_in
    assert yukon_registry.notes == {
        "solitaire-yukon:yukon": "answers to solitaire-yukon:yukon only: yukon is the game from solitaire-table"}
    ours, theirs = Game.new(Rules.of(built_in), 11), Game.new(Rules.of(yukon), 11)
    assert ours.piles == theirs.piles and theirs.to_position()["variant"] == "solitaire-yukon:yukon"


def test_the_example_is_yaml_and_one_hook_only():
    code = (PACKAGE / "__init__.py").read_text()
    assert "register(Path(__file__).with_name(\"yukon.yaml\"))" in code
    assert sorted(p.name for p in PACKAGE.iterdir() if p.name != "__pycache__") == ["__init__.py", "yukon.yaml"]
    meta = (EXAMPLE / "pyproject.toml").read_text()
    assert '[project.entry-points.solitaire]\nyukon = "solitaire_yukon"' in meta


def test_deal_counts_and_face_up_cards(yukon):
    game = Game.new(Rules.of(yukon), 11)
    rules = game.rules
    tableau = [rules.index[f"t{i}"] for i in range(1, 8)]
    assert [len(game.piles[t]) for t in tableau] == [1, 6, 7, 8, 9, 10, 11]
    assert [game.face_up_count(t) for t in tableau] == [1, 5, 5, 5, 5, 5, 5]
    assert rules.stock is None and "stock" not in rules.names
    assert sum(len(p) for p in game.piles) == 52


def test_no_stock_means_no_draw(yukon):
    game = Game.new(Rules.of(yukon), 11)
    with pytest.raises(IllegalMoveError, match="this game has no stock to draw from"):
        game.play("draw")
    assert all(m[2] > 0 for m in game.legal_moves())
    assert game.finish_ready() == "finish needs every card face up"


def test_any_face_up_group_moves_even_out_of_sequence(yukon):
    """Find a legal move of several cards whose cards are not in sequence: Yukon allows it."""
    for seed in range(200):
        game = Game.new(Rules.of(yukon), seed)
        for src, dst, n in game.legal_moves():
            moved = game.piles[src][-n:]
            in_sequence = all(RANK[a] == RANK[b] + 1 and COLOUR[a] != COLOUR[b] for a, b in itertools.pairwise(moved))
            if n > 1 and not in_sequence:
                before = len(game.piles[dst])
                game.play((src, dst, n))
                assert game.piles[dst][before:] == moved
                bottom, target = moved[0], game.piles[dst][before - 1]
                assert RANK[target] == RANK[bottom] + 1 and COLOUR[target] != COLOUR[bottom]
                return
    pytest.fail("no out-of-sequence group move in 200 deals")


def test_empty_column_takes_only_a_king_and_foundations_one_card_by_suit(yukon):
    piles: dict[str, dict[str, list[str]]] = {f"f{i}": {"up": []} for i in range(1, 5)}
    cards = [card_name(c) for c in range(52)]
    # t1: empty; t2: QH on 5C; t3: KS; the rest of the deck on t4 .. t7, all face up
    used = {"QH", "5C", "KS", "AC"}
    rest = [c for c in cards if c not in used]
    piles |= {"t1": {"up": []}, "t2": {"up": ["5C", "QH"]}, "t3": {"up": ["KS"]}, "t4": {"up": ["AC"]}}
    piles |= {f"t{i}": {"up": rest[k::3]} for k, i in enumerate((5, 6, 7))}
    game = Game.from_position(yukon, {"variant": yukon.name, "piles": piles})
    with pytest.raises(IllegalMoveError, match="nothing from t2 fits on the empty t1: it takes only a King"):
        game.play("t2 t1")
    game.play("t3 t1")
    assert card_name(game.piles[game.rules.index["t1"]][-1]) == "KS"
    with pytest.raises(IllegalMoveError, match="f1 takes 1 card at a time"):
        game.play("t2 f1 2")
    record = game.play("t4 f")
    assert record.dst == "f1" and game.score == 10
    assert SUIT[game.piles[game.rules.index["f1"]][0]] == 0


# --------------------------------------------------------------------------- a real install


def _copy_project(src: Path, dst: Path, parts: list[str]) -> Path:
    dst.mkdir()
    for part in parts:
        path = src / part
        if path.is_dir():
            shutil.copytree(path, dst / part, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(path, dst / part)
    return dst


INSTALL_LIMIT = 1800  # seconds: a guard against a hang, not a budget (a CI run may take 90 minutes)


@pytest.mark.slow
def test_the_example_installs_lists_and_plays_in_a_fresh_environment(tmp_path):
    # the project as a fresh clone would have it, less what an install does not need
    main = tmp_path / "solitaire"
    shutil.copytree(ROOT, main, ignore=shutil.ignore_patterns(
        ".git", ".*venv*", "venv", "site", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache",
        ".hypothesis", "tests", "docs", "examples", "benchmarks"))
    example = _copy_project(EXAMPLE, tmp_path / "solitaire-yukon", ["pyproject.toml", "README.md", "src"])
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    bindir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / "python"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_REQUIRE", "VIRTUAL_ENV"))}
    env |= {"SOLITAIRE_HOME": str(tmp_path / "home"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    # with the conformance extra: pytest and hypothesis, for the kit; the install compiles the
    # Rust core from scratch (a few minutes on a loaded 2-core machine): the limit only guards
    # against a hang, well inside CI's own
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", f"{main}[conformance]", str(example)],
        capture_output=True, text=True, env=env, timeout=INSTALL_LIMIT)
    assert install.returncode == 0, install.stdout + install.stderr

    def solitaire(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(bindir / "solitaire"), *args], input=stdin, capture_output=True, text=True,
                              env=env, timeout=120)

    listing = solitaire("variants")
    assert listing.returncode == 0, listing.stderr
    assert "solitaire-yukon:yukon  [solitaire-yukon]" in listing.stdout.splitlines()
    assert "yukon  [solitaire-table]" in listing.stdout.splitlines()
    assert "klondike  [solitaire-table]" in listing.stdout.splitlines()
    guide = next(b for b in code_blocks(GUIDE.read_text(), "text") if b.startswith(f"{QUALIFIED}  [solitaire-yukon]\n"))
    assert guide in listing.stdout  # the guide shows what solitaire prints
    data = json.loads(solitaire("variants", "--json").stdout)
    built_in = tuple(  # every YAML file of variants/, by the name it declares
        next(line.split(":", 1)[1].strip() for line in path.read_text().splitlines() if line.startswith("name:"))
        for path in (Path(__file__).parent.parent / "variants").glob("*/*.yaml"))
    assert {v["name"]: v["provider"] for v in data["variants"]} == (
        dict.fromkeys(built_in, "solitaire-table") | {"solitaire-yukon:yukon": "solitaire-yukon"})
    assert data["broken"] == []

    # the same moves in-process, from the example's YAML, say what the installed one must reply
    reg = build_registry(eps=[], plugins=[("yukon", "solitaire-yukon", load_plugin_module())])
    game = Game.new(Rules.of(reg.get("yukon")), 7)
    commands = []
    for _ in range(6):
        moves = game.legal_moves()
        if not moves:
            break
        commands.append(game.move_text(moves[-1]))
        game.play(moves[-1])
    commands += ["draw", "t1 t1", "undo"]
    played = solitaire("play", "solitaire-yukon:yukon", "--seed", "7", "--json", stdin="\n".join(commands) + "\n")
    assert played.returncode == 0, played.stderr
    replies = [json.loads(line) for line in played.stdout.splitlines()]
    assert len(replies) == len(commands) + 1
    assert all(r["ok"] for r in replies[1:len(commands) - 2]), replies
    after = replies[len(commands) - 3]
    expected = game.to_position(hidden=True)
    assert after["position"]["piles"] == expected["piles"]
    assert after["score"] == game.score and after["moves"] == game.moves
    assert replies[-3]["error"] == "this game has no stock to draw from"
    assert replies[-2]["error"] == "t1 cannot move onto itself"
    assert replies[-1]["ok"] and replies[-1]["moves"] == game.moves - 1

    # the conformance kit, as the guide and the example's README run it (its pytest plugin is installed)
    kit_dir = tmp_path / "kit"
    kit_dir.mkdir()
    kit = subprocess.run([str(python), "-m", "pytest", "--solitaire-variant", QUALIFIED, "-p", "no:cacheprovider",
                          "-rs"],
                         capture_output=True, text=True, env=env, cwd=kit_dir, timeout=INSTALL_LIMIT)
    assert kit.returncode == 0, kit.stdout + kit.stderr
    assert "5 passed, 1 skipped" in kit.stdout and "solitaire-yukon:yukon ships no pool of won seeds" in kit.stdout


# --------------------------------------------------------------------------- the guide


GUIDE = ROOT / "docs" / "write-a-variant.md"


def code_blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}[^\n]*\n(.*?)^```", text, flags=re.S | re.M)


def test_the_guide_includes_every_file_of_the_example_as_it_is():
    text = GUIDE.read_text()
    included = re.findall(r'^--8<-- "([^"]+)"$', text, flags=re.M)
    expected = ["examples/solitaire-yukon/pyproject.toml", "examples/solitaire-yukon/src/solitaire_yukon/__init__.py",
                "examples/solitaire-yukon/src/solitaire_yukon/yukon.yaml"]
    assert [p for p in included if p.startswith("examples/")] == expected
    for path in included:
        assert (ROOT / path).is_file()
        # each inclusion sits alone in a code block titled with the same path
        assert re.search(rf'^```\w+ title="{re.escape(path)}"\n--8<-- "{re.escape(path)}"\n```$', text, flags=re.M)


def test_the_guide_documents_every_hook():
    text = GUIDE.read_text()
    specs = [name for name in dir(hookspecs) if hasattr(getattr(hookspecs, name), hookspecs.PROJECT + "_spec")]
    assert specs == ["register_variants", "solver_knowledge"]
    for name in specs:
        args = ", ".join(inspect.signature(getattr(hookspecs, name)).parameters)
        assert f"`{name}({args})`" in text


def test_the_guides_test_code_runs(monkeypatch):
    [code] = [c for c in code_blocks(GUIDE.read_text(), "python") if "--8<--" not in c and "conformance" not in c]
    monkeypatch.chdir(EXAMPLE)
    namespace: dict[str, Any] = {}
    exec(compile(code, str(GUIDE), "exec"), namespace)
    tests = [f for name, f in namespace.items() if name.startswith("test_")]
    assert len(tests) == 2
    for test in tests:
        test()


def test_the_guides_broken_lines_are_what_solitaire_says(tmp_path, cli, monkeypatch):
    blocks = code_blocks(GUIDE.read_text(), "text")
    lines = [line for block in blocks for line in block.splitlines() if "BROKEN" in line]
    assert len(lines) == 2
    misspelled = type("Plugin", (), {"register_variant": hookimpl(lambda self, register: None)})()
    yaml = tmp_path / "yukon.yaml"
    yaml.write_text((PACKAGE / "yukon.yaml").read_text().replace("alternate-colour", "alternate"))
    typo = type("Plugin", (), {"register_variants": hookimpl(lambda self, register: register(yaml))})()
    reg = build_registry(eps=[], plugins=[("yukon", "solitaire-yukon", misspelled), ("yukon", "solitaire-yukon", typo)])
    said = [f"{b.name}  [{b.provider}]  BROKEN: {b.reason}" for b in reg.broken]
    assert said == lines


@pytest.mark.parametrize("variant, options", [("klondike", {}), ("klondike", {"relaxed": True}),
                                              ("calculation", {}), ("yukon", {})])
def test_help_examples_are_moves_the_rules_allow_in_the_games_own_names(yukon, variant, options):
    defn = yukon if variant == "yukon" else get_variant(variant)
    game = Game.new(Rules.of(defn, options), 1)
    rules = game.rules
    examples = game.move_examples()
    assert examples  # every game here has moves to show
    for text in examples:
        src_name, dst_name = text.split()
        src = rules.index.get(src_name, rules.aliases.get(src_name))
        dsts = rules.group_names.get(dst_name, (rules.index.get(dst_name),))
        assert src is not None and all(d in rules.targets[src] for d in dsts if d != src), text


def test_the_guides_conformance_kit_example_runs(monkeypatch, yukon_registry):
    """The kit's test module in the guide, run with Yukon registered as if installed; the
    tests it lists are the kit's."""
    import solitaire.core
    import solitaire.core.plugins
    from solitaire.core.conformance import cases

    text = section_of(GUIDE.read_text(), "## The conformance kit")
    [code] = code_blocks(text, "python")
    [names] = [b for b in code_blocks(text, "text") if b.startswith("solitaire-conformance::")]
    assert names.split() == [f"solitaire-conformance::{c.test_name}" for c in cases(QUALIFIED, registry=yukon_registry)]
    monkeypatch.setattr(solitaire.core, "registry", lambda: yukon_registry)
    monkeypatch.setattr(solitaire.core.plugins, "registry", lambda: yukon_registry)
    namespace: dict[str, Any] = {}
    exec(compile(code, str(GUIDE), "exec"), namespace)
    namespace["test_yukon_conforms"]()
    mark = namespace["test_every_game"].pytestmark[0]
    every = [c for c in mark.args[1] if c.name == "solitaire-yukon:yukon"]  # the registry holds the built-in games too
    assert len(every) == 6
    for case in every[:2]:  # loads and deck: the others ran above
        namespace["test_every_game"](case)


def section_of(text: str, heading: str) -> str:
    start = text.index(heading + "\n")
    end = text.find("\n## ", start + len(heading))
    return text[start:end if end != -1 else len(text)]
