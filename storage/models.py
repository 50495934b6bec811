"""Plain values that cross the storage boundary (no SQL outside ``storage/``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

MatchStatus = Literal["lobby", "active", "finished", "cancelled", "abandoned"]
SeatState = Literal["playing", "kicked", "forfeited"]
ChoiceSource = Literal["player", "bot", "auto", "forced", "resign"]
LIVE_STATUSES: tuple[MatchStatus, ...] = ("lobby", "active")


@dataclass
class SeatRow:
    """One seat of a match: a person (``user_id``) or a computer player."""

    seat: int
    user_id: int | None
    name: str
    is_bot: bool = False
    strikes: int = 0
    state: SeatState = "playing"

    @property
    def computer_plays(self) -> bool:
        """True when the computer player decides for this seat."""
        return self.is_bot or self.state == "kicked"


@dataclass
class MatchRow:
    """A match as stored: everything needed to rebuild it, except its choice log."""

    id: int
    game: str
    options: dict[str, Any]
    seed: int
    guild_id: int | None
    channel_id: int
    host_id: int
    max_seats: int
    status: MatchStatus
    table_message_id: int | None = None
    deadline_at: float | None = None
    warned: bool = False
    seats: list[SeatRow] = field(default_factory=list)


@dataclass(frozen=True)
class ChoiceRow:
    """One entry of the append-only choice log."""

    seq: int
    seat: int
    choice: str
    source: ChoiceSource
    step: int
    interaction_id: str | None = None


@dataclass(frozen=True)
class SeatResult:
    """A seat's line in a result."""

    seat: int
    user_id: int | None
    is_bot: bool
    place: int
    score: int | None


@dataclass(frozen=True)
class GuildSettings:
    """Per-server settings; ``None`` means "use the default"."""

    guild_id: int
    turn_seconds: int | None = None
    warn_seconds: int | None = None
    organiser_role_id: int | None = None
    locale: str = "en"
    ante: bool = False
