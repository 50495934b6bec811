"""/choose: make your pending choice by typing it — in any game, privately.

The reply is ephemeral and the options come by private autocomplete, so a
secret choice typed here is as secret as one picked in a DM menu. It is the
way in for players whose DMs are closed, and for anyone who prefers typing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_parts.limits import choices
from bot.discord_parts.replies import send
from bot.errors import CroupierError
from bot.i18n import say
from rules.core import MAX_CHOICE, NOTHING

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot


class ChooseCog(commands.Cog):
    """Typed choices for every game."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot

    async def pending_options(self, interaction: discord.Interaction,
                              current: str) -> list[app_commands.Choice[str]]:
        """The caller's own legal options, described, matching what is typed."""
        try:
            match = self.bot.service.match_in(interaction.channel_id or 0)
            seat = match.seat_of(interaction.user.id)
        except CroupierError:
            return []
        if seat is None or match.state is None or not match.playing:
            return []
        decision = match.state.decision_for(seat.seat)
        if decision is None:
            return []
        describe = match.info.option_text
        observation = match.state.observe(seat.seat)
        typed = current.strip().lower()
        found = []
        options = list(decision.options)
        if decision.takes_nothing:
            options.insert(0, NOTHING)  # an empty pick (no blockers) is typed as "none"
        for option in options:
            # The game says what an option does as words (a phrase): suggest them.
            label = say(describe(observation, decision, option, match.names)) if describe \
                else option
            if typed in option.lower() or typed in label.lower():
                found.append((label, option))
        return choices(found)

    @app_commands.command(name="choose",
                          description="Make your pending choice (only you see it).")
    @app_commands.describe(choice="What to play or do; the suggestions are your legal options")
    @app_commands.autocomplete(choice=pending_options)
    @app_commands.guild_only()
    async def choose(self, interaction: discord.Interaction,
                     choice: app_commands.Range[str, 1, MAX_CHOICE]) -> None:
        match = self.bot.service.match_in(interaction.channel_id or 0)
        ack = await self.bot.service.submit(interaction.user.id, match.id, choice,
                                            interaction_id=str(interaction.id))
        await send(interaction, self.bot.presenters.acknowledge(ack), ephemeral=True)


async def setup(bot: CroupierBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(ChooseCog(bot))
