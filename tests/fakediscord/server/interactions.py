"""Interactions from the bot's side: building the full v10 INTERACTION_CREATE envelope
for a user's action, sending it (again, for a redelivery), the messages that answer it,
and forgetting it after a load run."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from ..model import FakeChannel, FakeInteraction, FakeMessage, FakeUser
from ..model.constants import APPLICATION_COMMAND, DM_APP_PERMISSIONS, EPHEMERAL, LOADING
from .store import MessageStore
from .wire import Upload


def response_message_type(inter: FakeInteraction) -> int:
    """Message type of an answer: 20 (CHAT_INPUT_COMMAND) for commands, else 0 (DEFAULT)."""
    return 20 if inter.type == APPLICATION_COMMAND else 0


TOKEN_LIFETIME = 15 * 60.0
"""Seconds an interaction token lasts (interactions/receiving-and-responding)."""


class InteractionDispatch(MessageStore):
    """Starts interactions on the gateway and creates the messages that answer them."""

    _clock_offset = 0.0
    """Seconds :meth:`advance` moved Discord's clock past the event loop's."""

    def discord_time(self) -> float:
        """Discord's clock for interactions (their 3 s and their tokens' 15 minutes): the
        event loop's time plus what :meth:`advance` added."""
        return asyncio.get_running_loop().time() + self._clock_offset

    def advance(self, seconds: float) -> None:
        """Move Discord's clock ``seconds`` on, at once: interactions age that much (an
        interaction token expires 15 minutes after its interaction), nothing waits."""
        if seconds < 0:
            raise ValueError("Discord's clock only goes forward")
        self._clock_offset += seconds
        self._bump()

    def token_expired(self, inter: FakeInteraction) -> bool:
        """Whether ``inter``'s token is past its 15 minutes."""
        return self.discord_time() - inter.created_at > TOKEN_LIFETIME

    def _require_bot(self) -> None:
        if not self._live_sessions():
            raise RuntimeError("no bot is connected to the fake gateway (start one first)")

    def start_interaction(
        self,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        message: FakeMessage | None = None,
        command_name: str | None = None,
        locale: str | None = None,
    ) -> FakeInteraction:
        """Create an interaction and send INTERACTION_CREATE with the full v10 envelope
        (``locale``: the clicker's Discord client's, else :attr:`default_locale`)."""
        self._require_bot()
        locale = locale or getattr(self, "default_locale", "en-US")
        late = self.interaction_delay
        inter = FakeInteraction(
            id=self.earlier_id(late) if late > 0 else self.next_id(),
            token=f"fake-{secrets.token_urlsafe(24)}",
            type=itype,
            user=user,
            channel=channel,
            payload={},
            created_at=self.discord_time() - late,
            command_name=command_name,
            message=message,
        )
        guild = channel.guild
        channel_payload = channel.to_payload()
        payload: dict[str, Any] = {
            "id": str(inter.id),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": inter.token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": channel_payload,
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": inter.integration_owners,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if guild is not None:
            member = guild.member(user)
            channel_payload["permissions"] = str(member.permissions)
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                guild_locale=guild.preferred_locale,
                member=member.to_payload(with_permissions=True),
                app_permissions=str(self._bot_member(guild).permissions),
                context=0,
            )
        else:
            payload.update(
                user=user.to_payload(), app_permissions=str(DM_APP_PERMISSIONS), context=1
            )
        if message is not None:
            payload["message"] = message.to_payload()
        inter.payload = payload
        self.interactions[inter.id] = inter
        self._by_token[inter.token] = inter
        self._broadcast("INTERACTION_CREATE", payload, guild_id=guild.id if guild else None)
        return inter

    def redeliver_interaction(self, inter: FakeInteraction) -> None:
        """Send INTERACTION_CREATE for ``inter`` once more: same id, token and payload, as
        when Discord delivers an event twice (e.g. replayed on RESUME). Its answers, and
        the 3 s deadline counted from the first delivery, stay as they are."""
        self._require_bot()
        if self.interactions.get(inter.id) is not inter:
            raise LookupError(f"interaction {inter.id} is unknown to the fake (forgotten?)")
        inter.deliveries += 1
        guild = inter.channel.guild
        self._broadcast("INTERACTION_CREATE", inter.payload,
                        guild_id=guild.id if guild is not None else None)

    def forget_interaction(self, inter: FakeInteraction) -> None:
        """Drop an interaction, and the messages it created, from the fake's records, so a
        long load run does not grow them without end (a growing heap means ever longer
        garbage-collection pauses in the loop the fake shares with the bot). Its token and
        messages are unknown to the fake afterwards, as if long expired and deleted."""
        self.interactions.pop(inter.id, None)
        self._by_token.pop(inter.token, None)
        for message in (inter.original, *inter.followups):
            # Only what the interaction created: not the message a component was used on.
            if message is None or message.interaction is not inter:
                continue
            self.messages.pop(message.id, None)
            if message in message.channel.messages:  # the original may be a follow-up too
                message.channel.messages.remove(message)

    def _interaction_message(
        self, inter: FakeInteraction, body: dict[str, Any], uploads: dict[int, Upload]
    ) -> FakeMessage:
        """A message the bot creates in answer to an interaction (response or follow-up)."""
        return self.create_message(
            inter.channel,
            self.bot_user,
            body,
            uploads,
            interaction=inter,
            allow_ephemeral=True,
            message_type=response_message_type(inter),
            webhook_id=self.application_id,
        )

    def _loading_message(self, inter: FakeInteraction, flags: int) -> FakeMessage:
        """The "thinking..." message of a deferred response (callback type 5)."""
        loading = FakeMessage(
            self.next_id(),
            inter.channel,
            self.bot_user,
            flags=LOADING | (flags & EPHEMERAL),
            type=response_message_type(inter),
            webhook_id=self.application_id,
            application_id=self.application_id,
            interaction=inter,
        )
        self._store_message(loading)
        return loading
