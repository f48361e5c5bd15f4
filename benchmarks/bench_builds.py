"""Two builds of the compiled core by turns, on the same ``solitaire solve`` batch.

    python benchmarks/bench_builds.py /tmp/before.so /tmp/after.so --rounds 2 -- \\
        klondike --relaxed --seeds 1..40 --states 30000

Each build (a ``_native`` shared library, e.g. ``core/solver/native/target/release/lib_native.so``
of two checkouts, or a copy of the installed one) is put in place of the installed module in
turn (the file ``solitaire.core.solver._native`` loads from; the original is put back at the
end), and ``solitaire solve ARGS --json`` runs in a fresh process: ``--rounds`` times each,
the builds alternating. For each run it prints the CPU seconds of the process (user + system,
start-up included) and a digest of every deal's (seed, result, states) with the results'
counts: with a budget in states two builds that change only speed must print the same digest.
Not a test: run it by hand and put the figures in docs/performance.md.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import resource
import shutil
import subprocess
import sys
import tempfile
from collections import Counter


def installed() -> str:
    spec = importlib.util.find_spec("solitaire.core.solver._native")
    if spec is None or spec.origin is None:
        raise SystemExit("no compiled core is installed (solitaire.core.solver._native)")
    return spec.origin


def run(words: list[str]) -> tuple[float, str, dict[str, int]]:
    """``solitaire solve WORDS --json`` in a fresh process: its CPU seconds, digest, counts."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "solitaire.cli.main", "solve", *words, "--json"],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"solitaire solve {' '.join(words)}: {done.stderr.strip().splitlines()[-1:]}")
    out = done.stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    deals = [(r.get("seed"), r.get("result"), r.get("states")) for r in rows if not r.get("summary")]
    digest = hashlib.sha256(repr(deals).encode()).hexdigest()[:10]
    return cpu, digest, dict(Counter(str(d[1]) for d in deals))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", help="the first build's shared library")
    parser.add_argument("after", help="the second build's shared library")
    parser.add_argument("--rounds", type=int, default=2)
    argv = sys.argv[1:] if argv is None else argv
    if "--" not in argv:
        parser.error("give the arguments of solitaire solve after --")
    cut = argv.index("--")
    args = parser.parse_args(argv[:cut])
    words = argv[cut + 1:]
    target = installed()
    with tempfile.TemporaryDirectory() as folder:
        kept = shutil.copy2(target, f"{folder}/original.so")
        try:
            for _ in range(args.rounds):
                for label, build in (("before", args.before), ("after", args.after)):
                    shutil.copy2(build, target)
                    cpu, digest, counts = run(words)
                    print(f"{label:6} cpu {cpu:7.2f} s  digest {digest}  {counts}", flush=True)
        finally:
            shutil.copy2(kept, target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
