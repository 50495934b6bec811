"""The match service's transport at the local table: the person's table, their
private view, and nothing of the others'."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import narrate, tr
from bot.matches.live import LiveMatch, PrivateView
from bot.terminal.words import LOCAL_USER, table_view
from bot.terminal_parts.screen import Screen
from rules.core import Event
from storage.models import SeatRow


class TerminalTransport:
    """Shows the person their table as the game goes (every narrated event as it
    happens, then the table), their private view, and nothing of others'."""

    def __init__(self, screen: Screen, seat_user: int = LOCAL_USER) -> None:
        self.screen = screen
        self.seat_user = seat_user
        self.hidden: set[int] = set()
        """Matches not shown: those restored at start-up that the person is not at."""
        self._shown: tuple[int, int] | None = None

    async def publish(self, match: LiveMatch, events: Sequence[Event]) -> int | None:
        if match.id in self.hidden:
            return None
        for event in events:
            self.screen.say(f"• {narrate(event, match.names)}", "event")
        if match.state is not None and match.row.status == "active":
            shown_now = (match.id, match.state.step)
            if events or shown_now != self._shown:  # not the same view twice
                seat = match.seat_of(self.seat_user)
                self.screen.show(table_view(match, seat.seat if seat else None))
                self._shown = shown_now
        return None

    async def deliver_private(self, match: LiveMatch, seat: SeatRow, view: PrivateView) -> bool:
        if seat.user_id == self.seat_user and match.id not in self.hidden:
            for event in view.events:
                self.screen.say("  " + tr("terminal.private", text=narrate(event, view.names)),
                                "private")
        return True

    async def notify(self, match: LiveMatch, notice: Event, mentions: Sequence[int] = ()
                     ) -> None:
        if match.id not in self.hidden:
            self.screen.say(f"! {narrate(notice, match.names)}", "hint")
