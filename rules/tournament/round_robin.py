"""Round robin: everyone meets everyone once (``../shared/specs/tournaments.md``,
"Formats"), scheduled by the circle method and ranked by the Swiss standings.

The players who start (active in round 1), in seed order, sit around a circle; with an
odd count an empty seat joins them, and whoever faces it that round has the bye. Each
round the first seat stays and the others turn one place, so ``n`` players play
``n − 1`` rounds (``n`` when odd) and every two meet exactly once.

The schedule is fixed when the tournament starts: a player who drops keeps their seat
in it, and whoever was to meet them in a later round has the bye instead (a match won
2–0, as the spec's byes are; it adds nothing to their opponents' figures).

>>> from rules.tournament.model import Entrant
>>> entrants = [Entrant(n, n) for n in (1, 2, 3, 4)]
>>> [circle_round([1, 2, 3, 4], r) for r in (1, 2, 3)]
[((1, 4), (2, 3)), ((1, 3), (4, 2)), ((1, 2), (3, 4))]
>>> RoundRobinFormat().rounds(entrants)
3
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.tournament.model import (
    Entrant,
    FormatName,
    Pairing,
    Result,
    RoundPlan,
    Standing,
    all_rounds_played,
    played_rounds,
    unfinished,
)
from rules.tournament.standings import swiss_standings


def starters(entrants: Sequence[Entrant]) -> list[int]:
    """The players on the schedule: those active in round 1, in seed order."""
    return [e.id for e in sorted(entrants, key=lambda e: (e.seed, e.id)) if e.active_in(1)]


def circle_round(players: Sequence[int], round_no: int) -> tuple[Pairing, ...]:
    """Round ``round_no`` (1 first) of the circle method over ``players``: pairs, and
    a bye as a pairing of one when the count is odd (listed last).

    >>> circle_round([1, 2, 3], 1)
    ((2, 3), (1,))
    """
    seats: list[int | None] = list(players)
    if len(seats) % 2:
        seats.append(None)
    n = len(seats)
    if n == 0:
        return ()
    turn = (round_no - 1) % (n - 1) if n > 1 else 0
    # The first seat stays; the others turn ``turn`` places.
    rest = seats[1:]
    rest = rest[-turn:] + rest[:-turn] if turn else rest
    circle = [seats[0], *rest]
    pairs: list[Pairing] = []
    byes: list[Pairing] = []
    for k in range(n // 2):
        a, b = circle[k], circle[n - 1 - k]
        if a is None or b is None:
            lone = b if a is None else a
            if lone is not None:
                byes.append((lone,))
        else:
            pairs.append((a, b))
    return tuple(pairs + byes)


class RoundRobinFormat:
    """Round robin (``name == "round_robin"``): the circle method's rounds, Swiss
    standings.

    ``next_round`` asks that the current round be complete: it refuses (``ValueError``)
    while a player active in it has no result.
    """

    name: FormatName = "round_robin"

    def __repr__(self) -> str:
        return "RoundRobinFormat()"

    def rounds(self, entrants: Sequence[Entrant]) -> int | None:
        """``n − 1`` rounds for ``n`` players, ``n`` when ``n`` is odd (0 below two)."""
        n = len(starters(entrants))
        if n < 2:
            return 0
        return n if n % 2 else n - 1

    def finished(self, entrants: Sequence[Entrant], results: Sequence[Result]) -> bool:
        """Every round played (the last one complete), or fewer than two players left."""
        return all_rounds_played(entrants, results, self.rounds(entrants) or 0)

    def next_round(self, entrants: Sequence[Entrant], results: Sequence[Result],
                   seed: int) -> RoundPlan | None:
        """The next round of the schedule; a player whose scheduled opponent has
        dropped has the bye (``None`` when the tournament is over). ``seed`` is not
        needed: the schedule follows the entrants' seeds."""
        played = played_rounds(results)
        waiting = unfinished(entrants, results, played) if played else []
        if waiting:
            raise ValueError(f"round {played} is not complete: no result yet for "
                             f"{', '.join(map(str, waiting))}")
        if self.finished(entrants, results):
            return None
        round_no = played + 1
        active = {e.id for e in entrants if e.active_in(round_no)}
        pairings: list[Pairing] = []
        byes: list[Pairing] = []
        for pairing in circle_round(starters(entrants), round_no):
            playing = tuple(p for p in pairing if p in active)
            if len(playing) == 2:
                pairings.append(playing)
            elif len(playing) == 1:
                byes.append(playing)
        return RoundPlan(round_no, tuple(pairings + byes))

    def standings(self, entrants: Sequence[Entrant], results: Sequence[Result],
                  seed: int) -> list[Standing]:
        """Everyone ranked by the Swiss arithmetic."""
        return swiss_standings(entrants, results, seed)

