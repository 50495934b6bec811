"""Where a click or a command on Arcane Duel's cards leads: the server it comes from
(collections live on servers) and the bot's collections service. Below the views and
the trade desk, which both ask it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.discord_parts.views import croupier
from bot.errors import NotAllowed
from bot.i18n import Text

if TYPE_CHECKING:
    from bot.duel.collections import CollectionService


def collections_of(interaction: discord.Interaction) -> CollectionService:
    """The collections service of the bot behind an interaction."""
    return croupier(interaction).collections  # type: ignore[attr-defined, no-any-return]


def guild_of(interaction: discord.Interaction) -> int:
    """The server an interaction comes from; collections live on servers only."""
    if interaction.guild_id is None:
        raise NotAllowed(Text("error.collections_server_only"))
    return interaction.guild_id
