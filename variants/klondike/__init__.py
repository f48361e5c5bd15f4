"""Klondike: registered through the ``solitaire`` entry point, exactly as a third party would.

The whole game is ``klondike.yaml``; this module only tells the kernel where it is.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from solitaire.core import hookimpl

VARIANT_FILE = Path(__file__).with_name("klondike.yaml")


@hookimpl
def register_variants(register: Callable[[Any], None]) -> None:
    register(VARIANT_FILE)
