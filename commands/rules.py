"""/rules: each game's rules, privately."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.replies import send
from commands.lobby import game_names
from rules.core import get_game

if TYPE_CHECKING:
    from bot.client import CroupierBot


class RulesCog(commands.Cog):
    """How to play."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="How to play a game.")
    @app_commands.autocomplete(game=game_names)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        info = get_game(game)
        embed = discord.Embed(title=f"How to play {info.title}",
                              description=info.rules_text[:4096],
                              colour=discord.Colour.dark_green())
        if info.options_help:
            embed.add_field(name="Options", value="\n".join(
                f"**{k}**: {v}" for k, v in info.options_help.items())[:1024], inline=False)
        await send(interaction, embed=embed, ephemeral=True)


async def setup(bot: CroupierBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(RulesCog(bot))
