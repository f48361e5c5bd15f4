"""Calculation (also called Hopscotch): registered through the ``solitaire`` entry point.

The whole game is ``calculation.yaml``; this module only tells the kernel where it is.
"""

from __future__ import annotations

from pathlib import Path

from solitaire.core import hookimpl

VARIANT_FILE = Path(__file__).with_name("calculation.yaml")


@hookimpl
def register_variants(register):
    register(VARIANT_FILE)
