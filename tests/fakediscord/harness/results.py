"""What a test gets back from a simulated interaction: :class:`InteractionResult`, a live
view of how the bot answered (callback type, response message, follow-ups, modal,
autocomplete choices) with waits for the answers that come later."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from ..model import Component, FakeAttachment, FakeInteraction, FakeMessage, find_component
from ..model.constants import (
    CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_UPDATE_MESSAGE,
    UPDATE_MESSAGE,
)

if TYPE_CHECKING:
    from ..server import FakeDiscordServer


class InteractionResult:
    """What the bot did with one simulated interaction.

    The message accessors read the *current* state of the response message, so after a
    later edit ``result.content`` shows the edited text.
    """

    def __init__(self, fake: FakeDiscordServer, interaction: FakeInteraction) -> None:
        self.fake = fake
        self.interaction = interaction

    # --- state ------------------------------------------------------------------------

    @property
    def type(self) -> int | None:
        """The callback type (4 message, 5 deferred, 6 deferred update, 7 update, 8 choices,
        9 modal), ``None`` while unacknowledged."""
        return self.interaction.response_type

    @property
    def acked(self) -> bool:
        """Whether the bot acknowledged the interaction."""
        return self.interaction.acked

    @property
    def callback_attempts(self) -> int:
        """Every callback the bot tried for this interaction, refused ones included: more
        than 1 means it answered a redelivery too (and got 40060 for it)."""
        return self.interaction.callback_attempts

    @property
    def deferred(self) -> bool:
        """Whether the bot deferred (5 or 6)."""
        return self.type in (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, DEFERRED_UPDATE_MESSAGE)

    @property
    def message(self) -> FakeMessage | None:
        """The response message: the new one for 4/5, the component's message for 6/7."""
        return self.interaction.original

    @property
    def content(self) -> str:
        """Current content of the response message ("" if none)."""
        return self.message.content if self.message else ""

    @property
    def text(self) -> str:
        """Content, embed texts and text displays of the response message."""
        return self.message.text if self.message else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """Embeds of the response message."""
        return self.message.embeds if self.message else []

    @property
    def components(self) -> list[dict[str, Any]]:
        """Raw components of the response message."""
        return self.message.components if self.message else []

    @property
    def attachments(self) -> list[FakeAttachment]:
        """Attachments of the response message."""
        return self.message.attachments if self.message else []

    files = attachments

    @property
    def ephemeral(self) -> bool:
        """Whether the response message is ephemeral."""
        return bool(self.message and self.message.ephemeral)

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (type 9): ``custom_id``, ``title``, ``components``."""
        return self.interaction.modal

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (type 8)."""
        data = self.interaction.response_data or {}
        return list(data.get("choices") or [])

    def find_component(
        self, custom_id: str | None = None, *, label: str | None = None, kind: str | None = None
    ) -> Component:
        """A component of the response message, or of the modal for type 9."""
        if self.modal is not None:
            return find_component(
                self.modal.get("components") or [], custom_id, label=label, kind=kind, where="modal"
            )
        if self.message is None:
            raise LookupError(f"interaction answered with type {self.type} has no message")
        return self.message.find_component(custom_id, label=label, kind=kind)

    # --- waiting ----------------------------------------------------------------------

    async def acknowledged(self, timeout: float = 5.0) -> Self:
        """Wait until the bot sent its initial callback."""
        await self.fake.wait_for(
            lambda: self.interaction.acked,
            timeout,
            description=f"the bot to acknowledge {self._describe()}",
        )
        return self

    async def final(self, timeout: float = 5.0) -> FakeMessage:
        """The message the user finally sees: immediately for 4/7; for a deferral, after
        the bot edited the original response or sent a follow-up."""
        await self.acknowledged(timeout)
        inter = self.interaction
        if self.type in (CHANNEL_MESSAGE_WITH_SOURCE, UPDATE_MESSAGE):
            assert inter.original is not None
            return inter.original
        if self.type == DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
            original = inter.original
            assert original is not None
            await self.fake.wait_for(
                lambda: original.deleted or not original.loading,
                timeout,
                description=f"the deferred response to {self._describe()} to be completed",
            )
            if original.deleted:
                raise AssertionError(f"the bot deleted the deferred response to {self._describe()}")
            return original
        if self.type == DEFERRED_UPDATE_MESSAGE:
            await self.fake.wait_for(
                lambda: inter.original_edits or inter.followups,
                timeout,
                description=f"an edit or follow-up after deferring {self._describe()}",
            )
            if inter.original_edits and inter.original is not None:
                return inter.original
            return inter.followups[0]
        raise ValueError(f"callback type {self.type} produces no message")

    async def followups(self, n: int = 1, timeout: float = 5.0) -> list[FakeMessage]:
        """Wait for at least ``n`` follow-up messages and return all of them."""
        await self.fake.wait_for(
            lambda: len(self.interaction.followups) >= n,
            timeout,
            description=f"{n} follow-up(s) to {self._describe()}",
        )
        return list(self.interaction.followups)

    def all_messages(self) -> list[FakeMessage]:
        """Original response (if this interaction created one) plus follow-ups, no repeats."""
        inter = self.interaction
        found: list[FakeMessage] = []
        created = inter.response_type in (
            CHANNEL_MESSAGE_WITH_SOURCE,
            DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
        )
        if created and inter.original is not None:
            found.append(inter.original)
        for message in inter.followups:
            if message not in found:
                found.append(message)
        return found

    def _describe(self) -> str:
        inter = self.interaction
        if inter.command_name:
            return f"/{inter.command_name}"
        custom_id = (inter.payload.get("data") or {}).get("custom_id")
        return f"interaction type {inter.type} ({custom_id})"

    def __repr__(self) -> str:
        return f"<InteractionResult {self._describe()} type={self.type} message={self.message!r}>"
