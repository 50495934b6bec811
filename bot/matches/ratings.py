"""Ratings: openskill's Plackett–Luce model, one player per team, ranks from places.

A match is rated when it was played in a server, every seat was a person, and at
least two different people played. Computer players, the local table, and
cancelled or abandoned matches (which have no result) never move a rating.

>>> new = rate([None, None], [1, 2])
>>> new[0][0] > 25 > new[1][0]
True
>>> round(ordinal(25.0, 25 / 3), 6)
0.0
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from storage.models import SeatResult

MODEL = PlackettLuce()
Rating = tuple[float, float]
"""``(mu, sigma)``."""


def rate(prior: Sequence[Rating | None], places: Sequence[int]) -> list[Rating]:
    """New ratings for the players of one match, in the same order. ``None`` is a
    player's first rated game; equal places are ties."""
    teams = [[MODEL.rating() if r is None else MODEL.rating(mu=r[0], sigma=r[1])]
             for r in prior]
    rated = MODEL.rate(teams, ranks=list(places))
    return [(team[0].mu, team[0].sigma) for team in rated]


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown to players (openskill's ordinal: mu − 3·sigma)."""
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


class OpenSkillRater:
    """What storage needs to rate a match inside the transaction that records it."""

    def initial(self) -> Rating:
        """A new player's rating."""
        first = MODEL.rating()
        return first.mu, first.sigma

    def rate(self, prior: Sequence[Rating | None], places: Sequence[int]) -> list[Rating]:
        """See :func:`rate`."""
        return rate(prior, places)

    def ordinal(self, mu: float, sigma: float) -> float:
        """See :func:`ordinal`."""
        return ordinal(mu, sigma)


RATER = OpenSkillRater()


def is_rated(guild_id: int | None, seats: Sequence[SeatResult]) -> bool:
    """Whether a finished match moves ratings.

    >>> is_rated(1, [SeatResult(0, 7, False, 1, None), SeatResult(1, 8, False, 2, None)])
    True
    >>> is_rated(1, [SeatResult(0, 7, False, 1, None), SeatResult(1, None, True, 2, None)])
    False
    """
    people = {s.user_id for s in seats if s.user_id is not None and not s.is_bot}
    return (guild_id is not None and len(people) >= 2
            and all(s.user_id is not None and not s.is_bot for s in seats))
