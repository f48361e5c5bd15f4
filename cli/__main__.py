"""``python -m solitaire.cli``: the same as the ``solitaire`` command."""

import sys

from .main import main

sys.exit(main())
