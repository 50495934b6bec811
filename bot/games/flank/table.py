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
        title = (f"Flank — {DISCS[0]} {seat_label(match, black)} vs "
                 f"{DISCS[1]} {seat_label(match, white)}")
        embed = discord.Embed(title=title, colour=COLOUR)
        for seat in (black, white):
            stoppers = f", {view.stoppers_left[seat]} stoppers" if view.stoppers else ""
            embed.add_field(name=f"{DISCS[view.colours[seat]]} {shown(names[seat])}",
                            value=f"**{view.scores[seat]}** on the table\n"
                                  f"{view.cards_left[seat]} cards{stoppers} left")
        filename = f"flank-{match.id}-{view.step}.png"
        embed.set_image(url=f"attachment://{filename}")
        picture = discord.File(io.BytesIO(self.table_png(view, names)), filename=filename)
        return embed, [picture]

    def table_png(self, observation: Any, names: Sequence[str]) -> bytes:
        return render_png(observation, names)

    def menu_groups(self, match: LiveMatch, decision: Decision,
                    observation: object) -> list[tuple[str, list[tuple[str, str]]]]:
        cells = [(o, o) for o in decision.options if not o.endswith("*")]
        stoppered = [(f"{o[:-1]} + stopper", o) for o in decision.options if o.endswith("*")]
        return [("Lay a card on…", cells), ("Lay a card and put a stopper on it…", stoppered)]

    def private_text(self, match: LiveMatch, view: PrivateView) -> str:
        obs: FlankView = view.observation
        text = "Flank has no hidden hand: everything is on the table."
        if obs.to_move == view.seat:
            cells = [o for o in (view.decision.options if view.decision else ())
                     if not o.endswith("*")]
            text += (f"\nIt is your turn ({DISCS[obs.colours[view.seat]]}). Legal cells: "
                     + ", ".join(cells))
        return text

