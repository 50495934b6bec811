"""The duel's table and DM as text within Discord's limits."""

from __future__ import annotations

from typing import Any

import discord

from bot.live import LiveMatch, PrivateView
from bot.presenters.base import COLOUR, GamePresenter, seat_label, shown_names
from rules.duel.state import DuelView
from rules.duel.text import now_lines, player_lines, render_text
from rules.words import clip

FIELD = 1024
"""Longest embed field value."""
BOARD = 4200
"""Characters the players' fields share, so that the embed (narration and
footer included) stays inside Discord's 6,000."""


class DuelPresenter(GamePresenter):
    """Text tables for Arcane Duel."""

    private_title = "your hand"

    def board(self, match: LiveMatch) -> tuple[discord.Embed, list[discord.File]]:
        """Each player's life, counts and permanents; the stack and the attack."""
        assert match.state is not None
        view: DuelView = match.state.observe(None)
        embed = discord.Embed(title=f"{match.info.title} — turn {view.turn}", colour=COLOUR)
        names = shown_names(match.names)
        share = min(FIELD, BOARD // (len(match.seats) + 1))
        for seat in range(len(match.seats)):
            embed.add_field(name=clip(seat_label(match, seat), 256),
                            value=clip("\n".join(player_lines(view, seat, names)), share),
                            inline=False)
        now = now_lines(view, names)
        if now:
            embed.add_field(name="Now", value=clip("\n".join(now), share), inline=False)
        return embed, []

    def private_text(self, match: LiveMatch, view: PrivateView) -> str:
        """The whole table as the seat sees it, with its hand."""
        observation: Any = view.observation
        return render_text(observation, shown_names(view.names))
