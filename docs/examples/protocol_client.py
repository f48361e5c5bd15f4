"""A program that plays Klondike through the JSON protocol: it asks for a hint and plays it.

    python protocol_client.py

It starts ``solitaire play klondike --seed 6 --json``, then for each turn sends ``hint``,
reads the reply, and sends the suggested move, until there is no hint, the game is won, or
40 moves are made. Its games are kept in a folder of their own (``SOLITAIRE_HOME``), apart
from your saved game and statistics.
"""

import json
import os
import subprocess
import tempfile
from typing import Any


def play(home: str) -> None:
    game = subprocess.Popen(
        ["solitaire", "play", "klondike", "--seed", "6", "--json"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
        env={**os.environ, "SOLITAIRE_HOME": home},
    )

    replies, commands = game.stdout, game.stdin
    assert replies is not None and commands is not None  # both are pipes

    def send(command: str) -> Any:
        """Send one command; return the one reply line, parsed."""
        commands.write(command + "\n")
        return json.loads(replies.readline())

    state = json.loads(replies.readline())  # the starting state comes first
    while not state["won"] and state["moves"] < 40:
        move = send("hint")["hint"]
        if move is None:
            break
        state = send(move)
        assert state["ok"], state["error"]
        print(f"{move:8} score {state['score']:3}  moves {state['moves']}")
    send("quit")
    game.wait()
    print("won" if state["won"] else "stopped", "with score", state["score"])


with tempfile.TemporaryDirectory(prefix="solitaire-bot-") as home:
    play(home)
