"""Discord's limits, in one place: what a message, an embed, a menu, a form, a slash
command's choices and a channel or thread may hold (Discord's API documentation:
Message, Embed, Components, Interactions, Application Commands, Channel). Whatever
is sent is fitted to these here or in :mod:`bot.discord_parts.replies`, never by a clip written
where the text is made.

>>> [c.name for c in choices([("x" * 120, "a")] * 30)][0][-1], len(choices([("b", "b")] * 30))
('…', 25)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from discord import app_commands

from rules.words import clip

CONTENT = 2000
"""Characters of a message's content."""
FILES = 10
"""Files on one message."""
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
EMBED_TOTAL = 6000
FIELDS = 25
"""An embed's parts, their total, and its fields."""
LINK_URL = 512
"""A link button's address."""

MENU_OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150
MODAL_TITLE = 45
INPUT_LABEL = 45
"""A select menu (its options; an option's label and value; the placeholder) and a
modal (its title; a text input's label)."""

CHOICES = 25
CHOICE_NAME = 100
COMMAND_DESCRIPTION = 100
"""A slash command's choices (fixed or suggested as one types), a choice's name,
and a command's or an option's description."""

CHANNEL_NAME = 100
"""A channel's or a thread's name."""
ACTIVE_THREADS = 1000
"""Active (not archived) threads in a server."""
GUILD_CHANNELS = 500
CATEGORY_CHANNELS = 50
"""Channels in a server (categories included, threads not), and in one category."""
LONGEST_ARCHIVE = 10080
"""The longest ``auto_archive_duration`` a thread takes, in minutes: a week."""

Value = TypeVar("Value", str, int)


def choices(pairs: Iterable[tuple[str, Value]]) -> list[app_commands.Choice[Value]]:
    """Suggestions as Discord takes them: the first :data:`CHOICES`, each name
    shortened to :data:`CHOICE_NAME` (a value is one of ours: never longer)."""
    found: list[app_commands.Choice[Value]] = []
    for name, value in pairs:
        if len(found) == CHOICES:
            break
        found.append(app_commands.Choice(name=clip(name, CHOICE_NAME) or str(value),
                                         value=value))
    return found
