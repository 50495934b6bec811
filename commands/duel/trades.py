"""/trade offer and /trade list; the offer message's buttons are
:class:`~bot.games.duel.trades.TradeButton`, answered by the trade desk,
which this cog's background task also uses to close expired trades and edit their messages."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_parts.replies import send
from bot.games.duel.collection_messages import trade_list_text
from bot.games.duel.interactions import collections_of, guild_of
from bot.games.duel.trades import desk_of
from commands.duel.complete import card_entries

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot

Cards = app_commands.Range[str, 1, 2000]


@app_commands.guild_only()
class TradeCog(commands.GroupCog, group_name="trade",
               group_description="Trade cards with someone here."):
    """Offers, and the sweep that expires them."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot
        self._sweeps: asyncio.Task[None] | None = None
        super().__init__()

    async def cog_load(self) -> None:
        """Start sweeping expired trades (at once, then every so often)."""
        desk = self.bot.trade_desk  # type: ignore[attr-defined]
        self._sweeps = asyncio.create_task(desk.run_sweeps(), name="croupier-trade-sweeps")

    async def cog_unload(self) -> None:
        """Stop sweeping."""
        if self._sweeps is not None:
            self._sweeps.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeps

    @app_commands.command(name="offer", description="Offer someone a trade: your cards for "
                                                    "theirs.")
    @app_commands.describe(user="Who you offer it to",
                           give="Your cards you give, e.g. '2 Kindlewhip, Ashpeak'",
                           get="Their cards you ask for (leave out for a gift)")
    @app_commands.autocomplete(give=card_entries, get=card_entries)
    async def offer(self, interaction: discord.Interaction, user: discord.Member,
                    give: Cards | None = None, get: Cards | None = None) -> None:
        """Post an offer both people see; its buttons take it from there."""
        await desk_of(interaction).offer(interaction, user, give or "", get or "")

    @app_commands.command(name="list", description="Your open trades here.")
    async def listing(self, interaction: discord.Interaction) -> None:
        """The person's open and accepted trades, each linked to its offer message."""
        service = collections_of(interaction)
        guild = guild_of(interaction)
        views = await service.open_trades(guild, interaction.user.id)
        links = {}
        for view in views:
            where = await service.offer_message(view.id)
            if where is not None:
                links[view.id] = (f"https://discord.com/channels/{guild}/{where.channel_id}/"
                                  f"{where.message_id}")
        await send(interaction, trade_list_text(views, links), ephemeral=True)
