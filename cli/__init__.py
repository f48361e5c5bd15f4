"""The ``solitaire`` command-line interface (typer)."""
