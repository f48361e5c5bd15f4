"""``solitaire solve``: the full-information solver at the command line.

One deal (``--seed N`` or ``--position FILE``) prints the answer; ``--json`` prints one object
``{"result": "win"|"unwinnable"|"unknown", "moves": [...], "seconds": float, "states": int}``.
A batch (``--seeds A..B``) prints one JSON line a deal and a summary with 95% confidence
intervals, solving ``--jobs N`` deals at once (threads sharing the compiled core, which
releases the GIL; processes for a game the Python engine solves; the same rows in seed order
whatever N), or on a Dask cluster with ``--cluster ADDRESS`` (the optional ``cluster`` extra;
``distributed`` is imported only then). ``--memory MB`` bounds each deal's search (the
answer is then "unknown" with ``"stopped": "memory"``); see docs/solver.md.
"""

from __future__ import annotations

import contextvars
import functools
import json
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

import typer

from solitaire.core.i18n import N_
from solitaire.core.solver import Cancel, SolveResult, parse_range, player_hint, solve
from solitaire.core.solver.native import choose

from .common import MS, _start_game, _variant, _variant_options, fail, ms_deal
from .options import MS as MS_OPTION


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for k successes in n trials, as fractions."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


Task = tuple[str, dict[str, Any], int, float, int, str | None, float | None, int]  # ..., numbering, --memory, --threads
DEFAULT_TIMEOUT = 10.0
MAX_STATES = 3_000_000  # the solver's own default budget a pass
CONNECT_TIMEOUT = "10s"  # how long --cluster waits for the scheduler
#: how long (seconds) Ctrl-C waits for a cancelled search in the compiled core to return (it
#: stops within a few hundred positions; a search in Python, which checks no flag, is not
#: waited for)
CANCEL_WAIT = 5.0

T = TypeVar("T")
#: an "unknown" answer's reason (SolveResult.stopped), and what to try then
STOPPED = {"time": "the time ran out", "states": "the states budget ran out", "memory": "the memory bound was reached"}
TRY = {"time": "a longer --timeout", "states": "a larger --states", "memory": "a larger --memory"}


def _one(args: Task, cancel: Cancel | None = None) -> dict[str, Any]:
    """Solve one deal of a batch: a module-level function, so a cluster's workers (and the
    processes of a batch the Python engine solves) can import it."""
    from solitaire.core import Rules, get_variant

    name, options, seed, timeout, states, numbering, memory, threads = args
    rules = Rules.of(get_variant(name), options)
    return _row(rules, seed, timeout, states, numbering, memory, cancel, threads)


def _row(rules: Any, seed: int, timeout: float, states: int, numbering: str | None,
         memory: float | None, cancel: Cancel | None = None, threads: int = 1) -> dict[str, Any]:
    from solitaire.core import Game

    result = solve(Game.new(rules, seed, numbering), timeout=timeout, max_states=states, memory_mb=memory,
                   cancel=cancel, threads=threads)
    return {"seed": seed, **({"numbering": numbering} if numbering else {}), **result.as_json()}


def cpu_count() -> int:
    """The CPUs this process may run on (``--jobs 0``): its affinity where the system says, else
    the machine's count."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on every system
        return max(1, os.cpu_count() or 1)


def threads_a_deal(jobs: int) -> int:
    """The threads each deal's search uses by default with ``jobs`` deals at once: 2 (its
    exact search beside the other passes) where this process may run on two processors for
    each deal, else 1."""
    return 2 if cpu_count() >= 2 * max(1, jobs) else 1


class _Threads:
    """A batch solved in ``jobs`` threads sharing ``rules`` (and its loaded core, which releases
    the GIL while it searches), each taking the next deal. :meth:`stop` starts no more deals;
    :meth:`cancel` (Ctrl-C) also stops the searches under way (a :class:`Cancel` the compiled
    core looks at every few hundred positions), whose deals are then left out, not reported
    "unknown"; :meth:`join` waits for the threads."""

    def __init__(self, rules: Any, tasks: list[Task], jobs: int) -> None:
        self.rules = rules
        self.tasks = tasks
        self.futures: list[Future[dict[str, Any]]] = [Future() for _ in tasks]
        self._order = iter(range(len(tasks)))
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._cancel = Cancel()
        self._threads = [threading.Thread(target=self._work, name=f"solve-{k}", daemon=True)
                         for k in range(min(jobs, len(tasks)))]
        for thread in self._threads:
            thread.start()

    def _work(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                i = next(self._order, None)
            if i is None:
                return
            future = self.futures[i]
            if not future.set_running_or_notify_cancel():
                continue
            try:
                _, _, seed, timeout, states, numbering, memory, threads = self.tasks[i]
                future.set_result(_row(self.rules, seed, timeout, states, numbering, memory, self._cancel, threads))
            except BaseException as exc:  # raised by result() in the main thread, as the sequential path would
                future.set_exception(exc)

    def rows(self) -> Iterator[dict[str, Any]]:
        """The rows in the tasks' order, each as soon as it and those before it are solved."""
        for future in self.futures:
            yield future.result()

    def cancel(self) -> None:
        """Stop the searches under way too (their deals are not reported)."""
        self._cancel.cancel()

    def join(self) -> None:
        """Wait for the threads to end (each after the deal it is solving, once stopped)."""
        for thread in self._threads:
            thread.join()

    def stop(self, start: int = 0) -> list[dict[str, Any]]:
        """Start no more deals; the rows from task ``start`` on already solved, in order."""
        self._stop.set()
        for future in self.futures:
            future.cancel()
        return [f.result() for f in self.futures[start:]
                if f.done() and not f.cancelled() and f.exception() is None
                and f.result().get("stopped") != "cancelled"]


def _interruptibly(search: Callable[[Cancel], T], native: bool) -> T:
    """``search(cancel)`` run in a thread of its own while this one waits, so that Ctrl-C
    is seen at once: the compiled searches let go of Python's lock while they run, where
    this thread would have waited for one to return. Then the search under way is cancelled
    and KeyboardInterrupt goes on up; in the compiled core (``native``) the search stops
    within a few hundred positions and is waited for (up to :data:`CANCEL_WAIT` seconds), so
    that it ends before the interpreter does. The Python engine checks no :class:`Cancel`:
    its thread is a daemon, left behind on the way out."""
    cancel = Cancel()
    done: Future[T] = Future()

    def run() -> None:
        try:
            done.set_result(search(cancel))
        except BaseException as exc:  # raised by result() in this thread
            done.set_exception(exc)

    # in this thread's context (a language spoken, an engine asked for), as if called here
    thread = threading.Thread(target=contextvars.copy_context().run, args=(run,), name="solve", daemon=True)
    thread.start()
    try:
        return done.result()
    except KeyboardInterrupt:
        cancel.cancel()
        if native:
            thread.join(timeout=CANCEL_WAIT)
        raise


def _ignore_interrupts() -> None:
    """A worker process of a batch leaves Ctrl-C to its parent, which ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _in_processes(tasks: list[Task], jobs: int) -> Iterator[dict[str, Any]]:
    """Solve the tasks in ``jobs`` processes (for the Python engine, which holds the GIL),
    yielding the rows in the tasks' order; on Ctrl-C the workers are ended at once."""
    import multiprocessing

    pool = multiprocessing.Pool(min(jobs, len(tasks)), initializer=_ignore_interrupts)
    try:
        yield from pool.imap(_one, tasks, chunksize=1)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _on_cluster(address: str, tasks: list[Task]) -> Iterator[dict[str, Any]]:
    """Solve the tasks on the Dask cluster at ``address``, yielding rows in the tasks' order
    (results arrive as they complete; each is held only until the rows before it are out)."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        fail("--cluster needs the 'cluster' extra: pip install 'solitaire-table[cluster]'")
    import logging

    from distributed.comm.addressing import parse_address, parse_host_port

    try:  # checked first: a malformed address would leave a Client that hangs on its way out
        scheme, where = parse_address(address, strict=False)
        host, port = parse_host_port(where)
        if scheme not in ("tcp", "tls", "ws", "wss") or not host or not 0 < int(port) < 65536:
            raise ValueError(address)
    except (ValueError, TypeError):
        fail(f"a cluster address is tcp://HOST:PORT, got {address!r}")
    for name in ("distributed", "tornado"):  # connection retries would print tracebacks
        logging.getLogger(name).setLevel(logging.CRITICAL)
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)  # type: ignore[no-untyped-call]  # distributed is not annotated
    except Exception as exc:  # OSError/TimeoutError when unreachable, ValueError/TypeError when malformed
        reason = " ".join(str(exc).split()) or type(exc).__name__
        fail(f"cannot reach the cluster at {address!r}: {reason[:200]}")
    try:
        futures = client.map(_one, tasks, pure=False)
        order = {f.key: i for i, f in enumerate(futures)}
        done: dict[int, dict[str, Any]] = {}
        nxt = 0
        completed = as_completed(futures, loop=client.loop, with_results=True,  # type: ignore[no-untyped-call]
                                 raise_errors=False)
        for future, row in completed:
            i = order[future.key]
            if future.status == "error":
                error = future.exception()
                fail(f"a cluster worker failed on seed {tasks[i][2]}: {type(error).__name__}: {error} "
                     "(every worker needs solitaire-table and the variant installed)")
            done[i] = row
            future.release()
            while nxt in done:
                yield done.pop(nxt)
                nxt += 1
    finally:
        client.close()  # type: ignore[no-untyped-call]


def _batch(name: str, options: dict[str, Any], seeds: range, timeout: float, states: int, jobs: int,
           cluster: str | None = None, numbering: str | None = None, memory: float | None = None,
           threads: int = 1) -> None:
    from solitaire.core import Game, Rules
    from solitaire.core.solver.native import core

    tasks = [(name, options, s, timeout, states, numbering, memory, threads) for s in seeds]
    counts = {"win": 0, "unwinnable": 0, "unknown": 0}
    times: list[float] = []
    progress = sys.stderr.isatty()
    began = time.perf_counter()

    def report(row: dict[str, Any]) -> None:
        counts[row["result"]] += 1
        times.append(row["seconds"])
        _print_whole(json.dumps(row, separators=(",", ":")) + "\n")
        if progress:
            done = len(times)
            bar = "#" * (30 * done // len(tasks))
            print(f"\r[{bar:<30}] {done}/{len(tasks)}", end="", file=sys.stderr, flush=True)

    try:
        if cluster is not None:
            for row in _on_cluster(cluster, tasks):
                report(row)
        else:
            rules = Rules.of(_variant(name), options)
            # the same engine for every deal of these rules (asked here, the plugin's solver
            # knowledge too: once, before the threads share the rules and what they cache)
            engine, _ = choose(Game.new(rules, seeds.start, numbering))
            if engine == "python" and jobs > 1 and len(tasks) > 1:  # it holds the GIL: processes
                for row in _in_processes(tasks, jobs):
                    report(row)
            elif engine == "python":  # one after another (a plugin's own search may be compiled)
                for task in tasks:
                    report(_interruptibly(functools.partial(_one, task), native=False))
            else:  # the compiled core, in threads (one at least, so that Ctrl-C cancels its search)
                core(rules)  # loaded once, before the threads share it
                pool = _Threads(rules, tasks, jobs)
                try:
                    for row in pool.rows():
                        report(row)
                except KeyboardInterrupt:  # what was solved is printed, as the sequential path has
                    # the searches under way are cancelled (within a few hundred positions),
                    # so the threads end before the interpreter shuts down
                    pool.cancel()
                    pool.stop()
                    pool.join()
                    for row in pool.stop(len(times)):
                        report(row)
                    raise
                finally:  # any other way out (an error, a closed pipe) waits for the deals under way
                    pool.stop()
                    pool.join()
    finally:
        if progress:
            print(file=sys.stderr)
    summary = batch_summary(counts, times, time.perf_counter() - began)
    print(json.dumps(summary, separators=(",", ":")), flush=True)


def _print_whole(text: str) -> None:
    """Write ``text`` (a row and its newline, in one write) to stdout and flush it, whole:
    Ctrl-C during the write is held until it is done, then raised as usual, so a batch
    stopped part way never prints a row cut short or run into the next one (``print`` writes
    the row and its newline apart, and Ctrl-C between the two did that). Where the signal
    cannot be held (no ``pthread_sigmask``, or not the main thread) it is written as it is."""
    try:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    except (AttributeError, ValueError, OSError):
        held = None
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    finally:
        if held is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)


def batch_summary(counts: dict[str, int], times: list[float], seconds: float) -> dict[str, Any]:
    """A batch's summary line: each result's count, share and 95 % Wilson interval, and the
    median and p95 seconds a deal (``times``, one a deal, at least one)."""
    n = len(times)
    summary: dict[str, Any] = {"summary": True, "deals": n, "seconds": round(seconds, 3)}
    for key, k in counts.items():
        lo, hi = wilson(k, n)
        summary[key] = {"count": k, "percent": round(100 * k / n, 2),
                        "ci95": [round(100 * lo, 2), round(100 * hi, 2)]}
    ordered = sorted(times)
    summary["median_seconds"] = round(ordered[n // 2], 4)
    summary["p95_seconds"] = round(ordered[min(n - 1, math.ceil(0.95 * n) - 1)], 4)
    return summary


def _knowledge_checked(rules: Any) -> None:
    """Ask for the variant's solver knowledge up front; a plugin whose hook fails is said in
    one line on stderr (the solver goes on with the rules' tables alone), as `solitaire
    variants` would list it."""
    from solitaire.core.plugins import registry

    reg = registry()
    before = len(reg.broken)
    reg.knowledge(rules)
    for b in reg.broken[before:]:
        print(f"solitaire: plugin {b.name!r} [{b.provider or 'unknown'}] is broken: {b.reason}; "
              "solving without its knowledge", file=sys.stderr)


def _show(result: SolveResult) -> None:
    if result.result == "win":
        print(f"win in {len(result.moves)} moves ({result.seconds:.2f} s, {result.states} states, "
              f"{result.method} search):")
        line: list[str] = []
        for i, move in enumerate(result.moves, 1):
            line.append(f"{i:>3}. {move:<9}")
            if len(line) == 6:
                print("  " + " ".join(line).rstrip())
                line = []
        if line:
            print("  " + " ".join(line).rstrip())
    elif result.result == "unwinnable":
        print(f"unwinnable: every line was searched ({result.seconds:.2f} s, {result.states} states)")
    else:
        print(f"unknown: {STOPPED.get(result.stopped, STOPPED['states'])} ({result.seconds:.2f} s, "
              f"{result.states} states); try {TRY.get(result.stopped, TRY['states'])}")


def solve_command(
    ctx: typer.Context,
    variant: str = typer.Argument(..., help=N_("The game, e.g. klondike.")),
    seed: int | None = typer.Option(None, "--seed", help=N_("Deal number N."), min=0),
    seeds: str | None = typer.Option(None, "--seeds", help=N_("Solve deals A..B (inclusive), one JSON line "
                                     "each, then a summary (msA..msB: Microsoft's numbered deals A to B)."),
                                     metavar="A..B"),
    ms: int | None = MS_OPTION,
    position: Path | None = typer.Option(None, "--position", help=N_("Solve the position in this file (JSON).")),
    timeout: float | None = typer.Option(None, "--timeout", help=N_("Seconds to search before answering "
                                         "'unknown' (default 10; no limit when --states is given)."),
                                         metavar="S"),
    states: int | None = typer.Option(None, "--states", help=N_("States each search pass may store before "
                                      "answering 'unknown': the same answer on any machine."), metavar="N"),
    jobs: int = typer.Option(1, "--jobs", help=N_("Deals of a batch solved at once, in threads (0: one for each "
                             "CPU); the rows are the same for any N. Games solved in Python run in processes "
                             "instead."), metavar="N"),
    threads: int | None = typer.Option(None, "--threads", help=N_("Threads each deal's search may use: 2 runs "
                                       "its exhaustive search from the start beside the other passes, with a "
                                       "time limit only (the default where the machine has two processors for "
                                       "each deal); 1, one pass after another."), metavar="N"),
    memory: int | None = typer.Option(None, "--memory", help=N_("Bound each deal's search to MB megabytes (with "
                                      "--jobs N, up to N times MB in all); past it the answer is 'unknown', "
                                      "stopped by memory."), metavar="MB"),
    cluster: str | None = typer.Option(None, "--cluster", help=N_("Solve the batch on the Dask cluster whose "
                                       "scheduler is at this address (the 'cluster' extra)."),
                                       metavar="tcp://HOST:PORT"),
    hint: bool = typer.Option(False, "--hint", help=N_("Suggest a next move from what the player can see only "
                              "(never a face-down card or the stock's order).")),
    json_mode: bool = typer.Option(False, "--json", help=N_("Print one JSON object.")),
) -> None:
    """Solve a deal with full information: win (with the moves), unwinnable, or unknown."""
    solve_deal(variant, seed, seeds, position, timeout, states, jobs, cluster, hint,
               json_mode, extra=list(ctx.args), ms=ms, memory=memory, threads=threads)


def solve_deal(variant: str, seed: int | None, seeds: str | None, position: Path | None, timeout: float | None,
               states: int | None, jobs: int, cluster: str | None, hint: bool, json_mode: bool,
               extra: list[str], ms: int | None = None, memory: int | None = None,
               threads: int | None = None) -> None:
    """``solve``'s work, free of Typer's context: ``extra`` is the variant's own options;
    ``threads`` None: :func:`threads_a_deal`."""
    defn = _variant(variant)
    options = _variant_options(defn, extra)
    if timeout is not None and (not timeout > 0 or math.isinf(timeout) or math.isnan(timeout)):
        fail("--timeout must be a positive number of seconds")
    if states is not None and states < 1:
        fail("--states must be at least 1")
    if timeout is None:
        timeout = DEFAULT_TIMEOUT if states is None else math.inf
    budget = MAX_STATES if states is None else states
    if jobs < 0:
        fail("--jobs must be 0 (one for each CPU) or more")
    if memory is not None and memory < 1:
        fail("--memory must be at least 1 (megabytes)")
    if threads is not None and threads < 1:
        fail("--threads must be 1 or more")
    if cluster is not None:
        if jobs != 1:
            fail("give --jobs N or --cluster ADDRESS, not both (the cluster's workers set the parallelism)")
        if seeds is None:
            fail("--cluster runs a batch: give --seeds A..B")
    if seeds is not None:
        if seed is not None or position is not None or ms is not None:
            fail("give one of --seed, --ms, --seeds or --position")
        first, _, last = seeds.strip().lower().partition("..")
        numbering = MS if first.startswith("ms") and last.startswith("ms") else None
        try:
            span = parse_range(f"{first[2:]}..{last[2:]}" if numbering else seeds)
        except ValueError as exc:
            fail(str(exc) + ("; Microsoft deals are msA..msB" if numbering else ""))
        if numbering:
            for number in (span.start, span.stop - 1):
                ms_deal(defn, number)
        jobs = jobs or cpu_count()
        _batch(defn.name, options, span, timeout, budget, jobs, cluster, numbering, memory,
               threads or (1 if cluster is not None else threads_a_deal(jobs)))
        return
    if seed is None and position is None and ms is None:
        fail("give --seed N, --ms N, --seeds A..B or --position FILE")
    game = _start_game(defn, options, seed, position, ms=ms)
    _knowledge_checked(game.rules)
    if hint:
        move, wins = player_hint(game)
        if json_mode:
            print(json.dumps({"hint": move, "won_guesses": wins}))
        else:
            print(f"hint: {move}" if move else "hint: no useful move")
        return
    native = choose(game)[0] == "native"
    result = _interruptibly(lambda cancel: solve(game, timeout=timeout, max_states=budget, memory_mb=memory,
                                                 cancel=cancel, threads=threads or threads_a_deal(1)), native)
    if json_mode:
        print(json.dumps(result.as_json()))
    else:
        _show(result)
