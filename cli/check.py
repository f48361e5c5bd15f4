"""``solitaire check FILE.yaml [FILE ...]``: every mistake in variant files, for their authors.

Each mistake is one line, ``file:line: key.path: message``: first everything the JSON Schema
finds (unknown keys, wrong types, unknown words), then the loader's own error for each option
set (see :func:`solitaire.core.schema.check_file`). Exit status 0 and ``FILE: ok`` for each
clean file, 1 when any file has a mistake. ``jsonschema`` is imported only here, when it runs.
"""

from __future__ import annotations

from pathlib import Path

import typer

from solitaire.core.i18n import N_


def check_command(
    files: list[Path] = typer.Argument(..., help=N_("The variant files to check."), metavar="FILE..."),
) -> None:
    """Report every mistake in variant YAML files (exit status 1 if there is any)."""
    from solitaire.core.schema import check_file

    bad = False
    for path in files:
        problems = check_file(path, str(path))
        if problems:
            bad = True
            for line in problems:
                print(line)
        else:
            print(f"{path}: ok")
    if bad:
        raise typer.Exit(1)
