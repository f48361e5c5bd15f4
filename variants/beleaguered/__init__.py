"""Beleaguered Castle, Streets and Alleys and Fortress: registered through the ``solitaire`` entry point,
exactly as a third party would.

Each game is one YAML file of this folder; this module only tells the kernel where they are.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from solitaire.core import hookimpl

VARIANT_FILES = sorted(Path(__file__).parent.glob("*.yaml"))


@hookimpl
def register_variants(register: Callable[[Any], None]) -> None:
    for path in VARIANT_FILES:
        register(path)
