"""A match held in memory while it is live: its stored row, its state and its lock."""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from rules.core import Decision, Event, GameInfo, GameState
from storage.models import MatchRow, SeatRow


@dataclass(frozen=True)
class Player:
    """Who is acting: a Discord user (or the local table's person)."""

    user_id: int
    name: str
    is_moderator: bool = False


@dataclass(frozen=True)
class PrivateView:
    """What one seat may see now, with its pending decision: the content of a
    hand DM and of the ephemeral ``/hand`` fallback alike."""

    match_id: int
    game: str
    seat: int
    step: int
    observation: Any
    decision: Decision | None
    names: tuple[str, ...]
    events: tuple[Event, ...] = ()


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
    private_outbox: list[Event] = field(default_factory=list)
    delivered: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    """What each seat was last sent privately (to send only changes)."""
    dm_failed: set[int] = field(default_factory=set)
    recent_interactions: deque[str] = field(default_factory=lambda: deque(maxlen=64))
    finished: bool = False
    turn_seconds: int | None = None
    """The server's own deadline setting, if it has one."""
    warn_seconds: int | None = None

    @property
    def id(self) -> int:
        """The match id."""
        return self.row.id

    @property
    def seats(self) -> list[SeatRow]:
        """The seats in seat order."""
        return self.row.seats

    @property
    def names(self) -> tuple[str, ...]:
        """Seat names in seat order, for narration."""
        return tuple(seat.name for seat in self.row.seats)

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
        return PrivateView(
            match_id=self.id, game=self.info.name, seat=seat, step=self.state.step,
            observation=self.state.observe(seat), decision=self.state.decision_for(seat),
            names=self.names,
        )
