"""``solitaire solve --seeds A..B --cluster ADDRESS``: the batch on a Dask cluster.

A real ``distributed.LocalCluster`` with two worker processes (each imports solitaire afresh,
as a remote worker would) runs the same deals as ``--jobs 1``; with a state budget the solver
is deterministic, so every JSON line agrees except the time it took.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest

from solitaire.cli import solve as solve_module

SEEDS = "1..10"
BUDGET = ("--states", "500")  # a count, not a time: the same answers on any machine, any load


def without_time(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]


@pytest.fixture(scope="module")
def scheduler():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def solved_by_workers(address: str) -> int:
    """How many tasks the cluster's workers ran, checking they are other processes than this one."""
    import distributed

    with distributed.Client(address, set_as_default=False) as client:  # type: ignore[no-untyped-call]  # distributed is not annotated
        pids = client.run(os.getpid)
        ran = client.run(lambda dask_worker: dask_worker.state.executed_count)
    assert len(pids) == 2 and os.getpid() not in pids.values()
    return sum(ran.values())


def test_cluster_batch_equals_the_local_batch(cli, scheduler):
    before = solved_by_workers(scheduler)
    local = cli("solve", "klondike", "--seeds", SEEDS, *BUDGET, "--jobs", "1")
    remote = cli("solve", "klondike", "--seeds", SEEDS, *BUDGET, "--cluster", scheduler)
    assert local.code == 0, local.err
    assert remote.code == 0, remote.err
    here, there = local.json_lines(), remote.json_lines()
    assert [r["seed"] for r in there[:-1]] == list(range(1, 11))  # in order, whatever finished first
    assert without_time(there[:-1]) == without_time(here[:-1])
    assert {r["result"] for r in here[:-1]} >= {"win", "unknown"}  # the budget binds on some deals
    summary = {k: v for k, v in there[-1].items() if "seconds" not in k}
    assert summary == {k: v for k, v in here[-1].items() if "seconds" not in k}
    assert summary["deals"] == 10
    assert solved_by_workers(scheduler) - before >= 10  # the deals were solved over there


def test_draw_three_on_the_cluster_too(cli, scheduler):
    args = ("solve", "klondike", "--draw", "3", "--seeds", "20..23", *BUDGET)
    local, remote = cli(*args), cli(*args, "--cluster", scheduler)
    assert remote.code == 0, remote.err
    assert without_time(remote.json_lines()[:-1]) == without_time(local.json_lines()[:-1])


@pytest.mark.parametrize("address, words", [
    ("tcp://127.0.0.1:1", "cannot reach the cluster at 'tcp://127.0.0.1:1'"),
    ("nonsense", "a cluster address is tcp://HOST:PORT"),
    ("tcp://127.0.0.1:99999", "a cluster address is tcp://HOST:PORT"),
])
def test_bad_address_is_one_line_exit_2(cli, monkeypatch, address, words):
    pytest.importorskip("distributed")
    monkeypatch.setattr(solve_module, "CONNECT_TIMEOUT", "2s")  # nothing listens there: fail soon
    out = cli("solve", "klondike", "--seeds", "1..3", "--cluster", address)
    assert (out.code, out.out) == (2, "")
    assert len(out.err.strip().splitlines()) == 1, out.err
    assert words in out.err


def test_without_the_extra_it_says_how_to_install_it(cli, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` now fails
    out = cli("solve", "klondike", "--seeds", "1..3", "--cluster", "tcp://127.0.0.1:8786")
    assert (out.code, out.out) == (2, "")
    assert out.err.strip() == ("solitaire: --cluster needs the 'cluster' extra: "
                               "pip install 'solitaire-table[cluster]'")


@pytest.mark.parametrize("args, words", [
    (("--seeds", "1..3", "--jobs", "2"), "not both"),
    (("--seed", "3"), "--cluster runs a batch"),
])
def test_cluster_refuses_what_does_not_fit(cli, args, words):
    out = cli("solve", "klondike", *args, "--cluster", "tcp://127.0.0.1:8786")
    assert (out.code, out.out) == (2, "")
    assert len(out.err.strip().splitlines()) == 1 and words in out.err


def test_states_budget_makes_the_batch_repeatable(cli):
    first = cli("solve", "klondike", "--seeds", "1..3", "--states", "300")
    second = cli("solve", "klondike", "--seeds", "1..3", "--states", "300")
    assert first.code == 0, first.err
    assert without_time(first.json_lines()[:-1]) == without_time(second.json_lines()[:-1])
    assert cli("solve", "klondike", "--seed", "1", "--states", "0").code == 2


def test_a_failing_worker_is_one_line(cli, monkeypatch, scheduler):
    import math

    monkeypatch.setattr(solve_module, "_one", math.sqrt)  # importable on the workers, fails on a task
    out = cli("solve", "klondike", "--seeds", "1..2", *BUDGET, "--cluster", scheduler)
    assert out.code == 2
    assert len(out.err.strip().splitlines()) == 1, out.err
    assert "a cluster worker failed on seed" in out.err and "TypeError" in out.err
