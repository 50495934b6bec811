"""Channels: guild text channels, threads and DMs, with the messages they hold."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .constants import DM, PRIVATE_THREAD, PUBLIC_THREAD
from .hub import Hub, now_iso

ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
"""The minutes of inactivity after which a thread archives itself, the only values
Discord takes for ``auto_archive_duration`` (resources/channel, Start Thread)."""
DEFAULT_ARCHIVE_DURATION = 1440
"""A text channel's ``default_auto_archive_duration`` in the fake (Discord's default),
which discord.py sends for a thread made without a duration of its own."""

if TYPE_CHECKING:
    from .guilds import FakeGuild
    from .messages import FakeMessage
    from .users import FakeUser


@dataclass(eq=False)
class FakeChannel:
    """A text channel, category, thread or DM. ``messages`` holds the live (not deleted)
    ones, oldest first. ``parent`` is a thread's channel, or a text channel's category.

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
    auto_archive_duration: int = DEFAULT_ARCHIVE_DURATION
    """A thread's minutes without activity before it archives itself."""
    idle: float = 0.0
    """Seconds of Discord's clock since the thread's last activity (a message, being
    unarchived, a new duration): ``fake.advance`` adds to it, activity resets it."""
    messages: list[FakeMessage] = field(default_factory=list, repr=False)
    created_at: str = field(default_factory=now_iso, repr=False)
    archive_timestamp: str = field(default_factory=now_iso, repr=False)
    """When the thread was made, archived or unarchived last, or its duration changed."""

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

    @property
    def archive_after(self) -> float:
        """A thread's seconds of inactivity before it archives itself."""
        return self.auto_archive_duration * 60.0

    def set_archived(self, archived: bool) -> None:
        """Archive or unarchive (the thread's archive timestamp moves; unarchiving is
        activity). The caller checks Discord's rules and announces the change."""
        self.archived = archived
        self.archive_timestamp = now_iso()
        if not archived:
            self.idle = 0.0

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
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.archive_timestamp,
                    "locked": self.locked,
                    "invitable": True,
                    "create_timestamp": self.created_at,
                },
            )
        else:
            # A text channel's parent is its category, if it has one.
            payload.update(
                parent_id=str(self.parent.id) if self.parent is not None else None,
                topic=self.topic,
                default_auto_archive_duration=DEFAULT_ARCHIVE_DURATION,
                default_thread_rate_limit_per_user=0,
            )
        return payload

    def __repr__(self) -> str:
        return f"<FakeChannel #{self.name} id={self.id} type={self.type}>"
