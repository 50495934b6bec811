"""Plain data the fake Discord keeps: users, guilds, channels, messages, commands, interactions.

Everything here is a dataclass with a ``to_payload`` that renders the JSON shape Discord's
API v10 uses, so the server module stays a thin protocol layer. The objects are the
test-side view of the world too: a test reads ``channel.messages[-1].content`` or
``message.find_component(label="Hit")`` directly.

Nothing here imports discord.py on purpose: the fake must describe Discord, not echo the
client library's own idea of it, or a client bug would be mirrored instead of caught.
"""

from __future__ import annotations

import itertools
import re
import struct
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

# --- constants --------------------------------------------------------------------------

DISCORD_EPOCH_MS = 1_420_070_400_000

# Permission bits (https://discord.com/developers/docs/topics/permissions).
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
CONNECT = 1 << 20
SPEAK = 1 << 21
CHANGE_NICKNAME = 1 << 26
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
USE_EXTERNAL_STICKERS = 1 << 37
SEND_MESSAGES_IN_THREADS = 1 << 38
USE_EMBEDDED_ACTIVITIES = 1 << 39
SEND_POLLS = 1 << 49
USE_EXTERNAL_APPS = 1 << 50
# Every bit Discord defines today and some headroom; admins see all of them.
ALL_PERMISSIONS = (1 << 53) - 1

#: What a fresh server's @everyone role may do (close to Discord's default).
DEFAULT_EVERYONE_PERMISSIONS = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CONNECT
    | SPEAK
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | USE_EXTERNAL_STICKERS
    | SEND_MESSAGES_IN_THREADS
    | USE_EMBEDDED_ACTIVITIES
    | SEND_POLLS
    | USE_EXTERNAL_APPS
)
#: The bot's managed role: what an invite link with sensible game-bot scopes grants.
DEFAULT_BOT_PERMISSIONS = DEFAULT_EVERYONE_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS
#: What the bot may do in a DM, reported as ``app_permissions`` there.
DM_APP_PERMISSIONS = (
    ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
)

# Channel types.
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12

# Message flags.
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15

# Interaction types.
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
APPLICATION_COMMAND_AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Interaction callback types.
CHANNEL_MESSAGE_WITH_SOURCE = 4
DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
APPLICATION_COMMAND_AUTOCOMPLETE_RESULT = 8
MODAL = 9

# Component types.
ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
ROLE_SELECT = 6
MENTIONABLE_SELECT = 7
CHANNEL_SELECT = 8
TEXT_DISPLAY = 10
LABEL = 18
SELECT_TYPES = frozenset(
    {STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT}
)
LINK_BUTTON_STYLE = 5
PREMIUM_BUTTON_STYLE = 6

COMPONENT_TYPE_NAMES = {
    ACTION_ROW: "action_row",
    BUTTON: "button",
    STRING_SELECT: "string_select",
    TEXT_INPUT: "text_input",
    USER_SELECT: "user_select",
    ROLE_SELECT: "role_select",
    MENTIONABLE_SELECT: "mentionable_select",
    CHANNEL_SELECT: "channel_select",
    9: "section",
    TEXT_DISPLAY: "text_display",
    11: "thumbnail",
    12: "media_gallery",
    13: "file",
    14: "separator",
    17: "container",
    LABEL: "label",
}


def now_iso() -> str:
    """Current time in the ISO 8601 form Discord sends."""
    return datetime.now(UTC).isoformat()


class SnowflakeFactory:
    """Hands out increasing snowflakes whose timestamp part is the real current time.

    Real-looking ids matter: discord.py derives ``created_at`` from them, and tests can
    compare ids to tell which message came first.
    """

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        """Return a new snowflake, strictly greater than every one before it."""
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last


class Hub(Protocol):
    """What the model needs from the fake that owns it (ids and change notifications)."""

    base_url: str
    bot_user: FakeUser
    users: dict[int, FakeUser]

    def next_id(self) -> int: ...

    def _channel_added(self, channel: FakeChannel) -> None: ...

    def _member_added(self, member: FakeMember) -> None: ...

    def _role_added(self, guild: FakeGuild, role: FakeRole) -> None: ...

    def _add_user_to_guild(
        self, guild: FakeGuild, name: str, *, admin: bool, roles: tuple[str | FakeRole, ...]
    ) -> FakeUser: ...


# --- users, guilds, channels --------------------------------------------------------------


@dataclass(eq=False)
class FakeUser:
    """A Discord user. ``name`` is the display name; ``username`` its lower-case handle."""

    id: int
    name: str
    bot: bool = False
    dms_closed: bool = False

    @property
    def username(self) -> str:
        """The unique handle: lower-case, no spaces."""
        return re.sub(r"[^a-z0-9_.]", "", self.name.lower()) or f"user{self.id}"

    @property
    def mention(self) -> str:
        """``<@id>``, as a bot would write it."""
        return f"<@{self.id}>"

    def to_payload(self) -> dict[str, Any]:
        """The user object (https://discord.com/developers/docs/resources/user)."""
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "banner": None,
            "accent_color": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "avatar_decoration_data": None,
            "collectibles": None,
            "primary_guild": None,
        }

    def __repr__(self) -> str:
        return f"<FakeUser {self.name!r} id={self.id}>"


@dataclass(eq=False)
class FakeRole:
    """A guild role."""

    id: int
    name: str
    permissions: int = 0
    position: int = 0
    managed: bool = False
    bot_id: int | None = None

    def to_payload(self) -> dict[str, Any]:
        """The role object."""
        payload: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }
        if self.bot_id is not None:
            payload["tags"] = {"bot_id": str(self.bot_id)}
        return payload


@dataclass(eq=False)
class FakeMember:
    """A user's membership in one guild."""

    user: FakeUser
    guild: FakeGuild
    roles: list[FakeRole] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=now_iso)

    @property
    def permissions(self) -> int:
        """Guild-level permissions: @everyone plus roles; everything for admins and owner."""
        if self.user.id == self.guild.owner_id:
            return ALL_PERMISSIONS
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    @property
    def is_admin(self) -> bool:
        """Whether the member has the Administrator permission."""
        return bool(self.permissions & ADMINISTRATOR)

    def to_payload(
        self, *, with_user: bool = True, with_permissions: bool = False
    ) -> dict[str, Any]:
        """The guild member object; interactions add ``permissions``."""
        payload: dict[str, Any] = {
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "roles": [str(role.id) for role in self.roles],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            payload["user"] = self.user.to_payload()
        if with_permissions:
            payload["permissions"] = str(self.permissions)
        return payload


@dataclass(eq=False)
class FakeChannel:
    """A text channel, thread or DM. ``messages`` holds the live (not deleted) ones, oldest first.

    Ephemeral messages are kept here too (flagged) so tests can read them, although the
    REST history the bot sees leaves them out, as Discord does.
    """

    id: int
    name: str
    type: int
    hub: Hub = field(repr=False)
    guild: FakeGuild | None = None
    parent: FakeChannel | None = None
    recipient: FakeUser | None = None
    owner_id: int | None = None
    position: int = 0
    topic: str | None = None
    archived: bool = False
    locked: bool = False
    messages: list[FakeMessage] = field(default_factory=list, repr=False)
    created_at: str = field(default_factory=now_iso, repr=False)

    @property
    def is_dm(self) -> bool:
        """Whether this is a DM channel."""
        return self.type == DM

    @property
    def is_thread(self) -> bool:
        """Whether this is a thread."""
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def mention(self) -> str:
        """``<#id>``."""
        return f"<#{self.id}>"

    @property
    def last_message(self) -> FakeMessage | None:
        """The newest live message, or ``None``."""
        return self.messages[-1] if self.messages else None

    def add_thread(self, name: str, *, private: bool = False) -> FakeChannel:
        """Create a thread under this text channel (as if a user started it)."""
        if self.guild is None:
            raise ValueError("threads live in guild text channels")
        return self.guild.add_thread(self, name, private=private)

    def to_payload(self) -> dict[str, Any]:
        """The channel object."""
        last_id = str(self.messages[-1].id) if self.messages else None
        if self.type == DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": last_id,
                "recipients": [self.recipient.to_payload()],
                "flags": 0,
            }
        assert self.guild is not None
        payload: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "last_message_id": last_id,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            assert self.parent is not None
            payload.update(
                parent_id=str(self.parent.id),
                owner_id=str(self.owner_id or 0),
                message_count=len(self.messages),
                total_message_sent=len(self.messages),
                member_count=1,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": self.created_at,
                    "locked": self.locked,
                    "invitable": True,
                    "create_timestamp": self.created_at,
                },
            )
        else:
            payload.update(
                parent_id=None,
                topic=self.topic,
                default_auto_archive_duration=1440,
                default_thread_rate_limit_per_user=0,
            )
        return payload

    def __repr__(self) -> str:
        return f"<FakeChannel #{self.name} id={self.id} type={self.type}>"


@dataclass(eq=False)
class FakeGuild:
    """A server. The bot is always a member; ``everyone`` is the @everyone role."""

    id: int
    name: str
    hub: Hub = field(repr=False)
    owner_id: int = 0
    bot_permissions: int = DEFAULT_BOT_PERMISSIONS
    roles: list[FakeRole] = field(default_factory=list)
    channels: list[FakeChannel] = field(default_factory=list)
    threads: list[FakeChannel] = field(default_factory=list)
    members: dict[int, FakeMember] = field(default_factory=dict)
    joined_at: str = field(default_factory=now_iso, repr=False)

    @property
    def everyone(self) -> FakeRole:
        """The @everyone role (its id equals the guild id, as on Discord)."""
        return self.roles[0]

    def role(self, name: str) -> FakeRole:
        """The role called ``name``."""
        for role in self.roles:
            if role.name == name:
                return role
        raise LookupError(f"no role {name!r} in {self.name!r}; have {[r.name for r in self.roles]}")

    def add_role(self, name: str, permissions: int = 0) -> FakeRole:
        """Create a role (or return the existing one with that name)."""
        for role in self.roles:
            if role.name == name:
                return role
        role = FakeRole(self.hub.next_id(), name, permissions, position=len(self.roles))
        self.roles.append(role)
        self.hub._role_added(self, role)
        return role

    def add_text_channel(self, name: str, *, topic: str | None = None) -> FakeChannel:
        """Create a text channel; a connected bot gets CHANNEL_CREATE."""
        channel = FakeChannel(
            self.hub.next_id(),
            name,
            GUILD_TEXT,
            self.hub,
            guild=self,
            position=len(self.channels),
            topic=topic,
        )
        self.channels.append(channel)
        self.hub._channel_added(channel)
        return channel

    def add_thread(
        self,
        parent: FakeChannel,
        name: str,
        *,
        private: bool = False,
        owner: FakeUser | None = None,
    ) -> FakeChannel:
        """Create a thread under ``parent``; a connected bot gets THREAD_CREATE."""
        if parent.guild is not self or parent.type != GUILD_TEXT:
            raise ValueError(f"{parent!r} is not a text channel of {self.name!r}")
        thread = FakeChannel(
            self.hub.next_id(),
            name,
            PRIVATE_THREAD if private else PUBLIC_THREAD,
            self.hub,
            guild=self,
            parent=parent,
            owner_id=owner.id if owner else self.owner_id,
        )
        self.threads.append(thread)
        self.hub._channel_added(thread)
        return thread

    def add_user(
        self, name: str, *, admin: bool = False, roles: tuple[str | FakeRole, ...] = ()
    ) -> FakeUser:
        """Create a user who is a member of this guild only."""
        return self.hub._add_user_to_guild(self, name, admin=admin, roles=roles)

    def add_member(
        self, user: FakeUser, *, admin: bool = False, roles: tuple[str | FakeRole, ...] = ()
    ) -> FakeMember:
        """Make an existing user a member; ``admin`` gives them an Administrator role."""
        member_roles: list[FakeRole] = []
        if admin:
            member_roles.append(self.add_role("Admin", ADMINISTRATOR))
        for role in roles:
            member_roles.append(role if isinstance(role, FakeRole) else self.add_role(role))
        member = FakeMember(user, self, member_roles)
        self.members[user.id] = member
        self.hub._member_added(member)
        return member

    def member(self, user: FakeUser | int) -> FakeMember:
        """The membership of ``user`` (``LookupError`` if not a member)."""
        user_id = user if isinstance(user, int) else user.id
        try:
            return self.members[user_id]
        except KeyError:
            raise LookupError(f"user {user_id} is not a member of {self.name!r}") from None

    def channel(self, name: str) -> FakeChannel:
        """The channel or thread called ``name``."""
        for channel in [*self.channels, *self.threads]:
            if channel.name == name:
                return channel
        raise LookupError(f"no channel {name!r} in {self.name!r}")

    def to_payload(self) -> dict[str, Any]:
        """The full GUILD_CREATE payload."""
        text_channels = [c for c in self.channels if c.type == GUILD_TEXT]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [role.to_payload() for role in self.roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": str(text_channels[0].id) if text_channels else None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": self.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [member.to_payload() for member in self.members.values()],
            "channels": [channel.to_payload() for channel in self.channels],
            "threads": [thread.to_payload() for thread in self.threads if not thread.archived],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name!r} id={self.id}>"


# --- messages and components -------------------------------------------------------------


@dataclass(eq=False)
class FakeAttachment:
    """A stored upload. ``data`` holds the exact bytes the bot sent."""

    id: int
    filename: str
    content_type: str
    data: bytes = field(repr=False)
    url: str = ""
    description: str | None = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        """Size in bytes."""
        return len(self.data)

    @property
    def image_size(self) -> tuple[int, int] | None:
        """``(width, height)`` for PNG data, else ``None`` (Discord reports both for images)."""
        if self.data[:8] == b"\x89PNG\r\n\x1a\n" and len(self.data) >= 24:
            width, height = struct.unpack(">II", self.data[16:24])
            return width, height
        return None

    def to_payload(self) -> dict[str, Any]:
        """The attachment object."""
        payload: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "flags": 0,
        }
        if self.description is not None:
            payload["description"] = self.description
        if self.ephemeral:
            payload["ephemeral"] = True
        size = self.image_size
        if size is not None:
            payload["width"], payload["height"] = size
        return payload


@dataclass(frozen=True)
class SelectOption:
    """One option of a string select."""

    label: str
    value: str
    description: str | None = None
    default: bool = False


@dataclass(frozen=True)
class Component:
    """A flattened view of one component anywhere in a message or modal (rows, containers,
    sections and labels are walked through). ``raw`` is the JSON the bot sent."""

    type: int
    raw: dict[str, Any] = field(repr=False, hash=False, compare=False)

    @property
    def kind(self) -> str:
        """Readable type name, e.g. ``"button"`` or ``"string_select"``."""
        return COMPONENT_TYPE_NAMES.get(self.type, f"type{self.type}")

    @property
    def custom_id(self) -> str | None:
        """The developer-set id, if any."""
        return self.raw.get("custom_id")

    @property
    def label(self) -> str | None:
        """A button's or label component's text."""
        return self.raw.get("label")

    @property
    def style(self) -> int | None:
        """Button or text input style."""
        return self.raw.get("style")

    @property
    def disabled(self) -> bool:
        """Whether the component is greyed out."""
        return bool(self.raw.get("disabled", False))

    @property
    def url(self) -> str | None:
        """A link button's URL."""
        return self.raw.get("url")

    @property
    def emoji(self) -> str | None:
        """The emoji's name (the unicode character for standard emoji)."""
        emoji = self.raw.get("emoji")
        return emoji.get("name") if emoji else None

    @property
    def placeholder(self) -> str | None:
        """A select's placeholder."""
        return self.raw.get("placeholder")

    @property
    def min_values(self) -> int:
        """Fewest values a select accepts."""
        return int(self.raw.get("min_values", 1))

    @property
    def max_values(self) -> int:
        """Most values a select accepts."""
        return int(self.raw.get("max_values", 1))

    @property
    def content(self) -> str | None:
        """A text display's markdown."""
        return self.raw.get("content")

    @property
    def options(self) -> list[SelectOption]:
        """A string select's options."""
        return [
            SelectOption(o["label"], o["value"], o.get("description"), bool(o.get("default")))
            for o in self.raw.get("options", [])
        ]

    @property
    def is_button(self) -> bool:
        """Whether this is a button."""
        return self.type == BUTTON

    @property
    def is_select(self) -> bool:
        """Whether this is any kind of select menu."""
        return self.type in SELECT_TYPES

    def option(self, label: str | None = None, *, value: str | None = None) -> SelectOption:
        """The select option with this label or value."""
        for option in self.options:
            if (label is None or option.label == label) and (
                value is None or option.value == value
            ):
                return option
        raise LookupError(f"no option label={label!r} value={value!r} in {self.options}")

    def __repr__(self) -> str:
        bits = [self.kind]
        for name in ("custom_id", "label", "placeholder"):
            value = getattr(self, name)
            if value is not None:
                bits.append(f"{name}={value!r}")
        if self.disabled:
            bits.append("disabled")
        return f"<Component {' '.join(bits)}>"


def walk_components(components: list[dict[str, Any]]) -> Iterator[Component]:
    """Yield every component depth-first, looking inside rows, containers, sections, labels."""
    for raw in components:
        yield Component(int(raw.get("type", 0)), raw)
        yield from walk_components(raw.get("components") or [])
        for key in ("accessory", "component"):
            child = raw.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


def find_component(
    components: list[dict[str, Any]],
    custom_id: str | None = None,
    *,
    label: str | None = None,
    kind: str | None = None,
    where: str = "message",
) -> Component:
    """Find exactly one interactive component by custom_id and/or label (and/or kind)."""
    if custom_id is None and label is None and kind is None:
        raise TypeError("give custom_id, label or kind")
    matches = [
        c
        for c in walk_components(components)
        if (custom_id is None or c.custom_id == custom_id)
        and (label is None or c.label == label or c.placeholder == label)
        and (kind is None or c.kind == kind)
    ]
    if not matches:
        available = [c for c in walk_components(components) if c.custom_id or c.label]
        raise LookupError(
            f"no component custom_id={custom_id!r} label={label!r} kind={kind!r} in {where}; "
            f"available: {available}"
        )
    if len(matches) > 1:
        raise LookupError(f"ambiguous component lookup in {where}: {matches}")
    return matches[0]


def assign_component_ids(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give every component a numeric ``id`` if it has none, as Discord does on store."""
    used = {c.raw["id"] for c in walk_components(components) if isinstance(c.raw.get("id"), int)}
    counter = itertools.count(1)
    for comp in walk_components(components):
        if "id" not in comp.raw:
            next_id = next(counter)
            while next_id in used:
                next_id = next(counter)
            comp.raw["id"] = next_id
    return components


MENTION_RE = re.compile(r"<@!?(\d+)>")


@dataclass(eq=False)
class MessageVersion:
    """A message as it was before an edit."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[FakeAttachment]
    flags: int
    edited_at: str


@dataclass(eq=False)
class FakeMessage:
    """A message as Discord stores it, plus test-friendly accessors.

    ``history`` keeps every previous version, so ``edit_count`` tells how often the bot
    edited it and ``history[0].content`` what it said at first.
    """

    id: int
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    webhook_id: int | None = None
    application_id: int | None = None
    interaction: FakeInteraction | None = field(default=None, repr=False)
    reference_id: int | None = None
    nonce: str | None = None
    poll: dict[str, Any] | None = None
    reactions: dict[str, list[int]] = field(default_factory=dict)
    timestamp: str = field(default_factory=now_iso)
    edited_timestamp: str | None = None
    history: list[MessageVersion] = field(default_factory=list, repr=False)
    deleted: bool = False

    # --- reading ----------------------------------------------------------------------

    @property
    def ephemeral(self) -> bool:
        """Only the interacting user can see it."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response still "thinking"."""
        return bool(self.flags & LOADING)

    @property
    def edit_count(self) -> int:
        """How many times the message was edited."""
        return len(self.history)

    @property
    def guild(self) -> FakeGuild | None:
        """The guild, or ``None`` for DMs."""
        return self.channel.guild

    @property
    def mentions(self) -> list[int]:
        """User ids mentioned in the content."""
        return [int(m) for m in MENTION_RE.findall(self.content)]

    @property
    def text(self) -> str:
        """All human-readable text: content, embed parts and v2 text displays, one per line."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            if embed.get("author", {}).get("name"):
                parts.append(embed["author"]["name"])
            for fld in embed.get("fields", []):
                parts.extend([str(fld.get("name", "")), str(fld.get("value", ""))])
            if embed.get("footer", {}).get("text"):
                parts.append(embed["footer"]["text"])
        parts.extend(c.content for c in walk_components(self.components) if c.content)
        return "\n".join(parts)

    def contains(self, text: str) -> bool:
        """Whether ``text`` occurs anywhere in :attr:`text` (case-sensitive)."""
        return text in self.text

    @property
    def all_components(self) -> list[Component]:
        """Every component, flattened."""
        return list(walk_components(self.components))

    @property
    def buttons(self) -> list[Component]:
        """Every button."""
        return [c for c in self.all_components if c.is_button]

    @property
    def selects(self) -> list[Component]:
        """Every select menu."""
        return [c for c in self.all_components if c.is_select]

    def find_component(
        self, custom_id: str | None = None, *, label: str | None = None, kind: str | None = None
    ) -> Component:
        """The one component matching ``custom_id`` and/or ``label`` (or select placeholder)."""
        return find_component(
            self.components, custom_id, label=label, kind=kind, where=f"message {self.id}"
        )

    def has_component(self, custom_id: str | None = None, *, label: str | None = None) -> bool:
        """Whether such a component exists."""
        try:
            self.find_component(custom_id, label=label)
        except LookupError:
            return False
        return True

    def attachment(self, filename: str) -> FakeAttachment:
        """The attachment with this file name."""
        for att in self.attachments:
            if att.filename == filename:
                return att
        raise LookupError(
            f"no attachment {filename!r}; have {[a.filename for a in self.attachments]}"
        )

    def visible_to(self, user: FakeUser) -> bool:
        """Ephemeral messages are seen only by the user whose interaction made them."""
        if not self.ephemeral:
            return True
        return self.interaction is not None and self.interaction.user.id == user.id

    # --- writing (used by the server) ------------------------------------------------

    def snapshot(self) -> MessageVersion:
        """Freeze the current version."""
        return MessageVersion(
            self.content,
            list(self.embeds),
            list(self.components),
            list(self.attachments),
            self.flags,
            self.edited_timestamp or self.timestamp,
        )

    def to_payload(
        self, *, guild_id: bool = True, member: FakeMember | None = None
    ) -> dict[str, Any]:
        """The message object; gateway events add ``guild_id`` and the author's ``member``."""
        payload: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.to_payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": self._mention_payloads(),
            "mention_roles": [],
            "attachments": [att.to_payload() for att in self.attachments],
            "embeds": self.embeds,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if self.reactions:
            payload["reactions"] = [
                {
                    "emoji": {"id": None, "name": emoji},
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": self.channel.hub.bot_user.id in users,
                    "me_burst": False,
                    "burst_colors": [],
                }
                for emoji, users in self.reactions.items()
            ]
        if guild_id and self.channel.guild is not None:
            payload["guild_id"] = str(self.channel.guild.id)
        if member is not None:
            payload["member"] = member.to_payload(with_user=False)
        if self.webhook_id is not None:
            payload["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            payload["application_id"] = str(self.application_id)
        if self.nonce is not None:
            payload["nonce"] = self.nonce
        if self.poll is not None:
            payload["poll"] = self.poll
        if self.reference_id is not None:
            payload["message_reference"] = {
                "type": 0,
                "message_id": str(self.reference_id),
                "channel_id": str(self.channel.id),
            }
            if self.channel.guild is not None:
                payload["message_reference"]["guild_id"] = str(self.channel.guild.id)
        if self.interaction is not None:
            inter = self.interaction
            meta: dict[str, Any] = {
                "id": str(inter.id),
                "type": inter.type,
                "user": inter.user.to_payload(),
                "authorizing_integration_owners": inter.integration_owners,
            }
            if inter.original is not None and inter.original is not self:
                meta["original_response_message_id"] = str(inter.original.id)
            if inter.message is not None:
                meta["interacted_message_id"] = str(inter.message.id)
            payload["interaction_metadata"] = meta
            # Deprecated but still sent by Discord; discord.py reads it for view tracking.
            payload["interaction"] = {
                "id": str(inter.id),
                "type": inter.type,
                "name": inter.command_name or "",
                "user": inter.user.to_payload(),
            }
        return payload

    def _mention_payloads(self) -> list[dict[str, Any]]:
        users = []
        for user_id in dict.fromkeys(self.mentions):
            user = self.channel.hub.users.get(user_id)
            if user is not None:
                users.append(user.to_payload())
        return users

    def __repr__(self) -> str:
        text = self.text.replace("\n", " | ")
        if len(text) > 60:
            text = text[:57] + "..."
        extra = " ephemeral" if self.ephemeral else ""
        where = f"#{self.channel.name}"
        return f"<FakeMessage id={self.id} in {where} by {self.author.name}{extra}: {text!r}>"


# --- commands and interactions -----------------------------------------------------------


@dataclass(eq=False)
class FakeCommand:
    """A registered application command; ``raw`` is the full stored shape."""

    raw: dict[str, Any]

    @property
    def id(self) -> int:
        """The command's snowflake."""
        return int(self.raw["id"])

    @property
    def name(self) -> str:
        """Top-level name."""
        return self.raw["name"]

    @property
    def type(self) -> int:
        """1 slash, 2 user context menu, 3 message context menu."""
        return int(self.raw.get("type", 1))

    @property
    def guild_id(self) -> int | None:
        """The guild for guild commands, ``None`` for global ones."""
        value = self.raw.get("guild_id")
        return int(value) if value else None

    @property
    def options(self) -> list[dict[str, Any]]:
        """Top-level options (may be subcommands/groups)."""
        return self.raw.get("options") or []

    @property
    def default_member_permissions(self) -> int | None:
        """Permission bits a member needs to see the command, ``None`` for everyone."""
        value = self.raw.get("default_member_permissions")
        return None if value is None else int(value)

    def allowed_in_dm(self) -> bool:
        """Whether Discord offers the command in the bot's DMs."""
        contexts = self.raw.get("contexts")
        if contexts is not None:
            return 1 in contexts
        return self.raw.get("dm_permission") is not False and self.guild_id is None

    def subcommand_names(self) -> list[str]:
        """Every full name ("game", "game start", "game admin reset")."""
        names: list[str] = []
        subs = [o for o in self.options if o.get("type") in (1, 2)]
        if not subs:
            return [self.name]
        for opt in subs:
            if opt["type"] == 1:
                names.append(f"{self.name} {opt['name']}")
            else:
                for sub in opt.get("options") or []:
                    names.append(f"{self.name} {opt['name']} {sub['name']}")
        return names

    def __repr__(self) -> str:
        where = f"guild={self.guild_id}" if self.guild_id else "global"
        return f"<FakeCommand /{self.name} id={self.id} {where}>"


@dataclass(eq=False)
class FakeInteraction:
    """One simulated user action and everything the bot answered to it."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    payload: dict[str, Any] = field(repr=False)
    created_at: float = 0.0
    """Loop time when INTERACTION_CREATE was dispatched to the gateway."""
    callback_at: float | None = None
    """Loop time when the first callback request (``POST .../callback``) reached the fake."""
    command_name: str | None = None
    message: FakeMessage | None = None  # the message a component/modal was used on
    response_type: int | None = None
    response_data: dict[str, Any] | None = field(default=None, repr=False)
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    original_edits: int = 0
    deleted_original: bool = False

    @property
    def acked(self) -> bool:
        """Whether the bot sent the initial callback."""
        return self.response_type is not None

    @property
    def guild(self) -> FakeGuild | None:
        """The guild, or ``None`` in DMs."""
        return self.channel.guild

    @property
    def integration_owners(self) -> dict[str, str]:
        """``authorizing_integration_owners`` for a guild-installed app."""
        return {"0": str(self.guild.id) if self.guild else "0"}

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (callback type 9), if any."""
        return self.response_data if self.response_type == MODAL else None
