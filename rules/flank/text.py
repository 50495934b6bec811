"""The Flank table as monospace text, for the terminal and Discord code blocks."""

from __future__ import annotations

from collections.abc import Sequence

from rules.cells import cell_name, column_name, row_name
from rules.flank.state import MARKS, FlankView

EMPTY = "."
LEGAL = "+"
BARRED = "#"
"""An empty cell where the stopper zone forbids a card."""


def seat_name(view: FlankView, names: Sequence[str], seat: int) -> str:
    """The seat's display name, or its colour's when there is none."""
    return names[seat] if seat < len(names) else ("Black", "White")[view.colours[seat]]


def play_order(view: FlankView) -> tuple[int, int]:
    """The seats in the order they play: black (X, the first player) first."""
    first = view.first
    return first, 1 - first


def status_lines(view: FlankView, names: Sequence[str]) -> list[str]:
    """The lines under the board: both sides' counts (black first), the last move,
    whose turn or the result."""
    lines = []
    marks = [MARKS[colour] for colour in view.colours]
    for seat in play_order(view):
        line = (f"{marks[seat]} {seat_name(view, names, seat)}: {view.scores[seat]} showing, "
                f"{view.cards_left[seat]} cards left")
        if view.stoppers:
            line += f", {view.stoppers_left[seat]} stoppers"
        lines.append(line)
    if view.last_pass is not None:
        lines.append(f"Last: {marks[view.last_pass]} passed")
    elif view.last_move is not None:
        mover = view.cells[view.last_move][0]
        star = "*" if view.last_stopper else ""
        lines.append(f"Last: {MARKS[mover]} {cell_name(*view.last_move)}{star}, "
                     f"flipped {len(view.flipped)}")
    outcome = view.outcome
    if outcome is not None:
        if outcome.is_draw:
            lines.append(f"Game over: a draw, {view.scores[0]}–{view.scores[1]}")
        elif outcome.scores is None:
            winner = outcome.winners[0]
            lines.append(f"Game over: {marks[winner]} {seat_name(view, names, winner)} "
                         "wins by forfeit")
        else:
            winner = outcome.winners[0]
            lines.append(f"Game over: {marks[winner]} {seat_name(view, names, winner)} wins "
                         f"{view.scores[winner]}–{view.scores[1 - winner]}")
    elif view.to_move is not None:
        seat = view.to_move
        lines.append(f"To move: {marks[seat]} {seat_name(view, names, seat)}")
    return lines


def render_text(view: FlankView, names: Sequence[str]) -> str:
    """The table with coordinates on all sides, then the counts and whose turn it is.

    Cards show as X and O, a stoppered card in brackets ``[X]``, the last
    card laid in parentheses ``(X)``, legal cells for the seat to move as
    ``+``, cells where a stopper zone forbids a card as ``#`` and other empty
    cells as ``.``. Every line has the same width.

    >>> from rules.flank.state import FlankState
    >>> print(render_text(FlankState({"board": 4}, first=1).observe(None), ["Ada", "Bo"]))
    ... # doctest: +NORMALIZE_WHITESPACE
       A  B  C  D
    1  .  .  +  .  1
    2  .  X  O  +  2
    3  +  O  X  .  3
    4  .  +  .  .  4
       A  B  C  D
    X Bo: 2 showing, 6 cards left, 5 stoppers
    O Ada: 2 showing, 6 cards left, 5 stoppers
    To move: X Bo
    """
    x0, y0, x1, y1 = view.bounds
    labels = [row_name(y) for y in range(y0, y1 + 1)]
    width = max(len(label) for label in labels)
    columns = " " * (width + 1) + "".join(
        f"{column_name(x):^3}" for x in range(x0, x1 + 1)
    )
    lines = [columns]
    for y, label in zip(range(y0, y1 + 1), labels, strict=True):
        row = []
        for x in range(x0, x1 + 1):
            card = view.cells.get((x, y))
            if card is None:
                mark = LEGAL if (x, y) in view.legal else BARRED if (x, y) in view.barred \
                    else EMPTY
                row.append(f" {mark} ")
            else:
                colour, stoppered = card
                if stoppered:
                    row.append(f"[{MARKS[colour]}]")
                elif (x, y) == view.last_move:
                    row.append(f"({MARKS[colour]})")
                else:
                    row.append(f" {MARKS[colour]} ")
        lines.append(f"{label:>{width}} {''.join(row)} {label}")
    lines.append(columns)
    lines.extend(status_lines(view, names))
    full = max(len(line) for line in lines)
    return "\n".join(line.ljust(full) for line in lines)
