"""/starter, /collection and /audit: getting a first deck, looking at cards owned, and
the moderators' check of the books."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_parts.answer_first import send_then_draw
from bot.discord_parts.replies import channel_locale, for_send, send
from bot.duel.collections import CollectionError
from bot.errors import NoSuchPage, NotAllowed
from bot.games.duel.collection_messages import audit_text, starter_parts
from bot.games.duel.commands import card_names
from bot.games.duel.interactions import collections_of, guild_of
from bot.games.duel.views import TYPES, Filters, page_parts
from bot.i18n import Text, speaking
from rules.duel.cards import COLOUR_NAMES
from rules.duel.decks import STARTERS

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot


def starter_title(name: str) -> str:
    """A starter as the menu names it.

    >>> starter_title("ember-and-grove")
    'Ember and Grove (red and green)'
    """
    first, second = STARTERS[name]
    words = " ".join(word if word == "and" else word.title() for word in name.split("-"))
    return f"{words} ({COLOUR_NAMES[first]} and {COLOUR_NAMES[second]})"


def _choices(words: tuple[str, ...] | list[str]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=word, value=word) for word in words]


STARTER_CHOICES = [app_commands.Choice(name=starter_title(n), value=n) for n in STARTERS]
COLOUR_CHOICES = _choices([*COLOUR_NAMES.values(), "colourless"])
TYPE_CHOICES = _choices(TYPES)
RARITY_CHOICES = _choices(("common", "uncommon", "rare"))
EDITION_CHOICES = _choices(("limited", "unlimited"))
SORT_CHOICES = _choices(("name", "colour", "rarity", "count"))


class CollectionCog(commands.Cog):
    """Starters, collections and the audit."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot

    @app_commands.command(name="starter", description="Claim your starter deck on this "
                                                      "server (one each).")
    @app_commands.describe(deck="Which starter: two colours, 40 cards")
    @app_commands.choices(deck=STARTER_CHOICES)
    @app_commands.guild_only()
    async def starter(self, interaction: discord.Interaction, deck: str) -> None:
        """Claim a starter: its cards and its deck become the person's."""
        claimed = await collections_of(interaction).claim_starter(
            guild_of(interaction), interaction.user.id, deck)
        await send_then_draw(interaction, starter_parts(claimed))

    @app_commands.command(name="collection", description="Cards someone owns here, with "
                                                         "counts (paged).")
    @app_commands.describe(user="Whose collection (default: yours)", colour="Only this colour",
                           kind="Only this card type", rarity="Only this rarity",
                           edition="Only limited (numbered) or unlimited copies",
                           name="Only cards whose name holds this",
                           sort="Order (default: by name)", page="Which page (20 cards a page)",
                           public="Show it to the channel (default: only you)")
    @app_commands.rename(kind="type")
    @app_commands.choices(colour=COLOUR_CHOICES, kind=TYPE_CHOICES, rarity=RARITY_CHOICES,
                          edition=EDITION_CHOICES, sort=SORT_CHOICES)
    @app_commands.autocomplete(name=card_names)
    @app_commands.guild_only()
    async def collection(self, interaction: discord.Interaction,
                         user: discord.User | None = None, colour: str | None = None,
                         kind: str | None = None, rarity: str | None = None,
                         edition: str | None = None,
                         name: app_commands.Range[str, 1, 40] | None = None,
                         sort: str | None = None,
                         page: app_commands.Range[int, 1, 10_000] = 1,
                         public: bool = False) -> None:
        """A page of a collection, privately unless ``public`` (another's only where the
        server's collections are public: the service checks)."""
        owner = user or interaction.user
        if owner.bot:
            raise CollectionError(Text("collections.error.bot_cards"))
        filters = Filters.typed(colour, kind, rarity, edition, name, sort)
        viewer = interaction.user.id
        shown = await collections_of(interaction).collection(
            guild_of(interaction), viewer, owner.id, page=page, **filters.kwargs())
        if shown.page != page:  # the page buttons may land past the end; a command not
            raise NoSuchPage(Text("collections.page.what"), page, shown.pages)
        if not public:
            await send(interaction, **for_send(page_parts(shown, viewer, filters)))
            return
        with speaking(await channel_locale(interaction)):
            parts = for_send(page_parts(shown, viewer, filters))
        await send(interaction, ephemeral=False, **parts)

    @app_commands.command(name="audit", description="Moderators: check that every card's "
                                                    "owner is explained by the ledger.")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def audit(self, interaction: discord.Interaction) -> None:
        """Replay the ledger (people who may manage the server, checked here too: a
        server may open the command to others)."""
        perms = getattr(interaction.user, "guild_permissions", None)
        if not (perms and perms.manage_guild):
            raise NotAllowed(Text("collections.error.audit_not_allowed"))
        report = await collections_of(interaction).audit_report(guild_of(interaction))
        files = []
        if len(report.problems) > 15:
            listing = "\n".join(report.problems).encode()
            files = [discord.File(io.BytesIO(listing), filename="audit.txt")]
        await send(interaction, audit_text(report), ephemeral=True, files=files)
