"""The Pyramid family: registered through the ``solitaire`` entry point, exactly as a third
party would.

Each game is one YAML file of this folder (``pyramid.yaml`` ...); this
module only tells the kernel where they are.
"""

from __future__ import annotations

from solitaire.core import variants_in_folder

register_variants = variants_in_folder(__file__)
