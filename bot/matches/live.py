"""A match held in memory while it is live: its stored row, its state and its lock."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import Any

from bot.i18n import Phrase
from bot.recent import RecentIds
from rules.core import Decision, Event, GameInfo, GameState
from storage.models import MatchRow, SeatRow

RECENT = 64
"""Interaction ids remembered per match, to acknowledge a repeated one again
without a read of the log."""
NARRATED = 6
"""Public events a match keeps for its table's narration: as many lines as a table
shows (:meth:`bot.games.presenter.GamePresenter.table`)."""


def opening(info: GameInfo) -> Event:
    """The event a match begins with (narrated, never logged: a restart tells it again)."""
    return Event("start", Phrase("table.begins", game=info.title))


@dataclass(frozen=True)
class Player:
    """Who is acting: a Discord user (or the local table's person)."""

    user_id: int
    name: str
    is_moderator: bool = False


@dataclass
class PrivateView:
    """What one seat may see now, with its pending decision: the content of a
    hand DM and of the ephemeral ``/hand`` fallback alike.

    ``observe`` gives the seat's observation; it is asked once, when something
    shows the view (the service decides what to send; only what is shown needs
    the observation, and a state is never changed once it is a match's).

    >>> view = PrivateView(1, "a-game", 0, 3, lambda: "board", None, ("Ada", "Bo"))
    >>> view.observation
    'board'
    """

    match_id: int
    game: str
    seat: int
    step: int
    observe: Callable[[], Any] = field(repr=False, compare=False)
    """Gives the observation (not frozen: one view is made per seat per change,
    and a frozen dataclass costs four times as much to make)."""
    decision: Decision | None
    names: tuple[str, ...]
    events: tuple[Event, ...] = ()

    @cached_property
    def observation(self) -> Any:
        """What the seat may see (its game's observation)."""
        return self.observe()


@dataclass
class LiveMatch:
    """A lobby or a match in play."""

    row: MatchRow
    info: GameInfo
    state: GameState | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    showing: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while the table and DMs are being shown, so two showings never race."""
    next_seq: int = 0
    outbox: list[Event] = field(default_factory=list)
    """Public events not yet shown (see :meth:`tell`)."""
    private_outbox: list[Event] = field(default_factory=list)
    narration: deque[Event] = field(default_factory=lambda: deque(maxlen=NARRATED))
    """The latest public events, oldest first, shown or not yet: what the table
    narrates. Kept with the match, not by whoever shows it, so that a table shown
    again (after a restart, the log replayed; or once more for a DM that failed)
    narrates the same events."""
    delivered: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    """What each seat was last sent privately (to send only changes)."""
    dm_failed: set[int] = field(default_factory=set)
    recent_interactions: RecentIds = field(default_factory=lambda: RecentIds(RECENT))
    finished: bool = False
    result_shown: bool = False
    """The final table and the result post are in the channel (set once, by the
    driver; kept by the store for a restart)."""
    final_views: set[int] = field(default_factory=set)
    """Seats whose final view is settled: it reached them by DM, or their DMs are
    closed (kept by the store while the match is queued, so a restart does not
    send one again)."""
    known_at: float = field(default_factory=time.monotonic)
    """When this process last knew its copy to be the store's (a write of its own, a
    read): where processes share the store, a copy older than
    :data:`~bot.matches.delivery.FRESH_FOR` is checked before it is shown."""
    elsewhere: bool = False
    """The match ended in another process, which shows it (docs/clusters.md)."""
    last_shown: bool = False
    """Everything of a finished match is out: the result post and every final
    view (set once, by the driver; the store keeps the match queued until then)."""
    turn_seconds: int | None = None
    """The server's own deadline setting, if it has one."""
    warn_seconds: int | None = None
    id: int = field(init=False)
    """The match id (its row's, which never changes; asked on every move)."""

    def __post_init__(self) -> None:
        self.id = self.row.id

    def tell(self, events: Iterable[Event]) -> None:
        """Queue ``events`` to be shown: public ones on the table (and in its
        narration), the others privately to the seats they are for."""
        for event in events:
            if event.seats is None:
                self.outbox.append(event)
                self.narration.append(event)
            else:
                self.private_outbox.append(event)

    @property
    def seats(self) -> list[SeatRow]:
        """The seats in seat order."""
        return self.row.seats

    @property
    def names(self) -> tuple[str, ...]:
        """Seat names in seat order, for narration."""
        return tuple(seat.name for seat in self.row.seats)

    @property
    def computer_seats(self) -> set[int]:
        """The seats dealt to computer players (the result calls them so)."""
        return {seat.seat for seat in self.row.seats if seat.is_bot}

    @property
    def playing(self) -> bool:
        """True once started and until finished."""
        return self.row.status == "active" and self.state is not None and not self.finished

    def seat_of(self, user_id: int) -> SeatRow | None:
        """The seat a person plays in (not one they were kicked from)."""
        for seat in self.row.seats:
            if seat.user_id == user_id and seat.state == "playing" and not seat.is_bot:
                return seat
        return None

    def humans_pending(self) -> list[SeatRow]:
        """Seats a person must decide for now."""
        if not self.playing:
            return []
        assert self.state is not None
        pending = {d.seat for d in self.state.pending()}
        return [s for s in self.row.seats if s.seat in pending and not s.computer_plays]

    def private_view(self, seat: int) -> PrivateView:
        """What ``seat`` may see now."""
        assert self.state is not None
        return self.view_of(self.state, seat, self.state.decision_for(seat))

    def view_of(self, state: GameState, seat: int, decision: Decision | None,
                events: tuple[Event, ...] = ()) -> PrivateView:
        """``seat``'s view of ``state`` (one of this match's), with its decision there."""
        return PrivateView(match_id=self.id, game=self.info.name, seat=seat, step=state.step,
                           observe=partial(state.observe, seat), decision=decision,
                           names=self.names, events=events)
