"""The world the fake Discord keeps, as plain data: users, guilds, channels, messages,
components, commands and interactions.

Every object has a ``to_payload`` that renders the JSON shape Discord's API v10 uses, so
the server stays a thin protocol layer. The objects are the test-side view of the world
too: a test reads ``channel.messages[-1].content`` or ``message.find_component(label="Hit")``
directly. Protocol numbers (permission bits, types, flags) live in :mod:`.constants`.

Nothing here imports discord.py on purpose: the fake must describe Discord, not echo the
client library's own idea of it, or a client bug would be mirrored instead of caught.
"""

from .channels import FakeChannel
from .commands import FakeCommand
from .components import (
    Component,
    SelectOption,
    assign_component_ids,
    find_component,
    walk_components,
)
from .guilds import FakeGuild
from .hub import Hub, SnowflakeFactory, now_iso
from .interactions import FakeInteraction
from .messages import MENTION_RE, FakeAttachment, FakeMessage, MessageVersion
from .users import FakeMember, FakeRole, FakeUser

__all__ = [
    "MENTION_RE",
    "Component",
    "FakeAttachment",
    "FakeChannel",
    "FakeCommand",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "Hub",
    "MessageVersion",
    "SelectOption",
    "SnowflakeFactory",
    "assign_component_ids",
    "find_component",
    "now_iso",
    "walk_components",
]
