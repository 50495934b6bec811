"""Swiss pairing: a maximum-weight matching over the whole field
(``../shared/specs/tournaments.md``, "Swiss arithmetic"; issue 18).

Round 1 is drawn at random (seeded). Every later round is paired as **one**
optimisation over every active player, never a greedy walk down the standings: a walk
that pairs the top score group first can paint itself into a corner (the last few
players have all met), and then has to backtrack or accept a rematch that another
pairing of the upper groups would have avoided. A matching sees the whole field at once.

Which pairing is best (lexicographically: a lower tier never buys a higher one)
-----------------------------------------------------------------------------------
A. **Rematches**: as few as possible, so none whenever a pairing without one exists.
   (A rematch is allowed, at this price, only when no pairing avoids it, so a round is
   always paired.)
B. **The bye** (an odd field): only players with the fewest byes so far may have it
   (a hard rule: nobody gets a second bye while an active player has none), and among
   them the lowest-ranked: the cost is how many such players rank below the one who
   gets it.
C. **Floats**: as few players paired outside their score group as possible (the spec:
   "among pairings with equally few rematches, fewer players paired outside their score
   group is better, then smaller point gaps"): each pairing across score groups costs 1.
   So an odd group's last player meets the next odd group's first across even groups
   rather than start a chain of floats through them: with 6 points 1, with 3 points 2
   and 3, with 0 points 4, it is 1–4 and 2–3 (two players outside their group), not
   1–2 and 3–4 (four).
D. **Point gaps**: the sum over pairings of the squared difference in match points, so
   among equally many floats, a float one group down (3 points, cost 9) is preferred to
   one two groups down (36), and a draw's one-point groups are floated into before
   three-point ones.
E. **Who floats**: the player floated down is the lowest-ranked of their group, and
   meets the highest-ranked of the group below: the cost of a float is how many of the
   higher player's group rank below them (times the field size, so it weighs first),
   plus how many of the lower player's group rank above them.
F. **Within a score group**, pairings are at random: a seeded random jitter, below
   every other tier, decides between otherwise equal pairings (as the Magic tournament
   rules pair at random within a point group).

The tiers become one integer weight per pairing (each tier's unit larger than the most
the tiers below it can add up to over a round, so no sum of lower tiers can ever tie or
outweigh one unit of a higher tier), and
``networkx.max_weight_matching(G, maxcardinality=True)`` finds the perfect matching of
greatest weight: with integer weights it computes exactly, in integers. An odd field
adds a ``"bye"`` node joined to the players who may have the bye.

Why networkx, not a dedicated pairing library
---------------------------------------------
Looked at on PyPI and in their sources: ``swisspair`` is the closest (Magic, a
minimum-cost perfect matching like this one), but a C++ core behind pybind11 that needs
GMP, with wheels for a few platforms and one maintainer (last release 2024), and its
rules are hard constraints (never a rematch, never a second bye), where the spec asks
for "no rematch *while one is avoidable*": when none is, it cannot pair the round at
all. The chess engines (``py4swiss``, ``caissify-pairings``, ``pairing-core``,
``swissdutch``) implement FIDE's Dutch system: colour allocation and rating-order
transpositions that card games do not have, driven by TRF files. ``pypair`` (Python 2,
not on PyPI) matches each score group with networkx and walks down the groups
greedily, the very walk the issue rules out. networkx is pure Python, BSD, widely used
and well tested; its blossom algorithm is exact for integer weights, so the objective
above is ours, stated and testable. (``rustworkx`` has the same algorithm in Rust and
would be far faster, but it is another compiled dependency; networkx is fast enough
with the restrictions below.)

Speed: restricting the matching, and checking that nothing was lost
------------------------------------------------------------------
networkx's blossom takes O(n³): measured on this machine, a 500-player complete graph
takes about 20 s, and even with 8 edges a player about 1.2 s (the cost is in the number
of players as well as of edges). So fields above :data:`FULL_FIELD` players are paired
under restrictions that an exchange argument shows lose nothing, checked after each
pass (:func:`_tighten`); when a check fails, the restrictions are loosened and the
round paired again, down to the whole field if need be.

* **Zones.** A pairing across score groups joins one of the bottom ``z`` of the higher
  group to one of the top ``z`` of the lower group (``z`` per group, starting at 3 plus
  the most opponents anyone outside the group has in it; a group too small for step 2
  below is open whole). Pairings within a group are all considered.
* **Middles.** In a group with at least :data:`MIN_MIDDLE` players between its two
  zones, those players (its *middle*) are paired among themselves at random, without
  rematches, before the matching; only the rest, the *kernel*, is matched.
* **Long floats.** A pairing across more than one gap between groups joins adjacent
  groups only (``reach`` 1), or a pair of groups in a set (``long``) that starts as the
  long floats the least possible pairing of step 1 would use (most often an odd group's
  last player to the next odd group's first, across even groups).

The check. Let the found pairing have no rematch and the bye on the lowest-ranked
eligible player (else tiers A or B might do better without restrictions: the zones
around the groups involved double, the reach doubles, and the round is paired again;
when that changes nothing, every zone doubles). Let ``M`` be an optimal pairing of the
whole field; it too has no rematch and the same bye. Tiers C and D are weighed together
as one integer, ``floats × big + squares`` (``big`` more than any pairing's squares).

1. *How many cross each gap.* Describe a pairing by ``c_j``, how many of its pairings
   cross gap ``j`` (of ``g_j`` points), and ``t_j``, how many pass level ``j`` (cross
   the gaps above and below it). Exactly: floats = Σ (c_j − t_j), each counted where it
   starts; squares = Σ c_j·g_j² + Σ 2·t_j·g_{j−1}·g_j + each pairing's *excess* (twice
   the products of the non-adjacent gaps it crosses, so 0 across one or two gaps); and
   level ``j`` sends c_{j−1} + c_j − 2·t_j of its players out. Each gap must be crossed
   at least as often as the parity of the players above it asks, and as the players of
   a small top or bottom of the field who cannot all be paired among themselves
   without a rematch ask (their *deficiency*, computed exactly up to :data:`SMALL_EDGE`
   players); a group's deficiency must leave it. Passing a level saves a float, which
   outweighs any square, so for given ``c`` the best ``t`` is as large as the level
   allows. A dynamic programme over the gaps gives the least possible weight under
   these constraints, leaving out the excesses (``LB``); for each group the most of its
   players any pairing weighing no more than the found one can send out (``F``, plus
   one if it holds the bye; ``M`` sends at most that many); and each pair of groups a
   long float of such a pairing may join: with one pairing starting at the upper group,
   passing every group between and ending at the lower one, and its excess counted.
   Those must be allowed.
2. *Floats sit at the edges of their group.* If a player ``m`` floats down to ``y`` in
   ``M`` while a player ``b`` of the same group ranked below ``m``, paired inside the
   group, has not met ``y``, then ``y`` against ``b`` and the group's other players
   paired again among themselves is as good in tiers A–D and better in E (the inner
   players can be paired again without a rematch when the group has at least
   ``2(d + 1)`` of them, ``d`` the most opponents anyone of the group has in it: Dirac's
   theorem on the graph of pairings not yet played). So below ``m`` are only the
   ``F − 1`` others leaving the group and ``y``'s opponents in it: ``m`` is among the
   bottom ``F + o`` of the group, ``o`` the most opponents anyone outside has in it.
   Floats up, to the top ``F + o``, likewise. The zones must be that wide (a group too
   small for Dirac's condition gets a zone as wide as itself).
3. *So ``M`` can be rearranged into a pairing the restrictions allow*: its floats are
   in the zones, its long floats allowed, its bye in the kernel; the middles
   are paired as drawn and each group's kernel players not leaving it are paired among
   themselves again (Dirac's theorem again, on the kernel's part of the group). Nothing
   costs more, so the restricted best is the field's best.

The tests check this against the unrestricted matching of the whole field, tier by
tier, on random tournaments with the restrictions forced on small fields, and the
objective itself against every possible pairing of small fields. On 500 players a
round usually pairs in one pass over a kernel of some 20 players (round 2) to 250
(round 10: more, smaller score groups), in 20–350 ms on this machine; when a long float
the least pairing would use is a rematch, a second pass allows more long floats (up to
about 0.7 s in round 9 or 10) (``make bench``: ``bench/tournament.py``;
``docs/performance.md``).

>>> from rules.tournament.model import Entrant, Result
>>> swiss = SwissFormat()
>>> entrants = [Entrant(n, n) for n in range(1, 6)]
>>> swiss.rounds(entrants)
3
>>> first = swiss.next_round(entrants, [], seed=4)
>>> first.round, len(first.pairings), sorted(len(p) for p in first.pairings)
(1, 3, [1, 2, 2])
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import pairwise

import networkx as nx

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
from rules.tournament.standings import ranked, swiss_records, swiss_standings

ROUNDS_BY_PLAYERS: tuple[tuple[int, int], ...] = (
    (8, 3), (16, 4), (32, 5), (64, 6), (128, 7), (226, 8), (409, 9))
"""The spec's table: up to so many players, so many rounds."""
MOST_ROUNDS = 10
"""410 players or more."""

BYE = "bye"
"""The matching's extra node in an odd field: whoever is paired with it has the bye."""

FULL_FIELD = 64
"""Up to this many active players the matching takes the whole field at once
(about 0.1 s here); above, it is restricted and the result checked (module doc)."""

MIN_MIDDLE = 4
"""A score group is reduced only if its middle would hold at least this many players."""

SMALL_EDGE = 40
"""Score groups, and tops and bottoms of the field, up to this size have their
deficiency (players who cannot be paired among themselves without a rematch) computed
exactly; larger ones count only their parity, a lower bound."""

JITTER = 64
"""Tier F's random values per pairing: 0 … JITTER − 1."""

UNLIMITED = 1 << 62
"""``_Plan.reach`` when pairings may cross any number of gaps; no bound."""

Tiers = tuple[int, int, int, int, int]
"""A pairing's (or a round's) cost: rematches, bye, floats (pairings across score
groups), point gaps (squared), who floats."""


def swiss_rounds(players: int) -> int:
    """Rounds for ``players`` players by the spec's table (0 for fewer than two).

    >>> [swiss_rounds(n) for n in (1, 2, 8, 9, 226, 227, 409, 410, 5000)]
    [0, 3, 3, 4, 8, 9, 9, 10, 10]
    """
    if players < 2:
        return 0
    for most, rounds in ROUNDS_BY_PLAYERS:
        if players <= most:
            return rounds
    return MOST_ROUNDS


class Field:
    """The active players of one round as the pairing sees them: ranked best first,
    their points, whom they have met, how many byes they have had.

    >>> field = Field(2, [5, 6, 7], {5: 3, 6: 3, 7: 0}, {5: {7}, 7: {5}}, {6: 1})
    >>> field.groups, field.bye_rank
    (((5, 6), (7,)), {5: 1, 7: 0})
    >>> field.pair_tiers(6, 7), field.pair_tiers(5, 7), field.pair_tiers(5, 6)
    ((0, 0, 1, 9, 0), (1, 0, 1, 9, 4), (0, 0, 0, 0, 0))
    """

    def __init__(self, round_no: int, order: Sequence[int], points: Mapping[int, int],
                 met: Mapping[int, Iterable[int]], byes: Mapping[int, int]) -> None:
        self.round = round_no
        self.order: tuple[int, ...] = tuple(order)
        active = set(self.order)
        if len(active) != len(self.order):
            raise ValueError("a player is listed twice")
        self.points = {p: points[p] for p in self.order}
        if any(self.points[a] < self.points[b] for a, b in zip(self.order, self.order[1:],
                                                                 strict=False)):
            raise ValueError("the order must be by points, best first")
        # Only opponents still in the field can be met again.
        self.met = {p: frozenset(met.get(p, ())) & active for p in self.order}
        self.byes = {p: byes.get(p, 0) for p in self.order}
        self.rank = {p: n for n, p in enumerate(self.order)}
        groups: list[list[int]] = []
        for p in self.order:
            if groups and self.points[groups[-1][0]] == self.points[p]:
                groups[-1].append(p)
            else:
                groups.append([p])
        self.groups: tuple[tuple[int, ...], ...] = tuple(tuple(g) for g in groups)
        self.group_of: dict[int, int] = {}
        self.above: dict[int, int] = {}
        """How many of the player's score group rank above them."""
        self.below: dict[int, int] = {}
        """How many of the player's score group rank below them."""
        for index, group in enumerate(self.groups):
            for n, p in enumerate(group):
                self.group_of[p], self.above[p], self.below[p] = index, n, len(group) - 1 - n
        self.bye_rank: dict[int, int] = {}
        """For the players who may have the bye (an odd field; the fewest byes so
        far): how many of them rank below (0: the one who should have it)."""
        if len(self.order) % 2:
            fewest = min(self.byes.values())
            eligible = [p for p in self.order if self.byes[p] == fewest]
            self.bye_rank = {p: len(eligible) - 1 - n for n, p in enumerate(eligible)}

    @classmethod
    def build(cls, entrants: Sequence[Entrant], results: Sequence[Result], seed: int,
              round_no: int) -> Field:
        """The field of ``round_no``: the entrants active in it, ranked by the
        standings of ``results`` (points, tiebreakers, the seeded draw)."""
        records = swiss_records(entrants, results)
        active = {e.id for e in entrants if e.active_in(round_no)}
        order = [r.entrant for r in ranked(records, seed) if r.entrant in active]
        return cls(round_no, order, {p: records[p].points for p in order},
                   {p: records[p].opponents for p in order},
                   {p: records[p].byes for p in order})

    @property
    def bye_due(self) -> int | None:
        """Who should have the bye at best: the lowest-ranked player with the fewest
        byes (``None``: an even field)."""
        return next((p for p, below in self.bye_rank.items() if below == 0), None)

    def pair_tiers(self, a: int, b: int) -> Tiers:
        """What pairing ``a`` with ``b`` costs, tier by tier (module doc)."""
        rematch = 1 if b in self.met[a] else 0
        spread = self.points[a] - self.points[b]
        if spread == 0:
            return (rematch, 0, 0, 0, 0)
        high, low = (a, b) if spread > 0 else (b, a)
        who = self.below[high] * (len(self.order) + 1) + self.above[low]
        return (rematch, 0, 1, spread * spread, who)

    def bye_tiers(self, player: int) -> Tiers:
        """What giving ``player`` the bye costs (they must be eligible)."""
        return (0, self.bye_rank[player], 0, 0, 0)

    def cost(self, pairings: Iterable[Pairing]) -> Tiers:
        """A round's cost, tier by tier, summed over its pairings."""
        total = [0, 0, 0, 0, 0]
        for pairing in pairings:
            tiers = (self.bye_tiers(pairing[0]) if len(pairing) == 1
                     else self.pair_tiers(pairing[0], pairing[1]))
            for n, value in enumerate(tiers):
                total[n] += value
        return (total[0], total[1], total[2], total[3], total[4])


# -- the matching ---------------------------------------------------------------------------
def _units(rows: Sequence[Sequence[int]], slots: int) -> list[int]:
    """Each tier's unit, so that ``slots`` pairings' worth of every lower tier adds up
    to less than one unit of the tier above (the weights then order lexicographically)."""
    width = len(rows[0])
    units = [1] * width
    for tier in range(width - 2, -1, -1):
        most = max(row[tier + 1] for row in rows)
        units[tier] = units[tier + 1] * (slots * most + 1)
    return units


def _match(field: Field, players: Sequence[int], rng: random.Random,
           may_float: Callable[[int, int], bool] | None = None) -> list[Pairing] | None:
    """The best pairing of ``players`` (with the bye node if they are odd), exactly;
    ``None`` if they cannot all be paired.

    Pairings inside a score group are always considered (a rematch at tier A's
    price); pairings across groups only where ``may_float(higher, lower)`` says so.
    """
    edges: list[tuple[int | str, int | str]] = []
    rows: list[tuple[int, ...]] = []
    for n, a in enumerate(players):
        for b in players[n + 1:]:
            if (may_float is None or field.points[a] == field.points[b]
                    or (may_float(a, b) if field.points[a] > field.points[b]
                        else may_float(b, a))):
                edges.append((a, b))
                rows.append((*field.pair_tiers(a, b), rng.randrange(JITTER)))
    if len(players) % 2:
        for p in players:
            if p in field.bye_rank:
                edges.append((p, BYE))
                rows.append((*field.bye_tiers(p), 0))
    slots = (len(players) + 1) // 2
    if not rows:
        return [] if not players else None
    units = _units(rows, slots)
    costs = [sum(v * u for v, u in zip(row, units, strict=True)) for row in rows]
    top = max(costs) + 1
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_weighted_edges_from((a, b, top - c) for (a, b), c in zip(edges, costs, strict=True))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if len(matching) != slots:
        return None
    pairings: list[Pairing] = []
    for a, b in matching:
        if a == BYE or b == BYE:
            pairings.append((b if a == BYE else a,))  # type: ignore[arg-type]
        else:
            pairings.append((a, b))  # type: ignore[arg-type]
    return pairings


def _pair_within(field: Field, players: Sequence[int],
                 rng: random.Random) -> list[Pairing] | None:
    """``players`` (an even number from one score group) paired among themselves at
    random without a rematch, or ``None`` if that cannot be done.

    Not a search for the best pairing: inside a score group every pairing without a
    rematch costs the same, so the first random one found is as good as any. A few
    shuffles almost always find one (the group is far larger than anyone's number of
    opponents); if not, an exact matching decides.
    """
    for _ in range(8):
        pool = list(players)
        rng.shuffle(pool)
        pairs: list[Pairing] = []
        while pool:
            a = pool.pop()
            partner = next((n for n in range(len(pool) - 1, -1, -1)
                            if pool[n] not in field.met[a]), None)
            if partner is None:
                break
            pairs.append((a, pool.pop(partner)))
        else:
            return pairs
    matching = nx.max_weight_matching(_unplayed(field, players), maxcardinality=True)
    if 2 * len(matching) != len(players):
        return None
    return [(a, b) for a, b in matching]


def _unplayed(field: Field, players: Sequence[int]) -> nx.Graph:
    """The graph of the pairings among ``players`` that would not be rematches."""
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from((a, b) for n, a in enumerate(players) for b in players[n + 1:]
                         if b not in field.met[a])
    return graph


def _most_opponents(field: Field, group: Sequence[int]) -> int:
    """The most opponents any one player outside ``group`` has in it."""
    members = set(group)
    counts: Counter[int] = Counter()
    for p in group:
        counts.update(o for o in field.met[p] if o not in members)
    return max(counts.values(), default=0)


def _most_met_within(field: Field, players: Iterable[int]) -> int:
    """The most opponents any one of ``players`` has among them."""
    members = set(players)
    return max((len(field.met[p] & members) for p in members), default=0)


def _deficiency(field: Field, players: Sequence[int]) -> int:
    """How many of ``players`` are left over when as many pairs as can be are made
    among them without a rematch (exact up to :data:`SMALL_EDGE` players; above, only
    the parity, which is a lower bound)."""
    if len(players) > SMALL_EDGE:
        return len(players) % 2
    return len(players) - 2 * len(nx.max_weight_matching(_unplayed(field, players),
                                                         maxcardinality=True))


class _Gaps:
    """The gaps between the score groups of the players to be paired (the field less
    the player due the bye), and what any pairing without a rematch must pay to cross
    them (step 1 of the module doc).

    Level ``j`` is the ``j``-th score group from the top that still has players; gap
    ``j`` lies between levels ``j`` and ``j + 1``. Tiers C and D are weighed together
    as one integer, ``floats × big + squared gaps``: ``big`` is more than the squared
    gaps of any pairing of the field, so comparing these integers is comparing (C, D)
    lexicographically.
    """

    def __init__(self, field: Field) -> None:
        self.bye = field.bye_due
        groups = [[p for p in g if p != self.bye] for g in field.groups]
        self.group = [i for i, g in enumerate(groups) if g]
        """The field's group index of each level."""
        self.values = [field.points[groups[i][0]] for i in self.group]
        self.value_level = {v: j for j, v in enumerate(self.values)}
        self.gap = [self.values[j] - self.values[j + 1] for j in range(len(self.values) - 1)]
        sizes = [len(groups[i]) for i in self.group]
        self.short = [_deficiency(field, groups[i]) for i in self.group]
        """Per level: players it cannot pair among themselves (each crosses a gap)."""
        self.least: list[int] = []
        """Per gap: the fewest pairings that can cross it."""
        self.most: list[int] = []
        """Per gap: the most that could (the fewer players on either side)."""
        total = sum(sizes)
        above = 0
        for j in range(len(self.gap)):
            above += sizes[j]
            top = [p for i in self.group[:j + 1] for p in groups[i]]
            bottom = [p for i in self.group[j + 1:] for p in groups[i]]
            least = max(above % 2,
                        _deficiency(field, top) if len(top) <= SMALL_EDGE else 0,
                        _deficiency(field, bottom) if len(bottom) <= SMALL_EDGE else 0)
            self.least.append(least)
            self.most.append(min(above, total - above))
        widest = self.values[0] - self.values[-1] if self.values else 0
        self.big = (total // 2 + 1) * widest * widest + 1
        self._tables: tuple[int, list[dict[int, int]], list[dict[int, int]]] | None = None

    def key(self, floats: int, squares: int) -> int:
        """Tiers C and D as one integer (the class doc)."""
        return floats * self.big + squares

    def level_of(self, points: int) -> int | None:
        """The level of a score (``None``: the group of the player due the bye, alone
        in it)."""
        return self.value_level.get(points)

    def excess(self, high: int, low: int) -> int:
        """What a pairing from level ``high`` down to level ``low`` costs in tier D
        beyond what :meth:`bounds` counts for it (each gap's square and twice the
        product of each two adjacent gaps it crosses): twice the products of the gaps
        it crosses that are not adjacent."""
        crossed = self.gap[high:low]
        spread = sum(crossed)
        counted = sum(g * g for g in crossed) + sum(
            2 * a * b for a, b in pairwise(crossed))
        return spread * spread - counted

    # Step 1 as a dynamic programme over the gaps. A pairing is described by how many
    # of its pairings cross each gap (c_j) and how many pass level j, crossing both of
    # its gaps (t_j). Then exactly: floats = Σ (c_j − t_j) (each float counted at the
    # gap where it starts), squared gaps = Σ c_j·g_j² + Σ 2·t_j·g_{j−1}·g_j + the
    # excess of each pairing crossing three gaps or more; level j sends
    # c_{j−1} + c_j − 2·t_j of its players out. Passing a level saves a float, which
    # outweighs any square, so for given c the best t is as large as level j allows.
    def _values(self, j: int, cap: int) -> range:
        return range(self.least[j], min(self.most[j], cap) + 1, 2)

    def _step(self, j: int, c0: int, c1: int, *, fewest: int = 0,
              most: int = UNLIMITED) -> tuple[int, int] | None:
        """Crossing gap ``j`` ``c1`` times after gap ``j − 1`` ``c0`` times, with
        ``fewest`` to ``most`` pairings passing level ``j``: the cost added and how
        many pass (``None``: level ``j`` would keep players it cannot pair, or the
        bounds cannot hold)."""
        if c0 + c1 < self.short[j]:
            return None
        passing = min(c0, c1, (c0 + c1 - self.short[j]) // 2, most)
        if passing < fewest:
            return None
        g = self.gap[j]
        return (self.big * (c1 - passing) + c1 * g * g
                + 2 * passing * self.gap[j - 1] * g), passing

    def _dp(self, cap: int) -> tuple[list[dict[int, int]], list[dict[int, int]]]:
        """Per gap and count crossing it (at most ``cap``): the least cost of the gaps
        above it (``forward``, itself included) and below it (``backward``)."""
        if self._tables is not None and self._tables[0] == cap:
            return self._tables[1], self._tables[2]
        m = len(self.values)
        forward: list[dict[int, int]] = []
        for j in range(m - 1):
            row: dict[int, int] = {}
            for c in self._values(j, cap):
                if j == 0:
                    if c >= self.short[0]:
                        row[c] = self.big * c + c * self.gap[0] ** 2
                    continue
                costs = [cost + step[0] for c0, cost in forward[-1].items()
                         if (step := self._step(j, c0, c)) is not None]
                if costs:
                    row[c] = min(costs)
            forward.append(row)
        backward: list[dict[int, int]] = [{} for _ in range(m - 1)]
        for j in range(m - 2, -1, -1):
            for c in self._values(j, cap):
                if j == m - 2:
                    if c >= self.short[m - 1]:
                        backward[j][c] = 0
                    continue
                costs = [step[0] + cost for c1, cost in backward[j + 1].items()
                         if (step := self._step(j + 1, c, c1)) is not None]
                if costs:
                    backward[j][c] = min(costs)
        self._tables = (cap, forward, backward)
        return forward, backward

    def lower(self) -> tuple[int, int]:
        """The least :meth:`key` any pairing without a rematch can have (``LB``), and
        the key of pairing the levels as that least one says (each pairing crossing
        a gap as it does, those passing a level continued shortest first), counting
        every square: what a pass may well find."""
        m = len(self.values)
        if m < 2:
            return 0, 0
        cap = max(max(self.least), 1)
        while True:
            forward, backward = self._dp(cap)
            found = {c: f for c, f in forward[-1].items() if c in backward[-1]}
            # No more floats than the cap: a vector above it has more.
            if found and min(found.values()) // self.big <= cap:
                break
            if cap >= max(self.most):
                if not found:  # no pairing without a rematch: nothing to bound
                    return 0, 0
                break
            cap = 2 * cap + 2
        least = min(found.values())
        crossing = [min(found, key=found.__getitem__)]
        for j in range(m - 2, 0, -1):
            crossing.append(next(
                c0 for c0, f in forward[j - 1].items()
                if (step := self._step(j, c0, crossing[-1])) is not None
                and f + step[0] == forward[j][crossing[-1]]))
        crossing.reverse()
        spreads: list[int] = []
        floats = squares = 0
        for j, count in enumerate(crossing):
            step = self._step(j, crossing[j - 1], count) if j else None
            passing = step[1] if step else 0
            spreads.sort()
            squares += sum(spread * spread for spread in spreads[passing:])
            spreads = [spread + self.gap[j] for spread in spreads[:passing]]
            spreads += [self.gap[j]] * (count - passing)
            floats += count - passing
        squares += sum(spread * spread for spread in spreads)
        return least, self.key(floats, squares)

    def bounds(self, limit: int, *, excess: bool = True
               ) -> tuple[dict[int, int], set[tuple[int, int]]]:
        """For each field group, the most of its players who can play outside it in a
        pairing whose :meth:`key` is at most ``limit`` (the bye not counted); and the
        pairings across more than one gap (``(level, level)``) such a pairing may hold
        (``excess=False``: not counting their :meth:`excess`, which the least key
        leaves out)."""
        m = len(self.values)
        if m < 2:
            return {i: 0 for i in self.group}, set()
        forward, backward = self._dp(limit // self.big)
        ends = {c: f + backward[-1][c] for c, f in forward[-1].items() if c in backward[-1]}
        starts = {c: f + backward[0][c] for c, f in forward[0].items() if c in backward[0]}
        outside = {self.group[0]: max((c for c, k in starts.items() if k <= limit), default=0),
                   self.group[-1]: max((c for c, k in ends.items() if k <= limit), default=0)}
        passing = [limit + 1] * m
        """Per level: the least key of a pairing with a pairing passing it."""
        for j in range(1, m - 1):
            most = 0
            slack = self.big - 2 * self.gap[j - 1] * self.gap[j]
            for c0, f in forward[j - 1].items():
                for c1, b in backward[j].items():
                    step = self._step(j, c0, c1)
                    if step is None or f + step[0] + b > limit:
                        continue
                    base, through = f + step[0] + b, step[1]
                    if through:
                        passing[j] = min(passing[j], base)
                    fewest = max(0, through - (limit - base) // slack)
                    most = max(most, c0 + c1 - 2 * fewest)
            outside[self.group[j]] = most
        return outside, self._long(limit, passing, excess)

    def _long(self, limit: int, passing: Sequence[int], excess: bool) -> set[tuple[int, int]]:
        """The pairs of levels ``(a, b)`` a pairing of key at most ``limit`` may join:
        one pairing starts at level ``a`` (not all crossing gap ``a`` pass level
        ``a``), passes every level between and ends at level ``b`` (not all pass level
        ``b``); its :meth:`excess` counted unless ``excess`` is false."""
        m = len(self.values)
        cap = limit // self.big
        forward, backward = self._dp(cap)

        def best(options: Iterable[int]) -> int | None:
            return min(options, default=None)

        start: list[dict[int, int]] = []
        for a in range(m - 1):
            row = {}
            for c in self._values(a, cap):
                if a == 0:
                    cost = forward[0].get(c) if c >= 1 else None
                else:
                    cost = best(f + step[0] for c0, f in forward[a - 1].items()
                                if (step := self._step(a, c0, c, most=c - 1)) is not None)
                if cost is not None:
                    row[c] = cost
            start.append(row)
        end: list[dict[int, int]] = [{} for _ in range(m)]
        for b in range(2, m):
            for c in self._values(b - 1, cap):
                if b == m - 1:
                    cost = backward[m - 2].get(c)
                else:
                    cost = best(step[0] + k for c1, k in backward[b].items()
                                if (step := self._step(b, c, c1, most=c - 1)) is not None)
                if cost is not None:
                    end[b][c] = cost
        long: set[tuple[int, int]] = set()
        for a in range(m - 2):
            if passing[a + 1] > limit:
                continue
            run = start[a]
            for b in range(a + 2, m):
                run = {c1: cost for c1 in self._values(b - 1, cap) if (cost := best(
                    r + step[0] for c0, r in run.items()
                    if (step := self._step(b - 1, c0, c1, fewest=1)) is not None)) is not None}
                # Passing on costs at least this: past the limit, no longer float fits.
                going = best(r + backward[b - 1][c] for c, r in run.items()
                             if c in backward[b - 1])
                if going is None or going > limit:
                    break
                ending = best(r + end[b][c] for c, r in run.items() if c in end[b])
                if ending is not None and ending + (
                        self.excess(a, b) if excess else 0) <= limit:
                    long.add((a, b))
        return long


class _Plan:
    """What one pass of :func:`pair_field` restricts (module doc).

    ``zones``: per score group, how many of its top and of its bottom may play outside
    it (a pairing across groups joins the bottom zone of the higher group to the top
    zone of the lower); ``reduced``: the groups whose middle (between the zones) is
    paired first; ``reach`` and ``long``: a pairing across groups joins levels at most
    ``reach`` apart, or a pair of levels in ``long``; ``bye_window``: how many of the
    lowest-ranked players who may have the bye stay out of the middles.
    """

    def __init__(self, field: Field, gaps: _Gaps) -> None:
        self.opponents = {i: _most_opponents(field, g) for i, g in enumerate(field.groups)}
        # Typically two players of a group play outside it (one float in, one out)
        # and one more with the bye: zones of 3 plus the opponents anyone outside has
        # in the group. A group too small for Dirac's condition with three leaving is
        # open whole from the start (its players may all float).
        self.zones = {i: len(g) if len(g) - 3 < 2 * (_most_met_within(field, g) + 1)
                      else min(len(g), 3 + self.opponents[i])
                      for i, g in enumerate(field.groups)}
        self.reduced = {i for i, g in enumerate(field.groups)
                        if len(g) - 2 * self.zones[i] >= MIN_MIDDLE}
        self.reach = 1
        # The long floats a pairing as good as the least possible may hold: most
        # often those that pair an odd group with the next odd one across even ones.
        least, likely = gaps.lower()
        self.long = gaps.bounds(least, excess=False)[1] | gaps.bounds(likely)[1]
        self.bye_window = 3
        self.field = field

    @property
    def full(self) -> bool:
        """Whether nothing is restricted: the pass is an exact matching of the field."""
        return (not self.reduced and self.reach == UNLIMITED and all(
            self.zones[i] >= len(g) for i, g in enumerate(self.field.groups)))

    def widen(self, around: Iterable[int] | None = None) -> None:
        """Restrict less (tiers A or B might do better without the restrictions):
        around the score groups ``around`` and their neighbours, or everywhere when
        that would change nothing (or ``around`` is ``None``)."""
        before = (dict(self.zones), set(self.reduced), self.reach)
        count = len(self.field.groups)
        groups = range(count) if around is None else sorted(
            {j for i in around for j in (i - 1, i, i + 1) if 0 <= j < count})
        for i in groups:
            size = len(self.field.groups[i])
            self.zones[i] = min(size, 2 * self.zones[i])
            if size - 2 * self.zones[i] < MIN_MIDDLE:
                self.reduced.discard(i)
        self.reach = UNLIMITED if 2 * self.reach + 1 >= count - 1 else 2 * self.reach + 1
        self.bye_window *= 2
        if around is not None and (self.zones, self.reduced, self.reach) == before:
            self.widen()

    def may_float(self, high: int, low: int, gaps: _Gaps) -> bool:
        """Whether the pass considers ``high`` against ``low`` (a lower score group)."""
        field = self.field
        if not (field.below[high] < self.zones[field.group_of[high]]
                and field.above[low] < self.zones[field.group_of[low]]):
            return False
        top, bottom = gaps.level_of(field.points[high]), gaps.level_of(field.points[low])
        if top is None or bottom is None:
            return True  # the group of the player due the bye, alone in it
        return bottom - top <= self.reach or (top, bottom) in self.long


def _pass(field: Field, plan: _Plan, gaps: _Gaps,
          rng: random.Random) -> tuple[list[Pairing], dict[int, frozenset[int]]] | None:
    """One pass: the middles paired at random, the kernel matched exactly. Returns the
    pairings and each reduced group's kernel (``None``: the kernel cannot be paired)."""
    eligible = set(sorted(field.bye_rank, key=field.bye_rank.__getitem__)[:plan.bye_window])
    kernel: list[int] = []
    inner: list[Pairing] = []
    kernels: dict[int, frozenset[int]] = {}
    for index, group in enumerate(field.groups):
        zone = plan.zones[index]
        middle = ([p for p in group[zone:len(group) - zone] if p not in eligible]
                  if index in plan.reduced else [])
        if len(middle) % 2:
            middle.pop()  # the middle's lowest joins the kernel
        pairs = _pair_within(field, middle, rng) if len(middle) >= MIN_MIDDLE else None
        if pairs is None:
            plan.reduced.discard(index)
            kernel.extend(group)
            continue
        inner.extend(pairs)
        left_out = set(middle)
        kernels[index] = frozenset(p for p in group if p not in left_out)
        kernel.extend(kernels[index])
    kernel.sort(key=field.rank.__getitem__)
    matched = _match(field, kernel, rng,
                     None if plan.full else lambda a, b: plan.may_float(a, b, gaps))
    return None if matched is None else (matched + inner, kernels)


def _tighten(field: Field, plan: _Plan, gaps: _Gaps, pairings: Sequence[Pairing],
             kernels: Mapping[int, frozenset[int]]) -> bool:
    """Whether the pass's pairing is the best of the whole field (the module doc's
    argument); if not sure, restrict ``plan`` less for the next pass."""
    rematches, bye_cost, floats, squares, _ = field.cost(pairings)
    if rematches or bye_cost:
        around = {field.group_of[p] for pairing in pairings
                  if len(pairing) == 2 and pairing[1] in field.met[pairing[0]] for p in pairing}
        if bye_cost:
            given = next(p[0] for p in pairings if len(p) == 1)
            around |= {field.group_of[given], field.group_of[gaps.bye or given]}
        plan.widen(around)
        return False
    limit = gaps.key(floats, squares)
    outside, long = gaps.bounds(limit)
    sure = True
    missing = {(top, bottom) for top, bottom in long - plan.long if bottom - top > plan.reach}
    if missing:
        plan.long |= missing
        sure = False
    for index, group in enumerate(field.groups):
        zone = plan.zones[index]
        if zone >= len(group) and index not in plan.reduced:
            continue
        leaving = outside.get(index, 0) + (gaps.bye in group)
        if len(group) - leaving < 2 * (_most_met_within(field, group) + 1):
            # Too small for the exchange argument: any of its players may float.
            plan.zones[index] = len(group)
            plan.reduced.discard(index)
            sure = False
            continue
        need = leaving + plan.opponents[index]
        kernel = kernels.get(index)
        if zone < need:
            plan.zones[index] = need
        elif kernel is not None and len(kernel) - leaving < 2 * (
                _most_met_within(field, kernel) + 1):
            plan.zones[index] = 2 * zone
        if plan.zones[index] != zone:
            plan.zones[index] = min(len(group), plan.zones[index])
            if len(group) - 2 * plan.zones[index] < MIN_MIDDLE:
                plan.reduced.discard(index)
            sure = False
    return sure


def _table_order(field: Field, pairings: Iterable[Pairing]) -> tuple[Pairing, ...]:
    """Pairings best-ranked first, each best-ranked seat first, the bye last."""
    seated = [tuple(sorted(p, key=field.rank.__getitem__)) for p in pairings]
    return tuple(sorted(seated, key=lambda p: (len(p) == 1, field.rank[p[0]])))


def pair_field(field: Field, seed: int, *, reduce: bool = True) -> tuple[Pairing, ...]:
    """The best pairing of ``field`` (module doc), in table order.

    ``reduce=False`` matches the whole field at once whatever its size (slow above a
    hundred players; the tests compare both).

    >>> field = Field(3, [1, 2, 3, 4], {1: 6, 2: 3, 3: 3, 4: 0},
    ...               {1: {2, 3}, 2: {1, 4}, 3: {1, 4}, 4: {2, 3}}, {})
    >>> pair_field(field, seed=1)
    ((1, 4), (2, 3))
    """
    if not field.order:
        return ()
    name = f"swiss-pairing:{seed}:{field.round}"
    if not reduce or len(field.order) <= FULL_FIELD:
        found = _match(field, field.order, random.Random(name))
        if found is None:  # pragma: no cover - a complete graph always pairs
            raise RuntimeError("the field cannot be paired")
        return _table_order(field, found)
    gaps = _Gaps(field)
    plan = _Plan(field, gaps)
    while True:
        done = _pass(field, plan, gaps, random.Random(name))
        if done is None:
            plan.widen()
            continue
        pairings, kernels = done
        if plan.full or _tighten(field, plan, gaps, pairings, kernels):
            return _table_order(field, pairings)


def first_round(order: Sequence[int], seed: int) -> tuple[Pairing, ...]:
    """Round 1 from ``order``, the players ranked best first (before any result,
    everyone is tied and the standings' seeded draw ranks them): pairings drawn at
    random, and in an odd field the bye to the lowest-ranked, the last of ``order``.

    >>> first_round([1, 2, 3], seed=5)[-1]
    (3,)
    """
    pool = list(order)
    bye = [(pool.pop(),)] if len(pool) % 2 else []
    random.Random(f"swiss-round-1:{seed}").shuffle(pool)
    return tuple([(pool[n], pool[n + 1]) for n in range(0, len(pool), 2)] + bye)


class SwissFormat:
    """Swiss (``name == "swiss"``): rounds by the spec's table unless ``rounds`` is
    set; round 1 at random, later rounds by :func:`pair_field`; Swiss standings.

    ``next_round`` asks that the current round be complete: it refuses (``ValueError``)
    while a player active in it has no result.
    """

    name: FormatName = "swiss"

    def __init__(self, rounds: int | None = None) -> None:
        if rounds is not None and rounds < 1:
            raise ValueError("a Swiss has at least one round")
        self.fixed_rounds = rounds

    def __repr__(self) -> str:
        return f"SwissFormat(rounds={self.fixed_rounds!r})"

    def rounds(self, entrants: Sequence[Entrant]) -> int | None:
        """The set number of rounds, or the spec's table for the players who start."""
        if self.fixed_rounds is not None:
            return self.fixed_rounds
        return swiss_rounds(sum(1 for e in entrants if e.active_in(1)))

    def finished(self, entrants: Sequence[Entrant], results: Sequence[Result]) -> bool:
        """Every round played (the last one complete), or fewer than two players left
        to pair."""
        return all_rounds_played(entrants, results, self.rounds(entrants) or 0)

    def next_round(self, entrants: Sequence[Entrant], results: Sequence[Result],
                   seed: int) -> RoundPlan | None:
        """The next round's pairings, best-ranked table first and the bye last
        (``None`` when the tournament is over)."""
        played = played_rounds(results)
        waiting = unfinished(entrants, results, played) if played else []
        if waiting:
            raise ValueError(f"round {played} is not complete: no result yet for "
                             f"{', '.join(map(str, waiting))}")
        if self.finished(entrants, results):
            return None
        round_no = played + 1
        field = Field.build(entrants, results, seed, round_no)
        if round_no == 1:
            return RoundPlan(1, first_round(field.order, seed))
        return RoundPlan(round_no, pair_field(field, seed))

    def standings(self, entrants: Sequence[Entrant], results: Sequence[Result],
                  seed: int) -> list[Standing]:
        """Everyone ranked by the Swiss arithmetic (:func:`swiss_standings`)."""
        return swiss_standings(entrants, results, seed)
