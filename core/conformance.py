"""The conformance kit: the checks every variant must pass, as a pytest plugin and as functions.

Installed with solitaire, this module is a pytest plugin (the ``pytest11`` entry point
``solitaire``), so in any environment that has solitaire::

    pytest --solitaire-variant NAME [--solitaire-variant NAME2 ...]   # or: all

adds the kit's tests for those games to the run, one test per check and option set, named
``test_deck[NAME[default]]``, ``test_deck[NAME[draw-3]]`` and so on, under the collector
``solitaire-conformance`` (``-k conformance`` picks them out). A test module runs the same
checks through :func:`check_variant` (every check of one variant) or :func:`cases` (one case
per check and option set, to parametrise a test with).

The checks, each through the public API only (see docs/write-a-variant.md, "The conformance
kit"): ``loads``, ``deck``, ``random_play``, ``positions``, ``solver`` and ``pool``. Budgets are
in hypothesis examples and solver states, never in seconds, so a run gives the same answer
on any machine, however loaded.

Loading the plugin costs next to nothing: it declares its options and a collection hook; the
kernel and hypothesis are imported only when a check is asked for.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import pytest

if TYPE_CHECKING:
    import hypothesis

    from .game import Game, Move
    from .plugins import Registry
    from .spec import VariantDef

#: the checks, in the order they run: each is a function of a :class:`Case` below
CHECK_NAMES = ("loads", "deck", "random_play", "positions", "solver", "pool")
#: the seeds every deal is checked with: small ones, a few more, and the largest there is
DEAL_SEEDS = (0, 1, 2, 7, 52, 1000, 2**32, 2**64 - 1)
SOLVER_SEEDS = (1, 2)
COLLECTOR = "solitaire-conformance"


class Budget(NamedTuple):
    """How much work the kit does per case: counts, never seconds."""

    examples: int = 10  # hypothesis examples for each random-play and positions check
    states: int = 300  # the solver's states budget (per pass) for each of SOLVER_SEEDS
    pool_seeds: int = 3  # the first seeds of a shipped pool that must be won again
    pool_states: int = 20_000  # the solver's states budget for each of those


DEFAULT_BUDGET = Budget()


class Case(NamedTuple):
    """One check of one variant under one option set (``options`` None: the variant as a
    whole). :meth:`run` raises AssertionError (or a pytest skip) on what it finds."""

    check: str
    name: str  # the variant's name, as given
    defn: VariantDef | None  # None: the variant is installed but did not load
    options: dict[str, Any] | None
    slug: str  # the option set's name, e.g. "default", "draw-3"
    budget: Budget
    registry: Registry | None  # where the variant must be listed; None: the installed registry
    broken: str | None = None  # why the variant did not load

    @property
    def id(self) -> str:
        """``NAME`` for a check of the whole variant, ``NAME[OPTIONS]`` for one option set."""
        return self.name if self.options is None else f"{self.name}[{self.slug}]"

    @property
    def test_name(self) -> str:
        return f"test_{self.check}[{self.id}]"

    def run(self) -> None:
        _CHECKS[self.check](self)

    # ------------------------------------------------------------------ what the checks use

    def variant(self) -> VariantDef:
        if self.defn is None:
            pytest.fail(f"{self.name} is installed but does not load: {self.broken}", pytrace=False)
        return self.defn

    def game(self, seed: int) -> Game:
        from . import Game, Rules

        return Game.new(Rules.of(self.variant(), self.options), seed)


# --------------------------------------------------------------------------- building cases


def _registry(registry: Registry | None) -> Registry:
    if registry is not None:
        return registry
    from .plugins import registry as installed

    return installed()


def _slug(defn: VariantDef, options: dict[str, Any]) -> str:
    from .solver import options_slug

    try:
        return options_slug(defn, options)
    except Exception:  # an option set that does not resolve: the loads check says why
        return "-".join(f"{k}-{v}" for k, v in sorted(options.items())) or "default"


def cases(variant: VariantDef | str, budget: Budget = DEFAULT_BUDGET, registry: Registry | None = None,
          checks: Iterable[str] = CHECK_NAMES) -> list[Case]:
    """The kit's cases for one variant: ``loads`` once, then every other check for each of
    its option sets (``VariantDef.option_sets()``); ``pool`` for the default options and for
    each other option set that ships a pool. ``variant`` is a definition or a name looked up
    in ``registry`` (default: the installed one); a name that is installed but broken gives
    one ``loads`` case that fails with the reason. Raise UnknownVariantError for a name that
    is not installed at all."""
    from .errors import UnknownVariantError

    reg = registry
    wanted = tuple(checks)
    unknown = [c for c in wanted if c not in _CHECKS]
    if unknown:
        raise ValueError(f"unknown check {unknown[0]!r}; the checks are: {', '.join(CHECK_NAMES)}")
    if isinstance(variant, str):
        installed = _registry(registry)
        try:
            defn = installed.get(variant)
        except UnknownVariantError:
            broken = [b for b in installed.broken if b.name == variant.strip().lower()]
            if not broken:
                raise
            reason = "; ".join(b.reason for b in broken)
            return [Case("loads", broken[0].name, None, None, "", budget, installed, reason)]
        name = defn.name
        reg = installed
    else:
        defn, name = variant, variant.name
    out = [Case("loads", name, defn, None, "", budget, reg)] if "loads" in wanted else []
    for options in defn.option_sets():
        slug = _slug(defn, options)
        for check in wanted:
            if check == "loads":
                continue
            if check == "pool" and slug != "default" and not _has_pool(defn, options):
                continue
            out.append(Case(check, name, defn, options, slug, budget, reg))
    return out


def _has_pool(defn: VariantDef, options: dict[str, Any]) -> bool:
    from .solver import pool_path

    try:
        path = pool_path(defn, options)
    except Exception:  # the option set does not resolve; the loads check says why
        return False
    return path is not None and path.is_file()


def check_variant(variant: VariantDef | str, budget: Budget = DEFAULT_BUDGET, registry: Registry | None = None,
                  checks: Iterable[str] = CHECK_NAMES) -> list[str]:
    """Run every case of :func:`cases` for ``variant``; return the ids of those skipped (with
    the reason), raise AssertionError naming every case that failed, the first one's error
    chained."""
    failed: list[tuple[Case, BaseException]] = []
    skipped: list[str] = []
    for case in cases(variant, budget, registry, checks):
        try:
            case.run()
        except pytest.skip.Exception as exc:
            skipped.append(f"{case.test_name}: {exc.msg}")
        except (Exception, pytest.fail.Exception) as exc:  # every failure is reported, not just the first
            failed.append((case, exc))
    if failed:
        lines = [f"{case.test_name}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
                 for case, exc in failed]
        raise AssertionError(f"{len(failed)} conformance check(s) failed:\n" + "\n".join(lines)) from failed[0][1]
    return skipped


# --------------------------------------------------------------------------- helpers


def _cards(game: Game) -> list[int]:
    return sorted(itertools.chain.from_iterable(game.piles))


def _deck_difference(dealt: Sequence[int], deck: Sequence[int]) -> str:
    from .cards import card_name

    have, want = Counter(dealt), Counter(deck)
    missing = sorted((want - have).elements())
    extra = sorted((have - want).elements())

    def names(cards: list[int]) -> str:
        return " ".join(card_name(c % 52) + ("" if c < 52 else f"#{c // 52 + 1}") for c in cards) or "none"

    return f"missing: {names(missing)}; extra or repeated: {names(extra)}"


def _state(game: Game) -> tuple[Any, ...]:
    return (tuple(map(tuple, game.piles)), tuple(game.down), game.score, game.moves, game.recycles)


def _settings(case: Case) -> hypothesis.settings:
    try:
        import hypothesis as found
    except ImportError:  # pragma: no cover - the test extra has it
        pytest.fail("the conformance kit's random play needs hypothesis: "
                    "pip install 'solitaire-table[conformance]'", pytrace=False)
    return found.settings(max_examples=case.budget.examples, deadline=None, derandomize=True,
                               database=None, suppress_health_check=list(found.HealthCheck))


def _walk_strategy() -> Any:
    from hypothesis import strategies as st

    from .shuffle import MAX_SEED

    # each step: what to do (see _random_play) and a number that picks among the choices
    return (st.integers(0, MAX_SEED),
            st.lists(st.tuples(st.integers(0, 15), st.integers(0, 2**20)), min_size=1, max_size=120))


# --------------------------------------------------------------------------- the checks


def _loads(case: Case) -> None:
    """It loads (every option set compiles and deals) and is listed by the registry."""
    from . import Game, Rules, SolitaireError

    defn = case.variant()
    reg = _registry(case.registry)
    listed = reg.variants.get(defn.name)
    assert listed is defn, f"{defn.name} is not listed by the registry (it lists: {', '.join(sorted(reg.variants))})"
    assert reg.get(defn.name) is defn, f"the registry does not find {defn.name} by its name"
    for alias in defn.aliases:
        assert reg.get(alias) is defn, f"the registry does not find {defn.name} by its alias {alias!r}"
    assert defn in reg.sorted(), f"{defn.name} is missing from the registry's listing"
    sets = defn.option_sets()
    assert sets and sets[0] == defn.resolve_options({}), "the first option set must be the defaults"
    for options in sets:
        try:
            defn.resolve_options(options)
            Game.new(Rules.of(defn, options), 0)
        except SolitaireError as exc:
            raise AssertionError(f"{defn.name} does not compile with {options}: {exc}") from None


def _deck(case: Case) -> None:
    """A deal holds the whole deck, every card once; the same seed deals the same game."""
    game = case.game(0)
    deck = game.rules.deck
    assert len(set(deck)) == len(deck), "rules.deck holds a card more than once (a copy must be its own card)"
    want = sorted(deck)
    for seed in DEAL_SEEDS:
        game = case.game(seed)
        dealt = _cards(game)
        assert dealt == want, f"seed {seed}: the deal does not hold the deck, {_deck_difference(dealt, want)}"
        for i, pile in enumerate(game.piles):
            assert 0 <= game.down[i] <= len(pile), f"seed {seed}: {game.rules.names[i]} has {game.down[i]} " \
                f"face-down cards of {len(pile)}"
        assert (game.score, game.moves, game.recycles, game.history) == (0, 0, 0, []), \
            f"seed {seed}: a new deal has a score, moves or a history"
        again = case.game(seed)
        assert again.to_position() == game.to_position(), f"seed {seed} deals two different games"


def _check_position(game: Game, deck: Sequence[int], where: str) -> None:
    assert _cards(game) == deck, f"{where}: the cards are not the deck, {_deck_difference(_cards(game), deck)}"
    for i, pile in enumerate(game.piles):
        assert 0 <= game.down[i] <= len(pile), f"{where}: {game.rules.names[i]} has {game.down[i]} " \
            f"face-down cards of {len(pile)}"


def _random_play(case: Case) -> None:
    """Random play (hypothesis) keeps every invariant: cards conserved, legal moves played,
    refusals change nothing, undo restores all but turned cards, push/pop exactly, redo."""
    from . import IllegalMoveError, Rules

    settings = _settings(case)  # first: says what to install when hypothesis is missing
    from hypothesis import given

    defn = case.variant()
    rules = Rules.of(defn, case.options)
    deck = sorted(rules.deck)
    count = rules.count

    def refused(game: Game, move: Move, legal: list[Move], where: str) -> None:
        if move in legal:
            return
        before = (game.to_position(), list(game.history), list(game.future))
        try:
            game.play(move)
        except IllegalMoveError:
            pass
        else:
            raise AssertionError(f"{where}: play accepted {move}, which legal_moves() does not list")
        assert (game.to_position(), game.history, game.future) == before, f"{where}: refusing {move} changed the game"

    @settings
    @given(*_walk_strategy())
    def walk(seed: int, steps: list[tuple[int, int]]) -> None:
        from . import Game

        game = Game.new(rules, seed)
        start = _state(game)
        for k, (kind, pick) in enumerate(steps):
            where = f"seed {seed}, step {k}"
            legal = game.legal_moves()
            assert len(set(legal)) == len(legal), f"{where}: legal_moves() lists a move twice: {legal}"
            for move in legal:
                reason = game.refusal(move)
                assert reason is None, f"{where}: legal_moves() lists {move} ({game.move_text(move)}), " \
                    f"which play refuses: {reason}"
            if kind >= 13:  # a random move that is not legal here
                n = pick // (count * count) % 14
                refused(game, (pick % count, pick // count % count, n), legal, where)
            elif kind == 12 and legal:  # push and pop: the exact inverse, face-down counts too
                move = legal[pick % len(legal)]
                snap, depth = game.snapshot(), len(game.history)
                game.push(move)
                _check_position(game, deck, f"{where}, after push {move}")
                assert game.pop() == move, f"{where}: pop did not take back {move}"
                assert (game.snapshot(), len(game.history)) == (snap, depth), \
                    f"{where}: push then pop of {move} did not restore the position exactly"
            elif kind >= 10 and game.history:  # undo, then (mostly) redo
                before_undo = _state(game)
                move = game.undo()
                _check_position(game, deck, f"{where}, after undo")
                if kind == 11:
                    record = game.redo()
                    assert record.move == game.move_text(move), f"{where}: redo played {record.move}, not {move}"
                    after = _state(game)
                    assert (after[0], after[1], after[3], after[4]) == (before_undo[0], before_undo[1],
                                                                        before_undo[3], before_undo[4]), \
                        f"{where}: redo of {move} did not replay it"
            elif legal:
                move = legal[pick % len(legal)]
                before = _state(game)
                record = game.play(move)
                after = _state(game)
                _check_position(game, deck, f"{where}, after {record.move}")
                assert game.future == [], f"{where}: a new move left moves to redo"
                assert game.undo() == move, f"{where}: undo did not take back {record.move}"
                piles, down, score, moves, recycles = _state(game)
                assert (piles, score, moves, recycles) == (before[0], before[2], before[3], before[4]), \
                    f"{where}: undo of {record.move} did not restore the position"
                assert all(d <= d0 for d, d0 in zip(down, before[1], strict=True)), \
                    f"{where}: undo of {record.move} hid a card again"
                redone = game.redo()
                assert (redone.move, redone.cards) == (record.move, record.cards), \
                    f"{where}: redo of {record.move} played {redone.move}"
                again = _state(game)
                assert (again[0], again[1], again[3], again[4]) == (after[0], after[1], after[3], after[4]), \
                    f"{where}: redo of {record.move} did not replay it"
                if record.turned is None:
                    assert again[2] == after[2], f"{where}: redo of {record.move} scored differently"
        # take every move back: the deal, but that turned cards stay up
        while game.history:
            game.undo()
        piles, down, score, moves, recycles = _state(game)
        assert (piles, score, moves, recycles) == (start[0], start[2], start[3], start[4]), \
            f"seed {seed}: undoing every move did not lead back to the deal"
        assert all(d <= d0 for d, d0 in zip(down, start[1], strict=True)), f"seed {seed}: undo hid a card again"

    walk()


def _same_position(defn: VariantDef, game: Game, where: str) -> None:
    from . import Game
    from .cards import FACE
    from .rules import shown_down
    from .view import Observation

    data = game.to_position()
    back = Game.from_position(defn, data)
    assert back.to_position() == data, f"{where}: the position does not round-trip through Game.from_position"
    faces = FACE.__getitem__  # two copies of a card are alike: a position names the card, not its copy
    assert [list(map(faces, p)) for p in back.piles] == [list(map(faces, p)) for p in game.piles] and \
        back.snapshot()[1:] == game.snapshot()[1:], f"{where}: Game.from_position gives another position"
    text = json.loads(json.dumps(data))
    assert Game.from_position(defn, text).to_position() == data, f"{where}: the position does not survive JSON"
    view = Observation.of(game)
    unseen = shown_down(game.rules, game.piles, game.down)  # face down, and an open stock under its top
    hidden = {c for pile, d in zip(game.piles, unseen, strict=True) for c in pile[:d]}
    shown = {c for up in view.up for c in up}
    assert not hidden & shown, f"{where}: the player's view shows a face-down card"
    assert view.down == tuple(unseen), f"{where}: the view's face-down counts are not the game's"
    assert view.up == tuple(tuple(p[d:]) for p, d in zip(game.piles, unseen, strict=True)), \
        f"{where}: the view's face-up cards are not the game's"
    seen = view.to_position()
    assert seen == game.to_position(hidden=True), f"{where}: the view's position is not the hidden position"
    assert all(c == "??" for pile in seen["piles"].values() for c in pile["down"]), \
        f"{where}: the view's position names a face-down card"
    again = Observation.from_position(defn, seen)
    assert (again.down, tuple(tuple(map(faces, up)) for up in again.up)) == (
        view.down, tuple(tuple(map(faces, up)) for up in view.up)), f"{where}: the view does not round-trip"


def _positions(case: Case) -> None:
    """Positions round-trip (after random play too); the player's view hides face-down cards."""
    settings = _settings(case)
    from hypothesis import given

    from . import Rules

    defn = case.variant()
    rules = Rules.of(defn, case.options)

    @settings
    @given(*_walk_strategy())
    def walk(seed: int, steps: list[tuple[int, int]]) -> None:
        from . import Game

        game = Game.new(rules, seed)
        _same_position(defn, game, f"seed {seed}, the deal")
        for k, (kind, pick) in enumerate(steps):
            legal = game.legal_moves()
            if kind == 0 and game.history:
                game.undo()
            elif legal:
                game.play(legal[pick % len(legal)])
            if k % 10 == 9:
                _same_position(defn, game, f"seed {seed}, step {k}")
        _same_position(defn, game, f"seed {seed}, after {len(steps)} steps")

    walk()


def _replay(case: Case, seed: int, moves: Sequence[str], where: str) -> None:
    from . import IllegalMoveError, NotationError

    game = case.game(seed)
    for k, text in enumerate(moves):
        try:
            game.play(text)
        except (IllegalMoveError, NotationError) as exc:
            raise AssertionError(f"{where}: the solver's move {k + 1}, {text!r}, is refused: {exc}") from None
    assert game.won, f"{where}: the solver's {len(moves)} moves do not win the game"


def _solver(case: Case) -> None:
    """The solver's wins replay, move by move, to a won game (a states budget, no clock)."""
    from .solver import UNKNOWN, UNWINNABLE, WIN, solve

    for seed in SOLVER_SEEDS:
        result = solve(case.game(seed), timeout=None, max_states=case.budget.states)
        assert result.result in (WIN, UNWINNABLE, UNKNOWN), f"seed {seed}: the solver answered {result.result!r}"
        if result.result == WIN:
            _replay(case, seed, result.moves, f"seed {seed}")
        else:
            assert result.moves == (), f"seed {seed}: the solver gave moves without a win"


def _pool(case: Case) -> None:
    """The first seeds of the pool shipped for these options are won again, within a budget."""
    from .shuffle import MAX_SEED
    from .solver import WIN, load_pool, pool_kit_states, pool_path, solve

    defn = case.variant()
    path = pool_path(defn, case.options or {})
    if path is None or not path.is_file():
        pytest.skip(f"{defn.name} ships no pool of won seeds for {case.slug}"
                    + (f" (no {path.parent.parent.name}/{path.parent.name}/{path.name} beside its YAML)"
                       if path is not None else ""))
    for number, line in enumerate(path.read_text().splitlines(), 1):
        word = line.split("#", 1)[0].strip()
        assert not word or (word.isdigit() and int(word) <= MAX_SEED), \
            f"{path}:{number}: {line.strip()!r} is not a seed"
    seeds = load_pool(path)
    assert seeds, f"{path}: the pool holds no seed"
    try:  # a game whose wins nearly all take more than the kit's budget says how many in its header
        states = max(case.budget.pool_states, pool_kit_states(path) or 0)
    except ValueError as error:
        raise AssertionError(str(error)) from None
    for seed in seeds[:case.budget.pool_seeds]:
        result = solve(case.game(seed), timeout=None, max_states=states)
        assert result.result == WIN, f"{path.name}: seed {seed} is not won again within " \
            f"{states} states (the solver says {result.result})"
        _replay(case, seed, result.moves, f"{path.name}: seed {seed}")


_CHECKS: dict[str, Callable[[Case], None]] = {
    "loads": _loads, "deck": _deck, "random_play": _random_play, "positions": _positions,
    "solver": _solver, "pool": _pool,
}


# --------------------------------------------------------------------------- the pytest plugin


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("solitaire", "solitaire's conformance kit for variants")
    group.addoption("--solitaire-variant", action="append", default=[], metavar="NAME",
                    help="run the conformance kit on this installed variant (repeat for more; 'all': every one)")
    group.addoption("--solitaire-examples", type=int, default=DEFAULT_BUDGET.examples, metavar="N",
                    help=f"hypothesis examples per random-play check (default {DEFAULT_BUDGET.examples})")
    group.addoption("--solitaire-states", type=int, default=DEFAULT_BUDGET.states, metavar="N",
                    help=f"the solver's states budget per seed (default {DEFAULT_BUDGET.states})")


class KitCollector(pytest.Collector):
    """The parent of the kit's tests (``solitaire-conformance::test_deck[NAME[default]]``)."""

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        return []  # the items are made in pytest_collection_modifyitems, from the options


class KitItem(pytest.Item):
    """One :class:`Case` as a pytest test."""

    def __init__(self, *, case: Case, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        self.case.run()

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"{COLLECTOR}::{self.name}"


def _names(given: list[str]) -> list[str]:
    from . import registry

    names: list[str] = []
    for name in given:
        if name.strip().lower() == "all":
            reg = registry()
            names += [d.name for d in reg.sorted()] + sorted({b.name for b in reg.broken})
        else:
            names.append(name)
    return list(dict.fromkeys(names))


@pytest.hookimpl(tryfirst=True)  # before -k and -m deselect, so they see the kit's tests
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    given: list[str] = config.getoption("solitaire_variant")
    if not given:
        return
    from .errors import UnknownVariantError

    examples, states = config.getoption("solitaire_examples"), config.getoption("solitaire_states")
    if examples < 1 or states < 1:
        raise pytest.UsageError("--solitaire-examples and --solitaire-states take a whole number of at least 1")
    budget = Budget(examples=examples, states=states)
    parent = KitCollector.from_parent(session, name=COLLECTOR, nodeid=COLLECTOR)
    made: list[pytest.Item] = []
    for name in _names(given):
        try:
            found = cases(name, budget)
        except UnknownVariantError as exc:
            raise pytest.UsageError(f"--solitaire-variant: {exc}") from None
        made += [KitItem.from_parent(parent, name=case.test_name, case=case) for case in found]
    # reported as collected, so that "collected N items" and the plugins that count them see them
    config.hook.pytest_collectreport(report=pytest.CollectReport(parent.nodeid, "passed", None, list(made)))
    items.extend(made)
