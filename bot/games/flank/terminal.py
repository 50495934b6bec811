"""Flank at the local table: the game's own text view in the locale spoken, except that a
finished game's board leaves its verdict to the table's result, which says it once."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from rich.console import RenderableType
from rich.text import Text

from bot.i18n import say
from rules.flank.state import FlankView
from rules.flank.text import render_text


def flank_view(view: FlankView, names: Sequence[str]) -> RenderableType:
    """The board and the counts; while the game goes on, whose turn it is."""
    if view.outcome is not None:
        view = dataclasses.replace(view, outcome=None, to_move=None)
    return Text(say(render_text(view, names)))
