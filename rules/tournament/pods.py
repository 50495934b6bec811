"""Pods for the 3–6 player games (``../shared/specs/tournaments.md``, "Pods").

Each round seats everyone in pods of the game's size, pods one smaller when the count
does not divide (:func:`pod_sizes`), never a pod below the game's minimum. Round 1 is
drawn at random (seeded); later rounds go by standing, snaking across the pods so each
pod gets a fair share of the field (1st, 2nd, … into pods 1, 2, …, then back), and then
swap players between pods while that lowers the number of repeat pod-mates. Points come
by finishing place within the pod (:func:`default_points`, or the organiser's table).

The decisions the spec leaves open are in ``docs/rules/tournaments.md`` ("Pods").

>>> pod_sizes(10, seats=4, min_seats=3)
((4, 3, 3), 0)
>>> pod_sizes(5, seats=4, min_seats=3)
((4,), 1)
>>> people = [Entrant(id=seed, seed=seed) for seed in range(1, 11)]
>>> pods = PodsFormat(seats=4, min_seats=3, rounds=3)
>>> plan = pods.next_round(people, [], seed=7)
>>> [len(pod) for pod in plan.pairings], [label.key for label in plan.labels]
([4, 3, 3], ['tournaments.label.pod', 'tournaments.label.pod', 'tournaments.label.pod'])
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, pairwise

from rules.errors import RulesError
from rules.phrases import Phrase
from rules.tournament.model import Entrant, Figures, FormatName, Result, RoundPlan, Standing
from rules.tournament.standings import DRAWN_AT_RANDOM


class PodError(RulesError):
    """A round that cannot be seated, or results that do not fit one."""


def pod_sizes(players: int, seats: int, min_seats: int) -> tuple[tuple[int, ...], int]:
    """The pods a round seats ``players`` in, largest first, and how many sit out.

    As few pods as the seats allow, their sizes as even as possible: pods of ``seats``
    and ``seats - 1`` whenever that adds up (the spec's rule), else as even as the
    minimum allows (6 players at 5 seats: two pods of 3). When no split keeps every pod
    at ``min_seats`` or more (5 players at 3–4 seats), the fewest players sit the round
    out with a bye. :class:`PodError` when fewer than ``min_seats`` play at all.

    >>> pod_sizes(12, 4, 3), pod_sizes(13, 4, 3), pod_sizes(6, 5, 3), pod_sizes(7, 3, 3)
    (((4, 4, 4), 0), ((4, 3, 3, 3), 0), ((3, 3), 0), ((3, 3), 1))
    >>> pod_sizes(2, 4, 3)
    Traceback (most recent call last):
    ...
    rules.tournament.pods.PodError: tournaments.pods.too_few(count=2, least=3)
    """
    if players < min_seats:
        raise PodError(Phrase("tournaments.pods.too_few", count=players, least=min_seats))
    for byes in range(players):
        seated = players - byes
        if seated < min_seats:
            break
        pods = -(-seated // seats)
        small, big = divmod(seated, pods)[0], seated % pods
        if small >= min_seats:
            return (small + 1,) * big + (small,) * (pods - big), byes
    raise PodError(Phrase("tournaments.pods.cannot_seat", players=players, least=min_seats,
                          most=seats))


def default_points(pod: int) -> tuple[int, ...]:
    """Points by place in a pod of ``pod`` players when the organiser sets none: the
    spec's 3 and 1 for 1st and 2nd in 3–4 player pods; 3, 2, 1 in 5–6 player pods (a
    bigger pod rewards one more place); a match's 3 for a win in a pod of 2.

    >>> default_points(2), default_points(4), default_points(6)
    ((3, 0), (3, 1), (3, 2, 1))
    """
    if pod <= 2:
        return (3, 0)
    if pod <= 4:
        return (3, 1)
    return (3, 2, 1)


@dataclass(frozen=True, init=False)
class PodsFormat:
    """Pods of ``seats`` players (never fewer than ``min_seats``) for ``rounds`` rounds.

    ``points`` is the organiser's table, points for 1st, 2nd, … (places beyond it score
    0), the same for every pod size; ``None`` uses :func:`default_points`.

    >>> PodsFormat(seats=4, min_seats=3, rounds=3, points=(5, 3, 1)).points_for(2, 4)
    3
    >>> PodsFormat(seats=4, min_seats=5, rounds=3)
    Traceback (most recent call last):
    ...
    rules.tournament.pods.PodError: tournaments.pods.least_above_size(least=5, size=4)
    """

    seats: int
    min_seats: int
    round_count: int
    points: tuple[int, ...] | None
    name: FormatName

    def __init__(self, seats: int, min_seats: int, rounds: int,
                 points: tuple[int, ...] | None = None) -> None:
        # ``rounds`` is the organiser's word; the protocol's rounds() reads it back.
        if min_seats < 2:
            raise PodError(Phrase("tournaments.pods.least_two", least=min_seats))
        if min_seats > seats:
            raise PodError(Phrase("tournaments.pods.least_above_size", least=min_seats,
                                  size=seats))
        if rounds < 1:
            raise PodError(Phrase("tournaments.pods.no_rounds", rounds=rounds))
        if points is not None:
            points = tuple(points)
            if not points or any(p < 0 for p in points) or \
                    any(a < b for a, b in pairwise(points)):
                raise PodError(Phrase("tournaments.pods.bad_points",
                                      points=", ".join(map(str, points))))
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "min_seats", min_seats)
        object.__setattr__(self, "round_count", rounds)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "name", "pods")

    def points_for(self, place: int, pod: int) -> int:
        """Points for finishing ``place`` (from 1) in a pod of ``pod`` players."""
        table = self.points if self.points is not None else default_points(pod)
        return table[place - 1] if 1 <= place <= len(table) else 0

    def top_points(self) -> int:
        """The most a round can give: first place (a bye's points too)."""
        return self.points[0] if self.points is not None else 3

    def score(self, result: Result, entrant: int) -> int:
        """``entrant``'s points from one result: by place, tied places each scoring the
        place they share; a bye scores first place; "both lose" scores nothing."""
        if result.both_lose:
            return 0
        if result.is_bye:
            return self.top_points()
        return self.points_for(result.place_of(entrant), len(result.seats))

    # The protocol.

    def rounds(self, entrants: Sequence[Entrant]) -> int:
        """As many as the organiser set."""
        return self.round_count

    def next_round(self, entrants: Sequence[Entrant], results: Sequence[Result],
                   seed: int) -> RoundPlan | None:
        """The next round's pods (and byes, labelled ``"Bye"``), or ``None`` when the
        rounds are played or too few players are left to fill a pod.

        :class:`PodError` when round 1 cannot be seated (too few players), or when the
        last round is not finished (someone active in it has no result)."""
        last = self._last_round(entrants, results)
        if self._over(entrants, last):
            return None
        return self._seat(entrants, results, seed, last + 1)

    def finished(self, entrants: Sequence[Entrant], results: Sequence[Result]) -> bool:
        """Whether every round is played (or too few are left to fill a pod)."""
        try:
            last = self._last_round(entrants, results)
        except PodError:
            return False
        return self._over(entrants, last)

    def standings(self, entrants: Sequence[Entrant], results: Sequence[Result],
                  seed: int) -> list[Standing]:
        """Points; then opponents' points average (each pod-mate's points per round
        played, averaged over every pod-mate met; a bye meets nobody); then a seeded
        random draw, stated in the line's note.

        ``wins`` counts first places (a bye too), ``draws`` shared first places, ``losses``
        the rest; ``mw`` is points over the most the rounds played could give, ``omw``
        the opponents' average over the most a round gives."""
        points, played, opponents, record = self._tally(results)
        top = self.top_points()

        def per_round(entrant: int) -> Fraction:
            return Fraction(points[entrant], played[entrant]) if played[entrant] else \
                Fraction(0)

        average = {
            e.id: (sum((per_round(o) for o in opponents[e.id]), Fraction(0))
                   / len(opponents[e.id])) if opponents[e.id] else Fraction(0)
            for e in entrants}
        draw = _draw(entrants, f"pods-standings-{seed}")
        people = sorted(entrants, key=lambda e: (-points[e.id], -average[e.id], draw[e.id]))
        lines = []
        for place, entrant in enumerate(people):
            above = people[place - 1] if place else None
            tied = above is not None and points[above.id] == points[entrant.id] \
                and average[above.id] == average[entrant.id]
            wins, draws = record[entrant.id]["win"], record[entrant.id]["draw"]
            exact = Figures(
                mw=(Fraction(points[entrant.id], top * played[entrant.id])
                    if top and played[entrant.id] else Fraction(0)),
                omw=average[entrant.id] / top if top else Fraction(0))
            lines.append(Standing(
                rank=place + 1, entrant=entrant.id, points=points[entrant.id], wins=wins,
                losses=played[entrant.id] - wins - draws, draws=draws,
                omw=float(exact.omw), mw=float(exact.mw),
                dropped=entrant.dropped_after is not None,
                note=DRAWN_AT_RANDOM if tied else "", exact=exact))
        return lines

    # Seating.

    def _tally(self, results: Sequence[Result]) -> tuple[
            Counter[int], Counter[int], dict[int, list[int]], dict[int, Counter[str]]]:
        points: Counter[int] = Counter()
        played: Counter[int] = Counter()
        opponents: dict[int, list[int]] = defaultdict(list)
        record: dict[int, Counter[str]] = defaultdict(Counter)
        for result in results:
            if len(result.places) != len(result.seats):
                raise PodError(Phrase("tournaments.pods.places_for_seats", round=result.round,
                                      places=len(result.places), seats=len(result.seats)))
            firsts = 0 if result.both_lose else result.places.count(1)
            for entrant in result.seats:
                points[entrant] += self.score(result, entrant)
                played[entrant] += 1
                opponents[entrant].extend(result.opponents_of(entrant))
                if not result.both_lose and result.place_of(entrant) == 1:
                    record[entrant]["win" if firsts == 1 else "draw"] += 1
        return points, played, opponents, record

    def _last_round(self, entrants: Sequence[Entrant], results: Sequence[Result]) -> int:
        """The last round with results, checked finished: everyone active in it seated
        once (a pod or a bye)."""
        last = max((result.round for result in results), default=0)
        if not last:
            return 0
        seated = Counter(seat for result in results if result.round == last
                         for seat in result.seats)
        twice = sorted(who for who, times in seated.items() if times > 1)
        if twice:
            raise PodError(Phrase("tournaments.pods.seated_twice", round=last,
                                  who=twice[0]))
        waiting = [e.id for e in entrants if e.active_in(last) and e.id not in seated]
        if waiting:
            raise PodError(Phrase("tournaments.pods.unfinished", count=len(waiting),
                                  round=last))
        return last

    def _over(self, entrants: Sequence[Entrant], last: int) -> bool:
        if last >= self.round_count:
            return True
        # After round 1, too few left to fill a pod ends the event (round 1 raises).
        return last > 0 and sum(e.active_in(last + 1) for e in entrants) < self.min_seats

    def _seat(self, entrants: Sequence[Entrant], results: Sequence[Result], seed: int,
              round_no: int) -> RoundPlan:
        active = [e for e in entrants if e.active_in(round_no)]
        sizes, byes = pod_sizes(len(active), self.seats, self.min_seats)
        draw = random.Random(f"pods-round-{round_no}-{seed}")
        if round_no == 1:
            order = [e.id for e in sorted(active, key=lambda e: (e.seed, e.id))]
            draw.shuffle(order)
            sitting_out = order[len(order) - byes:]
            pods = _chunks(order[:len(order) - byes], sizes)
        else:
            earlier = [result for result in results if result.round < round_no]
            ids = {e.id for e in active}
            order = [line.entrant for line in self.standings(entrants, earlier, seed)
                     if line.entrant in ids]
            sitting_out = _byes(order, earlier, byes)
            seated = [who for who in order if who not in sitting_out]
            pods = _fewest_repeats(snake_seating(seated, sizes), seated, _meetings(earlier),
                                   draw)
        for pod in pods:
            # The seat order within a pod is drawn, so nobody always starts.
            draw.shuffle(pod)
        pairings = tuple(tuple(pod) for pod in pods) + tuple((who,) for who in sitting_out)
        labels = (tuple(Phrase("tournaments.label.pod", number=n)
                        for n in range(1, len(pods) + 1))
                  + (Phrase("tournaments.label.bye"),) * byes)
        return RoundPlan(round_no, pairings, labels)


def _draw(entrants: Sequence[Entrant], salt: str) -> dict[int, int]:
    """A seeded random order of everyone (for ties no figure breaks)."""
    ids = sorted(entrant.id for entrant in entrants)
    random.Random(salt).shuffle(ids)
    return {who: place for place, who in enumerate(ids)}


def _chunks(order: list[int], sizes: Sequence[int]) -> list[list[int]]:
    pods, start = [], 0
    for size in sizes:
        pods.append(order[start:start + size])
        start += size
    return pods


def _byes(order: list[int], results: Sequence[Result], count: int) -> list[int]:
    """Who sits out: the lowest in the standings among those with the fewest byes, so
    nobody has a second bye while another has none."""
    had = Counter(result.seats[0] for result in results if result.is_bye)
    bottom_up = sorted(range(len(order)), key=lambda place: (had[order[place]], -place))
    return [order[place] for place in bottom_up[:count]]


def snake_seating(order: list[int], sizes: Sequence[int]) -> list[list[int]]:
    """Players in standing order dealt across the pods 1, 2, …, n, n, …, 1, 1, 2, …,
    skipping full pods, so every pod gets players from the top, middle and bottom.

    >>> snake_seating(list(range(1, 10)), (3, 3, 3))
    [[1, 6, 7], [2, 5, 8], [3, 4, 9]]
    """
    pods: list[list[int]] = [[] for _ in sizes]
    lane = list(range(len(sizes)))
    turn: list[int] = []
    for player in order:
        while not turn:
            turn = [pod for pod in lane if len(pods[pod]) < sizes[pod]]
            lane.reverse()
        pods[turn.pop(0)].append(player)
    return pods


def _meetings(results: Sequence[Result]) -> dict[int, Counter[int]]:
    """How often each two players have shared a pod."""
    met: dict[int, Counter[int]] = defaultdict(Counter)
    for result in results:
        for first, second in combinations(result.seats, 2):
            met[first][second] += 1
            met[second][first] += 1
    return met


def repeats(pods: Sequence[Sequence[int]], met: dict[int, Counter[int]]) -> int:
    """Repeat pod-mates in a seating: for every two players sharing a pod, how often
    they have shared one before."""
    return sum(met.get(a, Counter())[b] for pod in pods for a, b in combinations(pod, 2))


KICKS = 24
"""Random shakes tried when swapping alone leaves repeat pod-mates (see _fewest_repeats)."""


class _Seating:
    """Pods being improved, with each player's clashes with every pod kept up to date,
    so a swap's effect is known at once."""

    def __init__(self, pods: list[list[int]], order: list[int],
                 met: dict[int, Counter[int]]) -> None:
        self.pods = [list(pod) for pod in pods]
        self.order = order
        self.rank = {who: place for place, who in enumerate(order)}
        self.met = met
        self.pod_of = {who: n for n, pod in enumerate(self.pods) for who in pod}
        # The standing of the player the snake sat in each seat: a swap trades seats.
        self.seat_rank = dict(self.rank)
        self.clash = {who: [0] * len(self.pods) for who in order}
        for who in order:
            for other, times in met.get(who, Counter()).items():
                if other in self.pod_of:
                    self.clash[who][self.pod_of[other]] += times
        self.repeats = sum(self.clash[who][self.pod_of[who]] for who in order) // 2
        self.shift = 0

    def cost(self) -> tuple[int, int]:
        """Repeat pod-mates first, then how far players sit from their snake seats."""
        return self.repeats, self.shift

    def change(self, first: int, second: int) -> tuple[int, int]:
        """What swapping two players of different pods does to :meth:`cost`."""
        here, there = self.pod_of[first], self.pod_of[second]
        between = self.met.get(first, Counter()).get(second, 0)
        gain = (self.clash[first][there] + self.clash[second][here] - 2 * between
                - self.clash[first][here] - self.clash[second][there])
        rank, seat = self.rank, self.seat_rank
        shift = (abs(rank[first] - seat[second]) + abs(rank[second] - seat[first])
                 - abs(rank[first] - seat[first]) - abs(rank[second] - seat[second]))
        return gain, shift

    def swap(self, first: int, second: int) -> None:
        gain, shift = self.change(first, second)
        here, there = self.pod_of[first], self.pod_of[second]
        self.pods[here][self.pods[here].index(first)] = second
        self.pods[there][self.pods[there].index(second)] = first
        self.pod_of[first], self.pod_of[second] = there, here
        for who, left, joined in ((first, here, there), (second, there, here)):
            for other, times in self.met.get(who, Counter()).items():
                if other in self.clash:
                    self.clash[other][left] -= times
                    self.clash[other][joined] += times
        self.seat_rank[first], self.seat_rank[second] = \
            self.seat_rank[second], self.seat_rank[first]
        self.repeats += gain
        self.shift += shift

    def troubled(self) -> list[int]:
        """Players sharing their pod with someone met before, best standing first."""
        return [who for who in self.order if self.clash[who][self.pod_of[who]]]

    def descend(self) -> None:
        """Swap while a swap lowers the repeats: each time the one that lowers them most,
        then the one that moves players least far from their snake seats."""
        # The loop of :meth:`change`, written out: it runs a million times in big events.
        clash, pod_of, rank, seat, none = self.clash, self.pod_of, self.rank, \
            self.seat_rank, Counter()
        while True:
            best: tuple[int, int, int, int] | None = None
            for first in self.troubled():
                here, mine, met = pod_of[first], clash[first], self.met.get(first, none)
                stay, rank_first, seat_first = mine[here], rank[first], seat[first]
                for second in self.order:
                    there = pod_of[second]
                    if there == here:
                        continue
                    theirs = clash[second]
                    gain = (mine[there] + theirs[here] - 2 * met[second] - stay
                            - theirs[there])
                    if gain >= 0 or (best is not None and gain > best[0]):
                        continue
                    rank_second = rank[second]
                    shift = (abs(rank_first - seat[second]) + abs(rank_second - seat_first)
                             - abs(rank_first - seat_first)
                             - abs(rank_second - seat[second]))
                    candidate = (gain, shift, rank_first, rank_second)
                    if best is None or candidate < best:
                        best = candidate
            if best is None:
                return
            self.swap(self.order[best[2]], self.order[best[3]])


def _fewest_repeats(pods: list[list[int]], order: list[int], met: dict[int, Counter[int]],
                    draw: random.Random) -> list[list[int]]:
    """The snake's pods with as few repeat pod-mates as swaps can find.

    Swapping two players of different pods while that lowers the repeats ends where no
    single swap helps; if repeats remain, the seating is shaken (a troubled player
    swapped with anyone of another pod, at random from ``draw``) and improved again,
    :data:`KICKS` times, keeping the best seen (fewest repeats, then nearest the snake).
    So the answer always has no single swap left that lowers its repeats.
    """
    if len(pods) < 2:
        return pods  # one pod: nothing to swap with
    seating = _Seating(pods, order, met)
    seating.descend()
    best = (seating.cost(), [list(pod) for pod in seating.pods])
    for _ in range(KICKS):
        if best[0][0] == 0:
            break
        troubled = seating.troubled()
        first = troubled[draw.randrange(len(troubled))]
        others = [who for who in order if seating.pod_of[who] != seating.pod_of[first]]
        seating.swap(first, others[draw.randrange(len(others))])
        seating.descend()
        if seating.cost() < best[0]:
            best = (seating.cost(), [list(pod) for pod in seating.pods])
    return best[1]
