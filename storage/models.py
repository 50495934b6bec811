"""Plain values that cross the storage boundary (no SQL outside ``storage/``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, Protocol

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
    setup: dict[str, Any] | None = None
    """What the seat brings to the match (its deck, say), in games that take it."""
    level: str = "normal"
    """The level of the computer player of a computer's seat, as its key (``easy``,
    ``normal``, ``hard``); a person's seat keeps ``normal``, the computer that
    chooses for them when it must (a deadline, a kick)."""

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
    computer_level: str = "normal"
    """The level of the computer players that fill a lobby's empty seats (its key)."""
    version: int = 0
    """Bumped by every write that moves the match (docs/clusters.md)."""


class ChoiceRow(NamedTuple):
    """One entry of the append-only choice log (a named tuple: one is made for
    every choice committed)."""

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
class Ante:
    """What a match stakes as it starts: for each ``(user, card)`` a free copy the
    user owns of that card (storage picks which)."""

    guild_id: int
    stakes: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class GuildSettings:
    """Per-server settings (``/config``)."""

    guild_id: int
    organiser_role_id: int | None = None
    ante: bool = False
    """Whether matches here may be played for ante."""
    collections_public: bool = True
    """Whether anyone may see anyone's collection (else only their own)."""
    daily_pack: bool = True
    """Whether each person may claim a pack a day."""
    win_packs: bool = False
    """Whether a rated win of a game played with owned cards brings a pack."""
    language: str | None = None
    """The locale of what the channel sees (``en``, ``pt_BR`` …), as chosen with
    ``/config language``; ``None``: never chosen."""
    timings: tuple[GameTiming, ...] = ()
    """Deadline settings, per game (``game`` ``"*"``: every game without its own)."""


EVERY_GAME = "*"
"""The ``game`` of a setting for every game that has none of its own."""


@dataclass(frozen=True)
class GameTiming:
    """A server's deadline settings for one game; ``None`` means "the default"."""

    game: str = EVERY_GAME
    turn_seconds: int | None = None
    warn_seconds: int | None = None


class Rater(Protocol):
    """Rating arithmetic, supplied by the caller (storage only stores ratings)."""

    def initial(self) -> tuple[float, float]:
        """A new player's ``(mu, sigma)``."""
        ...

    def rate(self, prior: Sequence[tuple[float, float] | None],
             places: Sequence[int]) -> list[tuple[float, float]]:
        """New ``(mu, sigma)`` per player (``None``: unrated so far)."""
        ...

    def ordinal(self, mu: float, sigma: float) -> float:
        """The conservative figure leaderboards sort by."""
        ...


@dataclass(frozen=True)
class RatingRow:
    """A player's rating in one game on one server."""

    user_id: int
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int


@dataclass(frozen=True)
class PlayerResult:
    """One finished match from one player's side."""

    match_id: int
    game: str
    finished_at: str
    seat: int
    place: int
    seats: int
    firsts: int
    """How many seats shared first place."""
    rated: bool
    vs_computer: bool
    opponents: tuple[tuple[int | None, str, int], ...]
    """``(user id, name, place)`` of everyone else at the table."""
    change: float | None
    """The change of the player's ordinal, for rated matches."""
    ordinal_after: float | None

    @property
    def drawn(self) -> bool:
        """Every seat shared first place."""
        return self.firsts == self.seats

    @property
    def won(self) -> bool:
        """First place, not shared by everyone."""
        return self.place == 1 and not self.drawn

    @property
    def lost(self) -> bool:
        """Not first."""
        return self.place > 1


@dataclass(frozen=True)
class MatchSummary:
    """A finished (or closed) match for ``/match``."""

    id: int
    game: str
    guild_id: int | None
    status: str
    created_at: str
    started_at: str | None
    finished_at: str | None
    reason: str | None
    seats: tuple[tuple[int, int | None, str, bool, int | None, int | None], ...]
    """``(seat, user id, name, computer, place, score)``."""
    choices: tuple[ChoiceRow, ...]
