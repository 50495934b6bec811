"""/deck create|add|remove|show|list|delete|import|export: decks built from the cards a
person owns, checked for play, shared as plain text lists."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_parts.answer_first import send_then_draw
from bot.discord_parts.replies import channel_locale, send
from bot.duel.collections import CollectionError
from bot.games.duel.collection_messages import deck_parts, decks_text, file_safe
from bot.games.duel.interactions import collections_of, guild_of
from bot.i18n import Number, Text, speaking, tr
from commands.duel.complete import card_entries, own_decks

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot

LIST_TEXT = 4000
"""Longest card list typed into an option (Discord allows 6000)."""
FILE_BYTES = 20_000
"""Largest deck list file read: a 250-card list is a few kB."""
INLINE = 1800
"""Longest list exported as a message rather than a file."""
Name = app_commands.Range[str, 1, 32]
Cards = app_commands.Range[str, 1, LIST_TEXT]


def check_list_file(file: discord.Attachment) -> None:
    """Refuse an attached deck list that is too big or not text, before reading it."""
    if file.size > FILE_BYTES:
        raise CollectionError(Text("collections.error.file_too_big", size=Number(file.size),
                                   most=Number(FILE_BYTES)))
    kind = (file.content_type or "").split(";")[0]
    if kind and not kind.startswith("text/"):
        raise CollectionError(Text("collections.error.file_not_text"))


async def read_list(file: discord.Attachment) -> str:
    """A deck list from an attached text file, refused if too big or not text."""
    check_list_file(file)
    try:
        return (await file.read()).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CollectionError(Text("collections.error.file_not_utf8")) from None


@app_commands.guild_only()
class DeckCog(commands.GroupCog, group_name="deck",
              group_description="Your decks, built from the cards you own here."):
    """Saved decks: made, changed, shown, checked, shared."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot
        super().__init__()

    async def _show(self, interaction: discord.Interaction, parts: dict[str, Any],
                    public: bool = False) -> None:
        """A deck's answer: its words at once, its picture once drawn."""
        await send_then_draw(interaction, parts, ephemeral=not public)

    @app_commands.command(name="create", description="Save a new deck from a list of cards.")
    @app_commands.describe(name="The deck's name (letters, digits, spaces, - or _)",
                           cards="Its cards, e.g. '4 Kindlewhip, 17 Ashpeak'",
                           replace="Overwrite a deck of that name (default: refuse)")
    @app_commands.rename(cards="list")
    @app_commands.autocomplete(cards=card_entries)
    async def create(self, interaction: discord.Interaction, name: Name, cards: Cards,
                     replace: bool = False) -> None:
        """Save a deck (it may be short: the picture says what keeps it from play)."""
        view = await collections_of(interaction).save_deck(
            guild_of(interaction), interaction.user.id, name, cards, replace=replace)
        await self._show(interaction, deck_parts(view, tr("collections.deck.saved")))

    @app_commands.command(name="add", description="Add cards to one of your decks.")
    @app_commands.describe(name="Which deck", cards="Cards to add, e.g. '2 Kindlewhip'")
    @app_commands.autocomplete(name=own_decks, cards=card_entries)
    async def add(self, interaction: discord.Interaction, name: Name, cards: Cards) -> None:
        """Add cards to a saved deck."""
        view = await collections_of(interaction).add_cards(
            guild_of(interaction), interaction.user.id, name, cards)
        await self._show(interaction, deck_parts(view, tr("collections.deck.added")))

    @app_commands.command(name="remove", description="Take cards out of one of your decks.")
    @app_commands.describe(name="Which deck", cards="Cards to take out, e.g. '1 Ashpeak'")
    @app_commands.autocomplete(name=own_decks, cards=card_entries)
    async def remove(self, interaction: discord.Interaction, name: Name, cards: Cards) -> None:
        """Take cards out of a saved deck."""
        view = await collections_of(interaction).remove_cards(
            guild_of(interaction), interaction.user.id, name, cards)
        await self._show(interaction, deck_parts(view, tr("collections.deck.removed")))

    @app_commands.command(name="show", description="One of your decks as a picture, and "
                                                   "whether it can be played.")
    @app_commands.describe(name="Which deck", public="Show it to the channel "
                                                     "(default: only you)")
    @app_commands.autocomplete(name=own_decks)
    async def show(self, interaction: discord.Interaction, name: Name,
                   public: bool = False) -> None:
        """A deck's picture, size, and what (if anything) keeps it from play."""
        view = await collections_of(interaction).deck(guild_of(interaction),
                                                      interaction.user.id, name)
        if not public:
            await self._show(interaction, deck_parts(view))
            return
        with speaking(await channel_locale(interaction)):
            await self._show(interaction, deck_parts(view), public)

    @app_commands.command(name="list", description="Your decks here and whether each "
                                                   "can be played.")
    async def listing(self, interaction: discord.Interaction) -> None:
        """Every saved deck, with its size and state."""
        views = await collections_of(interaction).decks(guild_of(interaction),
                                                        interaction.user.id)
        await send(interaction, decks_text(views), ephemeral=True)

    @app_commands.command(name="delete", description="Delete one of your decks (the cards "
                                                     "stay yours).")
    @app_commands.describe(name="Which deck")
    @app_commands.autocomplete(name=own_decks)
    async def delete(self, interaction: discord.Interaction, name: Name) -> None:
        """Delete a saved deck."""
        gone = await collections_of(interaction).delete_deck(guild_of(interaction),
                                                             interaction.user.id, name)
        await send(interaction, tr("collections.deck.deleted", deck=gone), ephemeral=True)

    @app_commands.command(name="import", description="Save a deck from a shared list: "
                                                     "pasted, or a .txt file.")
    @app_commands.describe(name="The deck's name",
                           cards="The list, pasted (e.g. '4 Kindlewhip, 17 Ashpeak')",
                           file="Or the list as a text file, one '4 Kindlewhip' a line",
                           replace="Overwrite a deck of that name (default: refuse)")
    @app_commands.rename(cards="list")
    async def import_(self, interaction: discord.Interaction, name: Name,
                      cards: Cards | None = None, file: discord.Attachment | None = None,
                      replace: bool = False) -> None:
        """Save a deck from a list someone shared (what is not owned shows as short)."""
        if (cards is None) == (file is None):
            raise CollectionError(Text("collections.error.list_or_file"))
        if file is not None:
            check_list_file(file)
            # Reading the file is a request to Discord: answered first, privately.
            await interaction.response.defer(ephemeral=True, thinking=True)
        text = await read_list(file) if file is not None else cards or ""
        view = await collections_of(interaction).save_deck(
            guild_of(interaction), interaction.user.id, name, text, replace=replace)
        await self._show(interaction, deck_parts(view, tr("collections.deck.imported")))

    @app_commands.command(name="export", description="One of your decks as a plain list "
                                                     "to share.")
    @app_commands.describe(name="Which deck", file="As a .txt file (default: in the message "
                                                   "when it fits)")
    @app_commands.autocomplete(name=own_decks)
    async def export(self, interaction: discord.Interaction, name: Name,
                     file: bool = False) -> None:
        """The deck as "4 Kindlewhip" lines, which /deck import reads back."""
        text = await collections_of(interaction).export_deck(guild_of(interaction),
                                                             interaction.user.id, name)
        if file or len(text) > INLINE:
            listing = discord.File(io.BytesIO(text.encode()),
                                   filename=f"{file_safe(name)}.txt")
            await send(interaction, tr("collections.deck.exported"), ephemeral=True,
                       files=[listing])
        else:
            await send(interaction, f"```\n{text}\n```", ephemeral=True)
