"""Flank's table: the picture of the grid, the score and menus of legal cells."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import discord
from rich.console import RenderableType

from bot.games.flank.pictures import render_png
from bot.games.flank.terminal import flank_view
from bot.games.presenter import COLOUR, GamePresenter, seat_label, shown
from bot.i18n import Phrase, tr
from bot.matches.live import LiveMatch, PrivateView
from rules.core import Decision
from rules.flank import FlankView
from rules.flank.text import play_order

DISCS = ("⚫", "⚪")
"""Each colour's disc: black (the first player), white."""


class FlankPresenter(GamePresenter):
    """Flank: a PNG of the table with coordinates, stoppers and the last move."""

    def terminal(self, observation: Any, names: Sequence[str]) -> RenderableType:
        """The text view (:func:`~bot.games.flank.terminal.flank_view`)."""
        return flank_view(observation, names)

    def board(self, match: LiveMatch) -> tuple[discord.Embed, list[discord.File]]:
        assert match.state is not None
        view: FlankView = match.state.observe(None)
        names = list(match.names)
        black, white = play_order(view)
        title = tr("flank.table.title", black=f"{DISCS[0]} {seat_label(match, black)}",
                   white=f"{DISCS[1]} {seat_label(match, white)}")
        embed = discord.Embed(title=title, colour=COLOUR)
        for seat in (black, white):
            cards = Phrase("flank.count.cards", count=view.cards_left[seat])
            if view.stoppers:
                value = tr("flank.table.field_stoppers", showing=view.scores[seat], cards=cards,
                           stoppers=Phrase("flank.count.stoppers",
                                           count=view.stoppers_left[seat]))
            else:
                value = tr("flank.table.field", showing=view.scores[seat], cards=cards)
            embed.add_field(name=f"{DISCS[view.colours[seat]]} {shown(names[seat])}",
                            value=value)
        filename = f"flank-{match.id}-{view.step}.png"
        embed.set_image(url=f"attachment://{filename}")
        picture = discord.File(io.BytesIO(self.table_png(view, names)), filename=filename)
        return embed, [picture]

    def table_png(self, observation: Any, names: Sequence[str]) -> bytes:
        return render_png(observation, names)

    def menu_groups(self, match: LiveMatch, decision: Decision,
                    observation: object) -> list[tuple[str, list[tuple[str, str]]]]:
        cells = [(o, o) for o in decision.options if not o.endswith("*")]
        stoppered = [(tr("flank.menu.with_stopper", cell=o[:-1]), o)
                     for o in decision.options if o.endswith("*")]
        return [(tr("flank.menu.lay"), cells), (tr("flank.menu.lay_stopper"), stoppered)]

    def private_text(self, match: LiveMatch, view: PrivateView) -> str:
        obs: FlankView = view.observation
        text = tr("flank.private.no_hand")
        if obs.to_move == view.seat:
            cells = [o for o in (view.decision.options if view.decision else ())
                     if not o.endswith("*")]
            text += "\n" + tr("flank.private.your_turn", disc=DISCS[obs.colours[view.seat]],
                              cells=", ".join(cells))
        return text
