"""Fuzzing the JSON protocol and the line mode: random mixes of legal moves, illegal moves and
hostile lines (markup, deep JSON, huge numbers, control characters, bad bytes, overlong lines),
checked against a model of Klondike written here from the issue's rules (it never asks the
kernel what is legal, or what a move does).

The state machine drives the real :func:`solitaire.cli.protocol.run_json` (one run per line,
over a byte stream as ``sys.stdin`` is, on one session) and checks that every non-blank line
gets exactly one reply, that a refusal changes nothing, that an accepted move does what the
model says, and that no face-down card is ever named in a reply. In the end the whole stream
is played again in one run, which must answer it line for line the same. The budget is
bounded for CI (``FUZZ_EXAMPLES`` and ``FUZZ_STEPS`` raise it; ``benchmarks/fuzz_protocol.py``
runs it longer).
"""

from __future__ import annotations

import io
import itertools
import json
import os
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from solitaire.cli.linemode import run_lines
from solitaire.cli.protocol import run_json
from solitaire.core import Game, Rules, get_variant
from solitaire.core.limits import MAX_LINE_BYTES

KLONDIKE = get_variant("klondike")
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "20"))
STEPS = int(os.environ.get("FUZZ_STEPS", "40"))

# ---------------------------------------------------------------------------- the model

RANKS = "A23456789TJQK"
FOUNDATIONS = ["f1", "f2", "f3", "f4"]
TABLEAU = [f"t{k}" for k in range(1, 8)]
PILES = ["stock", "waste", *FOUNDATIONS, *TABLEAU]
DRAW = ("stock", "waste", 0)
Move = tuple[str, str, int]


def rank(card: str) -> int:
    return RANKS.index(card[0]) + 1


def red(card: str) -> bool:
    return card[1] in "DH"


def on_tableau(card: str, pile: list[str]) -> bool:
    if not pile:
        return rank(card) == 13
    return rank(pile[-1]) == rank(card) + 1 and red(pile[-1]) != red(card)


def on_foundation(card: str, pile: list[str]) -> bool:
    if not pile:
        return rank(card) == 1
    return pile[-1][1] == card[1] and rank(card) == rank(pile[-1]) + 1


class Klondike:
    """The game by the issue's rules, on card names: piles bottom to top, face-down counts,
    score (+10 to a foundation, +5 waste to tableau, +5 a card turned up, -15 foundation to
    tableau, -20 a redeal in draw 3, never below 0), moves, redeals used, and the undo stack
    (undo takes a move back, except that a card it turned up stays face up)."""

    def __init__(self, position: dict[str, Any]) -> None:
        options = position["options"]
        self.draw, self.redeals, self.relaxed = options["draw"], options["redeals"], options["relaxed"]
        self.piles = {n: list(p["down"]) + list(p["up"]) for n, p in position["piles"].items()}
        self.down = {n: len(p["down"]) for n, p in position["piles"].items()}
        self.score, self.moves, self.recycles = position["score"], position["moves"], position["recycles"]
        self.undo_stack: list[tuple[dict[str, list[str]], int, int, int]] = []

    def legal(self) -> set[Move]:
        piles, out = self.piles, set()
        if piles["waste"]:
            card = piles["waste"][-1]
            out |= {("waste", f, 1) for f in FOUNDATIONS if on_foundation(card, piles[f])}
            out |= {("waste", t, 1) for t in TABLEAU if on_tableau(card, piles[t])}
        for s in TABLEAU:
            pile = piles[s]
            for n in range(1, len(pile) - self.down[s] + 1):
                run = pile[-n:]
                if any(not (rank(a) == rank(b) + 1 and red(a) != red(b)) for a, b in itertools.pairwise(run)):
                    break
                out |= {(s, t, n) for t in TABLEAU if t != s and on_tableau(run[0], piles[t])}
                if n == 1:
                    out |= {(s, f, 1) for f in FOUNDATIONS if on_foundation(run[0], piles[f])}
        if self.relaxed:
            for f in FOUNDATIONS:
                if piles[f]:
                    out |= {(f, t, 1) for t in TABLEAU if on_tableau(piles[f][-1], piles[t])}
        if piles["stock"] or (piles["waste"] and (self.redeals is None or self.recycles < self.redeals)):
            out.add(DRAW)
        return out

    @property
    def won(self) -> bool:
        return all(len(self.piles[f]) == 13 for f in FOUNDATIONS)

    def play(self, move: Move) -> None:
        self.undo_stack.append(({n: list(p) for n, p in self.piles.items()}, self.score, self.moves, self.recycles))
        piles = self.piles
        src, dst, n = move
        if move == DRAW:
            if piles["stock"]:
                for _ in range(min(self.draw, len(piles["stock"]))):
                    piles["waste"].append(piles["stock"].pop())
            else:
                piles["stock"], piles["waste"] = piles["waste"][::-1], []
                self.recycles += 1
                self.score -= 20 if self.draw == 3 else 0
        else:
            piles[dst].extend(piles[src][-n:])
            del piles[src][-n:]
            self.score += 10 if dst in FOUNDATIONS else 0
            self.score += 5 if src == "waste" and dst in TABLEAU else 0
            self.score -= 15 if src in FOUNDATIONS else 0
            if src in TABLEAU and piles[src] and self.down[src] == len(piles[src]):
                self.down[src] -= 1
                self.score += 5
        self.down["stock"] = len(piles["stock"])
        self.score = max(self.score, 0)
        self.moves += 1

    def undo(self) -> None:
        piles, self.score, self.moves, self.recycles = self.undo_stack.pop()
        self.piles = piles
        self.down["stock"] = len(piles["stock"])  # elsewhere a card turned up stays up

    def hidden(self) -> dict[str, Any]:
        return {n: {"down": ["??"] * self.down[n], "up": self.piles[n][self.down[n]:]} for n in PILES}

    def face_down(self) -> set[str]:
        return {card for n in PILES for card in self.piles[n][:self.down[n]]}

    def reading(self, text: str) -> Move | str | None:
        """What a typed line means: a move the model finds legal, "undo", or None (refused).
        Only the plain notation the machine types is read here (pile names, ``w``, a count,
        ``draw``/``s``, any case and spacing); anything else is None."""
        words = text.lower().split()
        if self.won:
            return None  # a win is final: every command is refused but hint, help and quit
        if words in (["draw"], ["s"]):
            return DRAW if DRAW in self.legal() else None
        if words == ["undo"]:
            return "undo" if self.undo_stack else None
        if len(words) not in (2, 3):
            return None
        src, dst = ("waste" if w == "w" else w for w in words[:2])
        if src not in PILES or dst not in PILES or src == "stock":
            return None
        fits = [m for m in self.legal() if m[:2] == (src, dst) and m != DRAW]
        if len(words) == 3:
            if not re.fullmatch(r"[0-9]+", words[2]):
                return None
            fits = [m for m in fits if m[2] == int(words[2])]
        return fits[0] if len(fits) == 1 else None


# ---------------------------------------------------------------------------- hostile lines

BAD_CHARS = [c for c in "[]{}<>/\\:;'\"`|&$#@!%^*=+~,\x00\x01\x07\x08\x1b\x7f\u200b\u202e\ufeff\ufffdé𝔱🂡ｆ"
             if not c.isspace()]
markup = st.sampled_from(["[/]", "t1 [/x]", "[bold]t7 f1[/bold]", "[link=file:///etc/passwd]x[/link]",
                          ":smile: draw", "t7 :joy:", "[red]draw", "\\[/]", "[/]" * 500])
deep_json = st.integers(1, 4_900).map(lambda n: "[" * n + "]" * n) | st.integers(1, 3_000).map(
    lambda n: '{"a":' * n + "1" + "}" * n)
huge_numbers = st.sampled_from(["9" * 5000, "t7 t3 " + "9" * 5000, "t1 t2 " + "1" * 4301, "1e99999",
                                "t1 t2 -1", "t1 t2 0", "t1 t2 1.5", "t1 t2 0x10", "t1 t2 ²", "t1 t2 ３"])
# control characters that are not whitespace (a line split on those would be the move 't7 f1')
controls = st.text(st.characters(max_codepoint=0x9F, categories=["Cc"],
                                 exclude_characters="\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85"),
                   min_size=1, max_size=20).map(lambda s: "t7" + s + " f1")
random_text = st.tuples(st.text(max_size=40), st.sampled_from(BAD_CHARS), st.text(max_size=40)).map(
    lambda p: (p[0] + p[1] + p[2]).replace("\n", " ").replace("\r", " "))
hostile_text = st.one_of(markup, deep_json, huge_numbers, controls, random_text)
bad_bytes = st.sampled_from([b"\xff", b"t7 f1\xff", b"\xc3", b"\xc3(", b"\xe2\x82", b"\xed\xa0\x80", b"\x80draw",
                             b"\xf4\x90\x80\x80", b"t1 \xe9"])
overlong = st.integers(MAX_LINE_BYTES + 1, 3 * MAX_LINE_BYTES).map(lambda n: b"t" * n)


def one_run(game: Game, session: Any, data: bytes) -> list[dict[str, Any]]:
    """``data`` through the real protocol, as a process's stdin would carry it."""
    from solitaire.cli.session import Session

    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    out = io.StringIO()
    run_json(game, stdin, out, session if session is not None else Session(game))
    return [json.loads(line) for line in out.getvalue().splitlines()]


class ProtocolMachine(RuleBasedStateMachine):
    game: Game
    model: Klondike

    @initialize(seed=st.integers(0, 2**32), draw=st.sampled_from([1, 3]),
                redeals=st.sampled_from([None, 0, 1, 2]), relaxed=st.booleans())
    def deal(self, seed: int, draw: int, redeals: int | None, relaxed: bool) -> None:
        from solitaire.cli.session import Session

        self.options = {"draw": draw, "redeals": redeals, "relaxed": relaxed}
        self.seed = seed
        self.game = Game.new(Rules.of(KLONDIKE, self.options), seed)
        self.session = Session(self.game)
        self.model = Klondike(self.game.to_position())  # the deal itself: every card's place
        self.sent: list[bytes] = []
        self.answers: list[dict[str, Any]] = []
        self.last: dict[str, Any] | None = None

    # -- sending one line and checking its reply

    def send(self, line: bytes, expect: Move | str | None) -> None:
        """Send ``line``; ``expect`` is the model's reading: a move, "undo", "help", "blank",
        or None for a refusal."""
        assert b"\n" not in line
        replies = one_run(self.game, self.session, line + b"\n")
        self.sent.append(line)
        start, *rest = replies
        if self.last is not None:
            assert start == {**self.last, "ok": True, "error": None}  # the state the last reply left
        if expect == "blank":
            assert rest == []
            return
        assert len(rest) == 1, f"{len(rest)} replies to one line"
        reply = rest[0]
        self.answers.append(reply)
        before = self.model.hidden(), self.model.score, self.model.moves
        if expect is None:
            assert reply["ok"] is False, (line, reply)
            assert isinstance(reply["error"], str) and reply["error"] and "\n" not in reply["error"]
            assert len(reply["error"]) <= 300
            assert (reply["position"]["piles"], reply["score"], reply["moves"]) == before  # nothing changed
        else:
            assert reply["ok"] is True, (line, reply)
            assert reply["error"] is None
            if expect == "undo":
                self.model.undo()
            elif expect != "help":
                self.model.play(expect)  # type: ignore[arg-type]
        self.check(reply, line)
        self.last = {k: v for k, v in reply.items() if k != "hint"}

    def check(self, reply: dict[str, Any], line: bytes) -> None:
        model = self.model
        assert set(reply) == {"ok", "error", "position", "score", "moves", "won", "over"}
        assert reply["position"]["piles"] == model.hidden()
        assert (reply["score"], reply["moves"], reply["position"]["recycles"]) == (
            model.score, model.moves, model.recycles)
        assert reply["won"] == model.won
        assert reply["over"] == (not model.legal())
        typed = line.decode("utf-8", "replace").upper()
        for card in model.face_down():  # never named, unless the line itself named it
            if card not in typed:
                assert not re.search(rf"\b{card}\b", json.dumps(reply)), card

    # -- the rules

    @precondition(lambda self: bool(self.model.legal()) and not self.model.won)
    @rule(data=st.data())
    def legal_move(self, data: st.DataObject) -> None:
        move = data.draw(st.sampled_from(sorted(self.model.legal())))
        if move == DRAW:
            text = data.draw(st.sampled_from(["draw", "s", "DRAW", "  Draw  "]))
        else:
            src, dst, n = move
            src = "w" if src == "waste" and data.draw(st.booleans()) else src
            unique = len([m for m in self.model.legal() if m[:2] == move[:2]]) == 1
            count = f" {n}" if not unique or data.draw(st.booleans()) else ""
            text = f"{src} {dst}{count}"
            text = data.draw(st.sampled_from([text, text.upper(), "  " + text.replace(" ", "   ") + " \t"]))
        self.send(text.encode(), self.model.reading(text))
        assert self.last is not None and self.last["ok"]

    @rule(src=st.sampled_from([*PILES, "w", "t", "f", "t0", "t8", "f5", "x"]),
          dst=st.sampled_from([*PILES, "w", "t0", "t8", "f5", "x"]), count=st.none() | st.integers(0, 60))
    def any_move(self, src: str, dst: str, count: int | None) -> None:
        """A move of the notation's shape, legal or not: the model says which."""
        text = f"{src} {dst}" + ("" if count is None else f" {count}")
        self.send(text.encode(), self.model.reading(text))

    @rule(word=st.sampled_from(["draw", "s", "undo"]))
    def command(self, word: str) -> None:
        self.send(word.encode(), self.model.reading(word))

    @rule()
    def help(self) -> None:
        self.send(b"help", "help")

    @rule(text=st.sampled_from(["", " ", "\t", "   \t  ", "\x0b", "\x0c", "\u3000", "\x1c\x1d"]))
    def blank(self, text: str) -> None:
        self.send(text.encode(), "blank")

    @rule(text=hostile_text)
    def hostile(self, text: str) -> None:
        self.send(text.encode("utf-8", "surrogatepass"), None)

    @rule(data=st.one_of(bad_bytes, overlong))
    def bad_line(self, data: bytes) -> None:
        self.send(data, None)

    @invariant()
    def every_card_once(self) -> None:
        if hasattr(self, "model"):
            cards = sorted(c for p in self.model.piles.values() for c in p)
            assert len(cards) == 52 and len(set(cards)) == 52

    def teardown(self) -> None:
        """The whole stream in one run, on a fresh deal: the same replies, line for line."""
        if not hasattr(self, "sent"):
            return
        game = Game.new(Rules.of(KLONDIKE, self.options), self.seed)
        replies = one_run(game, None, b"".join(line + b"\n" for line in self.sent))
        assert replies[1:] == self.answers


ProtocolMachine.TestCase.settings = settings(
    max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
TestProtocol = ProtocolMachine.TestCase


# ---------------------------------------------------------------------------- the line mode

line_st = st.one_of(
    st.sampled_from(["t7 f1", "t7 f", "draw", "s", "undo", "w t1", "t1 t7", "help", "", "   "]),
    st.tuples(st.sampled_from(PILES), st.sampled_from(PILES)).map(" ".join),
    hostile_text.map(lambda s: s.encode("utf-8", "surrogatepass")),
    bad_bytes, overlong,
).map(lambda x: x if isinstance(x, bytes) else x.encode())


@settings(max_examples=EXAMPLES * 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), lines=st.lists(line_st, min_size=1, max_size=STEPS))
def test_the_line_mode_answers_every_line_as_the_protocol_does(seed: int, lines: list[bytes]) -> None:
    """The same stream through the line mode and the protocol: each line echoed once (bounded),
    a ``refused:`` for each refusal of the protocol, and the same game in the end."""
    data = b"".join(line + b"\n" for line in lines)
    by_json = Game.new(Rules.of(KLONDIKE, {}), seed)
    replies = one_run(by_json, None, data)[1:]
    by_lines = Game.new(Rules.of(KLONDIKE, {}), seed)
    out = io.StringIO()
    run_lines(by_lines, io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"), out)
    text = out.getvalue()
    printed = text.splitlines()
    echoes = [line for line in printed if line.startswith(">")]
    assert len(echoes) == len(lines)
    assert max(len(line) for line in echoes) <= 2 + 60 * 10 + 3  # 60 characters, even all escaped
    assert sum(line.startswith("refused: ") for line in printed) == sum(not r["ok"] for r in replies)
    assert by_lines.to_position() == by_json.to_position()
    assert not any(c in text for c in "\x1b\x07\x00\u202e")
