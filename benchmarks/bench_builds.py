"""Two builds of the compiled core by turns, on the same ``solitaire solve`` batch.

    python benchmarks/bench_builds.py /tmp/before.so /tmp/after.so --rounds 2 -- \\
        klondike --relaxed --seeds 1..40 --states 30000

Each build (a ``_native`` shared library, e.g. ``core/solver/native/target/release/lib_native.so``
of two checkouts, or a copy of the installed one) is loaded in turn as
``solitaire.core.solver._native`` by a fresh process, which then runs ``solitaire solve ARGS
--json``: ``--rounds`` times each, the builds alternating. The installed module is not
touched, so solver runs under way beside it (a catalogue batch) keep the build they have.
For each run it prints the CPU seconds of the process (user + system, start-up included) and
a digest of every deal's (seed, result, states) with the results' counts: with a budget in
states two builds that change only speed must print the same digest.
Not a test: run it by hand and put the figures in docs/performance.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import resource
import subprocess
import sys
from collections import Counter
from pathlib import Path

#: the child process: the build given loaded as the compiled core, then the command line
CHILD = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("solitaire.core.solver._native", sys.argv[1])
module = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = module
spec.loader.exec_module(module)
from solitaire.cli.main import main
sys.argv = ["solitaire", *sys.argv[2:]]
main()
"""


def run(build: str, words: list[str]) -> tuple[float, str, dict[str, int]]:
    """``solitaire solve WORDS --json`` with ``build`` in a fresh process: its CPU seconds,
    digest, counts."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", CHILD, build, "solve", *words, "--json"],
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
    for build in (args.before, args.after):
        if not Path(build).is_file():
            parser.error(f"no such build: {build}")
    for _ in range(args.rounds):
        for label, build in (("before", args.before), ("after", args.after)):
            cpu, digest, counts = run(str(Path(build).resolve()), words)
            print(f"{label:6} cpu {cpu:7.2f} s  digest {digest}  {counts}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
