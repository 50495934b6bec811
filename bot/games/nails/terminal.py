"""Hammer & Nails at the local table: the game's own text view, with the order of a
tile's zones said where tiles are listed (a hand, a challenger's hand shown), so
that ``tile 3: red nail · hammer · blank · green nail`` can be pictured; every word
in the locale being spoken.

Built from a seat's observation only, as the text view is.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import RenderableType
from rich.text import Text

from bot.i18n import say
from rules.nails.state import NailsView
from rules.nails.text import view_lines


def nails_view(view: NailsView, names: Sequence[str]) -> RenderableType:
    """The text view, its lists of tiles headed with the order of a tile's zones; a
    finished game's verdict is left to the table's result, which says it once."""
    lines = view_lines(view, names, zones_order=True, verdict=False)
    return Text("\n".join(say(line, names=names) for line in lines))
