"""The match service's transport at the local table: the person's table, their
private view, and nothing of the others'."""

from __future__ import annotations

from collections.abc import Sequence

from bot.live import LiveMatch, PrivateView
from bot.local_screen import Screen
from bot.local_words import LOCAL_USER, table_view
from rules.core import Event
from storage.models import SeatRow

RECAP = 8
"""Most lines of the computer's last moves repeated at the end of a game."""


class TerminalTransport:
    """Shows the person their table, their private view, and nothing of others'.

    It also remembers what the others did since the person's last choice, so
    that the end of a game can repeat the computer's last moves.
    """

    def __init__(self, screen: Screen, seat_user: int = LOCAL_USER) -> None:
        self.screen = screen
        self.seat_user = seat_user
        self.hidden: set[int] = set()
        """Matches not shown: those restored at start-up that the person is not at."""
        self._shown: tuple[int, int] | None = None
        self._own: tuple[Event, ...] = ()
        self._own_next = False
        self._since_own: list[str] = []
        self._before_own: list[str] = []

    def own(self, events: Sequence[Event]) -> None:
        """These events came from the person's own choice (not the computer's)."""
        self._own = tuple(events)

    def own_next(self) -> None:
        """The next events shown come from the person (a resignation, say)."""
        self._own_next = True

    def recap(self) -> tuple[str, list[str]]:
        """The computer's last moves, narrated, with a heading: those since the
        person's last choice, or, when that choice ended the game, those before it."""
        if self._since_own:
            return "Since your last move:", self._since_own[-RECAP:]
        return "Before your last move:", self._before_own[-RECAP:]

    async def publish(self, match: LiveMatch, events: Sequence[Event]) -> int | None:
        if match.id in self.hidden:
            return None
        own_batch, self._own_next = self._own_next, False
        for event in events:
            line = event.render(match.names)
            if own_batch or any(event is mine for mine in self._own):
                if self._since_own:
                    self._before_own = self._since_own
                self._since_own = []
            else:
                self._since_own.append(line)
            self.screen.say(f"• {line}", "event")
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
                self.screen.say(f"  (only you) {event.render(view.names)}", "private")
        return True

    async def notify(self, match: LiveMatch, notice: Event, mentions: Sequence[int] = ()
                     ) -> None:
        if match.id not in self.hidden:
            self.screen.say(f"! {notice.render(match.names)}", "hint")
