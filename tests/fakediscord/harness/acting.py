"""What every simulated user action shares: may this user act here at all, the answer
as an :class:`InteractionResult`, plain messages, and delivering an interaction again."""

from __future__ import annotations

from ..model import FakeChannel, FakeInteraction, FakeMessage, FakeUser
from .results import InteractionResult
from .world import WorldBuilding


class Acting(WorldBuilding):
    """The base of the user actions (commands in ``slash.py``, components in ``clicks.py``)."""

    def _check_presence(self, user: FakeUser, channel: FakeChannel) -> None:
        if channel.guild is not None:
            channel.guild.member(user)
        elif channel.recipient is not user:
            raise PermissionError(f"{user!r} cannot use the DM channel of {channel.recipient!r}")

    def _visible_message(self, user: FakeUser, message: FakeMessage | int) -> FakeMessage:
        msg = self.messages.get(message) if isinstance(message, int) else message
        if msg is None or msg.deleted:
            raise LookupError(f"message {message!r} does not exist (deleted?)")
        self._check_presence(user, msg.channel)
        if not msg.visible_to(user):
            raise PermissionError(f"{user!r} cannot see ephemeral message {msg.id}")
        return msg

    async def _result(
        self, inter: FakeInteraction, wait: bool, timeout: float
    ) -> InteractionResult:
        await self.flush()
        result = InteractionResult(self, inter)
        if wait:
            await result.acknowledged(timeout)
        return result

    async def send_message(self, user: FakeUser, channel: FakeChannel, content: str) -> FakeMessage:
        """Post a plain message as ``user`` (the bot receives MESSAGE_CREATE)."""
        self._check_presence(user, channel)
        message = FakeMessage(self.next_id(), channel, user, content=content)
        self._store_message(message)
        await self.flush()
        return message

    async def redeliver(
        self, interaction: InteractionResult | FakeInteraction
    ) -> InteractionResult:
        """Deliver an interaction to the bot once more: the very same INTERACTION_CREATE,
        same id and token, as Discord may do (an event replayed on RESUME, a retry).

        Returns as soon as the event was written to the gateway; the result is the same
        interaction, whose ``callback_attempts`` count every callback the bot tried. A
        second callback is refused as Discord refuses it: 400, code 40060 "Interaction has
        already been acknowledged". To see a bot stay silent, wait for its own sign (a
        counter, a log record) or :meth:`wait_until_idle`.
        """
        inter = (
            interaction.interaction if isinstance(interaction, InteractionResult) else interaction
        )
        self.redeliver_interaction(inter)
        await self.flush()
        return InteractionResult(self, inter)
