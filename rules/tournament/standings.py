"""Swiss standings: match points and the Magic tournament rules' tiebreakers
(``../shared/specs/tournaments.md``, "Swiss arithmetic").

Every format that ranks by Swiss tiebreakers (Swiss, round robin, the elimination
formats' seeding from a Swiss part) calls :func:`swiss_standings`; the Swiss pairing
reads the same figures through :func:`swiss_records`.

The arithmetic, per player, over the results they appear in:

* **Match points**: win 3, draw 1, loss 0. A ``both_lose`` result is a loss for
  everyone in it. A **bye** is a match won 2–0: 3 points, two games won.
* **Match-win %** (MW%): match points ÷ (3 × rounds played), floored at
  :data:`FLOOR`, exactly 0.33 (33/100) as the MTR's Appendix C writes it, not 1/3: with exact
  fractions the two rank players differently (an opponent at 199/600 ≈ 0.3317 is above
  one at 0.33). Rounds played count the byes: a player 3–2 with a first-round bye who
  then drops has 9 points over 5 rounds, MW% 0.60.
* **Game-win %** (GW%): game points (3 a game won, 1 a game drawn) ÷ (3 × games
  played), floored at 0.33.
* **Opponents' match-win %** (OMW%): the mean of each opponent's MW% (each already
  floored), one term per round played against someone, so a rematch counts twice. A
  bye is not an opponent: it adds no term. A dropped player counts as an opponent
  with the figures of the rounds they played. **OGW%** likewise with GW%.
* **Ranking**: points → OMW% → GW% → OGW% → a draw at random seeded by the
  tournament's seed, and said so on the line (:data:`DRAWN_AT_RANDOM`).

Everything is computed with :class:`fractions.Fraction`: two players whose figures
are equal are tied exactly, never split by a float's last digit. The
:class:`~rules.tournament.model.Standing` lines carry the figures as floats for display
and exactly in ``Standing.exact`` (:class:`~rules.tournament.model.Figures`).

Where a result leaves something out: a bye with no games recorded is 2–0; a two-seat
result with no games recorded is one game, the winner's (a draw: one drawn game, unless
``drawn_games`` says how many); a ``both_lose`` result with no games recorded played no
game. Where there is nothing to divide, the figure is the floor, so no figure is ever
below 0.33: a player with no opponent yet (only byes) has OMW% and OGW% 0.33 (a bye they
did not choose must not rank them below everyone), a player who played rounds but no
game (a ``both_lose`` with none recorded) has GW% 0.33, and a player who has played no
round at all (dropped before round 1) has all four figures at 0.33 (nobody's opponent,
so it changes no one else's figures).

>>> from rules.tournament.model import Entrant, Result
>>> entrants = [Entrant(1, 1, dropped_after=5), Entrant(2, 2)]
>>> results = [Result(1, (1,), (1,), (2,))] + [
...     Result(n, (1, 2), (1, 2) if n in (2, 3) else (2, 1), (2, 0) if n in (2, 3) else (0, 2))
...     for n in (2, 3, 4, 5)]
>>> first = {s.entrant: s for s in swiss_standings(entrants, results, seed=1)}[1]
>>> (first.points, first.record, first.mw, first.dropped)
(9, '3-2-0', 0.6, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.phrases import Phrase
from rules.tournament.model import DRAW, LOSS, WIN, Entrant, Figures, Result, Standing

FLOOR = Fraction(33, 100)
"""The floor of every percentage: exactly 0.33, as the Magic tournament rules write it
(Appendix C), not 1/3."""

DRAWN_AT_RANDOM = Phrase("tournaments.tie.drawn_at_random")
""":attr:`Standing.note` on a line whose tie with the line above no figure broke."""

BYE_GAMES = (2,)
"""A bye's game record: two games won, none lost."""


def match_win(points: int, rounds: int) -> Fraction:
    """MW%: ``points`` ÷ (3 × ``rounds``), floored at 0.33 (the floor with no round
    played).

    >>> match_win(9, 5)
    Fraction(3, 5)
    >>> match_win(3, 3), match_win(0, 3), match_win(0, 0)
    (Fraction(1, 3), Fraction(33, 100), Fraction(33, 100))
    """
    if rounds == 0:
        return FLOOR
    return _floored(points, WIN * rounds)


def game_win(game_points: int, games: int) -> Fraction:
    """GW%: ``game_points`` ÷ (3 × ``games``), floored at 0.33 (the floor with no game
    played).

    >>> game_win(14, 8)
    Fraction(7, 12)
    >>> game_win(3, 10), game_win(0, 0)
    (Fraction(33, 100), Fraction(33, 100))
    """
    if games == 0:
        return FLOOR
    return _floored(game_points, WIN * games)


def _floored(numerator: int, denominator: int) -> Fraction:
    """``max(FLOOR, numerator / denominator)`` exactly, compared in integers (a
    comparison of fractions cross-multiplies through their generic path)."""
    if numerator * FLOOR.denominator > FLOOR.numerator * denominator:
        return Fraction(numerator, denominator)
    return FLOOR


def opponents_mean(values: Sequence[Fraction]) -> Fraction:
    """OMW% or OGW%: the exact mean of the opponents' figures, the floor with no
    opponent.

    >>> opponents_mean([Fraction(1, 3), Fraction(1)]), opponents_mean([])
    (Fraction(2, 3), Fraction(33, 100))
    """
    return sum(values, Fraction(0)) / len(values) if values else FLOOR


@dataclass(frozen=True)
class SwissRecord:
    """One player's results so far, and the Swiss figures computed from them."""

    entrant: int
    points: int
    wins: int
    losses: int
    draws: int
    byes: int
    rounds: int
    """Rounds played, byes included."""
    game_points: int
    games: int
    """Games played (won, lost and drawn), a bye's two included."""
    opponents: tuple[int, ...]
    """One id per round played against someone, in round order (a rematch twice)."""
    mw: Fraction
    gw: Fraction
    omw: Fraction
    ogw: Fraction
    dropped: bool = False

    def key(self) -> tuple[int, Fraction, Fraction, Fraction]:
        """What ranks players, best first when sorted descending: points, OMW%, GW%,
        OGW%. Equal keys are a true tie (broken by the seeded draw)."""
        return (self.points, self.omw, self.gw, self.ogw)


@dataclass
class _Tally:
    """A player's counts while the results are read."""

    points: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    rounds: int = 0
    game_points: int = 0
    games: int = 0
    opponents: list[int] | None = None


def _games_of(result: Result, seat: int) -> tuple[int, int, int]:
    """``(won, lost, drawn)`` games of seat number ``seat`` in ``result``."""
    if result.is_bye:
        won = (result.games or BYE_GAMES)[0]
        return won, 0, 0
    if result.games:
        won = result.games[seat]
        lost = sum(result.games) - won
        return won, lost, result.drawn_games
    # Nothing recorded: one game, as the places say.
    if result.both_lose:
        return 0, 0, result.drawn_games
    winners = result.places.count(1)
    if winners > 1:
        return 0, 0, result.drawn_games or 1
    return (1, 0, 0) if result.places[seat] == 1 else (0, 1, 0)


def swiss_records(entrants: Sequence[Entrant],
                  results: Iterable[Result]) -> dict[int, SwissRecord]:
    """Every entrant's :class:`SwissRecord`, by id (in the entrants' order).

    Results naming someone who is not an entrant are refused (``ValueError``): the
    figures would silently leave them out.

    >>> from rules.tournament.model import Entrant, Result
    >>> records = swiss_records([Entrant(1, 1), Entrant(2, 2), Entrant(3, 3)],
    ...                         [Result(1, (1, 2), (1, 1), (1, 1)), Result(1, (3,), (1,))])
    >>> records[1].points, records[1].draws, records[1].gw, records[3].byes, records[3].omw
    (1, 1, Fraction(1, 2), 1, Fraction(33, 100))
    """
    tallies = {e.id: _Tally(opponents=[]) for e in entrants}
    for result in sorted(results, key=_round_of):
        seats = result.seats
        bye = len(seats) == 1
        # Each seat's points as Result.points_of gives them and its games as _games_of
        # counts them, worked out once a result rather than once a seat.
        winners = 0 if bye or result.both_lose else result.places.count(1)
        games = None if bye else result.games
        played, drawn_games = (sum(games), result.drawn_games) if games else (0, 0)
        for seat, player in enumerate(seats):
            tally = tallies.get(player)
            if tally is None:
                raise ValueError(f"round {result.round} names {player}, who is not an entrant")
            if bye:
                points = WIN
            elif not winners or result.places[seat] != 1:
                points = LOSS
            else:
                points = DRAW if winners > 1 else WIN
            tally.points += points
            tally.rounds += 1
            if bye:
                tally.byes += 1
            if points == WIN:
                tally.wins += 1
            elif points == DRAW:
                tally.draws += 1
            else:
                tally.losses += 1
            if games:
                won = games[seat]
                lost, drawn = played - won, drawn_games
            else:
                won, lost, drawn = _games_of(result, seat)
            tally.game_points += WIN * won + DRAW * drawn
            tally.games += won + lost + drawn
            assert tally.opponents is not None
            tally.opponents.extend(seats[:seat] + seats[seat + 1:])
    mw = {p: match_win(t.points, t.rounds) for p, t in tallies.items()}
    gw = {p: game_win(t.game_points, t.games) for p, t in tallies.items()}
    omw, ogw = _opponents_means(tallies, mw), _opponents_means(tallies, gw)
    records = {}
    for entrant in entrants:
        p = entrant.id
        t = tallies[p]
        records[p] = SwissRecord(
            entrant=p, points=t.points, wins=t.wins, losses=t.losses,
            draws=t.draws, byes=t.byes, rounds=t.rounds, game_points=t.game_points,
            games=t.games, opponents=tuple(t.opponents or ()), mw=mw[p], gw=gw[p],
            omw=omw[p], ogw=ogw[p], dropped=entrant.dropped_after is not None)
    return records


def _round_of(result: Result) -> int:
    return result.round


def _opponents_means(tallies: dict[int, _Tally],
                     figure: dict[int, Fraction]) -> dict[int, Fraction]:
    """Each player's :func:`opponents_mean` of ``figure``, exactly as it computes it.

    Adding fractions one by one reduces every partial sum by a gcd (most of the
    standings' time for a large field): instead every figure is written as an integer
    over one common denominator, each mean is a sum of integers, and only the mean
    itself is made a :class:`~fractions.Fraction` (which reduces it to the same value).
    """
    common = math.lcm(*{value.denominator for value in figure.values()})
    scaled = {p: value.numerator * (common // value.denominator)
              for p, value in figure.items()}
    means = {}
    for p, tally in tallies.items():
        opponents = tally.opponents
        if opponents:
            means[p] = Fraction(sum([scaled[o] for o in opponents]),
                                common * len(opponents))
        else:
            means[p] = FLOOR
    return means


def random_draw(entrants: Iterable[int], seed: int) -> dict[int, int]:
    """Each entrant's place in the seeded draw that breaks true ties (lower first).

    It depends only on the set of ids and the seed, not on their order, so the same
    tie breaks the same way after every round.

    >>> random_draw([3, 1, 2], seed=7) == random_draw([1, 2, 3], seed=7)
    True
    """
    ids = sorted(set(entrants))
    random.Random(f"swiss-standings:{seed}").shuffle(ids)
    return {player: place for place, player in enumerate(ids)}


def ranked(records: dict[int, SwissRecord], seed: int) -> list[SwissRecord]:
    """The records best first: points, OMW%, GW%, OGW%, then the seeded draw."""
    return [record for _, record in _ranked_keys(records, seed)]


def _ranked_keys(records: dict[int, SwissRecord], seed: int
                 ) -> list[tuple[tuple[int, ...], SwissRecord]]:
    """:func:`ranked`, each record with its :meth:`SwissRecord.key` in integers (the
    fractions over one denominator a figure: the same order and the same ties, without
    comparing fractions, each comparison of which cross-multiplies)."""
    draw = random_draw(records, seed)
    values = records.values()
    omw = _common_numerators([r.omw for r in values])
    gw = _common_numerators([r.gw for r in values])
    ogw = _common_numerators([r.ogw for r in values])
    keyed = [((r.points, omw[n], gw[n], ogw[n]), r) for n, r in enumerate(values)]
    # Descending, with the draw's place negated: every key differs in the draw, so the
    # order is the ascending sort of the negated figures'.
    keyed.sort(key=lambda k: (*k[0], -draw[k[1].entrant]), reverse=True)
    return keyed


def _common_numerators(values: list[Fraction]) -> list[int]:
    """Each of ``values`` as a numerator over one common denominator (their order and
    equalities kept)."""
    common = math.lcm(*{value.denominator for value in values})
    return [value.numerator * (common // value.denominator) for value in values]


def swiss_standings(entrants: Sequence[Entrant], results: Iterable[Result],
                    seed: int) -> list[Standing]:
    """Everyone ranked, best first, by the Swiss arithmetic (module docstring).

    Dropped players are ranked with everyone else and marked ``dropped``. A line tied
    with the line above on every figure says :data:`DRAWN_AT_RANDOM`.

    >>> from rules.tournament.model import Entrant, Result
    >>> lines = swiss_standings([Entrant(1, 1), Entrant(2, 2)],
    ...                         [Result(1, (1, 2), (2, 1), (0, 2))], seed=3)
    >>> [(s.rank, s.entrant, s.points, s.record) for s in lines]
    [(1, 2, 3, '1-0-0'), (2, 1, 0, '0-1-0')]
    """
    lines = []
    above: tuple[int, ...] | None = None
    for rank, (key, record) in enumerate(_ranked_keys(swiss_records(entrants, results),
                                                      seed), start=1):
        lines.append(Standing(
            rank=rank, entrant=record.entrant, points=record.points, wins=record.wins,
            losses=record.losses, draws=record.draws, omw=_float(record.omw),
            gw=_float(record.gw), ogw=_float(record.ogw), mw=_float(record.mw),
            dropped=record.dropped, note=DRAWN_AT_RANDOM if key == above else "",
            exact=Figures(record.mw, record.omw, record.gw, record.ogw)))
        above = key
    return lines


def _float(value: Fraction) -> float:
    """``float(value)``, as :class:`~fractions.Fraction` computes it, without its
    generic path's property look-ups."""
    return value.numerator / value.denominator
