"""Plugins: the ``solitaire`` entry-point group, pluggy hooks, and broken plugins kept apart.

Third-party plugins are faked the way Python sees a real one: a module and a ``*.dist-info``
folder (METADATA, entry_points.txt) on ``sys.path``, so ``importlib.metadata`` finds them,
names their distribution, and ``solitaire variants`` lists them.
"""

from __future__ import annotations

import itertools
import json
import sys
import textwrap
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

import pytest

from solitaire.core import BrokenPlugin, VariantDef, build_registry, hookimpl, load_variant_text
from solitaire.core.errors import UnknownVariantError
from solitaire.core.plugins import load_reference, registry

_unique = itertools.count()

# the games the project itself installs: every YAML file of variants/, by the name it declares
BUILT_IN = tuple(sorted(
    next(line.split(":", 1)[1].strip() for line in path.read_text().splitlines() if line.startswith("name:"))
    for path in (Path(__file__).parent.parent / "variants").glob("*/*.yaml")))

THUMB_YAML = """\
name: thumb
title: Thumb
aliases: [thumbs]
description: A one-line test variant.
piles:
  stock: {role: stock, draw: {count: 1, to: waste}}
  waste: {role: waste, alias: w}
  foundation: {role: foundation, count: 4, build: {rank: up, suit: same-suit}, empty: {rank: A}}
  tableau: {role: tableau, count: 7, build: {rank: down, suit: alternate-colour}, empty: {rank: K}}
deal:
  - {to: tableau, counts: [1, 2, 3, 4, 5, 6, 7], face-up: 1}
  - {to: stock, rest: true}
"""


def variant_text(name: str, aliases: str = "[]") -> str:
    return THUMB_YAML.replace("name: thumb", f"name: {name}").replace("[thumbs]", aliases)


class Site:
    """A folder on sys.path where tests install fake distributions."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def install(self, dist: str, code: str, files: dict[str, str] | None = None,
                entry: str | None = None) -> str:
        """A distribution ``dist`` whose module (given ``code``) is the entry point ``entry``."""
        module = f"{dist.replace('-', '_')}_{next(_unique)}"
        package = self.root / module
        package.mkdir()
        (package / "__init__.py").write_text(textwrap.dedent(code))
        for name, text in (files or {}).items():
            (package / name).write_text(text)
        info = self.root / f"{dist.replace('-', '_')}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(f"[solitaire]\n{entry or dist} = {module}\n")
        return module


@pytest.fixture
def site(tmp_path, monkeypatch):
    root = tmp_path / "site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    before = set(sys.modules)
    registry.cache_clear()
    yield Site(root)
    registry.cache_clear()
    for name in set(sys.modules) - before:
        if name.split(".")[0] in {p.name for p in root.iterdir()}:
            del sys.modules[name]


GOOD = """\
from pathlib import Path
from solitaire.core import hookimpl

@hookimpl
def register_variants(register):
    register(Path(__file__).with_name("thumb.yaml"))
"""


# --------------------------------------------------------------------------- the built-ins


def test_builtins_come_through_the_same_entry_point_group():
    eps = {ep.name: ep for ep in entry_points(group="solitaire")}
    assert eps["klondike"].value == "solitaire.variants.klondike"
    assert eps["calculation"].value == "solitaire.variants.calculation"
    dist = eps["klondike"].dist
    assert dist is not None and dist.metadata["Name"] == "solitaire-table"
    # no entry points, no variants: there is no other path for the built-ins
    empty = build_registry(eps=[])
    assert empty.variants == {} and empty.broken == []
    with pytest.raises(UnknownVariantError, match="unknown variant 'klondike'; installed: none"):
        empty.get("klondike")


def test_builtins_only_registry_lists_both_games():
    reg = build_registry()
    assert {"klondike", "calculation"} <= set(reg.variants)
    assert reg.get("hopscotch") is reg.get("calculation")
    assert reg.variants["calculation"].provider == "solitaire-table"


# --------------------------------------------------------------------------- plugin objects


class PathPlugin:
    def __init__(self, path: Path) -> None:
        self.path = path

    @hookimpl
    def register_variants(self, register):
        register(self.path)


class DefinitionPlugin:
    """Registers a definition object rather than a file."""

    @hookimpl
    def register_variants(self, register):
        register(load_variant_text(variant_text("pinky"), "pinky.yaml"))


def test_register_and_unregister_plugins(tmp_path):
    path = tmp_path / "thumb.yaml"
    path.write_text(THUMB_YAML)
    with_it = build_registry(plugins=[("thumb", "thumb-dist", PathPlugin(path))])
    assert with_it.broken == []
    thumb = with_it.get("thumbs")
    assert thumb.name == "thumb" and thumb.provider == "thumb-dist" and thumb.path == path
    assert {"klondike", "calculation", "thumb"} <= set(with_it.variants)
    without = build_registry()
    with pytest.raises(UnknownVariantError, match="unknown variant 'thumb'"):
        without.get("thumb")
    only = build_registry(eps=[], plugins=[("thumb", "thumb-dist", PathPlugin(path))])
    assert list(only.variants) == ["thumb"]


def test_a_plugin_may_register_a_definition_object():
    reg = build_registry(eps=[], plugins=[("pinky", "pinky-dist", DefinitionPlugin())])
    defn = reg.get("pinky")
    assert isinstance(defn, VariantDef) and defn.provider == "pinky-dist" and defn.path is None


def test_fake_entry_point_objects(tmp_path, monkeypatch):
    (tmp_path / "thumb.yaml").write_text(THUMB_YAML)
    module = tmp_path / "thumb_ep_plugin.py"
    module.write_text(GOOD.replace('Path(__file__).with_name("thumb.yaml")', repr(str(tmp_path / "thumb.yaml"))))
    monkeypatch.syspath_prepend(str(tmp_path))
    eps = [
        EntryPoint(name="thumb", value="thumb_ep_plugin", group="solitaire"),
        EntryPoint(name="ghost", value="no_such_module_anywhere", group="solitaire"),
    ]
    reg = build_registry(eps=eps)
    assert list(reg.variants) == ["thumb"]
    assert reg.broken == [BrokenPlugin("ghost", "", "cannot import no_such_module_anywhere: "
                                       "ModuleNotFoundError: No module named 'no_such_module_anywhere'")]
    monkeypatch.delitem(sys.modules, "thumb_ep_plugin")


def test_entry_point_values_load_as_importlib_reads_them(tmp_path, monkeypatch):
    """``module``, ``module:attr.attr`` and extras load the named object; a value that is no
    reference at all is a broken plugin with a one-line reason, not a traceback."""
    (tmp_path / "thumb.yaml").write_text(THUMB_YAML)
    (tmp_path / "nested_ep_plugin.py").write_text(
        "class Holder:\n    class Plugin:\n" + textwrap.indent(
            GOOD.replace('Path(__file__).with_name("thumb.yaml")', repr(str(tmp_path / "thumb.yaml"))), " " * 8))
    monkeypatch.syspath_prepend(str(tmp_path))
    eps = [
        EntryPoint(name="thumb", value="nested_ep_plugin:Holder.Plugin [extra]", group="solitaire"),
        EntryPoint(name="junk", value="not a reference!", group="solitaire"),
    ]
    assert load_reference(eps[0].value) is eps[0].load()  # the same object importlib gives
    reg = build_registry(eps=eps)
    assert list(reg.variants) == ["thumb"]
    assert reg.broken == [BrokenPlugin("junk", "", "cannot import not a reference!: ValueError: "
                                       "'not a reference!' is not a module or module:object reference")]
    monkeypatch.delitem(sys.modules, "nested_ep_plugin")


# --------------------------------------------------------------------------- installed plugins


def test_an_installed_plugin_is_listed_with_its_distribution_and_plays(site, cli):
    site.install("thumb-plugin", GOOD, {"thumb.yaml": THUMB_YAML})
    result = cli("variants")
    assert result.code == 0, result.err
    assert "thumb (also: thumbs)  [thumb-plugin]" in result.out
    assert "    A one-line test variant." in result.out
    assert "calculation (also: hopscotch)  [solitaire-table]" in result.out
    data = json.loads(cli("variants", "--json").out)
    thumb = next(v for v in data["variants"] if v["name"] == "thumb")
    assert thumb["provider"] == "thumb-plugin" and thumb["aliases"] == ["thumbs"]
    assert thumb["description"] == "A one-line test variant."
    assert data["broken"] == []
    replies = cli("play", "thumbs", "--seed", "3", "--json", input="draw\n").json_lines()
    assert replies[0]["position"]["variant"] == "thumb"
    assert replies[1]["ok"] and replies[1]["moves"] == 1


BROKEN = {
    # dist name: (module code, files, expected reason, listed name)
    "import-error-plugin": (
        "import not_a_module_that_exists\n", {},
        "cannot import {module}: ModuleNotFoundError: No module named 'not_a_module_that_exists' "
        "(at {module}/__init__.py:1)",
        "import-error-plugin"),
    "bad-yaml-plugin": (
        GOOD, {"thumb.yaml": THUMB_YAML.replace("alternate-colour", "alternate")},
        "thumb.yaml:9: piles.tableau.build.suit: unknown rule 'alternate'; expected one of: "
        "alternate-colour, same-suit, same-colour, different-suit, any-suit (did you mean 'alternate-colour'?)",
        "thumb"),
    "raising-plugin": (
        "from solitaire.core import hookimpl\n\n@hookimpl\ndef register_variants(register):\n"
        "    raise RuntimeError('the plugin fell over')\n", {},
        "register_variants failed: RuntimeError: the plugin fell over (at {module}/__init__.py:5)",
        "raising-plugin"),
    "misspelled-plugin": (
        "from solitaire.core import hookimpl\n\n@hookimpl\ndef register_variant(register):\n    pass\n", {},
        "bad plugin: unknown hook 'register_variant' (did you mean 'register_variants'?); "
        "the hooks are: register_variants, solver_knowledge", "misspelled-plugin"),
    "undecorated-plugin": (
        "def register_variants(register):\n    pass\n", {},
        "implements no solitaire hook: expected a function register_variants(register) decorated with "
        "@solitaire.core.hookimpl", "undecorated-plugin"),
    "wrong-argument-plugin": (
        "from solitaire.core import hookimpl\n\n@hookimpl\ndef register_variants(add):\n    pass\n", {},
        "bad plugin: register_variants(add) takes argument(s) {'add'} that the hook does not have; "
        "the hook is register_variants(register)", "wrong-argument-plugin"),
    "wrong-type-plugin": (
        "from solitaire.core import hookimpl\n\n@hookimpl\ndef register_variants(register):\n"
        "    register({'name': 'x'})\n", {},
        "register() takes a YAML file path or a VariantDef, got dict", "wrong-type-plugin"),
    "syntax-error-plugin": (
        GOOD, {"thumb.yaml": THUMB_YAML.replace("aliases: [thumbs]", "aliases: [thumbs")},
        "thumb.yaml:4: YAML syntax error: expected ',' or ']', but got ':'", "thumb"),
    # files and hooks that once stopped every command (a traceback, an exit status of their own)
    "recursive-anchor-plugin": (
        GOOD, {"thumb.yaml": "name: bad\npiles: &p {x: *p}\ndeal: []\n"},
        "thumb.yaml:2: piles.x: an alias inside its own anchor (the value would contain itself)", "thumb"),
    "deep-plugin": (
        GOOD, {"thumb.yaml": "name: bad\npiles: " + "[" * 1200 + "]" * 1200 + "\ndeal: []\n"},
        "thumb.yaml:2: nested more than 32 mappings and lists deep", "thumb"),
    "long-number-plugin": (
        GOOD, {"thumb.yaml": THUMB_YAML.replace("count: 4", "count: " + "4" * 5000)},
        "thumb.yaml:8: piles.foundation.count: a number of 5000 characters; at most 32 are allowed", "thumb"),
    "laughs-plugin": (
        GOOD, {"thumb.yaml": "name: bad\na: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
            f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(8))},
        "thumb.yaml:5: d[0][6][8][2]: more than 2000 values (each alias expanded); "
        "that is the most a variant file may hold",
        "thumb"),
    "many-piles-plugin": (
        GOOD, {"thumb.yaml": THUMB_YAML.replace("count: 7", "count: 1000000")},
        "thumb.yaml:9: piles.tableau.count: expected a number of at most 64, got 1000000", "thumb"),
    "exit-plugin": (
        "from solitaire.core import hookimpl\n\n@hookimpl\ndef register_variants(register):\n"
        "    raise SystemExit(3)\n", {},
        "register_variants failed: SystemExit: 3 (at {module}/__init__.py:5)", "exit-plugin"),
    "interrupting-plugin": (  # raised by the hook's own code, not the user's Ctrl-C
        "from solitaire.core import hookimpl\n\n@hookimpl\ndef register_variants(register):\n"
        "    raise KeyboardInterrupt\n", {},
        "register_variants failed: KeyboardInterrupt (at {module}/__init__.py:5)", "interrupting-plugin"),
    "exit-on-import-plugin": (
        "import sys\nsys.exit('no games today')\n", {},
        "cannot import {module}: SystemExit: no games today (at {module}/__init__.py:2)", "exit-on-import-plugin"),
}


@pytest.fixture
def broken_site(site):
    modules = {}
    for dist, (code, files, _, _) in BROKEN.items():
        modules[dist] = site.install(dist, code, files)
    site.install("thumb-plugin", GOOD, {"thumb.yaml": THUMB_YAML})
    return modules


def test_each_broken_plugin_is_listed_with_its_reason_and_the_others_work(broken_site, cli):
    data = json.loads(cli("variants", "--json").out)
    broken = {b["provider"]: b for b in data["broken"]}
    assert set(broken) == set(BROKEN)
    for dist, (_, _, reason, name) in BROKEN.items():
        assert broken[dist]["reason"] == reason.replace("{module}", broken_site[dist]), dist
        assert broken[dist]["name"] == name
    names = {v["name"]: v["provider"] for v in data["variants"]}
    assert names == dict.fromkeys(BUILT_IN, "solitaire-table") | {"thumb": "thumb-plugin"}

    text = cli("variants")
    assert text.code == 0
    for dist, (_, _, reason, name) in BROKEN.items():
        why = reason.replace("{module}", broken_site[dist])
        assert f"{name}  [{dist}]  BROKEN: {why}" in text.out.splitlines()
    for game in ("klondike", "hopscotch", "thumb"):
        result = cli("play", game, "--seed", "1", "--json", input="draw\n")
        assert result.code == 0 and result.json_lines()[1]["ok"], (game, result.err)


def test_playing_a_broken_variant_says_why(broken_site, cli):
    result = cli("play", "misspelled-plugin", "--seed", "1")
    assert result.code == 2
    assert result.err == ("solitaire: variant 'misspelled-plugin' is installed but broken: bad plugin: unknown hook "
                          "'register_variant' (did you mean 'register_variants'?); "
                          "the hooks are: register_variants, solver_knowledge\n")


def test_the_builtins_win_a_name_clash_whatever_the_path_order(site):
    # the fake distribution is first on sys.path, yet the kernel's own klondike keeps the name
    site.install("aaa-plugin", GOOD, {"thumb.yaml": variant_text("klondike")})
    reg = build_registry()
    assert reg.get("klondike").provider == "solitaire-table"
    assert reg.broken == []
    assert reg.get("aaa-plugin:klondike").provider == "aaa-plugin"
    assert reg.get("solitaire-table:klondike") is reg.get("klondike")


def test_a_clash_of_names_leaves_each_game_a_name_and_says_so(site, cli):
    """Nothing silently shadows: the later game answers to DIST:NAME (its qualified name, which
    every game has), an alias another game has stays that game's, and the listing says both."""
    site.install("duplicate-plugin", GOOD, {"thumb.yaml": variant_text("klondike")})
    site.install("alias-clash-plugin", GOOD, {"thumb.yaml": variant_text("scotch", "[hopscotch, scot]")})
    listing = cli("variants").out.splitlines()
    at = listing.index("duplicate-plugin:klondike  [duplicate-plugin]")
    assert listing[at + 1] == ("    answers to duplicate-plugin:klondike only: klondike is the game from "
                               "solitaire-table")
    at = listing.index("scotch (also: scot)  [alias-clash-plugin]")
    assert listing[at + 1] == "    not also hopscotch: hopscotch is calculation from solitaire-table"
    data = {v["name"]: v for v in json.loads(cli("variants", "--json").out)["variants"]}
    assert data["klondike"]["qualified"] == "solitaire-table:klondike" and data["klondike"]["note"] is None
    assert data["duplicate-plugin:klondike"]["qualified"] == "duplicate-plugin:klondike"
    # each plays by its own name; the bare name is the built-in's
    ours = cli("deal", "klondike", "--seed", "1", "--json")
    theirs = cli("deal", "duplicate-plugin:klondike", "--seed", "1", "--json")
    assert json.loads(ours.out)["variant"] == "klondike"
    assert json.loads(theirs.out)["variant"] == "duplicate-plugin:klondike"
    played = cli("play", "duplicate-plugin:klondike", "--seed", "1", "--json", input="draw\n")
    assert played.code == 0 and played.json_lines()[1]["ok"], played.err
    assert cli("play", "hopscotch", "--seed", "1", "--json").json_lines()[0]["position"]["variant"] == "calculation"
    assert "solitaire play --deal duplicate-plugin:klondike-1" in cli("play").out  # its save and share code


def test_one_distribution_giving_two_games_one_name_is_broken(site):
    site.install("twice-plugin", GOOD.replace('register(Path(__file__).with_name("thumb.yaml"))',
                                             'register(Path(__file__).with_name("thumb.yaml"))\n'
                                             '    register(Path(__file__).with_name("thumb.yaml"))'),
                 {"thumb.yaml": variant_text("thumb")})
    reg = build_registry()
    assert [(b.name, b.reason) for b in reg.broken] == [
        ("thumb", "the name 'thumb' is already taken by 'thumb' from twice-plugin")]


def test_two_entry_points_naming_one_module_load_it_once(tmp_path, monkeypatch):
    (tmp_path / "twice_plugin.py").write_text(
        GOOD.replace('Path(__file__).with_name("thumb.yaml")', repr(str(tmp_path / "thumb.yaml"))))
    (tmp_path / "thumb.yaml").write_text(THUMB_YAML)
    monkeypatch.syspath_prepend(str(tmp_path))
    eps = [EntryPoint(name=n, value="twice_plugin", group="solitaire") for n in ("one", "two")]
    reg = build_registry(eps=eps)
    assert list(reg.variants) == ["thumb"]
    assert reg.broken == [BrokenPlugin("two", "", "the same plugin is already loaded as 'one'")]
    monkeypatch.delitem(sys.modules, "twice_plugin")


def test_two_distributions_may_use_the_same_entry_point_name(site):
    site.install("first-dist", GOOD, {"thumb.yaml": variant_text("one")}, entry="games")
    site.install("second-dist", GOOD, {"thumb.yaml": variant_text("two")}, entry="games")
    reg = build_registry()
    assert reg.broken == []
    assert reg.get("one").provider == "first-dist" and reg.get("two").provider == "second-dist"


def test_a_broken_variant_file_stops_no_command(site):
    """The issue's report, as a user runs it: a plugin whose YAML anchor contains itself, and one
    whose hook exits; ``play klondike`` still plays, and ``variants`` says what is broken."""
    import os
    import subprocess

    site.install("anchor-plugin", GOOD, {"thumb.yaml": "name: bad\npiles: &p {x: *p}\ndeal: []\n"})
    site.install("exit-plugin", "from solitaire.core import hookimpl\n\n@hookimpl\n"
                 "def register_variants(register):\n    raise SystemExit(3)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site.root), *filter(None, [os.environ.get("PYTHONPATH")])])}
    command = [sys.executable, "-m", "solitaire.cli.main"]
    played = subprocess.run([*command, "play", "klondike", "--seed", "1", "--new", "--json"], input="quit\n",
                            env=env, capture_output=True, text=True, timeout=120)
    assert (played.returncode, played.stderr) == (0, "")
    assert json.loads(played.stdout.splitlines()[0])["position"]["variant"] == "klondike"
    listed = subprocess.run([*command, "variants"], env=env, capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0 and listed.stderr == ""
    lines = listed.stdout.splitlines()
    assert ("thumb  [anchor-plugin]  BROKEN: thumb.yaml:2: piles.x: an alias inside its own anchor "
            "(the value would contain itself)") in lines
    assert any(line.startswith("exit-plugin  [exit-plugin]  BROKEN: register_variants failed: SystemExit: 3 (at ")
               for line in lines)


class InterruptedPlugin:
    """A hook interrupted by the user's Ctrl-C (SIGINT, as the terminal sends it)."""

    @hookimpl
    def register_variants(self, register):
        import signal

        signal.raise_signal(signal.SIGINT)


class SelfInterruptingPlugin:
    @hookimpl
    def register_variants(self, register):
        raise KeyboardInterrupt


def test_the_users_ctrl_c_goes_through_a_plugins_own_does_not():
    import signal

    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with pytest.raises(KeyboardInterrupt):
        build_registry(eps=[], plugins=[("late", "late-dist", InterruptedPlugin())])
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back
    reg = build_registry(eps=[], plugins=[("own", "own-dist", SelfInterruptingPlugin()),
                                          ("pinky", "pinky-dist", DefinitionPlugin())])
    assert [b.name for b in reg.broken] == ["own"] and reg.broken[0].reason.startswith(
        "register_variants failed: KeyboardInterrupt (at ")
    assert list(reg.variants) == ["pinky"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


class OddItemsPlugin:
    """Registers things the loader cannot read: a path that is a folder, a str that exits when read."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @hookimpl
    def register_variants(self, register):
        class Hostile(str):
            def __str__(self):
                raise SystemExit(4)

        register(self.folder)
        register(Hostile("x.yaml"))


def test_anything_a_registered_item_raises_is_that_items_loss(tmp_path):
    reg = build_registry(eps=[], plugins=[("odd", "odd-dist", OddItemsPlugin(tmp_path)),
                                          ("pinky", "pinky-dist", DefinitionPlugin())])
    assert list(reg.variants) == ["pinky"]
    reasons = [b.reason for b in reg.broken]
    assert len(reasons) == 2 and reasons[0].startswith(f"{tmp_path}: cannot read:")
    assert reasons[1].startswith("cannot load 'x.yaml': SystemExit: 4 (at tests/test_plugins.py:")
    assert all("\n" not in r for r in reasons)


def test_an_entry_points_file_that_does_not_parse_breaks_only_its_own_plugin(site, cli):
    """importlib.metadata reads every distribution's entry_points.txt at once and raises on one
    that does not parse: that one is listed as broken (if it has a [solitaire] section) and
    everything else still plays."""
    site.install("thumb-plugin", GOOD, {"thumb.yaml": THUMB_YAML})
    for dist, text in (("garbled-plugin", "[solitaire]\ngarbled\n"), ("other-tool", "[console_scripts]\nnothing\n")):
        info = site.root / f"{dist.replace('-', '_')}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(text)
    with pytest.raises(TypeError):  # what importlib.metadata itself does
        entry_points(group="solitaire")
    data = json.loads(cli("variants", "--json").out)
    assert data["broken"] == [{"name": "garbled-plugin", "provider": "garbled-plugin",
                               "reason": "its entry_points.txt does not parse: each line of the [solitaire] "
                                         "section must be 'name = module'"}]
    assert {*BUILT_IN, "thumb"} == {v["name"] for v in data["variants"]}
    result = cli("play", "klondike", "--seed", "1", "--new", "--json", input="quit\n")
    assert result.code == 0 and result.json_lines()[0]["position"]["variant"] == "klondike"
