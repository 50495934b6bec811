"""The values every tournament format shares (``../shared/specs/tournaments.md``).

A tournament, like a match, is data that replays: its entrants, the results of the
pairings played, and a seed. Every format answers the same questions from them
(:class:`TournamentFormat`): what the next round's pairings are, whether the event is
over, and the standings. Nothing here stores, sends or waits; the bot keeps the
entrants and results in SQLite and asks again after every result.

>>> Result(1, (7, 9), (1, 2), (2, 1)).points_of(7)
3
>>> Result(1, (7,), (1,), (2,)).is_bye
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

FormatName = Literal["swiss", "single", "double", "round_robin", "pods"]

WIN, DRAW, LOSS = 3, 1, 0
"""Match points (Magic tournament rules); also game points per game."""


@dataclass(frozen=True)
class Entrant:
    """A player in a tournament.

    ``seed`` orders entrants where the format needs an order before any result (1 is
    the top seed: by rating, or drawn at random by the organiser's choice).
    ``dropped_after`` is the last round they played before dropping (``0``: dropped
    before round 1); a dropped player keeps their results and is never paired again.
    """

    id: int
    seed: int
    dropped_after: int | None = None

    def active_in(self, round_no: int) -> bool:
        """Whether they are paired in ``round_no``."""
        return self.dropped_after is None or self.dropped_after >= round_no


@dataclass(frozen=True)
class Result:
    """One pairing of a round, finished.

    ``seats`` are entrant ids; one seat is a bye. ``places`` is each seat's finishing
    place (1 first; equal places are a draw). ``games`` is each seat's games won in a
    best-of (a bye: ``(2,)``; one game: the winner ``1``, the loser ``0``), and
    ``drawn_games`` the games drawn. ``both_lose`` marks an organiser's decision that
    nobody won (every seat scores a loss).
    """

    round: int
    seats: tuple[int, ...]
    places: tuple[int, ...]
    games: tuple[int, ...] = ()
    drawn_games: int = 0
    both_lose: bool = False

    @property
    def is_bye(self) -> bool:
        """A pairing of one: the player had no opponent this round."""
        return len(self.seats) == 1

    def place_of(self, entrant: int) -> int:
        """``entrant``'s finishing place in this pairing."""
        return self.places[self.seats.index(entrant)]

    def points_of(self, entrant: int) -> int:
        """Match points for a two-seat pairing or a bye: 3 a win, 1 a draw, 0 a loss."""
        if self.both_lose:
            return LOSS
        place = self.place_of(entrant)
        if place != 1:
            return LOSS
        return DRAW if self.places.count(1) > 1 else WIN

    def opponents_of(self, entrant: int) -> tuple[int, ...]:
        """Everyone else in this pairing (none for a bye)."""
        return tuple(seat for seat in self.seats if seat != entrant)


def played_rounds(results: Iterable[Result]) -> int:
    """The last round with a result (0 before round 1)."""
    return max((r.round for r in results), default=0)


def unfinished(entrants: Sequence[Entrant], results: Sequence[Result], round_no: int) -> list[int]:
    """The players active in ``round_no`` who have no result in it yet."""
    seen = {p for r in results if r.round == round_no for p in r.seats}
    return [e.id for e in entrants if e.active_in(round_no) and e.id not in seen]


def all_rounds_played(entrants: Sequence[Entrant], results: Sequence[Result],
                      rounds: int) -> bool:
    """Whether a format of ``rounds`` paired rounds is over: the last round played is
    complete and either every round is played or fewer than two players are left."""
    played = played_rounds(results)
    if played and unfinished(entrants, results, played):
        return False
    if played >= rounds:
        return True
    return sum(1 for e in entrants if e.active_in(played + 1)) < 2


Pairing = tuple[int, ...]
"""The entrant ids playing one match of a round (one id: a bye; more than two: a pod)."""


@dataclass(frozen=True)
class Standing:
    """One line of the standings. Percentages are fractions (0.333… to 1)."""

    rank: int
    entrant: int
    points: int
    wins: int
    losses: int
    draws: int
    omw: float = 0.0
    """Opponents' match-win %: the mean of each opponent's match-win %."""
    gw: float = 0.0
    """Game-win %."""
    ogw: float = 0.0
    """Opponents' game-win %."""
    mw: float = 0.0
    """Match-win %."""
    dropped: bool = False
    note: str = ""
    """How a tie with the line above was broken when no figure did ("drawn at random")."""

    @property
    def record(self) -> str:
        """Wins–losses–draws, e.g. ``"3-1-0"``."""
        return f"{self.wins}-{self.losses}-{self.draws}"


@dataclass(frozen=True)
class RoundPlan:
    """A round's pairings, and (for brackets) what each match decides."""

    round: int
    pairings: tuple[Pairing, ...]
    labels: tuple[str, ...] = field(default=())
    """One per pairing where the format names its matches ("Winners' final", "Pod 2")."""


class TournamentFormat(Protocol):
    """What every format answers, from the entrants, the results so far and a seed.

    Deterministic: the same arguments always give the same answer, so a tournament
    replays like a match and the bot may ask again after a restart.
    """

    name: FormatName

    def rounds(self, entrants: Sequence[Entrant]) -> int | None:
        """How many rounds it will have, if known in advance."""
        ...

    def next_round(self, entrants: Sequence[Entrant], results: Sequence[Result],
                   seed: int) -> RoundPlan | None:
        """The next round's pairings once every pairing of the current round has a
        result (``None`` when the tournament is over)."""
        ...

    def finished(self, entrants: Sequence[Entrant], results: Sequence[Result]) -> bool:
        """Whether no round is left to play."""
        ...

    def standings(self, entrants: Sequence[Entrant], results: Sequence[Result],
                  seed: int) -> list[Standing]:
        """Everyone ranked, best first."""
        ...
