"""Interactions: one simulated user action and everything the bot answered to it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .constants import MODAL

if TYPE_CHECKING:
    from .channels import FakeChannel
    from .guilds import FakeGuild
    from .messages import FakeMessage
    from .users import FakeUser


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
    """Discord's time (the loop's, plus what ``fake.advance`` added) when
    INTERACTION_CREATE was first dispatched to the gateway."""
    callback_at: float | None = None
    """Discord's time when the first callback request (``POST .../callback``) reached
    the fake."""
    deliveries: int = 1
    """How often INTERACTION_CREATE went out for it (more than 1 after a redelivery)."""
    callback_attempts: int = 0
    """Every ``POST .../callback`` for it that reached the fake, refused ones included."""
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
