"""Hammer & Nails at the local table: the game's own text view, with the order of a
tile's zones said where tiles are listed (a hand, a challenger's hand shown), so
that ``tile 3: red nail · hammer · blank · green nail`` can be pictured.

Built from a seat's observation only, as the text view is.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import RenderableType
from rich.text import Text

from rules.nails.state import NailsView
from rules.nails.text import outcome_text, render_text

ZONE_ORDER = {
    "square": "each tile's zones clockwise from the top-left",
    "octagon": "each tile's [centre], then its zones clockwise from the top",
}
"""How a tile's zones are listed, by the deck's tile shape (as ``tile_text`` lists them)."""
NOTES = ("A tile is listed zone by zone, clockwise from the top-left (an octagon: its "
         "[centre], then clockwise from the top); a placement's turn moves the first zone "
         "clockwise. picture hand saves a picture of your own tiles.")
"""What the local table's help adds for Hammer & Nails."""
LISTED = {"Your hand:": "Your hand ({order}):",
          "Shown to you (the challenger's hand):":
          "Shown to you (the challenger's hand; {order}):"}
"""The text view's headings of tile lists, and how they read with the zones' order."""


def nails_view(view: NailsView, names: Sequence[str]) -> RenderableType:
    """The text view, its lists of tiles headed with the order of a tile's zones; a
    finished game's verdict is left to the table's result, which says it once."""
    order = ZONE_ORDER.get(view.shape, ZONE_ORDER["square"])
    verdict = outcome_text(view, names)
    lines = [LISTED[line].format(order=order) if line in LISTED else line
             for line in render_text(view, names).split("\n") if line != verdict]
    return Text("\n".join(lines))
