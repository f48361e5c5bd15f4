"""Fuzz the variant loader: mutate the shipped variant files and see that each load answers.

Every mutation of a valid file (at the text level: characters, tokens, lines, indentation;
at the tree level: values, keys, shared and self-containing subtrees, written back as YAML)
must either load or be refused with the loader's own error, one line naming the file (and
the line, where it gives one), in bounded time. Anything else is a crash. The test suite
runs the same mutations for a few seconds (tests/test_yaml_fuzz.py); this script runs many:

    python benchmarks/fuzz_yaml.py                   # 2,000 mutations from seed 0
    python benchmarks/fuzz_yaml.py -n 20000 --seed 7

It reports how many were tried, loaded, refused and crashed, and the slowest loads (CPU
time, ``time.process_time``, so a busy machine does not inflate them), with the mutation
that made each crash or slow load, to paste into a test. Put its figures in
docs/yaml-reference.md ("Limits").
"""

from __future__ import annotations

import argparse
import copy
import platform
import random
import re
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from solitaire.core import VariantError, load_variant_text, spec

ROOT = Path(__file__).resolve().parent.parent
FILES = {
    "klondike.yaml": ROOT / "variants" / "klondike" / "klondike.yaml",
    "calculation.yaml": ROOT / "variants" / "calculation" / "calculation.yaml",
    "yukon.yaml": ROOT / "examples" / "solitaire-yukon" / "src" / "solitaire_yukon" / "yukon.yaml",
}
CPU_BOUND = 1.0  # seconds of CPU time one load may take (the limits keep it far below)

# words the loader knows, so mutations reach deep into the checks rather than stop at the first key
WORDS = sorted({*spec.TOP_KEYS, *spec.PILE_KEYS, *spec.BUILD_KEYS, *spec.DEAL_KEYS, *spec.ROLES,
                *spec.RANK_RULES, *spec.SUIT_RULES, *spec.GIVES, *spec.FLIPS, *spec.FANS, *spec.ORDERS,
                *spec.OPTION_KINDS, *spec.SCORING_KEYS, *spec.EMPTY_KEYS, *spec.DRAW_KEYS,
                "if", "then", "else", "rest", "true", "false", "unlimited", "$draw", "$relaxed", "AC", "K", "A",
                "draw", "s", "stock", "waste", "foundation", "tableau", "reserve"})
TOKENS = ["&a ", "*a", "<<: *a", "&b [*b]", "!!python/object:os.system ", "!!binary ", "!!set ", "!!omap ",
          "!!timestamp ", "!!int ", "!!str ", "!foo ", "? ", "--- ", "...", "%YAML 1.1\n", "%TAG ! x\n", "~",
          "[", "]", "{", "}", ":", ", ", "- ", "|\n", ">\n", "'", '"', "#", "\t", "\x00", "\ufeff", "\u2028",
          "\\", "@", "`", "9" * 40, "1e400", "-0", "0x1F", "0o17", "1_000", "12:30:45", "2001-02-30", ".nan",
          ".inf", "-1", "53", "65", "1000000", "[" * 40 + "]" * 40, "{a: " * 40 + "}" * 40, "\n" * 3]
VALUES: list[Any] = [None, True, False, 0, -1, 1, 3, 13, 52, 53, 64, 65, 10 ** 6, 10 ** 40, 1.5, "", "x", "$draw",
                     "$nope", "unlimited", [], {}, [[[[[]]]]], {"if": "relaxed", "then": 1, "else": 2},
                     {"if": {"draw": 3}, "then": "top"}, ["AC", "AC"], list(range(70))]


# --------------------------------------------------------------------------- text mutations


def _lines(text: str) -> list[str]:
    return text.split("\n")


def delete_line(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines)


def duplicate_line(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    lines.insert(rng.randrange(len(lines) + 1), lines[i])
    return "\n".join(lines)


def swap_lines(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def indent_line(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    if rng.random() < 0.5:
        lines[i] = " " * rng.choice((1, 2, 4)) + lines[i]
    else:
        lines[i] = lines[i][rng.choice((1, 2)):] if lines[i].startswith(" ") else lines[i]
    return "\n".join(lines)


def delete_chars(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text) + 1)
    return text[:i] + text[i + rng.randint(1, 8):]


def insert_token(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text) + 1)
    return text[:i] + rng.choice(TOKENS) + text[i:]


def replace_word(text: str, rng: random.Random) -> str:
    words = list(re.finditer(r"[\w$-]+", text))
    if not words:
        return text
    m = rng.choice(words)
    new = rng.choice(WORDS) if rng.random() < 0.7 else m.group()[:-1] or "x"
    return text[:m.start()] + new + text[m.end():]


def replace_number(text: str, rng: random.Random) -> str:
    numbers = list(re.finditer(r"\b\d+\b", text))
    if not numbers:
        return text
    m = rng.choice(numbers)
    new = rng.choice(["0", "-1", "53", "64", "65", "1000000", "9" * rng.choice((12, 33, 5000)), "1.5", "0x40"])
    return text[:m.start()] + new + text[m.end():]


TEXT_MUTATIONS: list[Callable[[str, random.Random], str]] = [
    delete_line, duplicate_line, swap_lines, indent_line, delete_chars, insert_token, replace_word, replace_number,
]


# --------------------------------------------------------------------------- tree mutations


def _places(tree: Any, most: int = 2000) -> list[tuple[Any, ...]]:
    """The paths of up to ``most`` values in the tree (keys of mappings, indices of lists),
    each shared or self-containing subtree entered once."""
    out: list[tuple[Any, ...]] = []
    todo: list[tuple[Any, tuple[Any, ...]]] = [(tree, ())]
    entered: set[int] = set()
    while todo and len(out) < most:
        value, path = todo.pop()
        out.append(path)
        if isinstance(value, (dict, list)) and id(value) not in entered:
            entered.add(id(value))
            items = value.items() if isinstance(value, dict) else enumerate(value)
            todo.extend((child, (*path, key)) for key, child in items)
    return out


def _at(tree: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        tree = tree[step]
    return tree


def mutate_tree(tree: Any, rng: random.Random) -> Any:
    """One change at a random place: a new value, a key removed, renamed or added, a list grown,
    or a subtree put in a second place (written as an anchor and alias) or inside itself."""
    tree = copy.deepcopy(tree)
    places = _places(tree)
    path = rng.choice(places[1:]) if len(places) > 1 else ()
    if not path:
        return rng.choice(VALUES)
    parent, last = _at(tree, path[:-1]), path[-1]
    kind = rng.randrange(7)
    if kind == 0:
        parent[last] = copy.deepcopy(rng.choice(VALUES))
    elif kind == 1 and isinstance(parent, dict):
        del parent[last]
    elif kind == 2 and isinstance(parent, dict):
        parent[rng.choice(WORDS)] = parent.pop(last)
    elif kind == 3 and isinstance(parent, dict):
        parent[rng.choice(WORDS)] = copy.deepcopy(rng.choice(VALUES))
    elif kind == 4 and isinstance(parent, list):
        parent.extend(copy.deepcopy(parent) * rng.choice((1, 10)))
    elif kind == 5:  # shared: the dump writes an anchor and an alias
        parent[last] = _at(tree, rng.choice(places))
    else:  # a subtree containing itself (an alias inside its own anchor), where it can
        target = _at(tree, path)
        if isinstance(target, dict):
            target[rng.choice(WORDS)] = target
        elif isinstance(target, list):
            target.append(target)
        else:
            parent[last] = [target, parent]
    return tree


def dump(tree: Any) -> str:
    return yaml.safe_dump(tree, sort_keys=False, default_flow_style=None, allow_unicode=True)


# --------------------------------------------------------------------------- one load


def mutant(rng: random.Random) -> tuple[str, str, str]:
    """``(file name, what was done, text)``: one to three mutations of a shipped file."""
    name = rng.choice(sorted(FILES))
    text = FILES[name].read_text(encoding="utf-8")
    done = []
    for _ in range(rng.choice((1, 1, 2, 3))):
        if rng.random() < 0.35:
            try:
                tree = yaml.safe_load(text) if "*" not in text else None  # aliases: perhaps a bomb
            except Exception:  # already broken as text (or too deep for PyYAML): mutate the text
                tree = None
            if tree is not None:
                text = dump(mutate_tree(tree, rng))
                done.append("tree")
                continue
        mutation = rng.choice(TEXT_MUTATIONS)
        text = mutation(text, rng)
        done.append(mutation.__name__)
    return name, "+".join(done), text


def load_one(name: str, text: str) -> tuple[str, str, float]:
    """``(outcome, message, CPU seconds)``: outcome is ``loaded``, ``refused`` or ``crash``.
    A refusal is only a refusal if it is the loader's own error, on one line, naming the file
    and (when it gives a line) a line of the file."""
    started = time.process_time()
    try:
        load_variant_text(text, name)
    except VariantError as exc:
        message = str(exc)
        outcome = "refused" if well_formed(message, name, text) else "crash"
    except BaseException as exc:  # anything else is what the fuzzer looks for
        if isinstance(exc, KeyboardInterrupt):
            raise
        outcome, message = "crash", f"{type(exc).__name__}: {exc}"
    else:
        outcome, message = "loaded", ""
    return outcome, message, time.process_time() - started


def well_formed(message: str, name: str, text: str) -> bool:
    """One line, beginning ``name:`` and, if a line number follows, one within the file."""
    if "\n" in message or "\r" in message or not message.startswith(name + ":"):
        return False
    line = re.match(r"(\d+):", message[len(name) + 1:])
    return line is None or 1 <= int(line.group(1)) <= text.count("\n") + 2


# --------------------------------------------------------------------------- the worst case


def worst_case() -> str:
    """A valid file at the limits that make loading slow: 64 piles, 32 option sets, every
    per-pile value an option reference (so each set resolves it afresh), and scoring rules
    filling the file to just under ``MAX_VALUES``."""
    from solitaire.core import limits
    from solitaire.core.yamlsource import load_yaml

    tableau = limits.MAX_PILES - 6  # stock, waste, four foundations
    picks = [f"{{if: {{o{j % 2}: {j % 16}}}, then: {j % 2}, else: 0}}" for j in range(tableau)]
    head = ("name: worst\noptions:\n"
            + "".join(f"  o{i}: {{choices: [{', '.join(map(str, range(16)))}], default: 0}}\n" for i in range(2))
            + "  o2: {type: flag}\n"
            "piles:\n"
            "  stock: {role: stock, draw: {count: {if: o2, then: 3, else: 1}, to: waste}, redeals: unlimited}\n"
            "  waste: {role: waste}\n"
            "  foundation: {role: foundation, count: 4, build: {rank: up, suit: same-suit, step: [1, 2, 3, 4]},"
            " empty: {rank: A}}\n"
            f"  tableau: {{role: tableau, count: {tableau}, build: {{rank: {{if: {{o0: 1}}, then: up, else: down}},"
            f" suit: {{if: o2, then: same-suit, else: alternate-colour}}, step: [{', '.join(['1'] * tableau)}]}},"
            " empty: {rank: K}}\n"
            f"deal:\n  - {{to: tableau, counts: [{', '.join(picks)}], face-up: [{', '.join(picks)}]}}\n"
            "  - {to: stock, rest: true}\n"
            "scoring:\n  moves:\n")
    move = "    - {from: tableau, to: foundation, points: {if: {o1: 5}, then: 10, else: 5}}\n"

    def fits(text: str) -> bool:
        try:
            load_yaml(text, "worst.yaml")
        except VariantError:  # past MAX_VALUES
            return False
        return True

    moves = 1
    while moves < limits.MAX_PILES and fits(head + move * (moves + 1)):
        moves += 1
    return head + move * moves


# --------------------------------------------------------------------------- the long run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=2000, help="mutations to try (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (each mutation has its own)")
    parser.add_argument("--show", type=int, default=3, help="slowest loads to show (default 3)")
    parser.add_argument("--worst", action="store_true", help="time the slowest valid file instead")
    args = parser.parse_args(argv)
    if args.worst:
        return worst(args.n if args.n != 2000 else 5)

    counts = {"loaded": 0, "refused": 0, "crash": 0}
    slowest: list[tuple[float, int, str, str, str]] = []
    crashes: list[tuple[int, str, str, str]] = []
    for i in range(args.n):
        seed = args.seed + i
        name, done, text = mutant(random.Random(seed))
        outcome, message, cpu = load_one(name, text)
        if cpu > CPU_BOUND:
            outcome, message = "crash", f"took {cpu:.2f} s of CPU time; {message}"
        counts[outcome] += 1
        if outcome == "crash":
            crashes.append((seed, name, done, message))
        slowest = sorted([*slowest, (cpu, seed, name, done, outcome)], reverse=True)[:args.show]

    print(f"python {platform.python_version()} on {platform.machine()}; seeds {args.seed}..{args.seed + args.n - 1}")
    print(f"tried {args.n}: loaded {counts['loaded']}, refused {counts['refused']}, crashes {counts['crash']}")
    for cpu, seed, name, done, outcome in slowest:
        name, _, text = mutant(random.Random(seed))
        print(f"slow: {cpu * 1000:.1f} ms CPU, {peak_memory(name, text) / 1024:.0f} KiB at most"
              f"  seed {seed}  {name}  {done}  ({outcome})")
    for seed, name, done, message in crashes[:20]:
        print(f"CRASH seed {seed}  {name}  {done}: {message[:300]}")
    return 1 if crashes else 0


def peak_memory(name: str, text: str) -> int:
    """The most memory one load had allocated at once, in bytes (tracemalloc, a run of its own)."""
    tracemalloc.start()
    try:
        load_one(name, text)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def worst(runs: int) -> int:
    text = worst_case()
    times = []
    for _ in range(runs):
        outcome, message, cpu = load_one("worst.yaml", text)
        if outcome != "loaded":
            print(f"the worst case did not load: {message}")
            return 1
        times.append(cpu)
    print(f"python {platform.python_version()} on {platform.machine()}; the slowest valid file"
          f" ({len(text.encode())} bytes), loaded {runs} times")
    print(f"CPU time: best {min(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms;"
          f" memory at most {peak_memory('worst.yaml', text) / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
