"""The built-in variants. Each registers through the ``solitaire`` entry-point group."""
