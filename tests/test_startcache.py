"""The start-up cache: a warm start skips finding plugins and parsing variant files, and never
gives an answer that differs from a cold start's (edited files, installed and removed
plugins, a corrupt or unwritable cache).

Each run is a fresh interpreter (the registry is built once per process), running the real
``solitaire variants --json`` with a folder of fake distributions on ``PYTHONPATH``.
"""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solitaire.core import startcache
from solitaire.core.startcache import StartupCache
from solitaire.core.yamlsource import LDict, LList, load_yaml_file

PROGRAM = textwrap.dedent("""\
    import contextlib, io, json, sys, time
    from solitaire.cli.main import main
    from solitaire.core import startcache
    skew = int(sys.argv[1])  # the clock runs ahead by what the newest kernel file needs (see clock_skew)
    startcache.now_ns = lambda: time.time_ns() + skew
    # a plain game first (its fast path imports neither Typer nor anything Typer brings)
    sys.stdin = io.StringIO("quit\\n")
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["play", "klondike", "--plain", "--seed", "1", "--new"]) == 0
    loaded = [m for m in ("yaml", "importlib.metadata") if m in sys.modules]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["variants", "--json"])
    print(json.dumps({"code": code, "variants": json.loads(out.getvalue()), "loaded": loaded}))
""")

PLUGIN = """\
from pathlib import Path
from solitaire.core import hookimpl

@hookimpl
def register_variants(register):
    register(Path(__file__).with_name("{name}.yaml"))
"""

VARIANT = """\
name: {name}
title: {title}
piles:
  stock: {{role: stock, draw: {{count: 1, to: waste}}}}
  waste: {{role: waste}}
  foundation: {{role: foundation, count: 4, build: {{rank: up, suit: same-suit}}, empty: {{rank: A}}}}
  tableau: {{role: tableau, count: 7, build: {{rank: down, suit: alternate-colour}}, empty: {{rank: K}}}}
deal:
  - {{to: tableau, counts: [1, 2, 3, 4, 5, 6, 7], face-up: 1}}
  - {{to: stock, rest: true}}
"""

LONG_AGO = time.time() - 3600


def age(*paths: Path) -> None:
    """Give files an old time, as installed files have (a fresh one is not trusted)."""
    for path in paths:
        os.utime(path, (LONG_AGO, LONG_AGO))


def clock_skew() -> int:
    """How far ahead of the real clock the cache's clock must run for everything it is stamped
    with to be older than two seconds (0 unless a kernel module or a package changed moments
    ago). The tests set the clock that far ahead rather than wait that long, so they never test
    a cache that is rightly not written, and never sleep."""
    stamps = startcache.environment()
    assert stamps is not None  # sys.path holds only paths here
    return max(0, stamps[1] + startcache.RACY_NS + 1_000_000 - time.time_ns())


def settled_clock() -> Callable[[], int]:
    skew = clock_skew()
    return lambda: time.time_ns() + skew


@pytest.fixture(autouse=True)
def settled(monkeypatch):
    """The cache's clock, in this process, runs as far ahead as :func:`clock_skew` says."""
    monkeypatch.setattr(startcache, "now_ns", settled_clock())


class Site:
    def __init__(self, root: Path, home: Path) -> None:
        self.root, self.home = root, home
        root.mkdir()

    def install(self, dist: str, title: str = "Thumb") -> Path:
        """A distribution whose plugin registers the variant ``dist`` from a YAML file."""
        package = self.root / f"{dist}_plugin"
        package.mkdir()
        (package / "__init__.py").write_text(PLUGIN.format(name=dist))
        (package / f"{dist}.yaml").write_text(VARIANT.format(name=dist, title=title))
        info = self.root / f"{dist}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}-dist\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(f"[solitaire]\n{dist} = {dist}_plugin\n")
        age(package / "__init__.py", package / f"{dist}.yaml", info / "METADATA", info / "entry_points.txt", info)
        return package / f"{dist}.yaml"

    def run(self) -> dict[str, Any]:
        env = {**os.environ, "SOLITAIRE_HOME": str(self.home),
               "PYTHONPATH": os.pathsep.join([str(self.root), *filter(None, [os.environ.get("PYTHONPATH")])])}
        done = subprocess.run([sys.executable, "-c", PROGRAM, str(clock_skew())], env=env, capture_output=True,
                              text=True, cwd=self.home, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""
        result: dict[str, Any] = json.loads(done.stdout)
        return result

    def warm(self) -> None:
        """Two runs: the first works everything out and keeps it, the second uses the cache."""
        self.run()
        self.run()

    def titles(self, result: dict[str, Any]) -> dict[str, str]:
        return {v["name"]: v["title"] for v in result["variants"]["variants"]}

    def cache_files(self) -> list[Path]:
        return sorted((self.home / "cache").glob("startup-*.marshal"))


def make_site(tmp_path: Path) -> Site:
    home = tmp_path / "home"
    home.mkdir()
    return Site(tmp_path / "site", home)


def test_a_warm_start_finds_plugins_and_reads_variant_files_from_the_cache(tmp_path):
    site = make_site(tmp_path)
    site.install("thumb")
    cold = site.run()
    assert cold["code"] == 0 and set(cold["loaded"]) == {"yaml", "importlib.metadata"}
    assert len(site.cache_files()) == 1
    warm = site.run()
    assert warm["loaded"] == []  # neither PyYAML nor importlib.metadata was imported
    assert warm["variants"] == cold["variants"]  # the same variants, providers, sources, options
    assert {"klondike", "calculation", "thumb"} <= set(site.titles(warm))
    assert {v["provider"] for v in warm["variants"]["variants"]} == {"solitaire-table", "thumb-dist"}


def test_an_edited_variant_file_is_read_again(tmp_path):
    site = make_site(tmp_path)
    path = site.install("thumb", title="Thumb")
    site.run()
    assert site.titles(site.run())["thumb"] == "Thumb"
    path.write_text(path.read_text().replace("title: Thumb", "title: Thumbelina"))
    assert site.titles(site.run())["thumb"] == "Thumbelina"
    age(path)
    assert site.titles(site.run())["thumb"] == "Thumbelina"  # kept in the cache now
    # a file replaced by one of the same size and time still shows (a new file, by inode)
    old = path.stat()
    replacement = path.with_suffix(".new")
    replacement.write_text(path.read_text().replace("title: Thumbelina", "title: Thumbkinas"))
    os.utime(replacement, ns=(old.st_atime_ns, old.st_mtime_ns))
    os.replace(replacement, path)
    assert path.stat().st_size == old.st_size and path.stat().st_mtime_ns == old.st_mtime_ns
    assert site.titles(site.run())["thumb"] == "Thumbkinas"
    age(path)
    assert site.titles(site.run())["thumb"] == "Thumbkinas"  # kept
    # and one rewritten in place (same inode), same size, its time put back (cp -p, touch -r)
    old = path.stat()
    text = path.read_text().replace("title: Thumbkinas", "title: Thumbikins")
    with open(path, "r+") as f:  # no truncation, no new file
        f.write(text)
    os.utime(path, ns=(old.st_atime_ns, old.st_mtime_ns))
    now = path.stat()
    assert (now.st_ino, now.st_size, now.st_mtime_ns) == (old.st_ino, old.st_size, old.st_mtime_ns)
    assert site.titles(site.run())["thumb"] == "Thumbikins"


def test_a_broken_edit_is_reported_as_on_a_cold_start(tmp_path):
    site = make_site(tmp_path)
    path = site.install("thumb")
    site.warm()
    path.write_text(path.read_text().replace("rank: down", "rank: downward"))
    age(path)  # even an old-looking file is read again: its size changed
    warm = site.run()
    assert "thumb" not in site.titles(warm)
    [broken] = warm["variants"]["broken"]
    assert broken["name"] == "thumb" and "unknown rule 'downward'" in broken["reason"]
    for cache in site.cache_files():
        cache.unlink()
    assert site.run()["variants"] == warm["variants"]


def test_an_error_in_an_option_branch_is_found_on_a_warm_start_too(tmp_path):
    """A file that passed every check is not checked again; an edited one is, branches and all."""
    site = make_site(tmp_path)
    path = site.install("thumb")
    text = path.read_text().replace("title: Thumb", "title: Thumb\noptions:\n  draw: {choices: [1, 3], default: 1}")
    path.write_text(text.replace("count: 1, to: waste", "count: $draw, to: waste"))
    age(path)
    site.run()
    assert "thumb" in site.titles(site.run())
    path.write_text(path.read_text().replace("  waste: {role: waste}",
                                             "  waste: {role: waste, gives: {if: {draw: 3}, then: tops, else: top}}"))
    age(path)
    warm = site.run()
    assert "thumb" not in site.titles(warm)
    [broken] = warm["variants"]["broken"]
    assert "piles.waste.gives.then: unknown rule 'tops'" in broken["reason"]


def test_installed_and_removed_plugins_are_seen_at_once(tmp_path):
    site = make_site(tmp_path)
    site.run()
    assert "pinky" not in site.titles(site.run())
    site.install("pinky")
    assert "pinky" in site.titles(site.run())
    assert "pinky" in site.titles(site.run())  # and from the cache
    info = site.root / "pinky-1.0.dist-info"
    for child in info.iterdir():
        child.unlink()
    info.rmdir()  # uninstalled (the module left behind is not a plugin any more)
    result = site.run()
    assert "pinky" not in site.titles(result) and result["variants"]["broken"] == []


def test_a_rewritten_entry_point_is_read_again(tmp_path):
    site = make_site(tmp_path)
    site.install("thumb")
    site.warm()
    entry_points = site.root / "thumb-1.0.dist-info" / "entry_points.txt"
    entry_points.write_text("[solitaire]\nthumb = no_such_plugin_module\n")
    age(entry_points)  # an upgrade from an old archive: the time is old, the size is not
    [broken] = site.run()["variants"]["broken"]
    assert broken["name"] == "thumb" and "cannot import no_such_plugin_module" in broken["reason"]


def framed(payload: bytes) -> bytes:
    """``payload`` as a cache file with a correct header and checksum."""
    import zlib

    magic = StartupCache.MAGIC
    return magic + len(payload).to_bytes(4, "big") + zlib.crc32(payload).to_bytes(4, "big") + payload


def test_a_damaged_cache_is_ignored_and_replaced(tmp_path):
    site = make_site(tmp_path)
    site.install("thumb")
    cold = site.run()
    [cache] = site.cache_files()
    good = cache.read_bytes()
    assert b"Klondike" in good
    damaged = [
        b"", b"\x00garbage", good[:100], good[:-1],
        good.replace(b"Klondike", b"Klondiky"),  # still unmarshals, but fails the checksum
        marshal.dumps({"env": 1}),  # no header
        framed(marshal.dumps([1, 2, 3])),  # ours in form, not in content
        framed(b"c" + bytes(20) + b"N" * 8 + bytes(4) + b"NN"),  # makes marshal raise SystemError
    ]
    for blob in damaged:
        cache.write_bytes(blob)
        result = site.run()
        assert result["variants"] == cold["variants"]
        assert set(result["loaded"]) == {"yaml", "importlib.metadata"}  # worked out again
        assert cache.read_bytes().startswith(StartupCache.MAGIC)  # and written anew
    assert site.run()["loaded"] == []


def test_a_deeply_nested_variant_file_is_reported_as_without_the_cache(tmp_path):
    """A file nested too deep is refused with the same one line on every run, cache or not."""
    site = make_site(tmp_path)
    path = site.install("thumb")
    path.write_text(path.read_text() + "extra: " + "[" * 600 + "]" * 600 + "\n")
    age(path)
    first, second = site.run(), site.run()
    assert first["variants"] == second["variants"]
    [broken] = second["variants"]["broken"]
    assert broken == {"name": "thumb", "provider": "thumb-dist",
                      "reason": "thumb.yaml:11: extra" + "[0]" * 31 + ": nested more than 32 mappings and lists deep"}


def test_a_changed_provider_name_is_seen(tmp_path):
    site = make_site(tmp_path)
    site.install("thumb")
    site.warm()
    metadata = site.root / "thumb-1.0.dist-info" / "METADATA"
    metadata.write_text(metadata.read_text().replace("Name: thumb-dist", "Name: thumb-dust"))
    age(metadata)
    providers = {v["name"]: v["provider"] for v in site.run()["variants"]["variants"]}
    assert providers["thumb"] == "thumb-dust"


def test_the_python_api_keeps_nothing_after_a_command(tmp_path, monkeypatch, cli):
    """The command line uses the cache for its own command only: the plain API after it never
    reads or writes one."""
    from solitaire.core import plugins

    monkeypatch.setenv("SOLITAIRE_HOME", str(tmp_path))
    assert cli("--help").code == 0
    plugins.registry.cache_clear()
    try:
        assert "klondike" in plugins.registry().variants
    finally:
        plugins.registry.cache_clear()
    assert not (tmp_path / "cache").exists()


def test_a_cache_folder_that_cannot_be_written_changes_nothing(tmp_path):
    site = make_site(tmp_path)
    site.install("thumb")
    (site.home / "cache").write_text("a file where the cache folder would go")
    first, second = site.run(), site.run()
    assert first["variants"] == second["variants"] and "thumb" in site.titles(second)
    assert set(second["loaded"]) == {"yaml", "importlib.metadata"}  # nothing kept: worked out again


def must_not_parse(path: Path):
    raise AssertionError(f"{path} parsed again")


def test_fresh_files_are_not_kept_until_they_settle(tmp_path, monkeypatch):
    """A file written moments ago may be written again within the clock's granularity, with
    the same time: its tree is not kept until it is older than that. (A stopped clock: one
    second after the fresh file was written, however long the test takes.)"""
    now = startcache.now_ns()
    monkeypatch.setattr(startcache, "now_ns", lambda: now)
    fresh, settled = tmp_path / "fresh.yaml", tmp_path / "settled.yaml"
    for path in (fresh, settled):
        path.write_text(VARIANT.format(name=path.stem, title="Thumb"))
    age(settled)
    os.utime(fresh, ns=(now - 1_000_000_000, now - 1_000_000_000))
    cache = StartupCache(tmp_path / "c.marshal")
    for path in (fresh, settled):
        cache.tree(path, load_yaml_file)
    cache.save()
    again = StartupCache(tmp_path / "c.marshal")
    assert again.tree(settled, must_not_parse)["title"] == "Thumb"
    with pytest.raises(AssertionError, match="parsed again"):
        again.tree(fresh, must_not_parse)


def test_sys_path_entries_that_are_paths_are_stamped_and_others_turn_the_cache_off(tmp_path, monkeypatch):
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.setattr(sys, "path", [site, *sys.path])  # a Path object, as importlib.metadata allows
    before = startcache.environment()
    (site / "pinky-1.0.dist-info").mkdir()
    assert startcache.environment() != before
    monkeypatch.setattr(sys, "path", [b"/bytes/entry", *sys.path])
    assert startcache.environment() is None
    assert not StartupCache(tmp_path / "c.marshal").usable


def test_a_checked_file_is_not_checked_again_until_the_checking_code_changes(tmp_path, monkeypatch):
    from solitaire.core import load_variant_file, spec

    code = tmp_path / "checking_code.py"
    code.write_text("# stands for a kernel module\n")
    age(code)
    kernel = startcache._code_modules()
    monkeypatch.setattr(startcache, "_code_modules", lambda: [*kernel, type("M", (), {
        "__name__": "checking_code", "__file__": str(code)})])
    path = tmp_path / "thumb.yaml"
    path.write_text(VARIANT.format(name="thumb", title="Thumb"))
    age(path)
    compiled = []
    monkeypatch.setattr(spec.VariantDef, "resolved", lambda self, options=None: compiled.append(options))
    file = tmp_path / "c.marshal"

    def load() -> int:
        compiled.clear()
        cache = StartupCache(file)
        assert load_variant_file(path, cache=cache).title == "Thumb"
        cache.save()
        return len(compiled)

    assert load() >= 1  # checked: every branch resolved
    assert load() == 0  # passed before, same file, same code: not again
    code.write_text("# stands for a kernel module, edited\n")
    age(code)
    assert load() >= 1
    assert load() == 0


def test_nothing_is_kept_where_distributions_may_come_from_elsewhere(tmp_path, monkeypatch):
    """A finder other than Python's own (a zipapp's, say) can supply distributions the stamps
    do not cover: then every answer is worked out afresh and nothing is written."""

    class ZipappFinder:
        def find_spec(self, *args):
            return None

        def find_distributions(self, *args):
            return iter(())

    monkeypatch.setattr(sys, "meta_path", [ZipappFinder(), *sys.meta_path])
    path = tmp_path / "thumb.yaml"
    path.write_text(VARIANT.format(name="thumb", title="Thumb"))
    age(path)
    cache = StartupCache(tmp_path / "c.marshal")
    assert cache.entry_points("solitaire", lambda: [("d", "n", "v")]) == [("d", "n", "v")]
    assert cache.entry_points("solitaire", lambda: [("d", "n", "w")]) == [("d", "n", "w")]
    assert cache.tree(path, load_yaml_file)["title"] == "Thumb"
    cache.save()
    assert not (tmp_path / "c.marshal").exists()


# --------------------------------------------------------------------------- trees round-trip


def same_tree(a, b) -> bool:
    """Equal values, types and line numbers all the way down."""
    if type(a) is not type(b):
        return False
    if isinstance(a, LDict):
        return (a.line == b.line and a.key_lines == b.key_lines and list(a) == list(b)
                and all(same_tree(a[k], b[k]) for k in a))
    if isinstance(a, LList):
        return (a.line == b.line and a.item_lines == b.item_lines and len(a) == len(b)
                and all(same_tree(x, y) for x, y in zip(a, b, strict=True)))
    return bool(a == b)


text = st.text(st.characters(exclude_categories=["Cs"]), max_size=8)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.floats(allow_nan=False, allow_infinity=False), text)
keys = st.one_of(text.filter(bool), st.integers(0, 99))
documents = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)), max_leaves=20)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(document=documents, flow=st.booleans())
def test_a_kept_tree_is_the_parsed_tree_with_its_lines(document, flow):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "v.yaml"
        path.write_text(yaml.safe_dump({"doc": document}, default_flow_style=flow))
        age(path)
        parsed = load_yaml_file(path)
        first = StartupCache(Path(folder) / "c.marshal")
        assert same_tree(first.tree(path, load_yaml_file), parsed)
        first.save()

        again = StartupCache(Path(folder) / "c.marshal")
        if not again.usable:
            return
        assert same_tree(again.tree(path, must_not_parse), parsed)


# --------------------------------------------------------------------------- kept trees held to the limits


def forged(file: Path, path: Path, tree: object) -> None:
    """Put ``tree`` in the cache file as the kept tree of ``path``, checksum and all."""
    data = marshal.loads(file.read_bytes()[len(StartupCache.MAGIC) + 8:])
    key = os.path.abspath(path)
    stamp, _, _ = data["trees"][key]
    data["trees"][key] = (stamp, tree, True)
    file.write_bytes(framed(marshal.dumps(data)))


def laughs(depth: int) -> object:
    """A kept list of lists, each item the same object: 2 ** depth leaves, kept in a few bytes."""
    tree: object = "lol"
    for _ in range(depth):
        tree = ("l", 1, (1, 1), (tree, tree))
    return tree


@pytest.mark.parametrize("bad", [
    laughs(28),  # marshal keeps shared tuples once: 268 million values if expanded
    ("l", 1, (1,), (10 ** 5000,)),  # a number no file may hold
    ("d", 1, ("a",), (1,), (("l",) * 3,)),  # not a shape _encode makes
    ("l", 1, (1,), ({"a": 1},)),  # a dict where a tree has LDicts
])
def test_a_kept_tree_past_the_parsers_limits_is_parsed_again(tmp_path, bad):
    """The cache cannot smuggle in a tree the parser would refuse: a damaged or forged entry
    that is past a limit, or of a shape the parser does not make, counts as damaged."""
    path = tmp_path / "thumb.yaml"
    path.write_text(VARIANT.format(name="thumb", title="Thumb"))
    age(path)
    file = tmp_path / "c.marshal"
    first = StartupCache(file)
    first.tree(path, load_yaml_file)
    first.save()
    forged(file, path, bad)
    parsed: list[Path] = []
    again = StartupCache(file)
    assert again.usable and again.checked(path)  # read, and the forged entry claims to be checked

    def parse(p: Path) -> Any:
        parsed.append(p)
        return load_yaml_file(p)

    tree = again.tree(path, parse)
    assert parsed == [path] and tree["title"] == "Thumb"


def test_a_cache_file_far_larger_than_any_written_is_not_read(tmp_path):
    file = tmp_path / "c.marshal"
    with open(file, "wb") as f:
        f.write(StartupCache.MAGIC)
        f.truncate(startcache.MAX_BYTES + 1)
    cache = StartupCache(file)
    assert cache.usable and cache.trees == {} and cache.plugins == {}
