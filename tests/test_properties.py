"""Property tests: random legal games of Klondike (draw 1/3, redeals, relaxed) keep every invariant.

The kernel is checked against a small reference model of the issue's rules written here from
scratch (legal moves, and what a move does to the cards, the score and the counters), and
against itself (legal_moves vs refusal, push/pop, undo, positions).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solitaire.core import Game, IllegalMoveError, Rules, SolitaireError, get_variant
from solitaire.core.cards import COLOUR, DECK_SIZE, RANK, SUIT
from solitaire.core.hints import simple_hint

KLONDIKE = get_variant("klondike")
RULES = Rules.of(KLONDIKE, {})
IDX = RULES.index
STOCK, WASTE = IDX["stock"], IDX["waste"]
FOUNDATIONS = [IDX[f"f{k}"] for k in range(1, 5)]
TABLEAU = [IDX[f"t{k}"] for k in range(1, 8)]
PILE_COUNT = RULES.count

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

options_st = st.fixed_dictionaries({
    "draw": st.sampled_from([1, 3]),
    "redeals": st.sampled_from([None, 0, 1, 2]),
    "relaxed": st.booleans(),
})
seed_st = st.integers(0, 2**32)
# each number picks one of the legal moves (modulo their count): shrinks towards the first move
walk_st = st.lists(st.integers(0, 1000), min_size=30, max_size=150)


# ---------------------------------------------------------------------------- the reference model


def fits_tableau(piles: Sequence[Sequence[int]], card: int, t: int) -> bool:
    pile = piles[t]
    if not pile:
        return RANK[card] == 13
    top = pile[-1]
    return RANK[top] == RANK[card] + 1 and COLOUR[top] != COLOUR[card]


def fits_foundation(piles: Sequence[Sequence[int]], card: int, f: int) -> bool:
    pile = piles[f]
    if not pile:
        return RANK[card] == 1
    top = pile[-1]
    return SUIT[top] == SUIT[card] and RANK[card] == RANK[top] + 1


def reference_moves(game: Game) -> set[tuple[int, int, int]]:
    """The legal moves by the issue's rules, computed naively."""
    piles, down = game.piles, game.down
    options = game.rules.options
    out = set()
    if piles[WASTE]:
        card = piles[WASTE][-1]
        out |= {(WASTE, f, 1) for f in FOUNDATIONS if fits_foundation(piles, card, f)}
        out |= {(WASTE, t, 1) for t in TABLEAU if fits_tableau(piles, card, t)}
    for s in TABLEAU:
        pile = piles[s]
        for n in range(1, len(pile) - down[s] + 1):
            run = pile[-n:]
            if any(not (RANK[a] == RANK[b] + 1 and COLOUR[a] != COLOUR[b]) for a, b in itertools.pairwise(run)):
                break
            out |= {(s, t, n) for t in TABLEAU if t != s and fits_tableau(piles, run[0], t)}
            if n == 1:
                out |= {(s, f, 1) for f in FOUNDATIONS if fits_foundation(piles, run[0], f)}
    if options["relaxed"]:
        for f in FOUNDATIONS:
            if piles[f]:
                out |= {(f, t, 1) for t in TABLEAU if fits_tableau(piles, piles[f][-1], t)}
    redeals = options["redeals"]
    if piles[STOCK] or (piles[WASTE] and (redeals is None or game.recycles < redeals)):
        out.add((STOCK, WASTE, 0))
    return out


def reference_after(game: Game, move: tuple[int, int, int]) -> tuple[Any, ...]:
    """(piles, down, score, moves, recycles) after ``move``, by the issue's rules and scoring."""
    piles = [list(p) for p in game.piles]
    down = list(game.down)
    score, recycles = game.score, game.recycles
    src, dst, n = move
    if n == 0:
        if piles[STOCK]:
            for _ in range(min(game.rules.options["draw"], len(piles[STOCK]))):
                piles[WASTE].append(piles[STOCK].pop())
        else:
            piles[STOCK] = piles[WASTE][::-1]
            piles[WASTE] = []
            recycles += 1
            score -= 20 if game.rules.options["draw"] == 3 else 0
        down[STOCK] = len(piles[STOCK])
    else:
        moved = piles[src][-n:]
        del piles[src][-n:]
        piles[dst].extend(moved)
        if dst in FOUNDATIONS:
            score += 10
        if src == WASTE and dst in TABLEAU:
            score += 5
        if src in FOUNDATIONS:
            score -= 15
        if src in TABLEAU and piles[src] and down[src] == len(piles[src]):
            down[src] -= 1
            score += 5
    return (tuple(map(tuple, piles)), tuple(down), max(score, 0), game.moves + 1, recycles)


# ---------------------------------------------------------------------------- helpers


def state(game: Game) -> tuple[Any, ...]:
    return (tuple(map(tuple, game.piles)), tuple(game.down), game.score, game.moves, game.recycles)


def full_state(game: Game) -> tuple[Any, ...]:
    return (*state(game), tuple(game.history), tuple(game.future))


def check_invariants(game: Game) -> None:
    cards = sorted(c for p in game.piles for c in p)
    assert cards == list(range(DECK_SIZE)), "every card exactly once"
    assert game.down[STOCK] == len(game.piles[STOCK]), "the stock is face down"
    for i in [*FOUNDATIONS, WASTE]:
        assert game.down[i] == 0
    for t in TABLEAU:
        assert 0 <= game.down[t] <= len(game.piles[t])
        if game.piles[t]:
            assert game.down[t] < len(game.piles[t]), "a non-empty column ends face up"
    for f in FOUNDATIONS:
        pile = game.piles[f]
        assert [RANK[c] for c in pile] == list(range(1, len(pile) + 1))
        assert len({SUIT[c] for c in pile}) <= 1
    assert game.score >= 0
    assert game.won == all(len(game.piles[f]) == 13 for f in FOUNDATIONS)


def walk(game: Game, picks: list[int]):
    """A random legal game: yield the next legal move (the caller plays it)."""
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            return
        yield moves[pick % len(moves)]


# ---------------------------------------------------------------------------- properties


@SETTINGS
@given(options=options_st, seed=seed_st, picks=walk_st)
def test_random_games_follow_the_reference_rules_and_keep_every_invariant(options, seed, picks):
    game = Game.new(Rules.of(KLONDIKE, options), seed)
    check_invariants(game)
    for count, move in enumerate(walk(game, picks), start=1):
        legal = game.legal_moves()
        assert len(legal) == len(set(legal)), "no move listed twice"
        assert set(legal) == reference_moves(game)
        if RULES.draw_move in legal:
            assert legal[-1] == RULES.draw_move, "the stock's action comes last"
        expected = reference_after(game, move)
        game.play(move)
        assert state(game) == expected
        assert game.moves == count
        check_invariants(game)


@SETTINGS
@given(options=options_st, seed=seed_st, picks=walk_st)
def test_push_then_pop_restores_the_exact_state(options, seed, picks):
    game = Game.new(Rules.of(KLONDIKE, options), seed)
    for step in walk(game, picks):
        before = full_state(game)
        for move in game.legal_moves():
            game.push(move)
            check_invariants(game)
            assert game.pop() == move
            assert full_state(game) == before
        game.play(step)


@SETTINGS
@given(options=options_st, seed=seed_st, picks=walk_st, undo_every=st.integers(1, 4))
def test_undo_restores_the_prior_state_except_that_turned_cards_stay_up(options, seed, picks, undo_every):
    game = Game.new(Rules.of(KLONDIKE, options), seed)
    start = state(game)
    for k, move in enumerate(walk(game, picks)):
        if k % undo_every:
            game.play(move)
            continue
        piles, down, score, moves, recycles = state(game)
        record = game.play(move)
        after = state(game)
        assert game.undo() == move
        piles2, down2, score2, moves2, recycles2 = state(game)
        assert (piles2, score2, moves2, recycles2) == (piles, score, moves, recycles)
        turned = [i for i in range(PILE_COUNT) if down2[i] != down[i]]
        if record.turned is None:
            assert turned == []
        else:
            assert turned == [move[0]] and down2[move[0]] == down[move[0]] - 1
        redone = game.redo()
        assert redone.move == record.move and redone.cards == record.cards
        assert state(game)[:2] == after[:2]  # the same cards, the same face-down counts
        assert state(game)[3:] == after[3:]
        assert game.score == after[2] - (5 if record.turned else 0)  # a card is turned up only once
    # every move taken back: the start, except cards turned up stay up
    while game.history:
        game.undo()
    piles, down, score, moves, recycles = state(game)
    assert (piles, score, moves, recycles) == (start[0], 0, 0, 0)
    assert all(d <= d0 for d, d0 in zip(down, start[1], strict=True))  # one per pile
    check_invariants(game)


@SETTINGS
@given(options=options_st, seed=seed_st, picks=walk_st,
       tries=st.lists(st.tuples(st.integers(0, PILE_COUNT - 1), st.integers(0, PILE_COUNT - 1),
                                st.integers(-1, 14)), min_size=1, max_size=20))
def test_a_refused_move_changes_nothing_and_legal_moves_agree_with_refusal(options, seed, picks, tries):
    game = Game.new(Rules.of(KLONDIKE, options), seed)
    for step in walk(game, picks):
        legal = set(game.legal_moves())
        for move in legal:
            assert game.refusal(move) is None
        for move in tries:
            reason = game.refusal(move)
            assert (reason is None) == (move in legal), (move, reason)
            if reason is None:
                continue
            assert isinstance(reason, str) and reason and "\n" not in reason
            before = full_state(game)
            try:
                game.play(move)
            except IllegalMoveError as exc:
                assert str(exc) == reason
            else:
                raise AssertionError(f"{move} was refused ({reason}) but play accepted it")
            assert full_state(game) == before
        game.play(step)


@settings(max_examples=25, deadline=None)
@given(options=options_st, seed=seed_st, picks=st.lists(st.integers(0, 1000), max_size=60))
def test_legal_moves_agree_with_refusal_over_every_move(options, seed, picks):
    game = Game.new(Rules.of(KLONDIKE, options), seed)
    for step in walk(game, [*picks, 0]):
        legal = set(game.legal_moves())
        for s in range(PILE_COUNT):
            most = len(game.piles[s]) - game.down[s] + 1
            for d in range(PILE_COUNT):
                for n in range(0, most + 1):
                    assert (game.refusal((s, d, n)) is None) == ((s, d, n) in legal), (s, d, n)
        game.play(step)


NOTATION_WORDS = ["t1", "t2", "t3", "t7", "T4", "w", "waste", "f", "f1", "F3", "stock", "draw", "s", "undo",
                  "0", "1", "2", "3", "10", "13", "99", "-1", "x", "10h", "", "²", "??", "t0", "f5"]


@SETTINGS
@given(options=options_st, seed=seed_st, picks=walk_st,
       texts=st.lists(st.one_of(st.lists(st.sampled_from(NOTATION_WORDS), max_size=4).map(" ".join),
                                st.text(max_size=20)), min_size=1, max_size=10))
def test_random_text_is_a_legal_move_or_a_refusal_that_changes_nothing(options, seed, picks, texts):
    game = Game.new(Rules.of(KLONDIKE, options), seed)
    for step in walk(game, picks):
        for text in texts:
            before = full_state(game)
            legal = set(game.legal_moves())
            probe = game.copy()
            try:
                record = probe.play(text)
            except SolitaireError as exc:
                assert str(exc) and "\n" not in str(exc)
                with_game = None
                try:
                    game.play(text)
                except SolitaireError as again:
                    with_game = str(again)
                assert with_game == str(exc)
                assert full_state(game) == before
            else:
                assert game.parse_move(text) in legal
                assert record.move == game.move_text(game.parse_move(text))
        game.play(step)


@SETTINGS
@given(options=options_st, seed=seed_st, picks=walk_st)
def test_a_position_round_trips_after_every_move(options, seed, picks):
    game = Game.new(Rules.of(KLONDIKE, options), seed)
    for step in walk(game, [*picks, 0]):
        data = game.to_position()
        again = Game.from_position(KLONDIKE, json.loads(json.dumps(data)))
        assert again.to_position() == data
        assert state(again) == state(game)
        assert sorted(again.legal_moves()) == sorted(game.legal_moves())
        hidden = game.to_position(hidden=True)
        assert sum(p["down"].count("??") for p in hidden["piles"].values()) == sum(game.down)
        assert all(p["up"] == data["piles"][name]["up"] for name, p in hidden["piles"].items())
        game.play(step)


@SETTINGS
@given(options=options_st, seed=seed_st, picks=walk_st)
def test_hints_and_notation_of_legal_moves(options, seed, picks):
    game = Game.new(Rules.of(KLONDIKE, options), seed)
    for step in walk(game, picks):
        legal = game.legal_moves()
        hint = simple_hint(game)
        assert hint is None or hint in legal
        if hint is not None:
            assert hint[0] not in FOUNDATIONS, "a hint never takes a card back from a foundation"
        for move in legal:
            assert game.parse_move(game.move_text(move)) == move
        game.play(step)
