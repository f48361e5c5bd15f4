"""Yukon for solitaire. The game is yukon.yaml; this module only tells solitaire where it is."""

from pathlib import Path

from solitaire.core import hookimpl


@hookimpl
def register_variants(register):
    register(Path(__file__).with_name("yukon.yaml"))
