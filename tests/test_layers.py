"""The import rules that `lint-imports` does not cover, as tests.

`lint-imports` (configured in pyproject.toml) checks the layers, the forbidden imports and the
cycles between sibling modules. Two rules are left to this file:

* no import cycle at all, a package's ``__init__`` and its own modules included (the contract
  only compares siblings), counting every import as the contracts do: at the top of a module,
  deferred into a function (where a cycle can hide) and under ``TYPE_CHECKING`` (a cycle of
  types is still two modules that cannot be understood, or split, one without the other);
* the commands that show no table (``solve``, ``deal``, ``variants``, ``stats``) import neither
  Textual nor Typer's heavy path (its checks through pydantic, its rich help), each checked
  in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping, Set
from pathlib import Path

import grimp
import pytest
from hypothesis import given
from hypothesis import strategies as st

PACKAGES = ("solitaire.core", "solitaire.variants", "solitaire.cli")

def cycles(imports: Mapping[str, Set[str]]) -> set[frozenset[str]]:
    """The import cycles of a graph (module -> modules it imports): its strongly connected
    components of more than one module, and modules that import themselves (Tarjan's
    algorithm, iterative so that a deep chain cannot overflow the stack)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    for root in sorted(imports):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(imports.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(imports.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: set[str] = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1 or node in imports.get(node, ()):
                    found.add(frozenset(component))
    return found


def package_imports() -> dict[str, set[str]]:
    """Every module of the three packages -> the modules of theirs it imports, anywhere in it."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def test_cycle_finder_finds_cycles_and_only_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}, "f": {"d"}}
    assert cycles(graph) == {frozenset("abc"), frozenset("e")}
    assert cycles({"a": {"b"}, "b": set()}) == set()
    chain = {str(i): {str(i + 1)} for i in range(5000)} | {"5000": {"0"}}  # no recursion limit
    assert cycles(chain) == {frozenset(chain)}


def reachable(imports: Mapping[str, Set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(imports.get(start, ()))
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(imports.get(node, ()))
    return seen


NODES = st.sampled_from("abcdefgh")


@given(st.dictionaries(NODES, st.sets(NODES, max_size=3), max_size=8))
def test_cycles_are_the_modules_that_reach_each_other(imports: dict[str, set[str]]) -> None:
    """Two modules share a cycle exactly when each reaches the other (a module alone: itself)."""
    reach = {node: reachable(imports, node) for node in imports}
    expected = {frozenset({n} | {m for m in reach[n] if m in reach and n in reach[m]})
                for n in imports if n in reach[n]}
    assert cycles(imports) == expected


def test_the_graph_counts_deferred_and_type_checking_imports() -> None:
    imports = package_imports()
    calculation = "solitaire.variants.calculation"
    assert f"{calculation}.search" in imports[calculation]  # inside CalculationKnowledge.search
    assert "solitaire.core.game" in imports["solitaire.core.hints"]  # under TYPE_CHECKING
    assert "solitaire.core.rules" in imports["solitaire.core.position"]  # at the top


def test_there_is_no_import_cycle() -> None:
    found = sorted(sorted(c) for c in cycles(package_imports()))
    assert not found, f"import cycles (break them, e.g. move what both need to a third module): {found}"


# ---------------------------------------------------------------- what a command imports

PROBE = """\
import json, sys
from solitaire.cli.main import main
status = main(sys.argv[2:])
with open(sys.argv[1], "w", encoding="utf-8") as out:
    json.dump({"status": status, "modules": sorted(sys.modules)}, out)
"""

LIGHT_COMMANDS = {
    "solve": ["solve", "klondike", "--seed", "1", "--states", "2000", "--json"],
    "deal": ["deal", "klondike", "--seed", "1"],
    "variants": ["variants", "--json"],
    "stats": ["stats", "--json"],
}


def modules_loaded(words: list[str], home: Path) -> list[str]:
    """The modules a fresh interpreter has loaded once ``solitaire WORDS`` is done."""
    report = home / "modules.json"
    env = {**os.environ, "SOLITAIRE_HOME": str(home), "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-c", PROBE, str(report), *words], capture_output=True,
                          text=True, env=env, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["status"] == 0, proc.stderr
    modules: list[str] = data["modules"]
    assert "solitaire.cli.commands" in modules  # the probe did run the command through the app
    return modules


HEAVY = ("textual", "pydantic", "typer.rich_utils")


@pytest.mark.parametrize("command", sorted(LIGHT_COMMANDS))
def test_commands_without_a_table_import_neither_textual_nor_typers_heavy_path(command: str,
                                                                              tmp_path: Path) -> None:
    modules = modules_loaded(LIGHT_COMMANDS[command], tmp_path)
    heavy = [m for m in modules if m in HEAVY or m.startswith(tuple(h + "." for h in HEAVY))]
    assert heavy == [], f"solitaire {command} imports {heavy[:5]}"


def test_solve_imports_no_textual(tmp_path: Path) -> None:
    modules = modules_loaded(LIGHT_COMMANDS["solve"], tmp_path)
    assert not [m for m in modules if m == "textual" or m.startswith("textual.")]


def test_the_probe_sees_typers_checks_on_a_line_typer_reads(tmp_path: Path) -> None:
    # the same command, made not plain by "--" (which only Typer reads): pydantic comes in
    assert "pydantic" in modules_loaded(["variants", "--json", "--"], tmp_path)
