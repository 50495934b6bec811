"""Property tests over random tournaments (issue 18; ``../shared/specs/tournaments.md``,
"Checks that matter"): random Swiss tournaments of 2–500 players with random results
(wins by any games score, draws, both-lose decisions, byes) and drops between rounds.

Every round: every active player is paired or has the bye, nobody twice, no dropped
player; no rematch while one is avoidable and no second bye while an active player
has none — checked against an independent count (a maximum matching of the pairings
not yet played, for every possible bye) on small fields, and on large ones wherever
Dirac's theorem guarantees a pairing without rematches. After the tournament: the
standings' totals agree with the results, and the tiebreakers recomputed independently
(and with the entrants and results in another order) are identical. The reduced
pairing of large fields is compared with the exact matching of the whole field.
Round robin: everyone meets everyone exactly once.

Sizes lean small (where the exact checks run) with some large fields; no timing is
asserted.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from unittest import mock

import networkx as nx
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rules.tournament import swiss
from rules.tournament.model import Entrant, Pairing, Result, RoundPlan
from rules.tournament.round_robin import RoundRobinFormat
from rules.tournament.standings import swiss_records, swiss_standings
from rules.tournament.swiss import Field, SwissFormat, pair_field

BRUTE = 24
"""Fields up to this many active players have their least rematches counted exactly."""


@dataclass(frozen=True)
class Style:
    """How a random tournament goes."""

    draws: float
    both_lose: float
    drops: float
    rounds: int | None
    seed: int


@dataclass
class Played:
    """A tournament played out: each round's plan with the field it was paired from."""

    entrants: list[Entrant]
    results: list[Result] = field(default_factory=list)
    rounds: list[tuple[RoundPlan, list[Entrant], list[Result]]] = field(default_factory=list)


def outcome(rng: random.Random, round_no: int, pairing: Pairing, style: Style) -> Result:
    """A random result for ``pairing``."""
    if len(pairing) == 1:
        return Result(round_no, pairing, (1,), (2,))
    roll = rng.random()
    if roll < style.draws:
        games = rng.choice([(0, 0), (1, 1)])
        return Result(round_no, pairing, (1, 1), games, drawn_games=rng.choice([0, 1]))
    if roll < style.draws + style.both_lose:
        return Result(round_no, pairing, (2, 2), rng.choice([(), (1, 1)]), both_lose=True)
    places = rng.choice([(1, 2), (2, 1)])
    loser_games = rng.choice([0, 1])
    games = (2, loser_games) if places == (1, 2) else (loser_games, 2)
    return Result(round_no, pairing, places, rng.choice([games, games, ()]))


def play(n: int, style: Style) -> Played:
    """A whole random Swiss tournament of ``n`` entrants."""
    rng = random.Random(style.seed)
    entrants = [Entrant(p, p, dropped_after=0 if rng.random() < style.drops / 2 else None)
                for p in range(1, n + 1)]
    fmt = SwissFormat(style.rounds)
    played = Played(entrants)
    while (plan := fmt.next_round(played.entrants, played.results, style.seed)) is not None:
        played.rounds.append((plan, list(played.entrants), list(played.results)))
        played.results += [outcome(rng, plan.round, p, style) for p in plan.pairings]
        played.entrants = [
            Entrant(e.id, e.seed, plan.round)
            if e.dropped_after is None and rng.random() < style.drops else e
            for e in played.entrants]
    return played


def unplayed_graph(players: list[int], met: dict[int, set[int]]) -> nx.Graph:
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from((a, b) for i, a in enumerate(players) for b in players[i + 1:]
                         if b not in met[a])
    return graph


def least_rematches(players: list[int], met: dict[int, set[int]], bye: int | None) -> int:
    """The fewest rematches of any pairing of ``players`` with ``bye`` left out: the
    pairs not in a maximum matching of the unplayed pairings must be rematches."""
    rest = [p for p in players if p != bye]
    matched = nx.max_weight_matching(unplayed_graph(rest, met), maxcardinality=True)
    return len(rest) // 2 - len(matched)


def check_round(plan: RoundPlan, entrants: list[Entrant], results: list[Result],
                seed: int) -> None:
    """Every invariant of one round against the entrants and results it was paired on."""
    active = [e.id for e in entrants if e.active_in(plan.round)]
    seated = [p for pairing in plan.pairings for p in pairing]
    # Every active player paired or given the bye, nobody twice, nobody dropped.
    assert sorted(seated) == sorted(active)
    assert all(len(p) in (1, 2) for p in plan.pairings)
    byes_given = [p[0] for p in plan.pairings if len(p) == 1]
    assert len(byes_given) == len(active) % 2

    records = swiss_records(entrants, results)
    met = {p: set(records[p].opponents) for p in active}
    byes = {p: records[p].byes for p in active}
    rematches = sum(1 for p in plan.pairings if len(p) == 2 and p[1] in met[p[0]])
    bye = byes_given[0] if byes_given else None
    # No second bye while an active player has none (nor a third while one has one…).
    if bye is not None:
        assert byes[bye] == min(byes.values())

    eligible_ranked = []
    if bye is not None:
        order = [r.entrant for r in swiss.ranked(records, seed) if r.entrant in set(active)]
        eligible_ranked = [p for p in order if byes[p] == byes[bye]]
    if len(active) <= BRUTE:
        candidates = eligible_ranked or [None]
        least = {b: least_rematches(active, met, b) for b in candidates}
        assert rematches == min(least.values())
        if bye is not None:
            assert least[bye] == rematches
            # Anyone ranked below the bye who could have had it would have cost a rematch.
            below = eligible_ranked[eligible_ranked.index(bye) + 1:]
            assert all(least[b] > rematches for b in below)
    else:
        most_met = max(len(met[p] & set(active)) for p in active)
        if len(active) - 1 >= 2 * most_met + 2:  # Dirac: a pairing without rematches exists
            assert rematches == 0
            if bye is not None:
                assert bye == eligible_ranked[-1]


def naive_figures(entrants: list[Entrant], results: list[Result]) -> dict[int, tuple]:
    """Points, MW%, GW%, OMW%, OGW% computed afresh from the spec's words."""
    points: Counter[int] = Counter()
    rounds: Counter[int] = Counter()
    game_points: Counter[int] = Counter()
    games: Counter[int] = Counter()
    opponents: dict[int, list[int]] = {e.id: [] for e in entrants}
    for r in results:
        if len(r.seats) == 1:
            (p,) = r.seats
            points[p] += 3
            rounds[p] += 1
            game_points[p] += 6
            games[p] += 2
            continue
        a, b = r.seats
        for me, other, seat in ((a, b, 0), (b, a, 1)):
            rounds[me] += 1
            opponents[me].append(other)
            if r.both_lose:
                pass
            elif r.places[0] == r.places[1]:
                points[me] += 1
            elif r.places[seat] == 1:
                points[me] += 3
            if r.games:
                game_points[me] += 3 * r.games[seat] + r.drawn_games
                games[me] += sum(r.games) + r.drawn_games
            elif r.both_lose:
                game_points[me] += r.drawn_games
                games[me] += r.drawn_games
            elif r.places[0] == r.places[1]:
                game_points[me] += r.drawn_games or 1
                games[me] += r.drawn_games or 1
            else:
                game_points[me] += 3 if r.places[seat] == 1 else 0
                games[me] += 1
    floor = Fraction(33, 100)  # 0.33 exactly, as the MTR write it; nothing to divide: the floor

    def mw(p: int) -> Fraction:
        return max(floor, Fraction(points[p], 3 * rounds[p])) if rounds[p] else floor

    def gw(p: int) -> Fraction:
        return max(floor, Fraction(game_points[p], 3 * games[p])) if games[p] else floor

    def mean(values: list[Fraction]) -> Fraction:
        return sum(values, Fraction(0)) / len(values) if values else floor

    return {e.id: (points[e.id], mw(e.id), gw(e.id), mean([mw(o) for o in opponents[e.id]]),
                   mean([gw(o) for o in opponents[e.id]])) for e in entrants}


def check_standings(played: Played, seed: int) -> None:
    entrants, results = played.entrants, played.results
    lines = swiss_standings(entrants, results, seed)
    assert [s.rank for s in lines] == list(range(1, len(entrants) + 1))
    assert sorted(s.entrant for s in lines) == sorted(e.id for e in entrants)
    byes = sum(1 for r in results if len(r.seats) == 1)
    decisive = sum(1 for r in results if len(r.seats) == 2 and not r.both_lose
                   and r.places[0] != r.places[1])
    drawn = sum(1 for r in results if len(r.seats) == 2 and not r.both_lose
                and r.places[0] == r.places[1])
    both = sum(1 for r in results if r.both_lose)
    assert sum(s.wins for s in lines) == decisive + byes
    assert sum(s.losses for s in lines) == decisive + 2 * both
    assert sum(s.draws for s in lines) == 2 * drawn
    assert sum(s.points for s in lines) == 3 * (decisive + byes) + 2 * drawn
    assert all(s.points == 3 * s.wins + s.draws for s in lines)
    # Ranked by points, then the tiebreakers, never out of order.
    naive = naive_figures(entrants, results)
    records = swiss_records(entrants, results)
    for p, (points, mw, gw, omw, ogw) in naive.items():
        r = records[p]
        assert (r.points, r.mw, r.gw, r.omw, r.ogw) == (points, mw, gw, omw, ogw)
    keys = [records[s.entrant].key() for s in lines]
    assert keys == sorted(keys, reverse=True)
    assert all((s.note != "") == (keys[n] == keys[n - 1] if n else False)
               for n, s in enumerate(lines))
    # The same from the entrants and results in any order.
    shuffler = random.Random(seed)
    shuffled_entrants, shuffled_results = list(entrants), list(results)
    shuffler.shuffle(shuffled_entrants)
    shuffler.shuffle(shuffled_results)
    assert swiss_standings(shuffled_entrants, shuffled_results, seed) == lines


def sizes() -> st.SearchStrategy[int]:
    """2–500 players, mostly small (where the exact checks run), some large."""
    return st.integers(0, 9).flatmap(
        lambda k: st.integers(2, 24) if k < 6 else st.integers(25, 80) if k < 8
        else st.integers(81, 500))


styles = st.builds(
    Style,
    draws=st.sampled_from([0.0, 0.03, 0.25]),
    both_lose=st.sampled_from([0.0, 0.02]),
    drops=st.sampled_from([0.0, 0.05, 0.2]),
    rounds=st.one_of(st.none(), st.integers(1, 12)),
    seed=st.integers(0, 2**32 - 1),
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=sizes(), style=styles)
@example(n=500, style=Style(0.03, 0.02, 0.05, None, 1))
@example(n=409, style=Style(0.25, 0.0, 0.0, None, 2))
@example(n=129, style=Style(0.0, 0.0, 0.2, None, 3))
@example(n=33, style=Style(0.03, 0.02, 0.05, 12, 4))
def test_random_swiss_tournaments_keep_every_invariant(n: int, style: Style) -> None:
    if n > 80 and style.rounds is not None and style.rounds > 6:
        style = Style(style.draws, style.both_lose, style.drops, 6, style.seed)
    played = play(n, style)
    expected = style.rounds or swiss.swiss_rounds(sum(1 for e in played.entrants
                                                      if e.active_in(1)))
    assert len(played.rounds) <= expected
    for plan, entrants, results in played.rounds:
        check_round(plan, entrants, results, style.seed)
    check_standings(played, style.seed)
    assert SwissFormat(style.rounds).finished(played.entrants, played.results)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(20, 70), style=styles)
@example(n=70, style=Style(0.03, 0.0, 0.05, None, 5))
@example(n=64, style=Style(0.25, 0.02, 0.0, None, 6))
def test_the_reduced_pairing_is_as_good_as_matching_the_whole_field(n: int,
                                                                    style: Style) -> None:
    """With the reduction forced on small fields (it normally starts above
    :data:`swiss.FULL_FIELD`), every round costs exactly what the exact matching of
    the whole field costs, tier by tier."""
    with mock.patch.object(swiss, "FULL_FIELD", 4):
        played = play(n, Style(style.draws, style.both_lose, style.drops, None, style.seed))
        for plan, entrants, results in played.rounds[1:]:
            field_then = Field.build(entrants, results, style.seed, plan.round)
            assert field_then.cost(plan.pairings) == field_then.cost(
                pair_field(field_then, style.seed, reduce=False))


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 40), seed=st.integers(0, 1000))
def test_round_robin_everyone_meets_everyone_exactly_once(n: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = [Entrant(p, rng.randrange(1000)) for p in range(1, n + 1)]
    robin = RoundRobinFormat()
    results: list[Result] = []
    while (plan := robin.next_round(entrants, results, seed)) is not None:
        seated = [p for pairing in plan.pairings for p in pairing]
        assert sorted(seated) == list(range(1, n + 1))
        results += [outcome(rng, plan.round, p, Style(0.1, 0.0, 0.0, None, seed))
                    for p in plan.pairings]
    meetings = Counter(frozenset(r.seats) for r in results if len(r.seats) == 2)
    assert set(meetings.values()) == {1} if n > 1 else not meetings
    assert len(meetings) == n * (n - 1) // 2
    assert Counter(r.seats[0] for r in results if len(r.seats) == 1) == (
        Counter(range(1, n + 1)) if n % 2 else Counter())
