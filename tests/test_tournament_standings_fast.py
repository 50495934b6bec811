"""The Swiss standings as computed fast (integer sums over a common denominator, integer
ranking keys, a result's points worked out once) against the obvious computation they
replaced: fractions added one by one, every figure negated in the sort key, each seat's
points and opponents asked of the result. On random tournaments (byes, draws, both-lose
decisions, results without games, drops, pods of three or more), the records, the lines
(ranks, figures as floats and exactly, tie notes) and the Swiss ranking are identical.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.tournament.model import DRAW, LOSS, WIN, Entrant, Figures, Result, Standing
from rules.tournament.standings import (
    DRAWN_AT_RANDOM,
    FLOOR,
    SwissRecord,
    _games_of,
    random_draw,
    ranked,
    swiss_records,
    swiss_standings,
)
from tests.test_tournament_properties import Style, play


@dataclass
class _Tally:
    points: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    rounds: int = 0
    game_points: int = 0
    games: int = 0


def obvious_records(entrants: list[Entrant], results: list[Result]) -> dict[int, SwissRecord]:
    """``swiss_records`` as first written: one result and one seat at a time."""
    tallies = {e.id: _Tally() for e in entrants}
    opponents: dict[int, list[int]] = {e.id: [] for e in entrants}
    for result in sorted(results, key=lambda r: r.round):
        for seat, player in enumerate(result.seats):
            tally = tallies[player]
            points = WIN if result.is_bye else result.points_of(player)
            tally.points += points
            tally.rounds += 1
            tally.byes += result.is_bye
            tally.wins += points == WIN
            tally.draws += points == DRAW
            tally.losses += points == LOSS
            won, lost, drawn = _games_of(result, seat)
            tally.game_points += WIN * won + DRAW * drawn
            tally.games += won + lost + drawn
            opponents[player].extend(result.opponents_of(player))

    def mean(values: list[Fraction]) -> Fraction:
        return sum(values, Fraction(0)) / len(values) if values else FLOOR

    mw = {p: max(FLOOR, Fraction(t.points, 3 * t.rounds)) if t.rounds else FLOOR
          for p, t in tallies.items()}
    gw = {p: max(FLOOR, Fraction(t.game_points, 3 * t.games)) if t.games else FLOOR
          for p, t in tallies.items()}
    return {e.id: SwissRecord(
        entrant=e.id, points=t.points, wins=t.wins, losses=t.losses, draws=t.draws,
        byes=t.byes, rounds=t.rounds, game_points=t.game_points, games=t.games,
        opponents=tuple(opponents[e.id]), mw=mw[e.id], gw=gw[e.id],
        omw=mean([mw[o] for o in opponents[e.id]]), ogw=mean([gw[o] for o in opponents[e.id]]),
        dropped=e.dropped_after is not None)
        for e in entrants for t in (tallies[e.id],)}


def obvious_ranked(records: dict[int, SwissRecord], seed: int) -> list[SwissRecord]:
    draw = random_draw(records, seed)
    return sorted(records.values(),
                  key=lambda r: (-r.points, -r.omw, -r.gw, -r.ogw, draw[r.entrant]))


def obvious_standings(entrants: list[Entrant], results: list[Result],
                      seed: int) -> list[Standing]:
    order = obvious_ranked(obvious_records(entrants, results), seed)
    return [Standing(
        rank=rank, entrant=r.entrant, points=r.points, wins=r.wins, losses=r.losses,
        draws=r.draws, omw=float(r.omw), gw=float(r.gw), ogw=float(r.ogw), mw=float(r.mw),
        dropped=r.dropped,
        note=DRAWN_AT_RANDOM if rank > 1 and order[rank - 2].key() == r.key() else "",
        exact=Figures(r.mw, r.omw, r.gw, r.ogw)) for rank, r in enumerate(order, start=1)]


def assert_same(entrants: list[Entrant], results: list[Result], seed: int) -> None:
    records = swiss_records(entrants, results)
    assert records == obvious_records(entrants, results)
    assert list(records) == [e.id for e in entrants]
    assert ranked(records, seed) == obvious_ranked(records, seed)
    lines = swiss_standings(entrants, results, seed)
    assert lines == obvious_standings(entrants, results, seed)
    # Equal as values, and as the very floats (a float's last digit shows on a page).
    assert [(s.omw.hex(), s.gw.hex(), s.ogw.hex(), s.mw.hex()) for s in lines] == [
        (s.omw.hex(), s.gw.hex(), s.ogw.hex(), s.mw.hex())
        for s in obvious_standings(entrants, results, seed)]


def pods(rng: random.Random, n: int, rounds: int) -> tuple[list[Entrant], list[Result]]:
    """Random results of pods of one to five seats (places with shared ones, games or
    none, both-lose decisions) and drops: shapes the Swiss itself never pairs."""
    entrants = [Entrant(p, p, dropped_after=rng.choice([None, None, None, 0, 1, 2]))
                for p in range(1, n + 1)]
    results = []
    for round_no in range(1, rounds + 1):
        ids = [e.id for e in entrants if e.active_in(round_no)]
        rng.shuffle(ids)
        while ids:
            seats = tuple(ids[:rng.randint(1, 5)])
            del ids[:len(seats)]
            if len(seats) == 1:
                results.append(Result(round_no, seats, (1,), rng.choice([(), (2,), (1,)])))
                continue
            if rng.random() < 0.1:
                results.append(Result(round_no, seats, tuple([len(seats)] * len(seats)), (),
                                      rng.choice([0, 1]), both_lose=True))
                continue
            places = tuple(sorted(rng.randint(1, len(seats)) for _ in seats))
            places = tuple(p - places[0] + 1 for p in places)
            games = tuple(len(seats) - p for p in places) if rng.random() < 0.5 else ()
            results.append(Result(round_no, seats, places, games, rng.choice([0, 0, 1])))
    return entrants, results


styles = st.builds(
    Style,
    draws=st.sampled_from([0.0, 0.03, 0.3]),
    both_lose=st.sampled_from([0.0, 0.05]),
    drops=st.sampled_from([0.0, 0.1, 0.3]),
    rounds=st.one_of(st.none(), st.integers(1, 8)),
    seed=st.integers(0, 2**32 - 1),
)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 60), style=styles)
def test_random_swiss_standings_are_the_obvious_computations(n: int, style: Style) -> None:
    played = play(n, style)
    assert_same(played.entrants, played.results, style.seed)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 40), rounds=st.integers(0, 5), seed=st.integers(0, 2**32 - 1))
def test_random_pods_and_odd_results_rank_as_the_obvious_computations(
        n: int, rounds: int, seed: int) -> None:
    entrants, results = pods(random.Random(seed), n, rounds)
    assert_same(entrants, results, seed)


def test_a_large_swiss_ranks_as_the_obvious_computation() -> None:
    played = play(300, Style(0.03, 0.02, 0.05, 9, 11))
    assert_same(played.entrants, played.results, 11)
