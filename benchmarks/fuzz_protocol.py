"""A longer run of the protocol and line-mode fuzzers of tests/test_fuzz_protocol.py.

The same state machine (legal moves, illegal moves and hostile lines against the test's own
Klondike model) and the same line-mode property, with a bigger budget; it counts the command
lines tried, the failures (a crash, or a reply the model disagrees with) and the lines that took
longer than ``--hang`` seconds to answer. Not a test: run it by hand and put the figures in
docs/reference/limits.md.

    python benchmarks/fuzz_protocol.py                        # 300 games of 100 lines
    python benchmarks/fuzz_protocol.py --examples 2000 --steps 200 --hang 1
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import sys
import time
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

TESTS = Path(__file__).resolve().parent.parent / "tests" / "test_fuzz_protocol.py"


class Tally:
    def __init__(self, hang: float) -> None:
        self.hang = hang
        self.lines = 0
        self.runs = 0
        self.slowest = 0.0
        self.hangs = 0

    def timed(self, call: Any, lines: int) -> Any:
        start = time.perf_counter()
        result = call()
        took = time.perf_counter() - start
        self.lines += lines
        self.runs += 1
        per_line = took / max(lines, 1)
        self.slowest = max(self.slowest, per_line)
        self.hangs += per_line > self.hang
        return result


def load(examples: int, steps: int) -> ModuleType:
    os.environ["FUZZ_EXAMPLES"], os.environ["FUZZ_STEPS"] = str(examples), str(steps)
    spec = importlib.util.spec_from_file_location("fuzz_protocol_tests", TESTS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=300, help="games the state machine plays")
    parser.add_argument("--steps", type=int, default=100, help="lines sent in each game, at most")
    parser.add_argument("--hang", type=float, default=2.0, help="seconds for one line that count as a hang")
    args = parser.parse_args()
    module = load(args.examples, args.steps)
    tally = Tally(args.hang)
    one_run, run_lines = module.one_run, module.run_lines
    setattr(module, "one_run",  # noqa: B010 (a module's attribute, replaced to time each call)
            lambda game, session, data: tally.timed(lambda: one_run(game, session, data), data.count(b"\n")))
    setattr(module, "run_lines",  # noqa: B010
            lambda game, stdin, out: tally.timed(lambda: run_lines(game, stdin, out),
                                                 stdin.buffer.getvalue().count(b"\n")))

    failures = 0
    began = time.perf_counter()
    machine = settings(max_examples=args.examples, stateful_step_count=args.steps, deadline=None,
                       database=None, suppress_health_check=list(HealthCheck))
    runs = [("protocol state machine", lambda: run_state_machine_as_test(module.ProtocolMachine, settings=machine)),
            ("line mode against the protocol", module.test_the_line_mode_answers_every_line_as_the_protocol_does)]
    for name, run in runs:
        lines_before = tally.lines
        t0 = time.perf_counter()
        try:
            run()
            verdict = "no failure"
        except Exception:  # a failing example: hypothesis has shrunk it and says it
            failures += 1
            verdict = "FAILED:\n" + traceback.format_exc(limit=3)
        print(f"{name}: {tally.lines - lines_before:,} lines in {time.perf_counter() - t0:.0f} s, {verdict}")
    print(f"in all: {tally.lines:,} command lines in {tally.runs:,} runs, {failures} failure(s), "
          f"{tally.hangs} line(s) over {args.hang:g} s (slowest {tally.slowest * 1000:.0f} ms a line), "
          f"{time.perf_counter() - began:.0f} s; Python {platform.python_version()}, {sys.platform}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
