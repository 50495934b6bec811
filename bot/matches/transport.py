"""What the match service needs from the outside world, and a transport that
needs nothing (benchmarks, tests of the service alone)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.matches.live import LiveMatch, PrivateView
from rules.core import Event
from storage.models import SeatRow


class ShowLater(Exception):
    """Showing failed for now (Discord answered 5xx, stayed rate-limited, timed out):
    the driver shows the match again later. Nothing is concluded about the player
    or the channel from it (a DM that failed so is not "DMs closed")."""


class Transport(Protocol):
    """Shows matches to people: Discord, the terminal, or a recorder in tests."""

    async def publish(self, match: LiveMatch, events: Sequence[Event]) -> int | None:
        """Post or edit the public table after ``events`` (all public, the ones
        not shown before; a table's narration is ``match.narration``, which holds
        them). Returns the table message id, or ``None`` if the transport has no
        messages. Raises :class:`ShowLater` on a temporary failure (``events`` are
        still in the narration of the next table)."""
        ...

    async def deliver_private(self, match: LiveMatch, seat: SeatRow, view: PrivateView) -> bool:
        """Send a seat its private view (hand, pending secret choice). ``False`` when
        the player cannot be reached privately (closed DMs); :class:`ShowLater` on a
        temporary failure."""
        ...

    async def notify(self, match: LiveMatch, notice: Event, mentions: Sequence[int] = ()
                     ) -> None:
        """A short public line in the match's channel (warnings, DM trouble), its
        ``{s0}``… the seats' names as for events; :class:`ShowLater` on a temporary
        failure."""
        ...


class NullTransport:
    """A transport that shows nothing and reaches everyone."""

    async def publish(self, match: LiveMatch, events: Sequence[Event]) -> int | None:
        """Shows nothing."""
        return match.row.table_message_id

    async def deliver_private(self, match: LiveMatch, seat: SeatRow, view: PrivateView) -> bool:
        """Pretends delivery worked."""
        return True

    async def notify(self, match: LiveMatch, notice: Event, mentions: Sequence[int] = ()
                     ) -> None:
        """Says nothing."""
