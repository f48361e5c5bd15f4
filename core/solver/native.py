"""The compiled solver core (Rust, module ``solitaire.core.solver._native``) and the choice of engine.

:func:`solve` is the solver's front door: it runs the compiled core where it is installed and
speaks every concept of the game's tables, else the Python engine (:mod:`.search`), and the
answer says which ran (``SolveResult.engine``) and, for Python, why (``engine_reason``).

The core takes the compiled rules once per solve, as plain lists and bytes (:func:`tables`),
and never calls back into Python. What it speaks is listed in :data:`KNOWN_RULES`: a
:class:`~solitaire.core.Rules` with any other attribute (a concept added to the kernel since)
is solved in Python, so a new move kind never reaches a core that does not know it.
``SOLITAIRE_ENGINE=python`` forces the Python engine (tests, benchmarks). See docs/solver.md.
"""

from __future__ import annotations

import contextvars
import importlib
import math
import os
import threading
import time
from functools import cache
from types import ModuleType
from typing import Any

import attrs

from ..game import Game, Move
from ..rules import GIVES_PILE, NO_LIMIT, Rules
from .knowledge import own_engine, variant_knowledge
from .search import UNKNOWN, UNWINNABLE, WIN, Solver, SolveResult, _tables, notation, turns_by_dominance
from .search import solve as python_solve

ENGINE_VARIABLE = "SOLITAIRE_ENGINE"  # "python": never the compiled core
#: every attribute of Rules whose meaning the core knows (or that the search never reads);
#: a Rules with another one is solved in Python
KNOWN_RULES = frozenset({
    "_based", "accept", "aliases", "allowed", "base", "beaten", "beaten_by", "beats", "capacity", "consolidate",
    "count", "covered", "covering", "deck", "decks", "draw_count", "draw_move", "draw_not_onto_empty",
    "draw_targets", "fill", "fills", "fits", "flip", "floor", "foundation_set", "foundations", "gives",
    "group_names", "group_piles", "groups", "has_supermove", "index", "max_accept", "may_hide", "min_accept",
    "name", "names", "needs_base", "options", "pair_home", "pair_ok", "pair_rule", "pair_sources", "pair_with",
    "piles", "receivers", "recycle_points", "redeals", "role", "score_move", "seq", "short_name", "sources", "spec",
    "stock", "stock_open", "supermove", "targets", "turn_up", "uncovers", "variant", "width", "win_cleared",
    "win_home", "win_one_card", "whole_runs",
    "stock_top_only",  # what a player sees of an open stock: the search sees every card
})
MAX_WIDTH = 52 * 8  # cards are u16 in the core; eight copies of a face at most (cards.MAX_COPIES)


@cache
def _module() -> ModuleType | None:
    try:  # by name: the extension is no Python file (and ``from . import`` would import this package)
        module = importlib.import_module(f"{__package__}._native")
    except ImportError:
        return None
    return module


def native_available() -> bool:
    """The compiled core is installed (whatever ``SOLITAIRE_ENGINE`` says)."""
    return _module() is not None


def native_version() -> str | None:
    """The compiled core's version, or None when it is not installed."""
    module = _module()
    return None if module is None else str(module.VERSION)


#: set while a :func:`solve` asked for the Python engine runs (in that thread or task only),
#: so that a variant's own compiled search (Calculation's) runs its Python reference too
_PYTHON_ASKED: contextvars.ContextVar[bool] = contextvars.ContextVar("solitaire_python_asked", default=False)


def forced_python() -> bool:
    """Whether Python is asked for: ``SOLITAIRE_ENGINE=python``, or inside a :func:`solve`
    called with ``engine="python"`` (a variant's own search that is compiled asks this too)."""
    return _PYTHON_ASKED.get() or os.environ.get(ENGINE_VARIABLE, "").strip().lower() == "python"


def engine_line() -> str:
    """What solves, in words: for ``solitaire --version``."""
    version = native_version()
    if version is None:
        return "solver: python (the compiled core is not installed)"
    if forced_python():
        return f"solver: python ({ENGINE_VARIABLE}=python; compiled core {version} installed)"
    return f"solver: native (compiled core {version}), python for games it does not speak"


def _in_use(value: Any) -> bool:
    """A concept the core does not know is in use unless its compiled value is the kernel's
    "not declared" one: None, False, zero, empty, or a table of nothing but those (a game that
    declares no pairs has ``pair_home`` None and ``pair_with`` rows of zero bytes). A value of
    any other kind counts as in use, so the doubt goes to the Python engine; and
    tests/test_native.py plays every game the core takes against the kernel."""
    if value is None or value is False or value == 0:
        return False
    if isinstance(value, (bytes, bytearray)):
        return any(value)
    if isinstance(value, (tuple, list, frozenset, set)):
        return any(_in_use(v) for v in value)
    return True


def unsupported(rules: Rules) -> str | None:
    """Why the compiled core cannot solve a game under these rules, or None when it can:
    judged from what it knows, so anything new in the rules sends the game to Python."""
    unknown = sorted(name for name in set(vars(rules)) - KNOWN_RULES if _in_use(getattr(rules, name)))
    if unknown:
        return f"the rules use {', '.join(unknown)}, which the compiled core does not know"
    if rules.width > MAX_WIDTH or any(g < 0 or g > GIVES_PILE for g in rules.gives):
        return "the tables are wider than the compiled core takes"
    know = variant_knowledge(rules)
    if know is not None:
        return f"the variant's plugin gives the solver knowledge of its own, which runs in {own_engine(know)}"
    return None


def tables(rules: Rules, relaxed: bool = True) -> dict[str, Any]:
    """The compiled rules and the search's safe-move tables as plain lists and bytes: what the
    core loads once per game (``_native.Core``). With stock macro-moves of more than one card
    a draw or limited redeals, ``relaxed`` holds the same for the rules with draw 1 and
    unlimited redeals, for the relaxation proof (search.py's ``_lost_with_every_stock_card_free``)."""
    t = _tables(rules)
    free = None
    if relaxed and t.macro and not (rules.draw_count == 1 and rules.redeals is None):
        free = tables(t.free_stock_rules(), relaxed=False)
    width = rules.width
    found = rules.foundation_set
    index = {p: k for k, grp in enumerate(t.groups) for p in grp}
    return {
        "count": rules.count, "width": width,
        "accept": list(rules.accept), "seq": list(rules.seq),
        "gives": list(rules.gives),
        "capacity": [min(c, NO_LIMIT) for c in rules.capacity],
        "max_accept": [min(c, NO_LIMIT) for c in rules.max_accept],
        "min_accept": [max(1, m) for m in rules.min_accept],
        "flip": list(rules.flip),
        "targets": [list(x) for x in rules.targets], "sources": list(rules.sources),
        "receivers": list(rules.receivers),
        "allowed": [[bool(a) for a in row] for row in rules.allowed],
        "fits": [[list(row) for row in f] for f in rules.fits],
        "supermove": [None if m is None else (list(m[0]), list(m[1])) for m in rules.supermove],
        "stock": -1 if rules.stock is None else rules.stock,
        "draw_targets": list(rules.draw_targets), "draw_count": max(1, rules.draw_count),
        "draw_not_onto_empty": rules.draw_not_onto_empty, "stock_open": rules.stock_open,
        "redeals": -1 if rules.redeals is None else rules.redeals,
        "foundations": list(rules.foundations), "is_foundation": [p in found for p in range(rules.count)],
        "win_cleared": list(rules.win_cleared), "win_home": rules.win_home,
        "fill": [list(f) for f in rules.fill], "covered": [list(c) for c in rules.covered],
        "uncovers": [list(u) for u in rules.uncovers],
        "pair_home": -1 if rules.pair_home is None else rules.pair_home, "pair_ok": list(rules.pair_ok),
        "pair_sources": list(rules.pair_sources), "pair_with": [[bool(b) for b in row] for row in rules.pair_with],
        "beaten_by": [list(b) for b in rules.beaten_by], "beats": list(rules.beats),
        "win_one_card": list(rules.win_one_card), "consolidate": rules.consolidate,
        # the search's (see search._Tables)
        "needs": [list(x) for x in t.needs_home[:width]], "home_kind": list(t.home_kind),
        "track": list(t.track),
        "start": [list(rules.fits[p][width]) if p in found else [] for p in range(rules.count)],
        "groups": [list(g) for g in t.groups], "group_of": [index.get(p, -1) for p in range(rules.count)],
        "top_only": [p in t.top_only for p in range(rules.count)], "auto_sources": list(t.auto_sources),
        "waste_like": [r in ("waste", "reserve") for r in rules.role],
        "macro_waste": t.waste if t.macro else -1,
        "deck_size": len(rules.deck),  # the best-first pass's distance to a win
        "defer": list(t.defer), "stock_defer": t.stock_defer,  # the waits (search._Tables)
        "stock_home": t.stock_home,  # safe stock cards home (search._Tables)
        "found_defer": t.found_defer,
        "onto": [[[y for y in range(width) if mask >> y & 1] for mask in rows] for rows in t.onto_mask],
        "dead_piles": list(t.dead_piles), "dead_pred": [[list(row) for row in k] for k in t.dead_pred],
        "dead_under": [sorted(u) for u in t.dead_under],  # the dead-card cut (search._Tables)
        "chain_on": [list(c) for c in t.chain_on], "chain_pred": list(t.chain_pred),  # (search._Tables)
        "discard_ok": [below is not None for below in t.discard_below],  # safe discards (search._Tables)
        "discard_below": [list(below or ()) for below in t.discard_below],
        "discard_never": list(t.discard_never), "discard_need": t.discard_need,
        "discard_late": t.discard_late,
        "relaxed": free,
    }


_CORES: dict[int, tuple[Rules, Any]] = {}
_CORES_LOCK = threading.Lock()  # solves in several threads (solitaire solve --jobs N) load each once


def core(rules: Rules) -> Any:
    """The loaded ``_native.Core`` of these rules (built once per Rules, also when threads
    ask at once; a Core is immutable, so they share it); raise RuntimeError when the
    compiled core is not installed."""
    module = _module()
    if module is None:
        raise RuntimeError("the compiled solver core is not installed")
    hit = _CORES.get(id(rules))
    if hit is None or hit[0] is not rules:
        with _CORES_LOCK:
            hit = _CORES.get(id(rules))
            if hit is None or hit[0] is not rules:
                hit = _CORES[id(rules)] = (rules, module.Core(tables(rules)))
    return hit[1]


def position(game: Game) -> Any:
    """The game's position in the compiled core (``_native.Position``: legal_moves, push,
    pop, piles, down, recycles, won), for checking it against the kernel."""
    module = _module()
    return module.Position(core(game.rules), game.piles, game.down, game.recycles)  # type: ignore[union-attr]


ENGINES = ("auto", "native", "python")


def choose(game: Game, knowledge: Any = None, engine: str = "auto") -> tuple[str, str]:
    """The engine that solves ``game``: ("native", "") or ("python", why). ``engine``:
    "auto" or "native" (the compiled core wherever it speaks the game: it runs the Python
    engine's portfolio pass for pass, best-first pass, waits, dominance and relaxation
    included, plus a guided pass of its own that only adds wins, and decides at least the
    deals the Python engine decides within the same budget on every game measured; see
    docs/performance.md) or "python" (the reference)."""
    if engine not in ENGINES:
        raise ValueError(f"an engine is one of {', '.join(ENGINES)}, got {engine!r}")
    if engine == "python":
        return "python", "asked for"
    if knowledge is not None:
        return "python", "the caller gives the solver knowledge of its own"
    if forced_python():
        return "python", f"{ENGINE_VARIABLE}=python"
    if _module() is None:
        return "python", "the compiled core is not installed"
    reason = unsupported(game.rules)
    return ("python", reason) if reason is not None else ("native", "")


#: what one stored state costs a search, in bytes: a fixed part and a part a card of the
#: deck (a state's key holds every card), for each engine; measured as peak resident memory
#: over states stored on hard deals of Klondike (52 cards) and Spider (104), the best-first
#: pass's open list and nodes included (benchmarks/bench_jobs.py per-state, docs/performance.md)
BYTES_A_STATE = {"native": (230, 5), "python": (1100, 4)}
#: and where turn positions are compared by dominance (`search.turns_by_dominance`): a key
#: holds several turn positions, which the best-first pass expands each (its open list and
#: nodes grow by positions, its budget by keys). Klondike draw 3, unlimited redeals, deal 12
#: at `--memory 100/200/400`: 124, 255 and 520 MB over the process's 38 MB at `--memory 1`,
#: about 640 bytes a key against the 490 above (docs/performance.md, "Session 26").
DOMINANCE_FACTOR = 1.4
MEGABYTE = 1 << 20


def states_for_memory(memory_mb: float, rules: Rules, engine: str) -> int:
    """The states a search pass of ``engine`` ("native" or "python") may store within
    ``memory_mb`` megabytes (MiB) of search memory for a game under ``rules`` (at least 1):
    the cap :func:`solve` applies for ``memory_mb``. Raise ValueError unless ``memory_mb``
    is a positive finite number."""
    if not (isinstance(memory_mb, (int, float)) and memory_mb > 0 and math.isfinite(memory_mb)):
        raise ValueError(f"a memory bound is a positive number of megabytes, got {memory_mb!r}")
    fixed, per_card = BYTES_A_STATE[engine]
    per_state = (fixed + per_card * len(rules.deck)) * (DOMINANCE_FACTOR if turns_by_dominance(rules) else 1)
    return max(1, int(memory_mb * MEGABYTE // per_state))


class Cancel:
    """A flag that stops searches from another thread (the player moved on, Ctrl-C): give it
    to :func:`solve` and call :meth:`cancel` from any thread. A search in the compiled core
    looks at it where it looks at its deadline (every 16 to 256 positions a pass visits), with
    Python's lock released, so it stops within that many positions and answers "unknown",
    ``stopped="cancelled"``: never a proof. The Python engine looks at it only before it
    starts. Once set, it stays set: a search given it later does not start."""

    def __init__(self) -> None:
        module = _module()
        self._flag: Any = None if module is None else module.Cancel()
        self._set = threading.Event()

    def cancel(self) -> None:
        self._set.set()
        if self._flag is not None:
            self._flag.cancel()

    @property
    def cancelled(self) -> bool:
        return self._set.is_set()


def solve(game: Game, timeout: float | None = 10.0, max_states: int = 3_000_000, greedy_share: float = 0.5,
          knowledge: Any = None, engine: str = "auto", memory_mb: float | None = None,
          guided: bool = True, cancel: Cancel | None = None, wins_only: bool = False,
          whole_line: bool = True, max_work: int | None = None, threads: int = 1) -> SolveResult:
    """Solve ``game`` with full information, in the compiled core where it can (see
    :func:`choose`), else in Python (:func:`solitaire.core.solver.search.solve`); the
    answer names the engine (``engine="python"`` runs a variant's own compiled search, as
    Calculation's, in its Python reference too). ``timeout`` in seconds (None: the states budget alone);
    ``guided=False`` leaves the compiled core's guided pass out of its portfolio (the Python
    engine has none).

    ``memory_mb`` bounds the search's own memory (its transposition table, the best-first
    pass's open list), in MiB: it caps the states a pass may store at what fits
    (:func:`states_for_memory`), below ``max_states`` when that is smaller. An answer
    "unknown" says why it stopped (``SolveResult.stopped``: "time", "states" or "memory");
    a bound never makes a proof. Safe to call from several threads at once: the compiled
    core releases the GIL while it searches (the Python engine holds it). ``cancel`` (a
    :class:`Cancel`) stops the search when set from another thread: "unknown",
    ``stopped="cancelled"``.

    For a caller that counts only wins (a hint): ``wins_only=True`` leaves out the compiled
    core's relaxation proof, a pass that can only ever prove a deal lost (so a win found is
    the same one, and a proof it would have made is an "unknown" instead), and, in both
    engines, the safe stock cards sent home by draws before any move of the search's
    choosing (draw 1, unlimited redeals: a line would open with those draws, a poor hint);
    ``whole_line=False`` turns only a win's first move into notation (checked legal by the
    kernel), not the whole line replayed through the kernel, and the answer's ``moves`` hold
    that move alone. ``max_work`` bounds each of the compiled core's passes by its work
    too, not only by what it stores: the positions a pass may reach (each move it plays; a
    stored state costs one to tens of them, as many as the game has moves a position), None
    for no such bound. A pass stopped by it answers nothing (an "unknown", never a proof).
    The Python engine passes it to a variant's own search that takes it (the knowledge's
    ``search`` with a keyword ``max_work``, as Calculation's); its generic passes have no
    such bound.

    ``threads=2`` runs the compiled core's exact search in a thread of its own from the
    start, with the whole ``timeout``, beside the other passes, which share the time as
    they would without it at their end; the first to decide stops the other. It needs a
    ``timeout`` (which pass decides first depends on the machine, so a budget of states
    alone keeps one thread and the same answer anywhere) and applies only without
    ``max_work`` and ``memory_mb`` (two tables at once); the Python engine has one thread."""
    asked_python = engine == "python"
    engine, reason = choose(game, knowledge, engine)
    if cancel is not None and cancel.cancelled:
        return SolveResult(UNKNOWN, (), 0.0, 0, "", engine, reason, stopped="cancelled")
    bound = "states"
    if memory_mb is not None:
        cap = states_for_memory(memory_mb, game.rules, engine)
        if cap < max_states:
            max_states, bound = cap, "memory"
    if engine == "python":
        asked = _PYTHON_ASKED.set(asked_python or _PYTHON_ASKED.get())
        try:
            result = python_solve(game, timeout=timeout, max_states=max_states, greedy_share=greedy_share,
                                  knowledge=knowledge, fixed_table=memory_mb is not None, max_work=max_work,
                                  stock_home=not wins_only)
        finally:
            _PYTHON_ASKED.reset(asked)
        result = SolveResult(result.result, result.moves if whole_line else result.moves[:1], result.seconds,
                             result.states, result.method, "python", reason)
    else:
        result = _solve_native(game, timeout, max_states, guided, cancel, not wins_only, whole_line, max_work,
                               memory_mb is not None, threads, not wins_only)
    if result.result != UNKNOWN:
        return result
    if cancel is not None and cancel.cancelled:
        return attrs.evolve(result, stopped="cancelled")
    timed_out = timeout is not None and math.isfinite(timeout) and result.seconds >= timeout
    return attrs.evolve(result, stopped="time" if timed_out else bound)


def _solve_native(game: Game, timeout: float | None, max_states: int, guided: bool = True,
                  cancel: Cancel | None = None, relaxation: bool = True, whole_line: bool = True,
                  max_work: int | None = None, fixed_table: bool = False, threads: int = 1,
                  stock_home: bool = True) -> SolveResult:
    began = time.perf_counter()
    checker = Solver(game, timeout=timeout, max_states=max_states)
    # a card that can never move: the Python engine's check, made once (the core makes the
    # deadlock proof of the same method, `Solver._blocked`'s other half, itself)
    if checker._stuck_card():
        return SolveResult(UNWINNABLE, (), time.perf_counter() - began, 0, "blocked", "native")
    left = None if timeout is None or math.isinf(timeout) else max(0.0, timeout - (time.perf_counter() - began))
    answer, line, states, method = _module().solve(  # type: ignore[union-attr]
        core(game.rules), game.piles, game.down, game.recycles, max_states, left, guided, relaxation,
        None if cancel is None else cancel._flag, None, max_work, fixed_table, max(1, threads), stock_home)
    if answer == WIN:
        moves = replayed(game, [tuple(m) for m in line]) if whole_line or not line else first_move(game, tuple(line[0]))
        return SolveResult(WIN, tuple(moves), time.perf_counter() - began, states, method, "native")
    return SolveResult(answer, (), time.perf_counter() - began, states, method, "native")


def _spoken(game: Game) -> Any:
    """The game's rules loaded into the compiled core; raise RuntimeError when the core is not
    installed or does not speak the game."""
    reason = unsupported(game.rules)
    if reason is not None:
        raise RuntimeError(reason)
    return core(game.rules)  # raises RuntimeError when the compiled core is not installed


def guided(game: Game, max_states: int, width: int | None = None, timeout: float | None = None,
           by_deals: bool = False) -> SolveResult:
    """The compiled core's guided pass alone (a beam search on an evaluation read off the
    tables; docs/solver.md): "win" with its line replayed through the kernel, else "unknown"
    (it never proves a deal lost). ``width``: one round of that many positions a level (None:
    rounds ever wider until ``max_states`` positions are stored). Raise RuntimeError when the
    compiled core is not installed or does not speak the game. ``by_deals``: the beam by deals
    (a card of a stock dealt onto the columns costs less than a loose one, positions are grouped
    by the cards left in the stock, no group more than half the beam: docs/solver.md)."""
    loaded = _spoken(game)
    began = time.perf_counter()
    answer, line, states = _module().guided(loaded, game.piles, game.down, game.recycles,  # type: ignore[union-attr]
                                            max_states, width, timeout, by_deals=by_deals)
    moves = replayed(game, [tuple(m) for m in line]) if answer == WIN else []
    return SolveResult(answer, tuple(moves), time.perf_counter() - began, states, "guided" if moves else "", "native")


def exact(game: Game, max_states: int, timeout: float | None = None) -> SolveResult:
    """The compiled core's exact search alone, none of the portfolio's other passes nor the
    deadlock proof before them: "win" with its line replayed through the kernel,
    "unwinnable" when it ran out of moves (a proof, as in the portfolio), else "unknown" once
    it has stored ``max_states`` positions or ``timeout`` seconds pass. ``states`` is what it
    stored: the size of the deal's proof when it is one (benchmarks/bench_proofs.py). Raise
    RuntimeError when the compiled core is not installed or does not speak the game."""
    loaded = _spoken(game)
    began = time.perf_counter()
    answer, line, states = _module().exact(loaded, game.piles, game.down, game.recycles,  # type: ignore[union-attr]
                                           max_states, timeout)
    moves = replayed(game, [tuple(m) for m in line]) if answer == WIN else []
    return SolveResult(answer, tuple(moves), time.perf_counter() - began, states, "exact" if answer != UNKNOWN else "",
                       "native")


def first_move(game: Game, move: Move) -> list[str]:
    """The compiled core's first move of a line in notation, ``[text]``; raise AssertionError
    unless the kernel finds it legal in ``game``."""
    text = notation(game, move)
    if game.parse_move(text) != move or game.refusal(move) is not None:  # pragma: no cover - a core bug
        raise AssertionError(f"the compiled core's first move {move!r} is not legal here")
    return [text]


def replayed(game: Game, moves: list[Move]) -> list[str]:
    """The compiled core's winning line in notation, played through the kernel's checks on a
    copy of ``game``; raise AssertionError unless every move is legal and the game ends won."""
    return Solver(game)._notation(moves)
