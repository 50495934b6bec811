"""The Swiss arithmetic against the spec's letter (issue 28 §2;
``../shared/specs/tournaments.md``, "Swiss arithmetic"): the floor is exactly 0.33,
a player with no opponent has OMW%/OGW% at the floor, pairings float as few players
as they can before minding point gaps, standings give their figures as exact fractions
through every format, and a result whose places and games disagree is refused.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import astuple
from fractions import Fraction

import pytest

from bot.tournaments.formats import result_of
from rules.tournament.elimination import DoubleEliminationFormat, SingleEliminationFormat
from rules.tournament.model import Entrant, Pairing, Result, Standing
from rules.tournament.pods import PodsFormat
from rules.tournament.round_robin import RoundRobinFormat
from rules.tournament.standings import FLOOR, game_win, match_win, swiss_records, swiss_standings
from rules.tournament.swiss import Field, SwissFormat, pair_field
from storage.tournaments import PairingRow

A, B, C, D, E = 1, 2, 3, 4, 5
FIVE = [Entrant(p, p) for p in (A, B, C, D, E)]
# The issue's example. Round 1: E–B drawn 1–1, D beats C 2–1, A has the bye.
# Round 2: C–A drawn 1–1, D–B drawn 1–1, E has the bye.
ISSUE_RESULTS = [
    Result(1, (E, B), (1, 1), (1, 1)), Result(1, (D, C), (1, 2), (2, 1)),
    Result(1, (A,), (1,), (2,)),
    Result(2, (C, A), (1, 1), (1, 1)), Result(2, (D, B), (1, 1), (1, 1)),
    Result(2, (E,), (1,), (2,)),
]


# -- the floor ------------------------------------------------------------------------------
def test_the_floor_is_exactly_0_33_not_a_third() -> None:
    assert Fraction(33, 100) == FLOOR
    assert match_win(0, 3) == Fraction(33, 100)
    assert match_win(3, 3) == Fraction(1, 3)  # 1/3 is above the floor: kept as it is
    assert game_win(3, 10) == Fraction(33, 100)  # 0.30 → 0.33
    assert game_win(1, 1) == Fraction(1, 3)


def test_the_issues_five_players_rank_e_d_a_b_c() -> None:
    """By hand: E, D and A have 4 points. OMW%: E met B only (2 points of 6: 1/3);
    D met C (1 of 6 → the floor 0.33) and B (1/3): (0.33 + 1/3)/2 = 199/600 ≈ 0.3317;
    A met C only: 0.33. So E, D, A; with a floor of 1/3 all three tie at 1/3 and GW%
    (E 9/12, A 9/12, D 9/15) puts A above D."""
    records = swiss_records(FIVE, ISSUE_RESULTS)
    assert [records[p].points for p in (E, D, A, B, C)] == [4, 4, 4, 2, 1]
    assert records[C].mw == Fraction(33, 100) and records[B].mw == Fraction(1, 3)
    assert records[E].omw == Fraction(1, 3)
    assert records[D].omw == Fraction(199, 600)
    assert records[A].omw == Fraction(33, 100)
    lines = swiss_standings(FIVE, ISSUE_RESULTS, seed=1)
    assert [s.entrant for s in lines] == [E, D, A, B, C]
    assert all(s.note == "" for s in lines)
    by_id = {s.entrant: s for s in lines}
    assert by_id[D].exact.omw == Fraction(199, 600)
    assert by_id[D].omw == pytest.approx(0.331666, abs=1e-6)


def test_a_player_with_only_byes_has_omw_and_ogw_at_the_floor() -> None:
    # Three players: 3 has the bye in round 1, 1 beats 2 2–1. 3 has no opponent yet.
    entrants = [Entrant(1, 1), Entrant(2, 2), Entrant(3, 3)]
    results = [Result(1, (1, 2), (1, 2), (2, 1)), Result(1, (3,), (1,), (2,))]
    three = swiss_records(entrants, results)[3]
    assert (three.opponents, three.omw, three.ogw) == ((), FLOOR, FLOOR)
    assert (three.mw, three.gw) == (1, 1)
    # 1's one opponent lost: OMW% at the floor too. Tied on OMW%, GW% decides
    # (3: 2–0, 1: 2–1); an OMW% of 0 would have put the bye below 1.
    lines = swiss_standings(entrants, results, seed=2)
    assert [s.entrant for s in lines] == [3, 1, 2]
    assert lines[0].omw == pytest.approx(0.33) and lines[0].note == ""


def test_a_player_who_played_no_round_has_every_figure_at_the_floor() -> None:
    entrants = [Entrant(1, 1), Entrant(2, 2), Entrant(3, 3, dropped_after=0)]
    never = swiss_records(entrants, [Result(1, (1, 2), (1, 2), (2, 1))])[3]
    assert never.rounds == 0
    assert (never.mw, never.gw, never.omw, never.ogw) == (FLOOR,) * 4
    no_results = swiss_records(entrants, [])
    assert all((r.mw, r.gw, r.omw, r.ogw) == (FLOOR,) * 4 for r in no_results.values())


# -- exact figures through every format ------------------------------------------------------
def exact_agrees(line: Standing) -> bool:
    figures = (line.exact.mw, line.exact.omw, line.exact.gw, line.exact.ogw)
    return (all(isinstance(f, Fraction) for f in figures)
            and [float(f) for f in figures] == [line.mw, line.omw, line.gw, line.ogw])


def test_swiss_and_round_robin_standings_give_the_exact_figures() -> None:
    records = swiss_records(FIVE, ISSUE_RESULTS)
    for fmt in (SwissFormat(rounds=2), RoundRobinFormat()):
        lines = fmt.standings(FIVE, ISSUE_RESULTS, 1)
        for line in lines:
            record = records[line.entrant]
            assert astuple(line.exact) == (record.mw, record.omw, record.gw, record.ogw)
            assert exact_agrees(line)


def test_pods_and_brackets_give_exact_figures_too() -> None:
    pods = PodsFormat(seats=3, min_seats=3, rounds=2)
    people = [Entrant(p, p) for p in range(1, 7)]
    results = [Result(1, (1, 2, 3), (1, 2, 3), (1, 0, 0)), Result(1, (4, 5, 6), (2, 1, 3))]
    lines = pods.standings(people, results, 0)
    assert all(exact_agrees(line) for line in lines)
    one = next(s for s in lines if s.entrant == 1)
    # 3 points of the 3 a round gives: MW 1; pod-mates 2 (1 point) and 3 (0): OMW 1/6.
    assert (one.exact.mw, one.exact.omw) == (Fraction(1), Fraction(1, 6))
    for bracket in (SingleEliminationFormat(), DoubleEliminationFormat()):
        four = [Entrant(p, p) for p in range(1, 5)]
        done = [Result(1, (1, 4), (1, 2), (2, 0)), Result(1, (2, 3), (2, 1), (1, 2))]
        assert all(exact_agrees(line) for line in bracket.standings(four, done, 0))


# -- results that disagree with themselves ---------------------------------------------------
@pytest.mark.parametrize(("kwargs", "words"), [
    ({"seats": (1, 2), "places": (1, 2), "games": (1, 2)}, "games"),
    ({"seats": (1, 2), "places": (1, 1), "games": (2, 0)}, "games"),
    ({"seats": (1, 2), "places": (2, 1), "games": (1, 1)}, "games"),
    ({"seats": (1, 2, 3), "places": (2, 1, 3), "games": (1, 0, 0)}, "games"),
    ({"seats": (1, 2), "places": (1,), "games": (2, 0)}, "place"),
    ({"seats": (1, 2), "places": (1, 3)}, "place"),
    ({"seats": (1, 2), "places": (2, 2)}, "place 1"),
    ({"seats": (1, 2), "places": (1, 2), "games": (2,)}, "games"),
    ({"seats": (1, 2), "places": (1, 2), "games": (2, -1)}, "games"),
    ({"seats": (1, 1), "places": (1, 2)}, "twice"),
    ({"seats": (), "places": ()}, "seat"),
    ({"seats": (1,), "places": (2,)}, "bye"),
    ({"seats": (1, 2), "places": (1, 1), "drawn_games": -1}, "drawn"),
])
def test_a_result_whose_places_and_games_disagree_is_refused(kwargs: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Result(1, **kwargs)


def test_results_that_agree_stay_valid() -> None:
    Result(1, (1,), (1,), (2,))  # a bye
    Result(1, (1,), (1,))  # a bye with no games recorded
    Result(1, (1, 2), (2, 1), (1, 2))
    Result(1, (1, 2), (1, 1), (1, 1))  # a drawn match
    Result(1, (1, 2), (1, 1), (0, 0), drawn_games=1)  # one drawn game
    Result(1, (1, 2), (1, 2))  # no games recorded
    Result(1, (1, 2), (2, 2), both_lose=True)
    Result(1, (1, 2), (2, 2), (1, 1), both_lose=True)
    Result(1, (1, 2, 3), (1, 2, 3), both_lose=True)
    Result(1, (1, 2, 3, 4), (1, 1, 3, 4), (1, 1, 0, 0))  # a pod's shared first place
    Result(1, (1, 2, 3), (3, 1, 2), (0, 1, 0))
    # A seat that left (absent, dropped) loses whatever the games played say.
    Result(1, (1, 2), (2, 1), (1, 0), forfeit=True)


def pairing_row(decided_by: str, games: tuple[int, ...], places: tuple[int, ...]) -> PairingRow:
    return PairingRow(tournament_id=1, round=1, table=1, stage="main", seats=(7, 8), label="",
                      status="done", match_id=None, thread_id=None, games=games, drawn_games=0,
                      places=places, both_lose=False, decided_by=decided_by, games_linked=1,
                      game_outcome=None)


def test_a_stored_forfeit_keeps_its_games_as_played() -> None:
    """A player 1–0 up in a best of three who drops (or is absent) loses the match; the
    formats read it as a forfeit, not as a result at odds with itself."""
    for how in ("drop", "absence"):
        result = result_of(pairing_row(how, (1, 0), (2, 1)))
        assert result.forfeit and result.points_of(8) == 3
    assert not result_of(pairing_row("play", (2, 1), (1, 2))).forfeit


def test_a_stored_result_at_odds_with_itself_is_read_by_its_places(caplog) -> None:
    """Reports are checked whole before they are stored; one stored before that (games
    1-0 for the seat placed second) is read by its places, which give the points, its
    games left out: the standings of an older tournament still read, never an error."""
    odd = result_of(pairing_row("organiser", (1, 0), (2, 1)))
    assert odd.games == () and odd.points_of(8) == 3 and odd.points_of(7) == 0
    assert "disagree with its places" in caplog.text


# -- floats before point gaps ----------------------------------------------------------------
def test_one_long_float_beats_two_short_ones() -> None:
    """6 points: 1; 3 points: 2 and 3; 0 points: 4. 1–2 and 3–4 pair four players
    outside their score group (point gaps 3 and 3); 1–4 and 2–3 only two (a gap of 6).
    Fewer floats first, then smaller gaps."""
    field = Field(3, [1, 2, 3, 4], {1: 6, 2: 3, 3: 3, 4: 0}, {}, {})
    assert {frozenset(p) for p in pair_field(field, seed=1)} == {frozenset({1, 4}),
                                                                 frozenset({2, 3})}


def matchings(players: list[int]) -> Iterator[list[Pairing]]:
    """Every way to pair ``players`` (an even number)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for n, other in enumerate(rest):
        for more in matchings(rest[:n] + rest[n + 1:]):
            yield [(first, other), *more]


def spec_cost(field: Field, pairings: list[Pairing] | tuple[Pairing, ...]) -> tuple[int, ...]:
    """The spec's order, computed afresh: rematches, the bye (only the fewest byes may
    have it; how many of those rank below the one who has it), players paired outside
    their score group, then the squared point gaps."""
    rematches = floats = gaps = bye = 0
    for pairing in pairings:
        if len(pairing) == 1:
            fewest = min(field.byes.values())
            eligible = [p for p in field.order if field.byes[p] == fewest]
            if pairing[0] not in eligible:
                return (0, 10**9, 0, 0)
            bye = len(eligible) - 1 - eligible.index(pairing[0])
            continue
        a, b = pairing
        rematches += b in field.met[a]
        gap = field.points[a] - field.points[b]
        floats += 2 * (gap != 0)
        gaps += gap * gap
    return (rematches, bye, floats, gaps)


def best_cost(field: Field) -> tuple[int, ...]:
    players = list(field.order)
    if len(players) % 2 == 0:
        return min(spec_cost(field, m) for m in matchings(players))
    return min(spec_cost(field, [*m, (bye,)]) for bye in players
               for m in matchings([p for p in players if p != bye]))


def random_field(rng: random.Random) -> Field:
    """A small field of a Swiss in progress: points as wins and draws give them, some
    pairs already met, some byes had."""
    n = rng.randrange(4, 11)
    points = {p: rng.choice([0, 0, 1, 3, 3, 4, 6, 6, 7, 9]) for p in range(1, n + 1)}
    order = sorted(points, key=lambda p: (-points[p], p))
    met: dict[int, set[int]] = {p: set() for p in order}
    for a in order:
        for b in order:
            if a < b and rng.random() < 0.2:
                met[a].add(b)
                met[b].add(a)
    byes = {p: int(rng.random() < 0.2) for p in order}
    return Field(4, order, points, met, byes)


def test_the_pairing_floats_as_few_players_as_any_pairing_can() -> None:
    """Small random fields against every possible pairing: the pairing found is the
    best in the spec's order — rematches, the bye, floats, point gaps."""
    rng = random.Random(2028)
    worse = []
    for _ in range(160):
        field = random_field(rng)
        found = spec_cost(field, pair_field(field, seed=rng.randrange(1000)))
        best = best_cost(field)
        if found != best:
            worse.append((field.points, {p: sorted(m) for p, m in field.met.items()},
                          field.byes, found, best))
    assert worse == []
