"""Packaging: the wheel holds every package, its data files and the entry points.

The top-level folders are mapped onto the ``solitaire`` namespace by an explicit list in
pyproject.toml. A package missing from that list still imports in an editable install but
silently drops out of the wheel, so these tests compare the folders with the list and then
build a real wheel (a few seconds; it runs in CI with everything else).
"""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
PACKAGE_DIRS: dict[str, str] = SETUPTOOLS["package-dir"]  # "solitaire.core" -> "core"
TOP_FOLDERS = ("core", "variants", "cli")
SKIP_PARTS = {"__pycache__"}
#: the compiled solver core's crate (built into the extension module, shipped in the sdist by
#: MANIFEST.in, not in the wheel) and the extension as an editable install leaves it in the tree
# the Rust crates: sources of the compiled modules, not package data
CRATES = (ROOT / "core" / "solver" / "native", ROOT / "variants" / "calculation" / "native")


def package_folders() -> dict[str, Path]:
    """Every folder under core/, variants/ and cli/ holding an __init__.py, by package name."""
    by_folder = {folder: name for name, folder in PACKAGE_DIRS.items()}
    found: dict[str, Path] = {}
    for top in TOP_FOLDERS:
        assert top in by_folder, f"pyproject.toml's package-dir does not map {top}/"
        for init in sorted((ROOT / top).rglob("__init__.py")):
            folder = init.parent
            if SKIP_PARTS & set(folder.relative_to(ROOT).parts):
                continue
            rel = folder.relative_to(ROOT / top).parts
            found[".".join((by_folder[top], *rel))] = folder
    return found


def data_files(folder: Path) -> list[Path]:
    """The non-Python files of a package: in its folder and in sub-folders that are not packages
    themselves (YAML, py.typed, .tcss, data folders ...)."""
    out = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if not path.is_file() or path.suffix in (".py", ".pyc", ".so") or SKIP_PARTS & set(rel.parts):
            continue
        if any(path.is_relative_to(crate) for crate in CRATES):
            continue
        if any((folder / Path(*rel.parts[:i]) / "__init__.py").exists() for i in range(1, len(rel.parts))):
            continue  # inside a sub-package: that package's file
        out.append(path)
    return out


def test_top_folders_are_packages():
    folders = package_folders()
    for top in TOP_FOLDERS:
        assert any(path == ROOT / top for path in folders.values()), f"{top}/ has no __init__.py"


def test_every_package_folder_is_listed():
    listed = set(SETUPTOOLS["packages"])
    folders = set(package_folders())
    missing = sorted(folders - listed)
    assert not missing, (f"add {missing} to [tool.setuptools] packages in pyproject.toml, "
                         "or they will be missing from the wheel")
    stale = sorted(listed - folders)
    assert not stale, f"pyproject.toml lists packages with no folder: {stale}"


def test_every_data_file_is_package_data():
    patterns: dict[str, list[str]] = SETUPTOOLS.get("package-data", {})
    uncovered = []
    for package, folder in package_folders().items():
        covered = {p for pattern in patterns.get(package, []) for p in folder.glob(pattern)}  # as setuptools globs
        for path in data_files(folder):
            if path not in covered:
                uncovered.append(str(path.relative_to(ROOT)))
    assert not uncovered, f"not in [tool.setuptools.package-data], so not in the wheel: {uncovered}"


def test_the_sdist_ships_every_crate_a_compiled_module_is_built_from():
    """Each Rust crate of pyproject's setuptools-rust modules is in MANIFEST.in (its sources,
    not its build folder), so a build from the sdist compiles it too: the modules are
    optional, and a crate left out would fall back to Python without a word."""
    import tomllib

    modules = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools-rust"]["ext-modules"]
    manifest = (ROOT / "MANIFEST.in").read_text().splitlines()
    assert len(modules) >= 2
    for module in modules:
        crate = Path(module["path"]).parent.as_posix()
        assert (ROOT / crate / "Cargo.lock").is_file(), crate
        assert f"recursive-include {crate} Cargo.toml Cargo.lock *.rs" in manifest, crate
        assert f"prune {crate}/target" in manifest, crate


def test_solitaire_itself_is_a_namespace():
    assert "solitaire" not in SETUPTOOLS["packages"]
    assert all(name.startswith("solitaire.") for name in SETUPTOOLS["packages"])


# --------------------------------------------------------------------------- the wheel


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Iterator[zipfile.ZipFile]:
    """A wheel built by pip from a clean copy of the sources (the working tree stays untouched:
    an in-tree build would leave build/ and *.egg-info behind, and could pick up stale files)."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    for top in TOP_FOLDERS:
        shutil.copytree(ROOT / top, src / top, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "target"))
    out = tmp / "dist"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(out), str(src)],
        capture_output=True, text=True, timeout=1800,  # a guard against a hang: the wheel compiles the Rust core
    )
    assert proc.returncode == 0, f"pip wheel failed:\n{proc.stdout}\n{proc.stderr}"
    wheels = list(out.glob("*.whl"))
    assert len(wheels) == 1, wheels
    with zipfile.ZipFile(wheels[0]) as zf:
        yield zf


def dist_info(zf: zipfile.ZipFile, name: str) -> str:
    paths = [p for p in zf.namelist() if p.endswith(f".dist-info/{name}")]
    assert len(paths) == 1, f"{name} in the wheel: {paths}"
    return zf.read(paths[0]).decode("utf-8")


def test_wheel_has_the_kernel_sources(wheel):
    names = set(wheel.namelist())
    core = sorted(p.name for p in (ROOT / "core").glob("*.py"))
    assert "game.py" in core and "__init__.py" in core
    missing = [f"solitaire/core/{n}" for n in core if f"solitaire/core/{n}" not in names]
    assert not missing, missing
    assert "solitaire/core/py.typed" in names
    assert "solitaire/variants/klondike/klondike.yaml" in names
    assert "solitaire/__init__.py" not in names  # a namespace, shared with third-party variants


def test_wheel_has_the_catalogs_compiled_by_the_build(wheel):
    """build_locale.py (setup.py's build step) compiled each .po into the .mo the wheel ships."""
    import gettext
    import io

    names = set(wheel.namelist())
    for po in sorted((ROOT / "core" / "locale").glob("*/LC_MESSAGES/solitaire.po")):
        mo = f"solitaire/core/locale/{po.parent.parent.name}/LC_MESSAGES/solitaire.mo"
        assert mo in names, f"{mo} is not in the wheel"
    uk = gettext.GNUTranslations(io.BytesIO(wheel.read("solitaire/core/locale/uk/LC_MESSAGES/solitaire.mo")))
    assert uk.gettext("nothing to undo") == "немає чого скасовувати"


def test_wheel_has_the_compiled_core_for_every_python_from_311(wheel):
    """The Rust core is in the wheel, built for the stable ABI (one wheel for every Python >= 3.11),
    with its type stub."""
    names = set(wheel.namelist())
    assert "solitaire/core/solver/_native.abi3.so" in names, sorted(n for n in names if "_native" in n)
    assert "solitaire/core/solver/_native.pyi" in names
    # and Calculation's exhaustive search, the plugin's own compiled part
    assert "solitaire/variants/calculation/_search.abi3.so" in names, sorted(n for n in names if "_search" in n)
    assert "solitaire/variants/calculation/_search.pyi" in names
    assert not any("/native/" in n for n in names), "the crate's sources are not for the wheel"


def test_wheel_has_every_package_file(wheel):
    names = set(wheel.namelist())
    missing = []
    for package, folder in package_folders().items():
        prefix = package.replace(".", "/")
        for path in sorted(folder.glob("*.py")) + data_files(folder):
            name = f"{prefix}/{path.relative_to(folder).as_posix()}"
            if name not in names:
                missing.append(name)
    assert not missing, missing


class CaseKeeping(configparser.ConfigParser):
    """A parser that keeps names as written (ConfigParser lowers them)."""

    def optionxform(self, optionstr: str) -> str:
        return optionstr


def test_wheel_entry_points(wheel):
    parser = CaseKeeping(delimiters=("=",))
    parser.read_string(dist_info(wheel, "entry_points.txt"))
    assert parser["console_scripts"]["solitaire"].strip() == "solitaire.cli.main:main"
    plugins = {k: v.strip() for k, v in parser["solitaire"].items()}
    assert plugins["klondike"] == "solitaire.variants.klondike"
    assert plugins == PYPROJECT["project"]["entry-points"]["solitaire"]
    names = set(wheel.namelist())
    for module in plugins.values():  # each plugin module is in the wheel
        assert f"{module.replace('.', '/')}/__init__.py" in names or f"{module.replace('.', '/')}.py" in names


def test_wheel_metadata(wheel):
    metadata = dist_info(wheel, "METADATA")
    assert "Name: solitaire-table" in metadata
    assert f"Version: {PYPROJECT['project']['version']}" in metadata
    for extra in PYPROJECT["project"]["optional-dependencies"]:
        assert f"Provides-Extra: {extra}" in metadata
