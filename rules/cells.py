"""Cell names on an unbounded grid table (Flank's cells, Hammer & Nails' zones).

Columns are letters (A … Z, AA, AB …) and rows are numbers growing downward,
row 1 at the top. The unbounded table may grow up and left past A1; those
cells mirror the names without a zero: columns … -B, -A, A, B … and rows
… -2, -1, 1, 2 …. Index 0 is column A / row 1, index -1 is column -A / row -1.
"""

from __future__ import annotations

import re
from functools import cache

from rules.errors import MalformedChoice, shown

_CELL = re.compile(r"(-?)([A-Z]{1,3})(-?)([1-9][0-9]{0,4})")


def column_name(x: int) -> str:
    """The name of column index ``x``.

    >>> [column_name(i) for i in (0, 2, 25, 26, 51, 52, 701, 702)]
    ['A', 'C', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']
    >>> [column_name(i) for i in (-1, -2, -26, -27)]
    ['-A', '-B', '-Z', '-AA']
    """
    if x < 0:
        return "-" + column_name(-x - 1)
    letters = ""
    n = x + 1
    while n:
        n, r = divmod(n - 1, 26)
        letters = chr(65 + r) + letters
    return letters


def row_name(y: int) -> str:
    """The name of row index ``y``: row 1 is index 0, row -1 is index -1.

    >>> [row_name(i) for i in (0, 7, -1, -2)]
    ['1', '8', '-1', '-2']
    """
    return str(y + 1) if y >= 0 else str(y)


@cache
def cell_name(x: int, y: int) -> str:
    """The name of the cell at column ``x``, row ``y``.

    >>> cell_name(2, 3), cell_name(26, 0), cell_name(-1, -1), cell_name(-2, 4)
    ('C4', 'AA1', '-A-1', '-B5')
    """
    return column_name(x) + row_name(y)


def _column_index(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - 64)
    return n - 1


def parse_cell(text: str) -> tuple[int, int]:
    """The ``(x, y)`` of a cell name; case and surrounding spaces do not matter.

    >>> parse_cell("C4"), parse_cell(" aa1 "), parse_cell("-A-1"), parse_cell("-b5")
    ((2, 3), (26, 0), (-1, -1), (-2, 4))
    >>> all(parse_cell(cell_name(x, y)) == (x, y) for x in range(-30, 30) for y in (-3, 0, 9))
    True
    >>> parse_cell("44")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rules.errors.MalformedChoice: '44' is not a cell: write a column letter and a row number, ...
    """
    found = _CELL.fullmatch(text.strip().upper()) if isinstance(text, str) else None
    if found is None:
        raise MalformedChoice(
            f"{shown(text)} is not a cell: write a column letter and a row number, e.g. C4"
        )
    col_minus, letters, row_minus, digits = found.groups()
    x = _column_index(letters)
    y = int(digits) - 1
    return (-x - 1 if col_minus else x), (-y - 1 if row_minus else y)
