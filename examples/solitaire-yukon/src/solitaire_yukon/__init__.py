"""Yukon for solitaire. The game is yukon.yaml; this module only tells solitaire where it is."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

from solitaire.core import hookimpl


@hookimpl
def register_variants(register: Callable[[Any], None]) -> None:
    register(Path(__file__).with_name("yukon.yaml"))
