"""/nails place: lay a tile by number, cell and turn; /nails places: where a tile can go."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import NotSeated, WrongPhase
from bot.live import LiveMatch
from bot.replies import send

if TYPE_CHECKING:
    from bot.client import CroupierBot

PAGE = 40


class NailsCog(commands.GroupCog, group_name="nails", group_description="Play Hammer & Nails."):
    """Placements typed by tile, cell and turn."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot
        super().__init__()

    def _match(self, interaction: discord.Interaction) -> LiveMatch:
        match = self.bot.service.match_in(interaction.channel_id or 0)
        if match.info.name != "nails":
            raise WrongPhase(f"The game in this channel is {match.info.title}, "
                             "not Hammer & Nails.")
        return match

    @app_commands.command(name="place", description="Lay a tile: its number, the cell of its "
                                                    "top-left zone (an octagon's centre), a turn.")
    @app_commands.describe(tile="The tile's number (see your DM or /hand)",
                           at="The cell, e.g. C4 (see the edges of the picture)",
                           rotate="Turn the tile clockwise by 0, 90, 180 or 270 degrees")
    @app_commands.guild_only()
    async def place(self, interaction: discord.Interaction,
                    tile: app_commands.Range[int, 1, 999], at: app_commands.Range[str, 1, 8],
                    rotate: Literal[0, 90, 180, 270] = 0) -> None:
        match = self._match(interaction)
        choice = f"{tile}@{at.strip()}" + (f"/{rotate}" if rotate else "")
        ack = await self.bot.service.submit(interaction.user.id, match.id, choice,
                                            interaction_id=str(interaction.id))
        await send(interaction, self.bot.presenters.acknowledge(ack))

    @app_commands.command(name="places", description="Where one of your tiles can go now "
                                                     "(only you see the answer).")
    @app_commands.describe(tile="The tile's number", page="Which page of the list")
    @app_commands.guild_only()
    async def places(self, interaction: discord.Interaction,
                     tile: app_commands.Range[int, 1, 999],
                     page: app_commands.Range[int, 1, 99] = 1) -> None:
        match = self._match(interaction)
        seat = match.seat_of(interaction.user.id)
        if seat is None:
            raise NotSeated()
        decision = match.state.decision_for(seat.seat) if match.state else None
        mine = [o for o in (decision.options if decision else ()) if o.startswith(f"{tile}@")]
        if not mine:
            await send(interaction, f"Tile {tile} has nowhere to go right now (or it is not "
                                    "your turn to place).")
            return
        pages = -(-len(mine) // PAGE)
        page = min(page, pages)
        shown = mine[(page - 1) * PAGE:page * PAGE]
        await send(interaction, f"Tile {tile} can go ({len(mine)} places, page {page} of "
                                f"{pages}): " + ", ".join(f"`{o}`" for o in shown))


async def setup(bot: CroupierBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(NailsCog(bot))
