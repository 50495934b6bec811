"""What the collection commands complete as a name is typed: card names, a card list's
last entry, and the person's own deck names. Suggestions never refuse: a problem shows
when the command runs."""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.discord_parts.replies import reader_locale
from bot.duel.card_words import name as card_name
from bot.games.duel.interactions import collections_of
from bot.i18n import current, speaking
from bot.i18n.cards import cards_named
from rules.duel.card_ids import card_by_id
from rules.duel.cards import card_set

MOST = 25
"""Suggestions Discord shows."""
LONGEST = 100
"""Longest suggestion Discord takes."""
_ENTRY = re.compile(r"\s*([0-9]{1,2}\s*[xX×]?\s+)?(.*)")


def names_holding(typed: str) -> list[str]:
    """Card names (as the set and card lists name them) whose name in any language
    Croupier speaks holds ``typed`` (any case), those starting with it first.

    >>> names_holding("kindle"), names_holding("chicote de")
    (['Kindlewhip'], ['Kindlewhip'])
    """
    key = " ".join(typed.split()).casefold()
    if not key:
        return sorted(card_set())
    spoken = current()
    found = [data for data in (card_by_id(k) for k in cards_named(key)) if data is not None]
    found.sort(key=lambda data: (not (data.name.casefold().startswith(key) or card_name(
        data, spoken).casefold().startswith(key)), data.name))
    return [data.name for data in found]


def complete_pairs(typed_so_far: str) -> list[tuple[str, str]]:
    """A card list with its last entry completed, as (what the reader is shown, what is
    filled in): "2 Kindlewhip, 3 ash" → "2 Kindlewhip, 3 Ashpeak" (and the other names
    holding "ash"), the completed name shown in the reader's language, the list filled
    in with the names card lists read; each at most :data:`LONGEST` long.

    >>> from bot.i18n import speaking
    >>> with speaking("pt_BR"):
    ...     complete_pairs("2 Kindlewhip, 3 pico das")
    [('2 Kindlewhip, 3 Pico das Cinzas', '2 Kindlewhip, 3 Ashpeak')]
    """
    head, comma, last = typed_so_far.rpartition(",")
    found = _ENTRY.fullmatch(last)
    count = (found[1] or "").strip() if found else ""
    typed = found[2] if found else last
    start = f"{head}{comma} " if comma else ""
    number = count + " " if count else ""
    spoken = current()
    pairs = [(f"{start}{number}{card_name(card_set()[name], spoken)}", f"{start}{number}{name}")
             for name in names_holding(typed)]
    return [pair for pair in pairs if len(pair[1]) <= LONGEST][:MOST]


def complete_list(typed_so_far: str) -> list[str]:
    """What :func:`complete_pairs` fills in.

    >>> complete_list("2 Kindlewhip, 3 ashp")
    ['2 Kindlewhip, 3 Ashpeak']
    """
    return [value for _, value in complete_pairs(typed_so_far)]


async def card_entries(interaction: discord.Interaction,
                       current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a card list option: its last entry completed (the names in the
    reader's language: autocomplete passes no interaction check, which would speak it)."""
    with speaking(reader_locale(interaction)):
        pairs = complete_pairs(current)
    return [app_commands.Choice(name=shown[:LONGEST], value=value) for shown, value in pairs]


async def own_decks(interaction: discord.Interaction,
                    current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: the person's saved decks on this server holding what is typed."""
    if interaction.guild_id is None:
        return []
    typed = current.strip().casefold()
    names = await collections_of(interaction).deck_names(interaction.guild_id,
                                                         interaction.user.id)
    return [app_commands.Choice(name=n, value=n) for n in names if typed in n.casefold()][:MOST]
