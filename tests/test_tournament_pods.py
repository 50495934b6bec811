"""Pods for the 3–6 player games (rules/tournament/pods.py): pod sizes for every count,
the snake by standing, repeat pod-mates kept down, byes when no seating fits, the points
table, standings and their tiebreak; and random events of up to 200 players."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n import say
from rules.errors import RulesError
from rules.phrases import Words
from rules.tournament.model import Entrant, Result, RoundPlan
from rules.tournament.pods import (
    PodError,
    PodsFormat,
    default_points,
    pod_sizes,
    repeats,
    snake_seating,
)

PROFILE = settings(max_examples=100, deadline=None, derandomize=True, database=None)
Places = Callable[[tuple[int, ...]], tuple[int, ...]]


def english(labels: Sequence[Words]) -> tuple[str, ...]:
    """Labels as an English reader reads them."""
    return tuple(say(label, "en") for label in labels)


@contextmanager
def refused(error: type[RulesError], pattern: str) -> Iterator[None]:
    """Expect ``error`` whose English words match ``pattern``."""
    with pytest.raises(error) as caught:
        yield
    assert re.search(pattern, say(caught.value.text, "en")), say(caught.value.text, "en")


def field(players: int) -> list[Entrant]:
    return [Entrant(id=seed, seed=seed) for seed in range(1, players + 1)]


def shuffled_places(rng: random.Random, ties: bool = False) -> Places:
    """Random finishing places; with ``ties``, sometimes two share a place."""
    def places(pod: tuple[int, ...]) -> tuple[int, ...]:
        order = list(range(1, len(pod) + 1))
        rng.shuffle(order)
        if ties and len(pod) > 1 and rng.random() < 0.3:
            # The two best share first place (competition ranking: 1, 1, 3, …).
            order = [1 if place <= 2 else place for place in order]
        return tuple(order)
    return places


def play(fmt: PodsFormat, entrants: list[Entrant], places: Places, seed: int = 0,
         drops: Callable[[int, list[Entrant]], list[Entrant]] | None = None,
         ) -> tuple[list[Entrant], list[Result], list[RoundPlan]]:
    results: list[Result] = []
    plans: list[RoundPlan] = []
    while (plan := fmt.next_round(entrants, results, seed)) is not None:
        assert not fmt.finished(entrants, results)
        assert plan.round == len(plans) + 1
        plans.append(plan)
        for pod in plan.pairings:
            results.append(Result(plan.round, pod, (1,) if len(pod) == 1 else places(pod)))
        if drops:
            entrants = drops(plan.round, entrants)
    assert fmt.finished(entrants, results)
    return entrants, results, plans


def met_before(results: list[Result], round_no: int) -> dict[int, Counter[int]]:
    met: dict[int, Counter[int]] = {}
    for result in results:
        if result.round < round_no:
            for a, b in combinations(result.seats, 2):
                met.setdefault(a, Counter())[b] += 1
                met.setdefault(b, Counter())[a] += 1
    return met


def pods_of(plan: RoundPlan) -> list[tuple[int, ...]]:
    return [pod for pod in plan.pairings if len(pod) > 1]


def no_swap_helps(pods: list[tuple[int, ...]], met: dict[int, Counter[int]]) -> bool:
    """No swap of two players of different pods lowers the repeat pod-mates."""
    def m(a: int, b: int) -> int:
        return met.get(a, Counter())[b]

    for a, b in combinations(range(len(pods)), 2):
        for x in pods[a]:
            for y in pods[b]:
                # Only the pairs x and y leave and join change.
                change = sum(m(y, z) - m(x, z) for z in pods[a] if z != x) \
                    + sum(m(x, z) - m(y, z) for z in pods[b] if z != y)
                if change < 0:
                    return False
    return True


def test_the_swap_check_finds_a_helpful_swap() -> None:
    met = {1: Counter({2: 1}), 2: Counter({1: 1})}
    assert not no_swap_helps([(1, 2), (3, 4)], met)
    assert no_swap_helps([(1, 3), (2, 4)], met)


# -- Pod sizes ------------------------------------------------------------------------------

def can_seat(players: int, seats: int, min_seats: int) -> bool:
    return any(pods * min_seats <= players <= pods * seats for pods in range(1, players + 1))


@pytest.mark.parametrize("seats", range(3, 7))
def test_pod_sizes_for_every_count(seats: int) -> None:
    for min_seats in range(2, seats + 1):
        for players in range(3, 61):
            if players < min_seats:
                with pytest.raises(PodError):
                    pod_sizes(players, seats, min_seats)
                continue
            sizes, byes = pod_sizes(players, seats, min_seats)
            seated = players - byes
            assert sum(sizes) == seated and list(sizes) == sorted(sizes, reverse=True)
            assert all(min_seats <= size <= seats for size in sizes)
            assert max(sizes) - min(sizes) <= 1
            assert len(sizes) == -(-seated // seats)  # as few pods as the seats allow
            assert can_seat(seated, seats, min_seats)
            assert not any(can_seat(players - fewer, seats, min_seats)
                           for fewer in range(byes))  # the fewest byes
            if can_seat(players, seats, max(min_seats, seats - 1)):
                assert byes == 0 and set(sizes) <= {seats, seats - 1}  # the spec's rule


def test_pod_sizes_examples() -> None:
    assert pod_sizes(12, 4, 3) == ((4, 4, 4), 0)
    assert pod_sizes(11, 4, 3) == ((4, 4, 3), 0)
    assert pod_sizes(9, 4, 3) == ((3, 3, 3), 0)
    assert pod_sizes(6, 5, 3) == ((3, 3), 0)  # 5 + 1 would leave a pod below 3
    assert pod_sizes(5, 4, 3) == ((4,), 1)  # no split of 5 into 3–4: one sits out
    assert pod_sizes(7, 3, 3) == ((3, 3), 1)
    assert pod_sizes(3, 6, 3) == ((3,), 0)


def test_too_few_players_for_a_pod_is_refused() -> None:
    pods = PodsFormat(seats=4, min_seats=3, rounds=3)
    with refused(PodError, "2 players cannot fill a pod"):
        pods.next_round(field(2), [], 0)
    assert issubclass(PodError, RulesError) and issubclass(PodError, ValueError)


@pytest.mark.parametrize(("options", "message"), [
    ({"seats": 4, "min_seats": 5, "rounds": 3}, "minimum"),
    ({"seats": 4, "min_seats": 1, "rounds": 3}, "at least 2"),
    ({"seats": 4, "min_seats": 3, "rounds": 0}, "at least 1 round"),
    ({"seats": 4, "min_seats": 3, "rounds": 3, "points": (1, 3)}, "points"),
    ({"seats": 4, "min_seats": 3, "rounds": 3, "points": ()}, "points"),
    ({"seats": 4, "min_seats": 3, "rounds": 3, "points": (3, -1)}, "points"),
])
def test_bad_options_are_refused(options: dict, message: str) -> None:
    with refused(PodError, message):
        PodsFormat(**options)


# -- Seating ---------------------------------------------------------------------------------

def test_the_snake() -> None:
    assert snake_seating(list(range(1, 10)), (3, 3, 3)) == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]
    assert snake_seating(list(range(1, 12)), (4, 4, 3)) == [
        [1, 6, 7, 11], [2, 5, 8, 10], [3, 4, 9]]
    assert snake_seating([5, 6], (2,)) == [[5, 6]]


def test_round_one_is_drawn_and_replays() -> None:
    pods = PodsFormat(seats=4, min_seats=3, rounds=3)
    people = field(12)
    first = pods.next_round(people, [], 1)
    assert first == pods.next_round(people, [], 1)
    assert english(first.labels) == ("Pod 1", "Pod 2", "Pod 3")
    assert say(first.labels[2], "pt_BR") == "Grupo 3"
    draws = {pods.next_round(people, [], seed).pairings for seed in range(10)}
    assert len(draws) > 1
    assert first.pairings != ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12))


@pytest.mark.parametrize("seed", range(6))
def test_later_rounds_follow_the_snake_unless_it_repeats_pod_mates(seed: int) -> None:
    pods = PodsFormat(seats=4, min_seats=3, rounds=4)
    rng = random.Random(seed)
    people = field(22)
    entrants, results, plans = play(pods, people, shuffled_places(rng), seed)
    for plan in plans[1:]:
        earlier = [r for r in results if r.round < plan.round]
        order = [line.entrant for line in pods.standings(entrants, earlier, seed)]
        snake = snake_seating(order, pod_sizes(22, 4, 3)[0])
        met = met_before(results, plan.round)
        got = pods_of(plan)
        if repeats(snake, met) == 0:
            assert sorted(map(sorted, got)) == sorted(map(sorted, snake))
        assert repeats(got, met) <= repeats(snake, met)
        assert no_swap_helps(got, met)


@pytest.mark.parametrize("seed", range(8))
def test_sixteen_players_in_pods_of_four_never_meet_twice_in_three_rounds(seed: int) -> None:
    pods = PodsFormat(seats=4, min_seats=3, rounds=3)
    _, results, _ = play(pods, field(16), shuffled_places(random.Random(seed)), seed)
    met = met_before(results, 4)
    assert all(times == 1 for counts in met.values() for times in counts.values())


@pytest.mark.parametrize("seed", range(8))
def test_nine_players_in_pods_of_three_never_meet_twice_in_four_rounds(seed: int) -> None:
    pods = PodsFormat(seats=3, min_seats=3, rounds=4)
    _, results, _ = play(pods, field(9), shuffled_places(random.Random(seed)), seed)
    met = met_before(results, 5)
    assert all(times == 1 for counts in met.values() for times in counts.values())
    assert all(len(counts) == 8 for counts in met.values())  # everyone met everyone


@pytest.mark.parametrize("seed", range(4))
def test_twelve_players_in_pods_of_four_repeat_only_as_little_as_they_must(seed: int) -> None:
    """Three pods of four in round 1: any pod of four in round 2 holds two players from
    one of them, so three repeats a round are the least possible."""
    pods = PodsFormat(seats=4, min_seats=3, rounds=2)
    _, results, plans = play(pods, field(12), shuffled_places(random.Random(seed)), seed)
    assert repeats(pods_of(plans[1]), met_before(results, 2)) == 3


def test_seat_order_within_a_pod_is_drawn() -> None:
    pods = PodsFormat(seats=4, min_seats=3, rounds=2)
    firsts = Counter()
    for seed in range(20):
        _, _, plans = play(pods, field(8), shuffled_places(random.Random(seed)), seed)
        firsts.update(pod[0] for plan in plans for pod in plan.pairings)
    assert len(firsts) == 8


# -- Byes and drops --------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "seats", "min_seats"), [(5, 4, 3), (7, 3, 3), (4, 3, 3)])
def test_byes_go_round_when_no_seating_fits(players: int, seats: int, min_seats: int) -> None:
    _, byes = pod_sizes(players, seats, min_seats)
    rounds = players
    pods = PodsFormat(seats=seats, min_seats=min_seats, rounds=rounds)
    _, results, plans = play(pods, field(players), shuffled_places(random.Random(2)), 3)
    assert all(english(plan.labels).count("Bye") == byes for plan in plans)
    had = Counter(r.seats[0] for r in results if r.is_bye)
    assert sorted(had.values()) == [byes] * players  # a bye each before anyone's second


def test_dropped_players_are_never_seated_again() -> None:
    pods = PodsFormat(seats=3, min_seats=3, rounds=3)
    people = field(7)
    results = [Result(1, (1, 2, 3), (1, 2, 3)), Result(1, (4, 5, 6), (1, 2, 3)),
               Result(1, (7,), (1,))]
    people = [Entrant(e.id, e.seed, 1) if e.id in (2, 5) else e for e in people]
    plan = pods.next_round(people, results, 0)
    seated = [who for pod in plan.pairings for who in pod]
    assert sorted(seated) == [1, 3, 4, 6, 7] and english(plan.labels).count("Bye") == 2
    lines = {line.entrant: line for line in pods.standings(people, results, 0)}
    assert lines[2].dropped and not lines[1].dropped


def test_too_few_left_ends_the_event() -> None:
    pods = PodsFormat(seats=3, min_seats=3, rounds=5)
    people = [Entrant(e.id, e.seed, 1) if e.id > 2 else e for e in field(3)]
    results = [Result(1, (1, 2, 3), (1, 2, 3))]
    assert pods.finished(people, results)
    assert pods.next_round(people, results, 0) is None


def test_a_round_not_finished_is_said() -> None:
    pods = PodsFormat(seats=3, min_seats=3, rounds=3)
    people = field(6)
    results = [Result(1, (1, 2, 3), (1, 2, 3))]
    with refused(PodError, "round 1 is still being played: 3 players"):
        pods.next_round(people, results, 0)
    assert not pods.finished(people, results)
    with refused(PodError, "more than once"):
        pods.next_round(people, [*results, Result(1, (3, 4, 5), (1, 2, 3))], 0)


# -- Points and standings ----------------------------------------------------------------------

def test_the_default_points_table() -> None:
    assert [default_points(n) for n in (3, 4, 5, 6)] == [(3, 1), (3, 1), (3, 2, 1), (3, 2, 1)]
    pods = PodsFormat(seats=6, min_seats=3, rounds=1)
    four = Result(1, (1, 2, 3, 4), (4, 3, 2, 1))
    assert [pods.score(four, who) for who in (1, 2, 3, 4)] == [0, 0, 1, 3]
    six = Result(1, (1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6))
    assert [pods.score(six, who) for who in range(1, 7)] == [3, 2, 1, 0, 0, 0]
    five = Result(1, (1, 2, 3, 4, 5), (2, 1, 3, 5, 4))
    assert [pods.score(five, who) for who in range(1, 6)] == [2, 3, 1, 0, 0]


def test_the_organisers_table_ties_byes_and_both_lose() -> None:
    pods = PodsFormat(seats=4, min_seats=3, rounds=1, points=(5, 3, 1))
    result = Result(1, (1, 2, 3, 4), (1, 2, 2, 4))
    assert [pods.score(result, who) for who in (1, 2, 3, 4)] == [5, 3, 3, 0]
    tied_first = Result(1, (1, 2, 3), (1, 1, 3))
    assert [pods.score(tied_first, who) for who in (1, 2, 3)] == [5, 5, 1]
    assert pods.score(Result(1, (7,), (1,)), 7) == 5
    assert PodsFormat(seats=4, min_seats=3, rounds=1).score(Result(1, (7,), (1,)), 7) == 3
    nobody = Result(1, (1, 2, 3), (1, 2, 3), both_lose=True)
    assert [pods.score(nobody, who) for who in (1, 2, 3)] == [0, 0, 0]


def test_standings_by_points_then_opponents_points() -> None:
    """Worked by hand: round 1 pods 1-2-3-4 and 5-6-7 in order; round 2 pod 1-5-6
    (5 first, 1 second) and pod 2-3-4-7 (2 and 3 share first)."""
    pods = PodsFormat(seats=4, min_seats=3, rounds=2)
    people = field(7)
    results = [Result(1, (1, 2, 3, 4), (1, 2, 3, 4)), Result(1, (5, 6, 7), (1, 2, 3)),
               Result(2, (1, 5, 6), (2, 1, 3)), Result(2, (2, 3, 4, 7), (1, 1, 3, 4))]
    lines = pods.standings(people, results, 0)
    assert [(line.entrant, line.points) for line in lines] == [
        (5, 6), (1, 4), (2, 4), (3, 3), (6, 1), (4, 0), (7, 0)]
    by_id = {line.entrant: line for line in lines}
    # 1's pod-mates scored 2, 1.5, 0 (round 1) and 3, 0.5 (round 2) a round: 7/5.
    assert by_id[1].omw == pytest.approx(float(Fraction(7, 5) / 3))
    assert by_id[2].omw == pytest.approx(float(Fraction(5, 6) / 3))
    assert by_id[4].omw == pytest.approx(0.5) and by_id[7].omw == pytest.approx(1.4 / 3)
    assert (by_id[2].record, by_id[5].record, by_id[4].record) == ("0-1-1", "2-0-0", "0-2-0")
    assert by_id[5].mw == 1.0 and by_id[1].mw == pytest.approx(4 / 6)
    assert [line.rank for line in lines] == list(range(1, 8))
    assert not any(line.note for line in lines)


def test_true_ties_are_drawn_at_random_and_said() -> None:
    pods = PodsFormat(seats=3, min_seats=3, rounds=1)
    results = [Result(1, (1, 2, 3), (1, 2, 3)), Result(1, (4, 5, 6), (1, 2, 3))]
    orders = set()
    for seed in range(20):
        lines = pods.standings(field(6), results, seed)
        assert {lines[0].entrant, lines[1].entrant} == {1, 4}
        assert say(lines[1].note, "en") == "drawn at random" and lines[0].note == ""
        assert say(lines[1].note, "pt_BR") == "sorteado"
        assert lines[0] == pods.standings(field(6), results, seed)[0]
        orders.add(lines[0].entrant)
    assert orders == {1, 4}


def test_the_protocol() -> None:
    pods = PodsFormat(seats=5, min_seats=3, rounds=4)
    assert pods.name == "pods" and pods.rounds(field(10)) == 4
    _, results, plans = play(pods, field(10), shuffled_places(random.Random(1)))
    assert len(plans) == 4 and {r.round for r in results} == {1, 2, 3, 4}


# -- Random events ---------------------------------------------------------------------------

@PROFILE
@given(players=st.integers(2, 200), seats=st.integers(3, 6), spare=st.integers(0, 4),
       rounds=st.integers(1, 5), seed=st.integers(0, 2**32))
def test_random_pod_events(players: int, seats: int, spare: int, rounds: int,
                           seed: int) -> None:
    min_seats = max(2, seats - spare)
    fmt = PodsFormat(seats=seats, min_seats=min_seats, rounds=rounds)
    rng = random.Random(seed)
    if players < min_seats:
        with pytest.raises(PodError):
            fmt.next_round(field(players), [], seed)
        return

    def drops(round_no: int, entrants: list[Entrant]) -> list[Entrant]:
        return [Entrant(e.id, e.seed, round_no)
                if e.dropped_after is None and rng.random() < 0.05 else e for e in entrants]

    entrants, results, plans = play(fmt, field(players), shuffled_places(rng, ties=True), seed,
                                    drops)
    byes_had: Counter[int] = Counter()
    for plan in plans:
        active = [e.id for e in entrants if e.active_in(plan.round)]
        seated = [who for pairing in plan.pairings for who in pairing]
        assert sorted(seated) == sorted(active)  # everyone once: in a pod or a bye
        sizes, byes = pod_sizes(len(active), seats, min_seats)
        got = pods_of(plan)
        assert [len(pod) for pod in got] == list(sizes)
        assert all(min_seats <= len(pod) <= seats for pod in got)
        assert english(plan.labels) == tuple(f"Pod {n}" for n in range(1, len(got) + 1)) + \
            ("Bye",) * byes
        sitting_out = [pairing[0] for pairing in plan.pairings if len(pairing) == 1]
        for who in sitting_out:  # no second bye while someone seated has none
            assert all(byes_had[other] >= byes_had[who] for other in seated
                       if other not in sitting_out)
        byes_had.update(sitting_out)
        if plan.round > 1:
            assert no_swap_helps(got, met_before(results, plan.round))
    assert len(plans) == rounds or sum(e.dropped_after is None for e in entrants) < min_seats
    lines = fmt.standings(entrants, results, seed)
    assert sorted(line.entrant for line in lines) == sorted(e.id for e in entrants)
    assert [line.rank for line in lines] == list(range(1, len(lines) + 1))
    assert [line.points for line in lines] == sorted((line.points for line in lines),
                                                    reverse=True)
    total = Counter()
    for result in results:
        for who in result.seats:
            total[who] += fmt.score(result, who)
    assert all(line.points == total[line.entrant] for line in lines)
