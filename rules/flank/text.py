"""The Flank table as monospace text, for the terminal and Discord code blocks: the grid
(notation, no words) and the lines under it (words: phrases made in each reader's
language by ``bot.i18n.say``)."""

from __future__ import annotations

from collections.abc import Sequence

from rules.cells import cell_name, column_name, row_name
from rules.flank.state import MARKS, FlankView
from rules.phrases import Phrase, Words

EMPTY = "."
LEGAL = "+"
BARRED = "#"
"""An empty cell where the stopper zone forbids a card."""


def seat_name(view: FlankView, names: Sequence[str], seat: int) -> Words:
    """The seat's display name, or its colour's when there is none."""
    if seat < len(names):
        return names[seat]
    return Phrase("flank.name.black") if view.colours[seat] == 0 else Phrase("flank.name.white")


def play_order(view: FlankView) -> tuple[int, int]:
    """The seats in the order they play: black (X, the first player) first."""
    first = view.first
    return first, 1 - first


def side_line(view: FlankView, names: Sequence[str], seat: int) -> Phrase:
    """A seat's counts: cards showing its colour, cards and stoppers left."""
    mark, who = MARKS[view.colours[seat]], seat_name(view, names, seat)
    cards = Phrase("flank.count.cards", count=view.cards_left[seat])
    if view.stoppers:
        return Phrase("flank.status.side_stoppers", mark=mark, who=who,
                      showing=view.scores[seat], cards=cards,
                      stoppers=Phrase("flank.count.stoppers", count=view.stoppers_left[seat]))
    return Phrase("flank.status.side", mark=mark, who=who, showing=view.scores[seat],
                  cards=cards)


def status_lines(view: FlankView, names: Sequence[str]) -> list[Phrase]:
    """The lines under the board: both sides' counts (black first), the last move,
    whose turn or the result."""
    lines = [side_line(view, names, seat) for seat in play_order(view)]
    marks = [MARKS[colour] for colour in view.colours]
    if view.last_pass is not None:
        lines.append(Phrase("flank.status.last_pass", mark=marks[view.last_pass]))
    elif view.last_move is not None:
        mover = view.cells[view.last_move][0]
        star = "*" if view.last_stopper else ""
        lines.append(Phrase("flank.status.last_move", mark=MARKS[mover],
                            move=f"{cell_name(*view.last_move)}{star}",
                            flipped=len(view.flipped)))
    outcome = view.outcome
    if outcome is not None:
        if outcome.is_draw:
            lines.append(Phrase("flank.status.draw", black=view.scores[0], white=view.scores[1]))
        else:
            winner = outcome.winners[0]
            who = {"mark": marks[winner], "who": seat_name(view, names, winner)}
            if outcome.scores is None:
                lines.append(Phrase("flank.status.forfeit", **who))
            else:
                lines.append(Phrase("flank.status.wins", **who, score=view.scores[winner],
                                    other=view.scores[1 - winner]))
    elif view.to_move is not None:
        seat = view.to_move
        lines.append(Phrase("flank.status.to_move", mark=marks[seat],
                            who=seat_name(view, names, seat)))
    return lines


def board_lines(view: FlankView) -> list[str]:
    """The grid with coordinates on all sides, every line as wide as the others.

    Cards show as X and O, a stoppered card in brackets ``[X]``, the last
    card laid in parentheses ``(X)``, legal cells for the seat to move as
    ``+``, cells where a stopper zone forbids a card as ``#`` and other empty
    cells as ``.``.

    >>> from rules.flank.state import FlankState
    >>> print("\\n".join(board_lines(FlankState({"board": 4}, first=1).observe(None))))
    ... # doctest: +NORMALIZE_WHITESPACE
       A  B  C  D
    1  .  .  +  .  1
    2  .  X  O  +  2
    3  +  O  X  .  3
    4  .  +  .  .  4
       A  B  C  D
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
    full = max(len(line) for line in lines)
    return [line.ljust(full) for line in lines]


def lines_said(lines: Sequence[Words]) -> Words:
    """Lines of words as one text, a line after another (``flank.lines``), so that a
    reader's language makes them all at once."""
    said: Words = lines[-1] if lines else ""
    for line in reversed(lines[:-1]):
        said = Phrase("flank.lines", first=line, rest=said)
    return said


def render_text(view: FlankView, names: Sequence[str]) -> Words:
    """The table with coordinates on all sides (:func:`board_lines`), then the counts
    and whose turn it is (:func:`status_lines`), as words (``bot.i18n.say`` makes them
    in a reader's language).

    >>> from rules.flank.state import FlankState
    >>> said = render_text(FlankState({"board": 4}, first=1).observe(None), ["Ada", "Bo"])
    >>> said.key
    'flank.lines'
    """
    return lines_said([*board_lines(view), *status_lines(view, names)])
