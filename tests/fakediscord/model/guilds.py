"""Guilds (servers): their roles, channels, threads and members."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .channels import DEFAULT_ARCHIVE_DURATION, FakeChannel
from .constants import (
    ADMINISTRATOR,
    DEFAULT_BOT_PERMISSIONS,
    GUILD_CATEGORY,
    GUILD_TEXT,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
)
from .hub import Hub, now_iso
from .users import FakeMember, FakeRole, FakeUser

MAX_GUILD_CHANNELS = 500
"""Channels in a server, categories included; threads do not count (topics/
opcodes-and-status-codes: 30013 "Maximum number of guild channels reached (500)")."""
MAX_CATEGORY_CHANNELS = 50
"""Channels in one category (resources/channel: a category "contains up to 50
channels")."""
MAX_ACTIVE_THREADS = 1000
"""Active (not archived) threads in a server (resources/channel: "Guilds have limits on
the number of active threads"; 1,000 in Discord's Threads FAQ; 160006 "Maximum number of
active threads reached")."""


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
    max_channels: int = MAX_GUILD_CHANNELS
    max_category_channels: int = MAX_CATEGORY_CHANNELS
    max_active_threads: int = MAX_ACTIVE_THREADS
    """Discord's caps, the same for every server; a test may lower one rather than
    fill a server to Discord's number."""
    preferred_locale: str = "en-US"
    """The server's language as its settings name it (Discord's ``preferred_locale``,
    also each interaction's ``guild_locale``)."""

    def in_category(self, category: FakeChannel) -> list[FakeChannel]:
        """The channels in ``category``."""
        return [c for c in self.channels if c.parent is category]

    @property
    def active_threads(self) -> list[FakeChannel]:
        """The threads not archived."""
        return [t for t in self.threads if not t.archived]

    def channel_cap(self, category: FakeChannel | None) -> str | None:
        """Which cap a new channel (in ``category``, if given) would pass:
        ``"server"``, ``"category"``, or ``None`` when it fits."""
        if len(self.channels) >= self.max_channels:
            return "server"
        if category is not None and len(self.in_category(category)) >= self.max_category_channels:
            return "category"
        return None

    def thread_room(self) -> bool:
        """Whether one more thread may be active."""
        return len(self.active_threads) < self.max_active_threads

    def _check_channel_room(self, category: FakeChannel | None) -> None:
        cap = self.channel_cap(category)
        if cap is not None:
            raise ValueError(f"{self.name!r} has no room for another channel "
                             f"(its {cap}'s cap; Discord would refuse it)")

    @property
    def everyone(self) -> FakeRole:
        """The @everyone role (its id equals the guild id, as on Discord)."""
        return self.roles[0]

    def role(self, name: str) -> FakeRole:
        """The role called ``name``."""
        role = self._find_role(name)
        if role is None:
            have = [r.name for r in self.roles]
            raise LookupError(f"no role {name!r} in {self.name!r}; have {have}")
        return role

    def add_role(self, name: str, permissions: int = 0) -> FakeRole:
        """Create a role (or return the existing one with that name)."""
        role = self._find_role(name)
        if role is not None:
            return role
        role = FakeRole(self.hub.next_id(), name, permissions, position=len(self.roles))
        self.roles.append(role)
        self.hub._role_added(self, role)
        return role

    def _find_role(self, name: str) -> FakeRole | None:
        return next((role for role in self.roles if role.name == name), None)

    def add_text_channel(
        self, name: str, *, topic: str | None = None, category: FakeChannel | None = None
    ) -> FakeChannel:
        """Create a text channel (in ``category``, if given); a connected bot gets
        CHANNEL_CREATE."""
        if category is not None and (category.guild is not self or category.type != GUILD_CATEGORY):
            raise ValueError(f"{category!r} is not a category of {self.name!r}")
        self._check_channel_room(category)
        channel = FakeChannel(
            self.hub.next_id(),
            name,
            GUILD_TEXT,
            self.hub,
            guild=self,
            parent=category,
            position=len(self.channels),
            topic=topic,
        )
        self.channels.append(channel)
        self.hub._channel_added(channel)
        return channel

    def add_category(self, name: str) -> FakeChannel:
        """Create a category (a channel that groups channels); a connected bot gets
        CHANNEL_CREATE."""
        self._check_channel_room(None)
        category = FakeChannel(
            self.hub.next_id(), name, GUILD_CATEGORY, self.hub, guild=self,
            position=len(self.channels),
        )
        self.channels.append(category)
        self.hub._channel_added(category)
        return category

    def add_thread(
        self,
        parent: FakeChannel,
        name: str,
        *,
        private: bool = False,
        owner: FakeUser | None = None,
        thread_id: int | None = None,
        auto_archive_duration: int = DEFAULT_ARCHIVE_DURATION,
    ) -> FakeChannel:
        """Create a thread under ``parent``; a connected bot gets THREAD_CREATE.
        ``thread_id`` is for a thread started from a message, which takes its id."""
        if parent.guild is not self or parent.type != GUILD_TEXT:
            raise ValueError(f"{parent!r} is not a text channel of {self.name!r}")
        if not self.thread_room():
            raise ValueError(f"{self.name!r} has {self.max_active_threads} active threads "
                             "already (Discord would refuse another)")
        thread = FakeChannel(
            thread_id or self.hub.next_id(),
            name,
            PRIVATE_THREAD if private else PUBLIC_THREAD,
            self.hub,
            guild=self,
            parent=parent,
            owner_id=owner.id if owner else self.owner_id,
            auto_archive_duration=auto_archive_duration,
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
            "preferred_locale": self.preferred_locale,
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
