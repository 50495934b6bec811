"""Flank's choices as typed: a cell (``C4``), a cell with a stopper (``C4*``), ``pass``."""

from __future__ import annotations

STOPPER_MARK = "*"


def lay_choice(cell: str, stopper: bool = False) -> str:
    """The choice for laying a card on ``cell``, with a stopper if asked (a cell
    already typed with the mark still means one stopper).

    >>> lay_choice(" c4 "), lay_choice("C4", stopper=True), lay_choice("C4*", stopper=True)
    ('c4', 'C4*', 'C4*')
    """
    text = cell.strip()
    return text.rstrip(STOPPER_MARK) + STOPPER_MARK if stopper else text
