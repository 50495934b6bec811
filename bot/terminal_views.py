"""The games that the local table shows in :mod:`rich` tables rather than in their
own words (``GameInfo.text``): one line per game in :data:`TERMINAL_VIEWS`.

A view is built from a seat's observation only, so it shows what that seat may see.
:mod:`rules` stays free of :mod:`rich`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import RenderableType

from bot.live import LiveMatch

TerminalView = Callable[[Any, Sequence[str]], RenderableType]
"""A game's view for the terminal: (observation, player names) → renderable."""

TERMINAL_VIEWS = {
    "duel": "bot.duel_terminal:duel_view",
}
"""Game name → ``module:function`` of its rich view."""


def terminal_view(game: str) -> TerminalView | None:
    """The game's rich view, or ``None`` for a game shown in its own words."""
    where = TERMINAL_VIEWS.get(game)
    if where is None:
        return None
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name)


def rich_view(match: LiveMatch, seat: int | None) -> RenderableType | None:
    """The game's rich view for one seat (``None``: the table), if it has one."""
    render = terminal_view(match.info.name)
    if render is None or match.state is None:
        return None
    return render(match.state.observe(seat), list(match.names))
