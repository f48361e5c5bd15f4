"""Re-record the example outputs in this folder from the installed ``solitaire`` command.

    python docs/examples/record.py

tests/test_docs.py replays every example and fails when the output changed; after a deliberate
change to the CLI, run this, read the diff (``git diff docs/examples``) and commit it with the
change. The commands run in this folder, with a throw-away data folder (``SOLITAIRE_HOME``), so
no saved game or statistic of yours is read or touched.

Transcripts (``*.txt``) start with ``$ solitaire ARGS``. Lines starting with ``> `` are the
input; for the line mode they are also part of the output (it echoes each command it reads),
for ``--json`` they sit before the reply they produced.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PROMPT = "> "
ENTRY = "import sys; from solitaire.cli.main import main; sys.exit(main(sys.argv[1:]))"

#: position files produced by a command: file name -> solitaire arguments
POSITIONS = {"deal-6.json": ["deal", "klondike", "--seed", "6", "--json"]}
#: transcripts whose input is re-run and output re-recorded
TRANSCRIPTS = ["protocol-session.txt", "endgame-finish.txt"]
#: example programs whose output is recorded: output file -> program
PROGRAMS = {"protocol-client.txt": "protocol_client.py"}


def format_json(data: dict[str, Any], expand: tuple[str, ...] = ("position", "piles"), indent: str = "") -> str:
    """JSON with one key a line, and the keys in ``expand`` opened the same way, so a position
    shows one pile a line: as exact as the one-line form, and readable."""
    inner = indent + "  "
    items = []
    for key, value in data.items():
        opened = key in expand and isinstance(value, dict)
        shown = format_json(value, expand, inner) if opened else json.dumps(value)
        items.append(f"{inner}{json.dumps(key)}: {shown}")
    return "{\n" + ",\n".join(items) + "\n" + indent + "}"


def parse_transcript(text: str) -> tuple[list[str], list[str], list[str]]:
    """(arguments, input lines, expected output lines) of a transcript."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("$ solitaire "):
        raise ValueError("a transcript starts with '$ solitaire ARGS'")
    args = shlex.split(lines[0][2:])[1:]
    body = lines[1:]
    inputs = [line[len(PROMPT):] for line in body if line.startswith(PROMPT)]
    output = [line for line in body if not line.startswith(PROMPT)] if "--json" in args else body
    return args, inputs, [line.rstrip() for line in output]


def run(args: list[str], stdin: str, home: str) -> str:
    env = {**os.environ, "SOLITAIRE_HOME": home, "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-c", ENTRY, *args], input=stdin, text=True,
                          capture_output=True, cwd=HERE, env=env, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"solitaire {shlex.join(args)} failed ({proc.returncode}): {proc.stderr}")
    return proc.stdout


def run_program(name: str) -> str:
    """Run an example program with this Python's ``solitaire`` first on PATH."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    proc = subprocess.run([sys.executable, name], text=True, capture_output=True, cwd=HERE,
                          env={**os.environ, "PATH": path}, check=False, timeout=120)
    if proc.returncode != 0:
        raise SystemExit(f"{name} failed ({proc.returncode}): {proc.stderr}")
    return proc.stdout


def record_transcript(path: Path, home: str) -> None:
    header = path.read_text(encoding="utf-8").splitlines()[0]
    args, inputs, _ = parse_transcript(path.read_text(encoding="utf-8"))
    out = run(args, "".join(line + "\n" for line in inputs), home).splitlines()
    lines = [header]
    if "--json" in args:
        lines.append(out[0])  # the starting state
        for command, reply in zip(inputs, out[1:], strict=False):  # a last command may get no reply
            lines += [PROMPT + command, reply]
    else:
        lines += [line.rstrip() for line in out]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    with tempfile.TemporaryDirectory() as home:
        for name, args in POSITIONS.items():
            (HERE / name).write_text(format_json(json.loads(run(args, "", home))) + "\n", encoding="utf-8")
        for name in TRANSCRIPTS:
            record_transcript(HERE / name, home)
        for name, program in PROGRAMS.items():
            (HERE / name).write_text(run_program(program), encoding="utf-8")
        session = (HERE / "protocol-session.txt").read_text(encoding="utf-8").splitlines()
        first = json.loads(session[1])
        (HERE / "protocol-reply.json").write_text(format_json(first) + "\n", encoding="utf-8")
    print("recorded; review with: git diff docs/examples")


if __name__ == "__main__":
    main()
