"""``solitaire solve --jobs N`` (threads) and ``--memory MB``, and the same in the Python API.

Budgets are in states, never seconds: the answers are the same on any machine, any load,
and whatever the number of threads; only the seconds a row took move.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from solitaire.core import Game, Rules, get_variant
from solitaire.core.solver import native, solve

pytestmark = pytest.mark.skipif(not native.native_available(), reason="the compiled core is not installed")

BATCH = ("solve", "klondike", "--seeds", "1..8", "--states", "500")
HARD = 27  # a Klondike deal (draw 3) no pass decides within 200,000 states
LOST = 63  # one (draw 3) proved unwinnable within 100,000 states a pass (97,270 in all), not within 1 MB


def timeless(out: str) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in out.splitlines()]
    return [{k: v for k, v in row.items() if "seconds" not in k} for row in rows]


@pytest.mark.parametrize("json_flag", [(), ("--json",)])
def test_two_threads_print_what_one_prints(cli: Any, json_flag: tuple[str, ...]) -> None:
    one = cli(*BATCH, *json_flag, "--jobs", "1")
    two = cli(*BATCH, *json_flag, "--jobs", "2")
    every = cli(*BATCH, *json_flag, "--jobs", "0")  # one a CPU
    assert one.code == two.code == every.code == 0, (one.err, two.err, every.err)
    rows = timeless(one.out)
    assert [r.get("seed") for r in rows[:-1]] == list(range(1, 9))  # in seed order
    assert {r["result"] for r in rows[:-1]} >= {"win", "unknown"}  # the budget binds on some deals
    assert rows[-1]["summary"] and rows[-1]["deals"] == 8
    assert timeless(two.out) == rows
    assert timeless(every.out) == rows
    assert one.err == two.err == every.err == ""


def test_the_python_engine_in_processes_prints_what_one_prints(cli: Any, monkeypatch: Any) -> None:
    monkeypatch.setenv("SOLITAIRE_ENGINE", "python")  # the workers inherit it
    words = ("solve", "klondike", "--seeds", "1..4", "--states", "200")
    one, two = cli(*words, "--jobs", "1"), cli(*words, "--jobs", "2")
    assert one.code == two.code == 0, (one.err, two.err)
    rows = timeless(one.out)
    assert {r["engine"] for r in rows[:-1]} == {"python"}
    assert timeless(two.out) == rows


@pytest.mark.parametrize(("words", "message"), [
    (("--seeds", "1..3", "--jobs", "-1"), "--jobs must be 0 (one for each CPU) or more"),
    (("--seed", "1", "--memory", "0"), "--memory must be at least 1 (megabytes)"),
    (("--seeds", "1..3", "--memory", "-5"), "--memory must be at least 1 (megabytes)"),
    (("--seed", "1", "--memory", "lots"), "Invalid value for '--memory'"),
    (("--seeds", "1..3", "--jobs", "two"), "Invalid value for '--jobs'"),
    (("--seeds", "1..3", "--jobs", "2", "--cluster", "tcp://127.0.0.1:1"), "give --jobs N or --cluster"),
    (("--seed", "1", "--threads", "0"), "--threads must be 1 or more"),
    (("--seeds", "1..3", "--threads", "-2"), "--threads must be 1 or more"),
    (("--seed", "1", "--threads", "many"), "Invalid value for '--threads'"),
])
def test_bad_jobs_and_memory_are_one_line_and_change_nothing(cli: Any, solitaire_home: Any,
                                                             words: tuple[str, ...], message: str) -> None:
    assert cli("variants").code == 0  # the start-up cache is written
    before = sorted(p.name for p in solitaire_home.rglob("*"))
    result = cli("solve", "klondike", *words)
    assert result.code == 2 and result.out == ""
    assert result.err.startswith("solitaire: ") and message in result.err and result.err.count("\n") == 1
    assert sorted(p.name for p in solitaire_home.rglob("*")) == before


def test_a_memory_bound_holds_fewer_states_where_a_key_holds_several_turn_points() -> None:
    """Where turn points are compared by dominance (draw 3), a key holds every turn point
    stored under it and the best-first pass expands each: a bound in megabytes counts
    ``DOMINANCE_FACTOR`` times the bytes a state there (docs/performance.md, "`--memory` with
    turn points compared by dominance"), and the same deck's draw 1 the plain figure."""
    from solitaire.core.solver.search import turns_by_dominance

    klondike = get_variant("klondike")
    one, three = (Rules.of(klondike, {"draw": d, "relaxed": True}) for d in (1, 3))
    assert turns_by_dominance(three) and not turns_by_dominance(one)
    for engine in ("native", "python"):
        plain, dominated = (native.states_for_memory(400, r, engine) for r in (one, three))
        assert dominated < plain
        assert plain / dominated == pytest.approx(native.DOMINANCE_FACTOR, rel=1e-3)


def test_a_tiny_memory_bound_answers_unknown_and_says_so(cli: Any) -> None:
    bounded = cli("solve", "klondike", "--seed", str(HARD), "--draw", "3", "--memory", "1", "--json")
    assert bounded.code == 0, bounded.err
    answer = json.loads(bounded.out)
    assert answer["result"] == "unknown" and answer["stopped"] == "memory"
    rules = Rules.of(get_variant("klondike"), {"draw": 3})
    cap = native.states_for_memory(1, rules, "native")
    assert 0 < answer["states"] <= 5 * cap  # five passes at most (the guided one too), each within the cap
    text = cli("solve", "klondike", "--seed", str(HARD), "--draw", "3", "--memory", "1")
    assert text.out.startswith("unknown: the memory bound was reached (")
    assert "try a larger --memory" in text.out
    # the states budget alone says so too: the same field
    budget = json.loads(cli("solve", "klondike", "--seed", str(HARD), "--draw", "3", "--states", "300",
                            "--json").out)
    assert budget["result"] == "unknown" and budget["stopped"] == "states"
    # a bound looser than --states changes nothing: the budget binds
    loose = json.loads(cli("solve", "klondike", "--seed", str(HARD), "--draw", "3", "--states", "300",
                           "--memory", "64", "--json").out)
    assert {k: v for k, v in loose.items() if k != "seconds"} == {k: v for k, v in budget.items() if k != "seconds"}


def test_a_memory_bound_never_makes_a_proof() -> None:
    """A deal proved unwinnable within a budget is "unknown" within a memory bound too small
    for the proof: never "unwinnable"."""
    rules = Rules.of(get_variant("klondike"), {"draw": 3})
    full = solve(Game.new(rules, LOST), timeout=None, max_states=100_000)
    assert full.result == "unwinnable" and full.stopped == "" and "stopped" not in full.as_json()
    tiny = solve(Game.new(rules, LOST), timeout=None, max_states=100_000, memory_mb=1)
    assert tiny.result == "unknown" and tiny.stopped == "memory"
    assert tiny.as_json()["stopped"] == "memory"
    python = solve(Game.new(rules, LOST), timeout=None, max_states=100_000, memory_mb=1, engine="python")
    assert python.result == "unknown" and python.stopped == "memory"
    # four passes, each within the cap (the Python engine looks every 256 positions)
    assert python.states <= 4 * (native.states_for_memory(1, rules, "python") + 256)
    for bad in (0, -1, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="positive number of megabytes"):
            solve(Game.new(rules, LOST), memory_mb=bad)


def test_a_batch_under_a_memory_bound_says_which_deals_it_stopped(cli: Any) -> None:
    out = cli("solve", "klondike", "--seeds", f"{HARD}..{HARD + 1}", "--draw", "3", "--memory", "1",
              "--jobs", "2")
    assert out.code == 0, out.err
    rows = [json.loads(line) for line in out.out.splitlines()]
    assert rows[0]["seed"] == HARD and rows[0]["result"] == "unknown" and rows[0]["stopped"] == "memory"
    assert all(r.get("stopped") in (None, "memory") for r in rows[:-1])
    assert rows[-1]["unknown"]["count"] >= 1


def test_two_threads_in_the_compiled_core_answer_as_one_after_the_other() -> None:
    base = Rules.of(get_variant("klondike"))
    rules = base.derive(draw_count=base.draw_count)  # a Rules of its own: its core is loaded by the threads
    seeds = list(range(1, 13))

    def answer(seed: int) -> dict[str, Any]:
        # (a budget some deals run out of: since stock cards go home from anywhere in the
        # stock, every one of these deals is won within 1,000 states a pass)
        result = solve(Game.new(rules, seed), timeout=None, max_states=500)
        assert result.engine == "native"
        return {k: v for k, v in result.as_json().items() if k != "seconds"}

    with ThreadPoolExecutor(max_workers=2) as pool:
        together = list(pool.map(answer, seeds))
    assert [answer(s) for s in seeds] == together
    assert {a["result"] for a in together} >= {"win", "unknown"}
    assert sum(1 for kept, _ in native._CORES.values() if kept is rules) == 1  # loaded once


def test_a_deal_searched_in_two_threads_gets_the_answer_of_one(cli: Any) -> None:
    """``threads=2`` (the exact search in a thread of its own beside the other passes, with
    a timeout only) decides what one thread decides within the same states a pass: a win
    that replays, the proof of a lost deal, an unknown past the states; the timeout is far
    off, so the states decide. ``--threads`` on the command line too."""
    rules = Rules.of(get_variant("klondike"), {"draw": 3})
    for seed, states in ((LOST, 100_000), (2, 20_000), (HARD, 20_000)):
        one = solve(Game.new(rules, seed), timeout=3600, max_states=states, threads=1)
        two = solve(Game.new(rules, seed), timeout=3600, max_states=states, threads=2)
        assert one.result == two.result, (seed, one.as_json(), two.as_json())
        if two.result == "win":
            game = Game.new(rules, seed)
            for move in two.moves:
                game.play(move)
            assert game.won
        if two.result == "unwinnable":
            assert two.method == "exact"
    for threads in ("1", "2"):
        out = cli("solve", "klondike", "--draw", "3", "--seed", str(LOST), "--timeout", "3600", "--states", "100000",
                  "--threads", threads, "--json")
        assert out.code == 0 and json.loads(out.out)["result"] == "unwinnable", out.err


def test_ctrl_c_stops_a_threaded_batch_cleanly(tmp_path: Any) -> None:
    """Ctrl-C while threads solve: no traceback, exit status 130, the rows solved so far printed
    whole and in seed order; the searches under way are cancelled (their deals not printed)."""
    env = {**os.environ, "SOLITAIRE_HOME": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "solitaire.cli.main", "solve", "klondike", "--seeds", "1..400",
                             "--states", "300000", "--draw", "3", "--jobs", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    first = proc.stdout.readline()  # a deal solved: the threads are at work
    proc.send_signal(signal.SIGINT)
    # (read on through the same buffered stream: `communicate` reads the pipe itself, past
    # whatever later rows that first read took in already)
    rest = proc.stdout.read()
    assert proc.stderr is not None
    err = proc.stderr.read()
    proc.wait(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    rows = [json.loads(line) for line in (first + rest).splitlines()]
    seeds = [r["seed"] for r in rows]
    assert seeds == sorted(seeds) and seeds[0] == 1 and len(seeds) < 400
    assert not any(r.get("summary") for r in rows)


# the command line with each search it starts and ends said on stderr: the test's signal to
# interrupt one under way, and proof of how it ended ("cancelled": Ctrl-C stopped it)
TRACED = """
import sys
from solitaire.cli import solve as command
real = command.solve
def traced(*args, **kwargs):
    print("started", file=sys.stderr, flush=True)
    result = real(*args, **kwargs)
    print("finished", result.stopped, file=sys.stderr, flush=True)
    return result
command.solve = traced
from solitaire.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("deals", [("--seed", str(HARD)), ("--seeds", f"{HARD}..{HARD + 5}", "--jobs", "1")])
def test_ctrl_c_cancels_the_compiled_search_under_way_with_one_job(tmp_path: Any, deals: tuple[str, ...]) -> None:
    """Ctrl-C while one thread solves (a single deal, or a batch at ``--jobs 1``): the core's
    search under way is cancelled, not run to its end (a budget of 3,000,000 states a pass on
    a deal no pass decides within 200,000), and the command exits 130 with no traceback,
    printing no row for it and starting no other deal."""
    env = {**os.environ, "SOLITAIRE_HOME": str(tmp_path)}
    for _ in range(5):
        proc = subprocess.Popen([sys.executable, "-c", TRACED, "solve", "klondike", "--draw", "3", *deals,
                                 "--states", "3000000", "--json"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        assert proc.stderr is not None
        seen = proc.stderr.readline().strip()
        assert seen == "started", seen
        proc.send_signal(signal.SIGINT)  # the search of deal HARD is under way, or about to start
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 130, err
        assert "Traceback" not in err
        assert out == ""
        if err.split():
            assert err.split() == ["finished", "cancelled"], err
            return
        # the signal came between the trace and the search's start: the command stopped
        # there, as cleanly, before any search; try again for one under way
    pytest.fail("Ctrl-C never came while a search was under way in five tries")

