"""Random playouts of Flank: 2,000 seeded games that must finish without error
while every invariant of the rules holds after every move.

In half of the games the players reach for a stopper only one time in ten,
so that games with stoppers also run long. Every fifth game is also replayed
on a deliberately naive reference engine (a dict of cells walked square by
square, written from flank.md alone) that must agree with the bitboard engine
on the legal cells, the stoppers offered and the flips. Games are made as
matches are, so the first player is drawn from the seed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from rules.flank import FlankState, cell_name, parse_cell

GAMES = 2_000
CHECK_EVERY = 5
CONFIGS: list[dict[str, int | str]] = [
    {},  # the default game: unbounded, 25 cards, 5 stoppers, no stopper zone
    {"board": 8},
    {"stopper_zone": "ring"},  # the seed's literal rule 7
    {"board": 8, "stoppers": 0},
    {"stoppers": 1, "cards": 40},
    {"board": 6, "stoppers": 2, "stopper_zone": "orthogonal"},
    {"stopper_zone": "orthogonal"},
    {"board": 4, "stoppers": 1},
    {"stoppers": 0},
]
"""Nine kinds of game: with :data:`CHECK_EVERY` at 5, each kind meets the reference."""
ZONES = {
    "none": [],
    "orthogonal": [(1, 0), (-1, 0), (0, 1), (0, -1)],
    "ring": [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy],
}
DIRECTIONS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]

Cells = dict[tuple[int, int], tuple[int, bool]]


def reference_flips(cells: Mapping[tuple[int, int], tuple[int, bool]], board: int, zone: str,
                    colour: int, x: int, y: int) -> set[tuple[int, int]] | None:
    """The cards a card of ``colour`` on (x, y) would flip, or None if it may not go there."""
    if (x, y) in cells or (board and not (0 <= x < board and 0 <= y < board)):
        return None
    for dx, dy in ZONES[zone]:
        near = cells.get((x + dx, y + dy))
        if near is not None and near[1]:
            return None
    flips: set[tuple[int, int]] = set()
    for dx, dy in DIRECTIONS:
        run = []
        cx, cy = x + dx, y + dy
        while (cx, cy) in cells and cells[(cx, cy)] == (1 - colour, False):
            run.append((cx, cy))
            cx, cy = cx + dx, cy + dy
        if run and (cx, cy) in cells and cells[(cx, cy)][0] == colour:
            flips.update(run)
    return flips or None


def reference_legal(cells: Cells, board: int, zone: str, colour: int) -> set[tuple[int, int]]:
    candidates = {(x + dx, y + dy) for (x, y) in cells for dx, dy in DIRECTIONS}
    return {c for c in candidates if reference_flips(cells, board, zone, colour, *c) is not None}


def reference_stopper_allowed(cells: Cells, board: int, zone: str, colour: int,
                              their_cards: int, x: int, y: int) -> bool:
    """May a stopper go on a card of ``colour`` laid on the legal cell (x, y)?"""
    if zone != "none" or their_cards == 0:
        return True
    after = dict(cells)
    for cell in reference_flips(cells, board, zone, colour, x, y) or ():
        after[cell] = (colour, False)
    after[(x, y)] = (colour, True)
    return bool(reference_legal(after, board, zone, 1 - colour))


def check_game(options: dict[str, int | str], seed: int, reference: bool, shy: bool = False) -> int:
    state = FlankState.new(options, 2, seed)
    rng = random.Random(seed)
    board, zone = state.options.board, state.options.stopper_zone
    cards, stoppers = state.options.cards, state.options.stoppers
    extra = state.options.black_stoppers - stoppers
    view = state.observe(None)
    assert view.cards_left == (cards - 2, cards - 2)
    moves = 0
    while not state.over:
        (decision,) = state.pending()
        seat = decision.seat
        colour = view.colours[seat]
        assert seat == view.to_move
        plain = [o for o in decision.options if not o.endswith("*")]
        choice = rng.choice(plain if shy and rng.random() < 0.9 else decision.options)
        before: Cells = dict(view.cells)
        stoppered_before = {c: colour for c, (colour, stop) in before.items() if stop}
        if reference:
            legal = reference_legal(before, board, zone, colour) if view.cards_left[seat] \
                else set()
            assert {parse_cell(o.rstrip("*")) for o in decision.options if o != "pass"} == legal
            assert legal == set(view.legal)
            if view.stoppers_left[seat]:
                their_cards = view.cards_left[1 - seat]
                starred = {parse_cell(o[:-1]) for o in decision.options if o.endswith("*")}
                assert starred == {c for c in legal if reference_stopper_allowed(
                    before, board, zone, colour, their_cards, *c)}
        step = state.step
        state.apply(seat, choice)
        moves += 1
        view = state.observe(None)
        assert state.step == step + 1
        on_table = len(view.cells)
        stops_on_table = sum(stop for _, stop in view.cells.values())
        assert on_table + sum(view.cards_left) == 2 * cards
        assert stops_on_table + sum(view.stoppers_left) == 2 * stoppers + extra
        assert sum(view.scores) == on_table
        assert all(left >= 0 for left in view.cards_left + view.stoppers_left)
        # A stoppered card keeps its colour and its stopper for good.
        assert all(view.cells[c] == (colour, True) for c, colour in stoppered_before.items())
        if choice == "pass":
            assert view.cells == before
            continue
        x, y = parse_cell(choice.rstrip("*"))
        assert (x, y) not in before
        assert view.cells[(x, y)] == (colour, choice.endswith("*"))
        # No card is ever laid in the stopper zone of an earlier stopper.
        assert all((x - sx, y - sy) not in ZONES[zone] for sx, sy in stoppered_before)
        if zone == "none" and choice.endswith("*") and view.cards_left[1 - seat]:
            # The default: a stopper never leaves the opponent without a placement.
            assert state.pending()[0].options != ("pass",)
        if board:
            assert 0 <= x < board and 0 <= y < board
        flipped = {c for c in before if before[c][0] != view.cells[c][0]}
        assert flipped == set(view.flipped)
        assert all(view.cells[c][0] == colour for c in flipped)
        if reference:
            assert flipped == reference_flips(before, board, zone, colour, x, y)
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == view.scores
    seat0, seat1 = view.scores
    expected = (1, 1) if seat0 == seat1 else (1, 2) if seat0 > seat1 else (2, 1)
    assert outcome.places == expected
    assert view.to_move is None and not state.pending()
    passes = state.passes
    assert passes >= 2 or view.cards_left == (0, 0)
    return moves


@pytest.mark.slow
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
