"""Messages and their attachments, as Discord stores them, with test-friendly readers."""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .components import Component, find_component, walk_components
from .constants import EPHEMERAL, LOADING
from .hub import now_iso

if TYPE_CHECKING:
    from .channels import FakeChannel
    from .guilds import FakeGuild
    from .interactions import FakeInteraction
    from .users import FakeMember, FakeUser


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
    allowed_mentions: dict[str, Any] | None = None
    """The ``allowed_mentions`` the message was sent with (``None``: none given, so
    Discord's default: every mention in the content pings)."""
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
    def pinged(self) -> list[int]:
        """The people the content's mentions pinged, as Discord decides it from
        :attr:`allowed_mentions`: with none given, everyone mentioned; with
        ``parse`` holding ``"users"``, everyone mentioned; else only those mentioned
        who are also in its ``users`` list (Discord documents the list as a filter
        of the mentions in the content, not a way to ping someone unmentioned)."""
        allowed = self.allowed_mentions
        if allowed is None or "users" in allowed.get("parse", []):
            return list(dict.fromkeys(self.mentions))
        listed = {int(u) for u in allowed.get("users", [])}
        return [u for u in dict.fromkeys(self.mentions) if u in listed]

    @property
    def pings_everyone(self) -> bool:
        """Whether the content's ``@everyone`` or ``@here`` pinged the server, as
        Discord decides it from :attr:`allowed_mentions`."""
        if "@everyone" not in self.content and "@here" not in self.content:
            return False
        allowed = self.allowed_mentions
        return allowed is None or "everyone" in allowed.get("parse", [])

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
