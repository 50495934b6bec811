"""/flank place: lay a card by its cell name."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import WrongPhase
from bot.replies import send

if TYPE_CHECKING:
    from bot.client import CroupierBot


class FlankCog(commands.GroupCog, group_name="flank", group_description="Play Flank."):
    """Flank moves typed as cell names."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="place", description="Lay a card on a cell, e.g. C4.")
    @app_commands.describe(cell="The cell, e.g. C4 (see the edges of the picture)",
                           stopper="Also put one of your stoppers on the card")
    @app_commands.guild_only()
    async def place(self, interaction: discord.Interaction,
                    cell: app_commands.Range[str, 1, 8], stopper: bool = False) -> None:
        match = self.bot.service.match_in(interaction.channel_id)
        if match.info.name != "flank":
            raise WrongPhase(f"The game in this channel is {match.info.title}, not Flank.")
        # "C4*" typed with stopper:true still means one stopper.
        choice = cell.strip().rstrip("*") + "*" if stopper else cell.strip()
        ack = await self.bot.service.submit(interaction.user.id, match.id, choice,
                                            interaction_id=str(interaction.id))
        await send(interaction, self.bot.presenters.acknowledge(ack))


async def setup(bot: CroupierBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(FlankCog(bot))
