"""A tournament in words (its format, its status) and who acts on it (a Discord
member as the tournament service's :class:`~bot.tournaments.model.Member`): what the
tournament message, its buttons and the posts all need."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.tournaments.model import Member
from storage.tournaments import TournamentRow

FORMAT_WORDS: Mapping[str, str] = {"swiss": "Swiss", "single": "single elimination",
                                   "double": "double elimination",
                                   "round_robin": "round robin", "pods": "pods"}
"""Each format in words, as people say it."""

STATUS_WORDS: Mapping[str, str] = {
    "created": "created — registration not open yet",
    "open": "registration open",
    "checkin": "check-in open: entrants, check in",
    "running": "under way",
    "finished": "finished",
    "cancelled": "cancelled",
}
"""Each status in words, on the tournament message."""


def format_words(format: str) -> str:
    """A format in words.

    >>> format_words("round_robin"), format_words("swiss")
    ('round robin', 'Swiss')
    """
    return FORMAT_WORDS.get(format, format.replace("_", " "))


def member_of(interaction: discord.Interaction) -> Member:
    """Who acts: their server, whether they may manage it, and their roles."""
    user = interaction.user
    perms = getattr(user, "guild_permissions", None)
    roles = frozenset(role.id for role in getattr(user, "roles", ()))
    return Member(user.id, user.display_name, manages_server=bool(perms and perms.manage_guild),
                  guild_id=interaction.guild_id or 0, role_ids=roles)


def robot(tournament: TournamentRow) -> Member:
    """The bot itself reading a tournament of its server (no organiser right)."""
    return Member(0, "Croupier", guild_id=tournament.guild_id)
