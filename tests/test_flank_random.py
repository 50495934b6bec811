"""Random playouts of Flank: 2,000 seeded games that must finish without error
while every invariant of the rules holds after every move.

In half of the games the players reach for a stopper only one time in ten,
so that games with stoppers also run long. Every fifth game is also replayed
on a deliberately naive reference engine (a dict of cells walked square by
square, written from flank.md alone) that must agree with the bitboard engine
on the legal cells and the flips.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from rules.flank import FlankState, cell_name, parse_cell

GAMES = 2_000
CHECK_EVERY = 5
CONFIGS: list[dict[str, int]] = [
    {},  # the seed's game: unbounded, 25 cards, 5 stoppers
    {"board": 8},
    {"board": 6},
    {"board": 8, "stoppers": 0},
    {"stoppers": 1, "cards": 40},
    {"board": 6, "stoppers": 2},
    {"stoppers": 0},
    {"board": 4, "stoppers": 1},
]
DIRECTIONS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]

Cells = dict[tuple[int, int], tuple[int, bool]]


def reference_flips(cells: Mapping[tuple[int, int], tuple[int, bool]], board: int,
                    seat: int, x: int, y: int) -> set[tuple[int, int]] | None:
    """The cards a card of ``seat`` on (x, y) would flip, or None if it may not go there."""
    if (x, y) in cells or (board and not (0 <= x < board and 0 <= y < board)):
        return None
    for dx, dy in DIRECTIONS:
        near = cells.get((x + dx, y + dy))
        if near is not None and near[1]:
            return None
    flips: set[tuple[int, int]] = set()
    for dx, dy in DIRECTIONS:
        run = []
        cx, cy = x + dx, y + dy
        while (cx, cy) in cells and cells[(cx, cy)] == (1 - seat, False):
            run.append((cx, cy))
            cx, cy = cx + dx, cy + dy
        if run and (cx, cy) in cells and cells[(cx, cy)][0] == seat:
            flips.update(run)
    return flips or None


def reference_legal(cells: Cells, board: int, seat: int) -> set[tuple[int, int]]:
    candidates = {(x + dx, y + dy) for (x, y) in cells for dx, dy in DIRECTIONS}
    return {c for c in candidates if reference_flips(cells, board, seat, *c) is not None}


def check_game(options: dict[str, int], seed: int, reference: bool, shy: bool = False) -> int:
    state = FlankState.new(options, 2, seed)
    rng = random.Random(seed)
    board = state.options.board
    cards, stoppers = state.options.cards, state.options.stoppers
    view = state.observe(None)
    assert view.cards_left == (cards - 2, cards - 2)
    moves = 0
    while not state.over:
        (decision,) = state.pending()
        seat = decision.seat
        assert seat == view.to_move
        plain = [o for o in decision.options if not o.endswith("*")]
        choice = rng.choice(plain if shy and rng.random() < 0.9 else decision.options)
        before: Cells = dict(view.cells)
        stoppered_before = {c: colour for c, (colour, stop) in before.items() if stop}
        if reference:
            legal = reference_legal(before, board, seat) if view.cards_left[seat] else set()
            assert {parse_cell(o.rstrip("*")) for o in decision.options if o != "pass"} == legal
            assert legal == set(view.legal)
        step = state.step
        state.apply(seat, choice)
        moves += 1
        view = state.observe(None)
        assert state.step == step + 1
        on_table = len(view.cells)
        stops_on_table = sum(stop for _, stop in view.cells.values())
        assert on_table + sum(view.cards_left) == 2 * cards
        assert stops_on_table + sum(view.stoppers_left) == 2 * stoppers
        assert sum(view.scores) == on_table
        assert all(left >= 0 for left in view.cards_left + view.stoppers_left)
        # A stoppered card keeps its colour and its stopper for good.
        assert all(view.cells[c] == (colour, True) for c, colour in stoppered_before.items())
        if choice == "pass":
            assert view.cells == before
            continue
        x, y = parse_cell(choice.rstrip("*"))
        assert (x, y) not in before
        assert view.cells[(x, y)] == (seat, choice.endswith("*"))
        # No card is ever laid in the 8-neighbourhood of an earlier stopper.
        assert all(max(abs(x - sx), abs(y - sy)) > 1 for sx, sy in stoppered_before)
        if board:
            assert 0 <= x < board and 0 <= y < board
        flipped = {c for c in before if before[c][0] != view.cells[c][0]}
        assert flipped == set(view.flipped)
        assert all(view.cells[c][0] == seat for c in flipped)
        if reference:
            assert flipped == reference_flips(before, board, seat, x, y)
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == view.scores
    black, white = view.scores
    expected = (1, 1) if black == white else (1, 2) if black > white else (2, 1)
    assert outcome.places == expected
    assert view.to_move is None and not state.pending()
    passes = state.passes
    assert passes >= 2 or view.cards_left == (0, 0)
    return moves


@pytest.mark.parametrize("part", range(4))
def test_random_games_keep_every_invariant(part: int) -> None:
    moves = 0
    for game in range(part, GAMES, 4):
        options = CONFIGS[game % len(CONFIGS)]
        moves += check_game(options, seed=game, reference=game % CHECK_EVERY == 0,
                            shy=(game // len(CONFIGS)) % 2 == 1)
    assert moves > GAMES // 4


def test_names_of_far_cells_parse_back() -> None:
    # Random games reach negative cells; their names must read back.
    for x in range(-40, 40):
        for y in (-40, -1, 0, 39):
            assert parse_cell(cell_name(x, y)) == (x, y)
