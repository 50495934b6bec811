"""/rules: each game's rules and options, privately."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.replies import send
from commands.lobby import game_names
from rules.core import GameInfo
from rules.registry import get_game

if TYPE_CHECKING:
    from bot.client import CroupierBot


def options_text(info: GameInfo) -> str:
    """The options part of ``/rules``: every declared option with what it allows
    and its default, and how to open a game with them.

    >>> from rules.registry import games
    >>> info = next(i for i in games().values() if i.min_seats < i.max_seats)
    >>> options_text(info).splitlines()[0] == (f"Open with `/play {info.name}` "
    ...     f"({info.min_seats}–{info.max_seats} players); every option may be left out.")
    True
    """
    lines = [f"Open with `/play {info.name}` ({info.seat_range()}); "
             "every option may be left out."]
    lines += [f"• **{spec.name}** — {spec.describe().split(': ', 1)[1]}"
              for spec in info.options.specs()]
    return "\n".join(lines)


class RulesCog(commands.Cog):
    """How to play."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="How to play a game.")
    @app_commands.describe(game="Which game")
    @app_commands.autocomplete(game=game_names)
    async def rules(self, interaction: discord.Interaction,
                    game: app_commands.Range[str, 1, 40]) -> None:
        info = get_game(game)
        embed = discord.Embed(title=f"How to play {info.title}", description=info.rules_text,
                              colour=discord.Colour.dark_green())
        embed.add_field(name="Options", value=options_text(info), inline=False)
        await send(interaction, embed=embed, ephemeral=True)


async def setup(bot: CroupierBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(RulesCog(bot))
