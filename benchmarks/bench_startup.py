"""Time from starting ``solitaire play klondike`` on a terminal to the table's first paint.

The real program runs in a pseudo-terminal (80x24) with a fresh data folder; the clock stops
when the header's share code has been written to the terminal (Textual writes a frame at a
time, so the code appearing means the first frame is out). Target: 0.4 s.

    python benchmarks/bench_startup.py [--runs N] [--no-bytecode] [--pool] [--against PYTHON]

Also prints the time the line mode takes to print its board, and the first paint of a bare
Textual app (one ``Static`` showing the same code, nothing of ours imported): the floor any
Textual program pays on this machine at this moment, which moves with the machine's load as
much as the table does, so the table is best read against it. The three take turns (four
with ``--pool``: the table dealt, as without ``--seed``, from the pool of won deals). The runs use
bytecode caches, as an installed program does: they are written by a first, untimed run to a
temporary folder (``PYTHONPYCACHEPREFIX``), so the working tree stays clean even where
``PYTHONDONTWRITEBYTECODE`` is set; ``--no-bytecode`` times compiling every module each run.

Each kind gets its median, 90th percentile and how many runs painted within the 0.4 s target.
Also by turns, the time importing Textual takes in a fresh interpreter (timed inside it), and
its share of the bare app's first paint.
First comes how busy the machine was with other work: the load average before the runs and
(on Linux) the share of a CPU that other processes used while they went on. On 2 CPUs a test
suite running beside the benchmark slows every first paint by a fifth or more, so a batch
is only a measure of this program when that share is near 0%.

``--against PYTHON`` compares two versions: the interpreter of another environment (say a
venv with the old code installed) and this one take turns, run by run, so both see the
same load; the table's first paint is printed for each.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import resource
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable

PROGRAM = "import sys; from solitaire.cli.main import main; sys.exit(main(sys.argv[1:]))"
BARE = """\
from textual.app import App
from textual.widgets import Static


class Bare(App):
    def compose(self):
        yield Static("klondike-48213")

    def on_key(self, event):
        if event.key == "q":
            self.exit()


Bare().run()
"""


def first_paint(args: list[str], needle: bytes, home: str, pycache: str | None,
                python: str = sys.executable, program: str = PROGRAM) -> float:
    main_fd, child_fd = pty.openpty()
    fcntl.ioctl(child_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "SOLITAIRE_HOME": home, "TERM": "xterm-256color"}
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = pycache
    start = time.perf_counter()
    proc = subprocess.Popen([python, "-c", program, *args], stdin=child_fd, stdout=child_fd,
                            stderr=child_fd, env=env, close_fds=True)
    os.close(child_fd)
    out = b""
    elapsed = float("nan")
    try:
        while True:
            ready, _, _ = select.select([main_fd], [], [], 10)
            if not ready:
                break
            try:
                chunk = os.read(main_fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            if needle in out:
                elapsed = time.perf_counter() - start
                break
        os.write(main_fd, b"q\r")  # q quits the table; the line mode reads the line "q"
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # killed below; the time to the first paint stands
            print(f"note: {' '.join(args)} did not quit on q within 10 s", file=sys.stderr)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main_fd)
    return elapsed


TARGET = 0.4  # seconds, from the issue


def busy_cpu_seconds() -> float | None:
    """CPU time the whole machine has spent busy since boot (Linux's /proc/stat), or None."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")  # guest time is inside user


def own_cpu_seconds() -> float:
    """CPU time of this script and the runs it has waited for."""
    return sum(r.ru_utime + r.ru_stime for r in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))


class Machine:
    """How busy the machine was with other work while the runs went on: the load average
    before the first run, and the CPU other processes used during the batch (from /proc/stat,
    less this script's and its runs')."""

    def __init__(self) -> None:
        self.load_before = os.getloadavg()[0]
        self.busy, self.own, self.wall = busy_cpu_seconds(), own_cpu_seconds(), time.perf_counter()

    def report(self) -> str:
        line = f"load average {self.load_before:.1f} before the runs, on {os.cpu_count()} CPUs"
        busy = busy_cpu_seconds()
        if busy is not None and self.busy is not None:
            others = max(0.0, (busy - self.busy) - (own_cpu_seconds() - self.own))
            line += (f"; other processes used {others / (time.perf_counter() - self.wall):.0%}"
                     " of one CPU during the runs")
        return line


def summary(kind: str, got: list[float]) -> str:
    ranked = sorted(got)
    p90 = ranked[min(len(ranked) - 1, round(0.9 * (len(ranked) - 1)))]
    within = sum(t <= TARGET for t in got)
    return (f"{kind + ':':18s} median {statistics.median(got):.3f} s, 90th percentile {p90:.3f} s, "
            f"min {min(got):.3f} s, max {max(got):.3f} s; {within} of {len(got)} runs within {TARGET} s")


IMPORT_TEXTUAL = ("import time; t = time.perf_counter(); import textual.app, textual.widgets; "
                  "print(time.perf_counter() - t)")


def textual_import(pycache: str | None) -> float:
    """How long importing Textual takes in a fresh interpreter, timed inside it: the part of
    the bare app's first paint that no Textual program can skip."""
    env = dict(os.environ)
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = pycache
    out = subprocess.run([sys.executable, "-c", IMPORT_TEXTUAL], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--no-bytecode", action="store_true", help="compile every module on every run")
    parser.add_argument("--against", metavar="PYTHON", help="take turns with this interpreter (another version)")
    parser.add_argument("--pool", action="store_true",
                        help="also time the table dealt from the pool of won deals (no --seed)")
    ns = parser.parse_args()
    table_args = ["play", "klondike", "--seed", "48213", "--new"]
    line_args = ["play", "klondike", "--plain", "--seed", "48213", "--new"]
    if ns.against:
        compare(ns.against, table_args, ns.runs)
        return
    with tempfile.TemporaryDirectory() as home:
        pycache = None if ns.no_bytecode else os.path.join(home, "pycache")
        kinds: dict[str, Callable[[], float]] = {
            "table first paint": lambda: first_paint(table_args, b"klondike-48213", home, pycache),
            "line mode board": lambda: first_paint(line_args, b"Type a move", home, pycache),
            "bare Textual app": lambda: first_paint([], b"klondike-48213", home, pycache, program=BARE),
            "importing Textual": lambda: textual_import(pycache),
        }
        if ns.pool:  # a new deal the solver has won: the solver module and the pool file are read
            kinds["table, pool deal"] = lambda: first_paint(["play", "klondike", "--new"], b"klondike-", home, pycache)
        for run in kinds.values():  # warm caches, write bytecode
            run()
        machine = Machine()
        times: dict[str, list[float]] = {k: [] for k in kinds}
        for _ in range(ns.runs):
            for kind, run in kinds.items():
                times[kind].append(run())
    print(machine.report() + ("; no bytecode caches" if ns.no_bytecode else ""))
    for kind, got in times.items():
        print(summary(kind, got))
    table, bare = times["table first paint"], times["bare Textual app"]
    over = statistics.median(t - b for t, b in zip(table, bare, strict=True))
    print(f"table over bare Textual, run by run: median {over:.3f} s")
    share = statistics.median(i / b for i, b in zip(times["importing Textual"], bare, strict=True))
    print(f"importing Textual, of the bare app's first paint, run by run: median {share:.0%}")


def compare(other: str, table_args: list[str], runs: int) -> None:
    """The table's first paint with ``other`` and with this interpreter, run by turns."""
    pythons = {"against": other, "this": sys.executable}
    times: dict[str, list[float]] = {k: [] for k in pythons}
    with tempfile.TemporaryDirectory() as home:
        caches = {k: os.path.join(home, f"pycache-{k}") for k in pythons}  # one per version
        for k, python in pythons.items():  # warm caches, write bytecode
            first_paint(table_args, b"klondike-48213", home, caches[k], python)
        machine = Machine()
        for _ in range(runs):
            for k, python in pythons.items():
                times[k].append(first_paint(table_args, b"klondike-48213", home, caches[k], python))
    print(machine.report())
    for k, python in pythons.items():
        print(summary(f"table first paint, {k} ({python})", times[k]))


if __name__ == "__main__":
    main()
