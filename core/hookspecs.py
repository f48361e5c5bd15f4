"""pluggy hook specifications: how variants (built-in and third-party) reach solitaire.

A plugin is a module (or object) named by an entry point in the group ``solitaire``::

    [project.entry-points.solitaire]
    yukon = "solitaire_yukon"

and implements one or more hooks with ``@solitaire.core.hookimpl``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

PROJECT = "solitaire"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def register_variants(register: Callable[[Any], None]) -> None:
    """Register variants by calling ``register(definition)`` once for each.

    ``definition`` is the path of a YAML variant file (``str`` or ``pathlib.Path``), YAML
    text is not accepted, or an already loaded :class:`solitaire.core.VariantDef`. Taking a
    callback rather than returning a list lets this hook grow keyword arguments later.
    """


@hookspec(firstresult=True)
def solver_knowledge(rules: Any) -> Any:
    """What a variant knows that helps the solver, for these compiled rules, or ``None``.

    The solver works from the rules' tables alone. The plugin registry asks a plugin's
    hook only for the variants that plugin registered (once per compiled rules), so it needs
    no check of ``rules.name`` unless it registers several. It may return an object with any
    of these optional methods (each a protocol in :mod:`solitaire.core.solver.knowledge`):

    * ``safe_home(game, move) -> bool``: True when the move to a foundation can never lose
      a won game, so the solver plays it at once without trying anything else;
    * ``priority(game, move) -> int``: a bonus for ordering the moves tried (higher first);
    * ``key(game) -> bytes``: the transposition key, replacing the generic one; two positions
      reachable in one search with equal keys must be equally winnable (e.g. cards that no
      rule tells apart keyed alike);
    * ``dead(game) -> bool``: True only when the position can never be won; every pass
      abandons it at once;
    * ``heuristic(game) -> int``: the best-first pass's estimate (lower is expanded first);
    * ``prune(game, move) -> bool``: True to skip a move in the greedy passes only (the exact
      search never asks), so it may be a rule of thumb.
    * ``search(game, deadline, max_states) -> SearchOutcome``: the variant's own full search,
      used instead of the generic one: "win" with moves that win (replayed before they are
      believed), "unwinnable" only when no line wins (a proof), "unknown" when ``deadline``
      (``time.perf_counter()``, ``math.inf`` for none) or ``max_states`` ran out; with the
      positions it stored (:class:`solitaire.core.solver.SearchOutcome`).

    Answers must be sound for ``unwinnable`` to stay a proof: ``safe_home`` and ``dead`` only
    when true, ``key`` only for equally winnable positions. A hook that raises is recorded
    among the broken plugins (``Registry.broken``) and the solver goes on without knowledge.
    """


def variants_in_folder(module_file: str) -> Callable[[Callable[[Any], None]], None]:
    """A ``register_variants`` hook registering every ``*.yaml`` file of the folder of
    ``module_file``, in name order: what a plugin package of YAML games needs, in one line
    (``register_variants = variants_in_folder(__file__)`` in its ``__init__.py``)."""
    from pathlib import Path

    files = sorted(Path(module_file).parent.glob("*.yaml"))

    @hookimpl
    def register_variants(register: Callable[[Any], None]) -> None:
        for path in files:
            register(path)

    return register_variants
