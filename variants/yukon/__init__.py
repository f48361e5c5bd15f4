"""The Yukon family's built-in games (Russian Solitaire): registered through the ``solitaire``
entry point, exactly as a third party would. Yukon itself is the example plugin's
(examples/solitaire-yukon).

Each game is one YAML file of this folder; this module only tells the kernel where they are.
"""

from __future__ import annotations

from solitaire.core import variants_in_folder

register_variants = variants_in_folder(__file__)
