"""A fake Discord (REST API v10 + gateway) on 127.0.0.1 for end-to-end tests of real
discord.py bots. Start with :class:`FakeDiscord` or the ``fake_discord`` fixture; the
README next to this file shows how, and maps the modules."""

from .harness import CommandNotAvailable, FakeDiscord, InteractionResult
from .logs import LogCapture
from .model import (
    Component,
    FakeAttachment,
    FakeChannel,
    FakeCommand,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    SelectOption,
)
from .model.constants import (
    ADMINISTRATOR,
    APPLICATION_COMMAND_AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_UPDATE_MESSAGE,
    EPHEMERAL,
    MANAGE_GUILD,
    MODAL,
    UPDATE_MESSAGE,
)
from .netguard import InternetAccessBlocked, NetworkGuard
from .server import BotError, DiscordAPIError, Rejection, WaitTimeout
from .server.faults import Fault

__all__ = [
    "ADMINISTRATOR",
    "APPLICATION_COMMAND_AUTOCOMPLETE_RESULT",
    "CHANNEL_MESSAGE_WITH_SOURCE",
    "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE",
    "DEFERRED_UPDATE_MESSAGE",
    "EPHEMERAL",
    "MANAGE_GUILD",
    "MODAL",
    "UPDATE_MESSAGE",
    "BotError",
    "CommandNotAvailable",
    "Component",
    "DiscordAPIError",
    "FakeAttachment",
    "FakeChannel",
    "FakeCommand",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "Fault",
    "InteractionResult",
    "InternetAccessBlocked",
    "LogCapture",
    "NetworkGuard",
    "Rejection",
    "SelectOption",
    "WaitTimeout",
]
