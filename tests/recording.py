"""A transport that records what the service would show, for service tests."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.i18n import narrate
from bot.matches.live import LiveMatch, PrivateView
from rules.core import Event
from storage.models import SeatRow


@dataclass
class RecordingTransport:
    """Keeps every publish, private delivery and notice; DMs to ``closed`` fail."""

    closed: set[int] = field(default_factory=set)
    published: list[tuple[int, list[Event]]] = field(default_factory=list)
    private: list[tuple[int, PrivateView]] = field(default_factory=list)
    notices: list[tuple[int, str, tuple[int, ...]]] = field(default_factory=list)
    """(match, the notice in English with the seats' names filled in, who it pings)."""
    next_message_id: int = 1000

    async def publish(self, match: LiveMatch, events: Sequence[Event]) -> int | None:
        self.published.append((match.id, list(events)))
        if match.row.table_message_id is None:
            self.next_message_id += 1
            return self.next_message_id
        return match.row.table_message_id

    async def deliver_private(self, match: LiveMatch, seat: SeatRow, view: PrivateView) -> bool:
        if seat.user_id in self.closed:
            return False
        self.private.append((seat.user_id or 0, view))
        return True

    async def notify(self, match: LiveMatch, notice: Event, mentions: Sequence[int] = ()
                     ) -> None:
        self.notices.append((match.id, narrate(notice, match.names, "en"), tuple(mentions)))

    def public_texts(self, names: Sequence[str]) -> list[str]:
        """Every public line shown, names filled in."""
        lines = [narrate(e, names, "en") for _, events in self.published for e in events]
        return lines + [text for _, text, _ in self.notices]
