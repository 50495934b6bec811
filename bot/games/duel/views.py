"""Arcane Duel's persistent buttons: a collection's pages, a trade's Accept,
Decline, Cancel and Confirm (:class:`~bot.games.duel.trades.TradeButton`,
beside the trade desk it calls), and the duel DM's automatic passing. Like every Croupier button
they are ``DynamicItem``\\ s whose custom ids carry all they need (the viewer, the
owner, the filters and the page; the trade and the action; the match and the setting),
so they keep working after a restart, and each click is checked in code: who clicks,
on which server, against the stored state.

A page button's id carries its filters in five letters and the name filter itself (at
most :data:`NAME_KEEP` characters of the letters card names use: a longer or odder
filter matches no card, so its page has no buttons to carry it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_parts.replies import for_edit, guarded, send
from bot.discord_parts.views import ID, SMALL, Claimed, croupier, player_of, require_private
from bot.games.duel.autopass import said, set_auto_pass
from bot.games.duel.collection_messages import collection_parts, filter_words
from bot.games.duel.interactions import collections_of, guild_of
from bot.games.duel.trades import TradeButton
from bot.i18n import tr
from rules.duel.cards import COLOUR_NAMES, card_set

if TYPE_CHECKING:
    from bot.duel.collections import CollectionPage

COLOURS = {**{code.lower(): name for code, name in COLOUR_NAMES.items()}, "c": "colourless"}
"""A colour filter's letter in a custom id, and the filter."""
RARITIES = {"c": "common", "u": "uncommon", "r": "rare"}
EDITIONS = {"l": "limited", "u": "unlimited"}
SORTS = {"n": "name", "c": "colour", "r": "rarity", "k": "count"}
TYPES = tuple(sorted({data.type for data in card_set().values()}))
"""Card types, in a fixed order: a type filter is its index in a custom id."""
NAME_KEEP = 21
"""Longest name filter a page button carries: the longest card name."""
_NAME = re.compile(rf"[a-z '-]{{1,{NAME_KEEP}}}")
_BASE = "0123456789abcdefghijklmnopqrstuvwxyz"


def _code(table: dict[str, str], value: str | None) -> str:
    return next((letter for letter, word in table.items() if word == value), "-")


@dataclass(frozen=True)
class Filters:
    """What a collection page is filtered and sorted by, as the service takes it."""

    colour: str | None = None
    type: str | None = None
    rarity: str | None = None
    edition: str | None = None
    name: str | None = None
    sort: str = "name"

    @classmethod
    def typed(cls, colour: str | None = None, type: str | None = None,
              rarity: str | None = None, edition: str | None = None, name: str | None = None,
              sort: str | None = None) -> Filters:
        """Filters from a command's options (blank ones dropped, the name tidied)."""
        name = " ".join(name.split()).casefold() if name else None
        return cls(colour or None, type or None, rarity or None, edition or None, name or None,
                   sort or "name")

    def kwargs(self) -> dict[str, Any]:
        """The filters as :meth:`CollectionService.collection` takes them."""
        return {"colour": self.colour, "type": self.type, "rarity": self.rarity,
                "edition": self.edition, "name": self.name, "sort": self.sort}

    def code(self) -> str | None:
        """The filters as a page button carries them (``None``: they can't be carried,
        and match no card anyway).

        >>> Filters("red", "creature", None, "limited", "wyrm", "count").code()
        'r-lk2:wyrm'
        """
        if self.name is not None and not _NAME.fullmatch(self.name):
            return None
        kind = _BASE[TYPES.index(self.type)] if self.type in TYPES else "-"
        return (_code(COLOURS, self.colour) + _code(RARITIES, self.rarity)
                + _code(EDITIONS, self.edition) + _code(SORTS, self.sort) + kind
                + ":" + (self.name or ""))

    @classmethod
    def from_code(cls, flags: str, name: str) -> Filters:
        """The filters a page button carries (its template has checked the letters).

        >>> Filters.from_code("r-lk2", "wyrm") == Filters("red", "creature", None,
        ...                                                 "limited", "wyrm", "count")
        True
        """
        colour, rarity, edition, sort, kind = flags
        index = _BASE.find(kind)
        return cls(COLOURS.get(colour), TYPES[index] if 0 <= index < len(TYPES) else None,
                   RARITIES.get(rarity), EDITIONS.get(edition), name or None,
                   SORTS.get(sort, "name"))

    def words(self) -> str:
        """The filters in words in the locale spoken, for the page's heading ("" when
        none)."""
        return filter_words(self.colour, self.type, self.rarity, self.edition, self.name,
                            self.sort)


class CollectionPageButton(Claimed, discord.ui.DynamicItem[discord.ui.Button[Any]],
                           template=re.compile(
                               rf"cr:cl:(?P<viewer>{ID}):(?P<owner>{ID}):(?P<page>{SMALL}):"
                               r"(?P<flags>[wubrgc-][cur-][lu-][ncrk][0-9a-z-]):"
                               rf"(?P<name>[a-z '-]{{0,{NAME_KEEP}}})")):
    """Turns a collection to another page. Its viewer's click turns the message's page;
    anyone else's (a public page) answers them with that page privately, if the server
    lets them see it."""

    def __init__(self, viewer: int, owner: int, page: int, code: str, label: str) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"cr:cl:{viewer}:{owner}:{page}:{code}"))
        self.viewer, self.owner, self.page = viewer, owner, page
        flags, _, name = code.partition(":")
        self.filters = Filters.from_code(flags, name)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> CollectionPageButton:
        return cls(int(match["viewer"]), int(match["owner"]), int(match["page"]),
                   f"{match['flags']}:{match['name']}", getattr(item, "label", None)
                   or tr("collections.page.button"))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            viewer = interaction.user.id
            page = await collections_of(interaction).collection(
                guild_of(interaction), viewer, self.owner, page=self.page,
                **self.filters.kwargs())
            parts = page_parts(page, viewer, self.filters)
            if viewer == self.viewer:
                await interaction.response.edit_message(**parts)
            else:
                await send(interaction, ephemeral=True, **parts)

        await guarded(interaction, act)


def page_buttons(viewer: int, page: CollectionPage,
                 filters: Filters) -> list[discord.ui.Item[Any]]:
    """◀ and ▶ for a collection page, where there is a page to go to (none when the
    filters can't be carried: then there is one page, empty)."""
    code = filters.code()
    if code is None:
        return []
    buttons: list[discord.ui.Item[Any]] = []
    if page.page > 1:
        buttons.append(CollectionPageButton(viewer, page.owner, page.page - 1, code,
                                             tr("collections.page.prev")))
    if page.page < page.pages:
        buttons.append(CollectionPageButton(viewer, page.owner, page.page + 1, code,
                                             tr("collections.page.next")))
    return buttons


def page_parts(page: CollectionPage, viewer: int, filters: Filters) -> dict[str, Any]:
    """A collection page's message parts with its buttons."""
    return collection_parts(page, viewer, filters.words(), page_buttons(viewer, page, filters))


class AutoPassButton(Claimed, discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=re.compile(rf"cr:autopass:(?P<match>{ID}):(?P<value>on|off)")):
    """On a player's duel DM (or ``/hand``): turns their automatic passing on or off,
    the value it sets in its id. The clicker's own seat is changed, whoever's DM it
    was; the message then shows their view with the setting as it is now."""

    def __init__(self, match_id: int, on: bool) -> None:
        label = tr("duel.autopass.turn_on") if on else tr("duel.autopass.turn_off")
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary,
            custom_id=f"cr:autopass:{match_id}:{'on' if on else 'off'}"))
        self.match_id, self.on = match_id, on

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> AutoPassButton:
        return cls(int(match["match"]), match["value"] == "on")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            require_private(interaction)  # a setting of one's own: never on the table
            bot = croupier(interaction)
            match = await bot.service.current(self.match_id)
            await set_auto_pass(bot.service, match, interaction.user.id, self.on)
            parts = bot.presenters.private(match, bot.service.private_view_of(
                player_of(interaction), match))
            await interaction.response.edit_message(**for_edit({**parts,
                                                                "content": said(self.on)}))

        await guarded(interaction, act)


DUEL_ITEMS = (CollectionPageButton, TradeButton, AutoPassButton)
"""The persistent items Arcane Duel adds to the bot (``CroupierBot.add_items``): the
collections' and the duel DM's automatic-passing button."""
