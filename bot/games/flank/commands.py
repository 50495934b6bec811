"""/flank place: lay a card by its cell name."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord_parts.replies import send
from bot.discord_parts.views import croupier
from bot.games.presenter import channel_match
from rules.flank import GAME
from rules.flank.notation import lay_choice


class FlankCommands(app_commands.Group, name="flank", description="Play Flank.",
                    guild_only=True):
    """Flank moves typed as cell names."""

    @app_commands.command(name="place", description="Lay a card on a cell, e.g. C4.")
    @app_commands.describe(cell="The cell, e.g. C4 (see the edges of the picture)",
                           stopper="Also put one of your stoppers on the card")
    async def place(self, interaction: discord.Interaction,
                    cell: app_commands.Range[str, 1, 8], stopper: bool = False) -> None:
        """Lay a card."""
        bot = croupier(interaction)
        match = channel_match(interaction, GAME)
        ack = await bot.service.submit(interaction.user.id, match.id, lay_choice(cell, stopper),
                                       interaction_id=str(interaction.id))
        await send(interaction, bot.presenters.acknowledge(ack))
