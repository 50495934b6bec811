"""What the collection commands complete as a name is typed: card names, a card list's
last entry, and the person's own deck names. Suggestions never refuse: a problem shows
when the command runs."""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.games.duel.interactions import collections_of
from rules.duel.cards import card_set

MOST = 25
"""Suggestions Discord shows."""
LONGEST = 100
"""Longest suggestion Discord takes."""
_ENTRY = re.compile(r"\s*([0-9]{1,2}\s*[xX×]?\s+)?(.*)")


def names_holding(typed: str) -> list[str]:
    """Card names holding ``typed`` (any case), those starting with it first.

    >>> names_holding("kindle")
    ['Kindlewhip']
    """
    key = " ".join(typed.split()).casefold()
    names = [c.name for c in card_set().values() if key in c.name.casefold()]
    names.sort(key=lambda n: (not n.casefold().startswith(key), n))
    return names


def complete_list(current: str) -> list[str]:
    """A card list with its last entry completed: "2 Kindlewhip, 3 ash" → "2 Kindlewhip,
    3 Ashpeak" (and the other names holding "ash"), each at most :data:`LONGEST` long.

    >>> complete_list("2 Kindlewhip, 3 ashp")
    ['2 Kindlewhip, 3 Ashpeak']
    """
    head, comma, last = current.rpartition(",")
    found = _ENTRY.fullmatch(last)
    count = (found[1] or "").strip() if found else ""
    typed = found[2] if found else last
    start = f"{head}{comma} " if comma else ""
    completed = [f"{start}{count + ' ' if count else ''}{name}" for name in names_holding(typed)]
    return [text for text in completed if len(text) <= LONGEST][:MOST]


async def card_entries(interaction: discord.Interaction,
                       current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a card list option: its last entry completed."""
    return [app_commands.Choice(name=text, value=text) for text in complete_list(current)]


async def own_decks(interaction: discord.Interaction,
                    current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: the person's saved decks on this server holding what is typed."""
    if interaction.guild_id is None:
        return []
    typed = current.strip().casefold()
    names = await collections_of(interaction).deck_names(interaction.guild_id,
                                                         interaction.user.id)
    return [app_commands.Choice(name=n, value=n) for n in names if typed in n.casefold()][:MOST]
