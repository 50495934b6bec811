"""/nails place: lay a tile by number, cell and turn; /nails places: where a tile can go."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.discord_parts.replies import send
from bot.discord_parts.views import croupier
from bot.errors import NoSuchPage
from bot.games.presenter import channel_match, options_in_group
from bot.i18n import Text, tr, trn
from rules.nails import GAME, placement_notation

PAGE = 40
"""Places listed per page of /nails places."""


class NailsCommands(app_commands.Group, name="nails", description="Play Hammer & Nails.",
                    guild_only=True):
    """Placements typed by tile, cell and turn."""

    @app_commands.command(name="place", description="Lay a tile: its number, the cell of its "
                                                    "top-left zone (an octagon's centre), a turn.")
    @app_commands.describe(tile="The tile's number (see your DM or /hand)",
                           at="The cell, e.g. C4 (see the edges of the picture)",
                           rotate="Turn the tile clockwise by 0, 90, 180 or 270 degrees")
    async def place(self, interaction: discord.Interaction,
                    tile: app_commands.Range[int, 1, 999], at: app_commands.Range[str, 1, 8],
                    rotate: Literal[0, 90, 180, 270] = 0) -> None:
        """Lay a tile."""
        bot = croupier(interaction)
        match = channel_match(interaction, GAME)
        ack = await bot.service.submit(interaction.user.id, match.id,
                                       placement_notation(tile, at, rotate),
                                       interaction_id=str(interaction.id))
        await send(interaction, bot.presenters.acknowledge(ack))

    @app_commands.command(name="places", description="Where one of your tiles can go now "
                                                     "(only you see the answer).")
    @app_commands.describe(tile="The tile's number", page="Which page of the list")
    async def places(self, interaction: discord.Interaction,
                     tile: app_commands.Range[int, 1, 999],
                     page: app_commands.Range[int, 1, 99] = 1) -> None:
        """List a tile's legal places, a page at a time."""
        match = channel_match(interaction, GAME)
        mine = options_in_group(match, interaction.user.id, str(tile))
        if not mine:
            await send(interaction, tr("nails.command.nowhere", tile=tile))
            return
        pages = -(-len(mine) // PAGE)
        if page > pages:
            raise NoSuchPage(Text("page.what.tile_places", tile=tile), page, pages)
        shown = mine[(page - 1) * PAGE:page * PAGE]
        await send(interaction, trn("nails.command.places", len(mine), tile=tile, page=page,
                                    pages=pages, places=", ".join(f"`{o}`" for o in shown)))
