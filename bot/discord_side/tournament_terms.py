"""Who acts on a tournament (a Discord member as the tournament service's
:class:`~bot.tournaments.model.Member`): what the tournament message, its buttons and
the posts all need. The tournament in words (its format, its status) is
:mod:`bot.tournaments.terms`, shared with the web; its names are kept here too for the
commands that import them from this module."""

from __future__ import annotations

import discord

from bot.tournaments.model import Member
from bot.tournaments.terms import FORMAT_WORDS, STATUS_WORDS, format_words, status_words
from storage.tournaments import TournamentRow

__all__ = ["FORMAT_WORDS", "STATUS_WORDS", "format_words", "member_of", "robot",
           "status_words"]


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
