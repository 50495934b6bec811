"""People: users, guild roles, and a user's membership in a guild."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .constants import ADMINISTRATOR, ALL_PERMISSIONS
from .hub import now_iso

if TYPE_CHECKING:
    from .guilds import FakeGuild


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
