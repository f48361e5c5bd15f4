"""What a variant may tell the solver: the ``solver_knowledge`` hook's answer, typed.

A variant's plugin gives the knowledge (see :func:`solitaire.core.hookspecs.solver_knowledge`);
the one plugin registry (:meth:`solitaire.core.plugins.Registry.knowledge`) keeps which
plugin registered which variant and asks that plugin only. Each method is optional, so each
is a small protocol of its own; :class:`Knowledge` holds the ones an object has, checked
once per rules, so the search never looks them up again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import attrs

if TYPE_CHECKING:
    from ..game import Game, Move
    from ..rules import Rules


@attrs.frozen
class SearchOutcome:
    """What a variant's own search (``search`` in the knowledge) found: ``result`` is "win"
    (with ``moves``, kernel moves that win; replayed before they are believed),
    "unwinnable" (no line wins: a proof) or "unknown" (the budget ran out); ``states``: the
    positions it stored."""

    result: str
    moves: tuple[Move, ...] = ()
    states: int = 0


@runtime_checkable
class SafeHome(Protocol):
    def safe_home(self, game: Game, move: Move) -> bool:
        """True when this move to a foundation can never lose a won game."""


@runtime_checkable
class Priority(Protocol):
    def priority(self, game: Game, move: Move) -> int:
        """A bonus for ordering the moves tried (higher first)."""


@runtime_checkable
class Key(Protocol):
    def key(self, game: Game) -> bytes:
        """The transposition key: equal only for equally winnable positions."""


@runtime_checkable
class Dead(Protocol):
    def dead(self, game: Game) -> bool:
        """True only when the position can never be won."""


@runtime_checkable
class Heuristic(Protocol):
    def heuristic(self, game: Game) -> int:
        """The best-first pass's estimate (lower is expanded first)."""


@runtime_checkable
class Prune(Protocol):
    def prune(self, game: Game, move: Move) -> bool:
        """True to skip the move in the greedy passes (need not be sound)."""


@runtime_checkable
class OwnSearch(Protocol):
    def search(self, game: Game, deadline: float, max_states: int) -> SearchOutcome:
        """The variant's own full search, given ``search_share`` of the budget. A search
        that also takes a keyword ``max_work`` (an int, or None for no bound) is passed a
        hint's bound on its work (:func:`takes_work`): the positions it may reach, a count."""


def takes_work(search: Callable[..., object]) -> bool:
    """Whether a variant's own search takes the keyword ``max_work`` (by name, or through
    ``**kwargs``); read once from its signature, False when it has none to read."""
    import inspect

    try:
        parameters = inspect.signature(search).parameters.values()
    except (TypeError, ValueError):  # a callable with no signature to read
        return False
    return any(p.kind is p.VAR_KEYWORD or (p.name == "max_work" and p.kind is not p.POSITIONAL_ONLY)
               for p in parameters)


@runtime_checkable
class OwnEngine(Protocol):
    def engine(self) -> str:
        """Where the variant's own search runs, in a few words (its plugin may compile it):
        said in ``solve --json``'s ``engine_reason``."""


def own_engine(obj: object) -> str:
    """Where a knowledge object's own search runs (:class:`OwnEngine`), or "Python"; a
    method that raises or answers no text gives "Python" too."""
    if isinstance(obj, OwnEngine):
        try:
            where = obj.engine()
        except Exception:  # a third party's hook: its failure only loses the note
            return "Python"
        if isinstance(where, str) and where.strip():
            return where.strip().splitlines()[0][:120]
    return "Python"


SolverKnowledge = SafeHome | Priority | Key | Dead | Heuristic | Prune | OwnSearch | OwnEngine
"""Any object with one or more of the methods above (the hook's answer)."""


def _share(value: object) -> float:
    if type(value) in (int, float) and 0 < value <= 1:  # type: ignore[operator]
        return float(value)  # type: ignore[arg-type]
    return 0.5


@attrs.frozen
class Knowledge:
    """The methods a knowledge object has (None where it has none), and its search's share."""

    safe_home: Callable[[Game, Move], bool] | None = None
    priority: Callable[[Game, Move], int] | None = None
    key: Callable[[Game], bytes] | None = None
    dead: Callable[[Game], bool] | None = None
    heuristic: Callable[[Game], int] | None = None
    prune: Callable[[Game, Move], bool] | None = None
    search: Callable[..., SearchOutcome] | None = None
    search_share: float = 0.5  # of the budget for ``search``; the generic portfolio has the rest (none at 1)
    search_work: bool = False  # ``search`` takes the keyword ``max_work`` (:func:`takes_work`)
    given: bool = False  # an object was given (even one with none of the methods)

    @classmethod
    def of(cls, obj: object) -> Knowledge:
        """What ``obj`` offers; ``None`` offers nothing."""
        if obj is None:
            return cls()
        return cls(
            safe_home=obj.safe_home if isinstance(obj, SafeHome) else None,
            priority=obj.priority if isinstance(obj, Priority) else None,
            key=obj.key if isinstance(obj, Key) else None,
            dead=obj.dead if isinstance(obj, Dead) else None,
            heuristic=obj.heuristic if isinstance(obj, Heuristic) else None,
            prune=obj.prune if isinstance(obj, Prune) else None,
            search=obj.search if isinstance(obj, OwnSearch) else None,
            search_share=_share(getattr(obj, "search_share", 0.5)),
            search_work=isinstance(obj, OwnSearch) and takes_work(obj.search),
            given=True,
        )


def variant_knowledge(rules: Rules) -> object | None:
    """What the plugin that registered these rules' variant knows for the solver (its
    ``solver_knowledge`` hook's answer), or None; through the one plugin registry."""
    from ..plugins import registry

    answer: object | None = registry().knowledge(rules)
    return answer
