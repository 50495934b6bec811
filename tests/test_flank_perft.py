"""Perft of Flank's move generator.

On the 8×8 board without stoppers Flank is classic Othello, so the number of
move sequences of each length from the standard start must equal the published
Othello perft figures: 4, 12, 56, 244, 1396, 8200, 55092, 390216 for depths
1–8. Sources: Aart Bik's Othello perft table
(https://www.aartbik.com/MISC/reversi.html) and OEIS A124004, "Number of
possible Reversi games at the end of the n-th ply"
(https://oeis.org/A124004). Both count a pass as a move, as Flank's perft does.

The fast perft runs on raw bitboards; here it is also checked against a perft
through the state's public API (pending decisions, copy, apply) on positions
with stoppers, growth of the unbounded table, passes and ends.
"""

from __future__ import annotations

import pytest

from rules.flank import FlankState
from rules.flank.perft import divide, main_perft, perft

OTHELLO = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216]


def api_perft(state: FlankState, depth: int) -> int:
    """Perft through the public API only: every option of every pending decision."""
    if depth == 0 or state.over:
        return 1
    total = 0
    for decision in state.pending():
        for choice in decision.options:
            child = state.copy()
            child.apply(decision.seat, choice)
            total += api_perft(child, depth - 1)
    return total


@pytest.mark.parametrize("depth", range(7))
def test_8x8_without_stoppers_matches_othello(depth: int) -> None:
    state = FlankState({"board": 8, "stoppers": 0}, first=0)
    assert perft(state, depth) == OTHELLO[depth]
    assert perft(state, depth, bulk=False) == OTHELLO[depth]


@pytest.mark.parametrize("seed", range(6))
def test_every_new_game_starts_from_the_othello_position_with_black_to_move(seed: int) -> None:
    # The first player is drawn from the seed, but always plays black from the standard start.
    state = FlankState.new({"board": 8, "stoppers": 0}, 2, seed)
    assert state.to_move == state.first
    text = state.notation()
    assert "rows=......../......../......../...XO.../...OX.../......../......../........" \
        in text and "move=X" in text
    assert [perft(state, d) for d in range(6)] == OTHELLO[:6]
    assert main_perft({"board": 8, "stoppers": 0}, 4) == OTHELLO[4]


def test_the_draw_puts_either_seat_first() -> None:
    assert {FlankState.new({"board": 8, "stoppers": 0}, 2, seed).first
            for seed in range(6)} == {0, 1}


def test_depths_7_and_8_match_othello() -> None:
    state = FlankState({"board": 8, "stoppers": 0}, first=0)
    assert perft(state, 7) == OTHELLO[7]
    assert perft(state, 8) == OTHELLO[8]


def test_depth_8_making_every_move() -> None:
    assert perft(FlankState({"board": 8, "stoppers": 0}, first=0), 8, bulk=False) == OTHELLO[8]


def test_the_public_api_agrees_on_the_othello_start() -> None:
    state = FlankState({"board": 8, "stoppers": 0}, first=0)
    assert [api_perft(state, d) for d in range(5)] == OTHELLO[:5]


@pytest.mark.parametrize(("notation", "depth"), [
    ("board=0", 4),                                  # the seed's game, with stoppers
    ("board=6 stoppers=2", 4),
    ("board=4 stoppers=1", 6),                       # fills the board: passes and ends
    ("board=0 stoppers=1 cards=4", 5),               # supplies run out
    ("board=0 stoppers=0 cards=25 at=-A-1 rows=O.../.XO./.OX. move=X", 4),  # grows past A1
    ("board=4 rows=OX../..../..../.... stoppers=0", 3),   # black must pass first
    ("board=4 rows=XX../..../..../....", 3),              # two passes end the game
    ("board=0 at=B2 rows=.OOx./.O.../X.... stop=2,1", 4),  # stoppered anchors and blocks
    ("board=0 stopper_zone=ring", 4),                # the seed's no-lay ring
    ("board=0 stopper_zone=orthogonal", 4),          # the 4 cells beside a stopper
    ("board=6 stopper_zone=ring stoppers=2", 4),
    ("board=0 rows=XO../...O", 3),                   # C1* would leave white without a move
    ("board=0 rows=XO../...O left=5,0", 3),          # ... unless white holds no cards
    ("board=0 first=1 at=C3 rows=.xo/OXX/XO. stop=3,2 move=O", 4),  # seat 1 plays X
])
def test_fast_perft_agrees_with_the_public_api(notation: str, depth: int) -> None:
    state = FlankState.from_notation(notation)
    expected = [api_perft(state, d) for d in range(depth + 1)]
    assert [perft(state, d) for d in range(depth + 1)] == expected
    assert [perft(state, d, bulk=False) for d in range(depth + 1)] == expected


def test_a_forced_pass_counts_as_a_move_and_a_finished_game_as_a_leaf() -> None:
    # Black has no placement; white has one (C1), after which black passes again.
    state = FlankState.from_notation("board=4 stoppers=0 rows=OX../..../..../....")
    assert state.pending()[0].options == ("pass",)
    assert perft(state, 1) == 1
    assert perft(state, 2) == 1
    # Neither side can move: pass, pass, and the game is over at any depth after.
    stuck = FlankState.from_notation("board=4 stoppers=0 rows=XX../..../..../....")
    assert [perft(stuck, d) for d in range(6)] == [1, 1, 1, 1, 1, 1]
    over = FlankState({"cards": 2}, first=0)
    assert over.over and perft(over, 5) == 1


def test_stopper_options_double_the_moves_unless_refused() -> None:
    assert perft(FlankState({"board": 8}, first=0), 1) == 8
    assert perft(FlankState(first=0), 1) == 8
    # C1 is black's only placement and a stopper on it would leave white no move.
    assert perft(FlankState.from_notation("rows=XO../...O"), 1) == 1
    assert perft(FlankState.from_notation("rows=XO../...O stopper_zone=ring"), 1) == 2


def test_divide_sums_to_perft() -> None:
    state = FlankState({"board": 8, "stoppers": 0}, first=0)
    split = divide(state, 4)
    assert set(split) == {"E3", "F4", "C5", "D6"}
    assert sum(split.values()) == OTHELLO[4]


def test_main_perft_reads_options_like_the_cli() -> None:
    assert main_perft({"board": "8", "stoppers": "0"}, 5) == OTHELLO[5]
