"""/pack open, /pack give and /pack list: packs as the server hands them out."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_parts.answer_first import send_then_draw
from bot.discord_parts.replies import channel_locale, ping, send
from bot.duel.collections import MOST_GIVEN, CollectionError, PackGiver
from bot.games.duel.collection_messages import pack_parts, packs_text
from bot.games.duel.interactions import collections_of, guild_of
from bot.i18n import Text, speaking, trn

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot


def giver_of(interaction: discord.Interaction) -> PackGiver:
    """Who gives packs, with their right to: managing the server, or their roles."""
    user = interaction.user
    perms = getattr(user, "guild_permissions", None)
    roles = frozenset(role.id for role in getattr(user, "roles", ()))
    return PackGiver(user.id, bool(perms and perms.manage_guild), roles)


@app_commands.guild_only()
class PackCog(commands.GroupCog, group_name="pack",
              group_description="Packs of 15 cards: open yours, see what waits, give prizes."):
    """Opening, listing and giving packs."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="open", description="Open a pack: one waiting for you, or "
                                                   "the daily pack.")
    @app_commands.describe(public="Show the cards to the channel (default: only you)")
    async def open(self, interaction: discord.Interaction, public: bool = False) -> None:
        """Open the oldest given pack, else the daily one; the cards as one picture."""
        opened = await collections_of(interaction).open_pack(guild_of(interaction),
                                                             interaction.user.id)
        if not public:
            await send_then_draw(interaction, pack_parts(opened))
            return
        with speaking(await channel_locale(interaction)):
            await send_then_draw(interaction, pack_parts(opened), ephemeral=False)

    @app_commands.command(name="list", description="Your unopened packs and the daily pack.")
    async def waiting(self, interaction: discord.Interaction) -> None:
        """What the person can open, and when the daily pack is due."""
        service = collections_of(interaction)
        waiting = await service.packs_waiting(guild_of(interaction), interaction.user.id)
        await send(interaction, packs_text(waiting, service.clock.now()), ephemeral=True)

    @app_commands.command(name="give", description="Organisers: give someone prize packs "
                                                   "to open.")
    @app_commands.describe(user="Who gets them", count=f"How many (1–{MOST_GIVEN})")
    async def give(self, interaction: discord.Interaction, user: discord.Member,
                   count: app_commands.Range[int, 1, MOST_GIVEN] = 1) -> None:
        """Give unopened prize packs (the organiser role or managers: the service
        checks); said in the channel, pinging the one who gets them."""
        if user.bot:
            raise CollectionError(Text("collections.error.bot_packs"))
        waiting = await collections_of(interaction).give_packs(
            guild_of(interaction), giver_of(interaction), user.id, count)
        with speaking(await channel_locale(interaction)):
            said = trn("collections.packs.given", count, to=user.mention,
                       giver=interaction.user.mention, waiting=waiting)
        await send(interaction, said, ephemeral=False, allowed_mentions=ping([user.id]))
