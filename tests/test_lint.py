"""The set-up of the checks .ci/run makes (ruff, mypy, lint-imports), kept true to the tree.

The checks themselves run in .ci/run, not here; these tests make sure they look at what
they should: mypy's links to the package folders follow setuptools' package-dir, every Python
file of the project is type-checked, and the temporary allow-lists name only files that exist.
"""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
TOOL: dict[str, Any] = PYPROJECT["tool"]
LINKS = ROOT / "typecheck" / "solitaire"


def tracked_python_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "*.py"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return sorted(ROOT / name for name in listed.split("\0") if name and not name.startswith("typecheck/"))


def test_mypys_links_are_the_package_folders() -> None:
    mapping: dict[str, str] = TOOL["setuptools"]["package-dir"]  # "solitaire.core" -> "core"
    wanted = {name.removeprefix("solitaire."): (ROOT / folder).resolve() for name, folder in mapping.items()}
    assert {p.name for p in LINKS.iterdir()} == set(wanted)
    for name, folder in wanted.items():
        link = LINKS / name
        assert link.is_symlink(), f"{link} should be a link to {folder}"
        assert link.resolve() == folder
    assert "typecheck" in TOOL["mypy"]["mypy_path"]


def test_mypy_checks_every_python_file() -> None:
    roots = [(ROOT / entry).resolve() for entry in TOOL["mypy"]["files"]]
    roots += [link.resolve() for root in roots if root == LINKS for link in LINKS.iterdir()]
    files = tracked_python_files()
    assert files
    unchecked = [str(f.relative_to(ROOT)) for f in files
                 if not any(f.resolve().is_relative_to(root) for root in roots)]
    assert unchecked == [], "add these to [tool.mypy] files in pyproject.toml"


def module_exists(name: str) -> bool:
    """Whether a module name (or ``package.*``) of a mypy override is a file mypy would read."""
    parts = name.removesuffix(".*").split(".")
    for root in TOOL["mypy"]["mypy_path"]:
        path = ROOT / root / Path(*parts)
        if name.endswith(".*") and path.is_dir():
            return True
        if path.with_suffix(".py").is_file() or (path / "__init__.py").is_file():
            return True
    return False


def test_module_exists_tells_files_from_missing_ones() -> None:
    assert module_exists("solitaire.core.game") and module_exists("solitaire.cli.race.*")
    assert module_exists("test_lint") and module_exists("solitaire.variants.klondike")
    assert not module_exists("solitaire.core.nosuch") and not module_exists("solitaire.nosuch.*")


def test_allow_lists_name_existing_files() -> None:
    ignores: dict[str, list[str]] = TOOL["ruff"]["lint"]["per-file-ignores"]
    stale = [pattern for pattern in ignores if not list(ROOT.glob(pattern))]
    assert stale == [], "these ruff per-file-ignores match no file: delete them from pyproject.toml"
    modules = [m for override in TOOL["mypy"]["overrides"] for m in override["module"]]
    assert modules
    stale = [m for m in modules if not module_exists(m)]
    assert stale == [], "these mypy overrides name no module: delete them from pyproject.toml"
