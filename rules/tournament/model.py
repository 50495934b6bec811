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
from fractions import Fraction
from typing import Literal, Protocol

from rules.phrases import Words

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
    nobody won (every seat scores a loss). ``forfeit`` marks a pairing decided by a
    seat leaving (absent, dropped, disqualified): it loses whatever the games played
    say, and the games stay as played.

    A result at odds with itself is refused (``ValueError``), since every figure of
    the standings would silently take one side: places that are not one per seat from
    1, a bye that is not a win, and (unless ``both_lose`` or ``forfeit``) games won that
    disagree with the places — a seat with more games must be placed higher, and in a
    match of two, equal games are a shared place.

    >>> Result(1, (7, 9), (1, 2), (1, 2))
    Traceback (most recent call last):
    ...
    ValueError: round 1, 7 v 9: the places say 7 won but the games say 1-2
    """

    round: int
    seats: tuple[int, ...]
    places: tuple[int, ...]
    games: tuple[int, ...] = ()
    drawn_games: int = 0
    both_lose: bool = False
    forfeit: bool = False

    def __post_init__(self) -> None:
        problem = self._problem()
        if problem:
            who = " v ".join(map(str, self.seats)) or "no seat"
            raise ValueError(f"round {self.round}, {who}: {problem}")

    def _problem(self) -> str:
        """What makes this result impossible ("" when nothing does)."""
        seats, places, games = self.seats, self.places, self.games
        n = len(seats)
        if not n:
            return "a result has at least one seat"
        if len(set(seats)) != n:
            return "a player is seated twice"
        if games and (len(games) != n or min(games) < 0):
            return f"give games won (0 or more) per seat, not {games}"
        if self.drawn_games < 0:
            return "drawn games are 0 or more"
        if n == 1:
            return "" if places == (1,) and not self.both_lose else "a bye is a win: place 1"
        if len(places) != n or min(places) < 1 or max(places) > n:
            return f"give one place from 1 to {n} per seat, not {places}"
        if self.both_lose:
            return ""
        if min(places) != 1:
            return "somebody takes place 1 unless both lose"
        if self.forfeit or not games:
            return ""
        if n == 2:
            # The loop below for two seats, written out: every stored result is checked
            # again each time the standings are read.
            (g0, g1), (p0, p1) = games, places
            if (g0 > g1 and p0 >= p1) or (g1 > g0 and p1 >= p0) or (g0 == g1 and p0 != p1):
                return f"the places say {self._said()} but the games say {g0}-{g1}"
            return ""
        for i in range(n):
            for j in range(n):
                ahead = games[i] > games[j] and places[i] >= places[j]
                level = n == 2 and games[i] == games[j] and places[i] != places[j]
                if ahead or level:
                    if n == 2:
                        return (f"the places say {self._said()} but the games say "
                                f"{games[0]}-{games[1]}")
                    return (f"{seats[i]} won more games than {seats[j]} ({games[i]} to "
                            f"{games[j]}) but is not placed higher")
        return ""

    def _said(self) -> str:
        """Who the places of a match of two say won."""
        first, second = self.places
        if first == second:
            return "it was drawn"
        return f"{self.seats[0] if first < second else self.seats[1]} won"

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
class Figures:
    """A standing's percentages as exact fractions (0 to 1), for whoever tests or
    extends a format: the floats of :class:`Standing` are these, rounded for display.
    A format without percentages (a bracket) leaves them 0."""

    mw: Fraction = Fraction(0)
    omw: Fraction = Fraction(0)
    gw: Fraction = Fraction(0)
    ogw: Fraction = Fraction(0)


@dataclass(frozen=True)
class Standing:
    """One line of the standings. Percentages are fractions of 1 as floats (Swiss
    figures 0.33 to 1); ``exact`` holds the same figures exactly."""

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
    note: Words = ""
    """How a tie with the line above was broken when no figure did (drawn at random), as
    words; ``""`` for none."""
    exact: Figures = field(default_factory=Figures)
    """The percentages as exact fractions (what the format ranked by)."""

    @property
    def record(self) -> str:
        """Wins–losses–draws, e.g. ``"3-1-0"``."""
        return f"{self.wins}-{self.losses}-{self.draws}"


@dataclass(frozen=True)
class RoundPlan:
    """A round's pairings, and (for brackets) what each match decides."""

    round: int
    pairings: tuple[Pairing, ...]
    labels: tuple[Words, ...] = field(default=())
    """One per pairing where the format names its matches (the winners' final, pod 2), as
    words."""


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
        """Everyone ranked, best first; each line's percentages exactly in
        :attr:`Standing.exact`."""
        ...
