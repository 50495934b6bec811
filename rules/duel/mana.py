"""Paying for spells: the mana pool first, then the sources a player would tap.

Mana is paid automatically with a sensible choice of sources: the pool first,
then the coloured parts of the cost from the sources that make the fewest
colours (a two-colour land is kept for last), then the generic part from the
colours the player's hand needs least.

>>> sources = [Source(1, ("R",)), Source(2, ("G",)), Source(3, ("R", "G"))]
>>> plan = pay(Cost.parse("1R"), 0, {}, sources)
>>> sorted(plan.tapped), plan.from_pool
([1, 2], {})
>>> pay(Cost.parse("RRR"), 0, {}, sources) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rules.duel.cards import COLOURS, Cost


@dataclass(frozen=True, slots=True)
class Source:
    """Something that can be tapped for mana: ``amount`` mana of one of ``colours``."""

    id: int
    colours: tuple[str, ...]
    amount: int = 1


@dataclass(frozen=True, slots=True)
class Payment:
    """How a cost is paid: mana taken from the pool, sources tapped (each with the
    colour it makes) and mana left over in the pool after paying."""

    from_pool: dict[str, int] = field(default_factory=dict)
    tapped: dict[int, str] = field(default_factory=dict)
    left: dict[str, int] = field(default_factory=dict)
    """Mana made by tapping beyond the cost (a source making 2 for a cost of 1),
    which stays in the pool."""


def available(pool: Mapping[str, int], sources: Sequence[Source]) -> int:
    """All mana the player could have now."""
    return sum(pool.values()) + sum(s.amount for s in sources)


def pay(cost: Cost, x: int, pool: Mapping[str, int], sources: Sequence[Source],
        keep: Sequence[str] = ()) -> Payment | None:
    """A way to pay ``cost`` with ``x`` for X, or ``None`` if there is none.

    ``keep`` lists colours to spend last for generic mana (those the hand still
    needs). The search tries the sensible order first and backtracks, so a
    payment is found whenever one exists (players hold a few dozen sources at most).
    """
    needs = dict(cost.coloured)
    generic = cost.generic + x
    from_pool: dict[str, int] = {}
    pool_left = dict(pool)
    for colour, count in needs.items():  # coloured needs from the pool first
        used = min(count, pool_left.get(colour, 0))
        if used:
            from_pool[colour] = used
            pool_left[colour] -= used
            needs[colour] = count - used
    needs = {c: n for c, n in needs.items() if n}
    for colour in _generic_order(pool_left, keep):  # then generic from the pool
        used = min(generic, pool_left.get(colour, 0))
        if used:
            from_pool[colour] = from_pool.get(colour, 0) + used
            pool_left[colour] -= used
            generic -= used
    ordered = sorted(sources, key=lambda s: (len(s.colours), s.amount, s.id))
    tapped = _tap_for(needs, generic, ordered, keep)
    if tapped is None:
        return None
    left: dict[str, int] = {}
    spent_colours = dict(needs)
    spent_generic = generic
    for source_id, colour in tapped.items():
        amount = next(s.amount for s in sources if s.id == source_id)
        for _ in range(amount):
            if spent_colours.get(colour, 0) > 0:
                spent_colours[colour] -= 1
            elif spent_generic > 0:
                spent_generic -= 1
            else:
                left[colour] = left.get(colour, 0) + 1
    return Payment({c: n for c, n in from_pool.items() if n}, tapped, left)


def _generic_order(pool: Mapping[str, int], keep: Sequence[str]) -> list[str]:
    return sorted((c for c in COLOURS if pool.get(c)), key=lambda c: (c in keep, c))


def _tap_for(needs: dict[str, int], generic: int, sources: Sequence[Source],
             keep: Sequence[str]) -> dict[int, str] | None:
    """Sources to tap (and the colour each makes) for coloured ``needs`` and
    ``generic`` mana; depth-first over sources, coloured needs first."""
    if not needs and generic <= 0:
        return {}
    if not sources:
        return None
    if sum(needs.values()) + max(generic, 0) > sum(s.amount for s in sources):
        return None
    if needs:
        colour = next(iter(needs))
        for index, source in enumerate(sources):
            if colour not in source.colours:
                continue
            rest = dict(needs)
            rest[colour] -= source.amount
            over = max(0, -rest[colour])
            if rest[colour] <= 0:
                del rest[colour]
            found = _tap_for(rest, generic - over, [*sources[:index], *sources[index + 1:]],
                             keep)
            if found is not None:
                return {source.id: colour, **found}
        return None
    # Generic only: the sources whose colours the hand needs least go first.
    ranked = sorted(sources, key=lambda s: (all(c in keep for c in s.colours),
                                            len(s.colours), -s.amount, s.id))
    tapped: dict[int, str] = {}
    for source in ranked:
        if generic <= 0:
            break
        colour = min(source.colours, key=lambda c: (c in keep, c))
        tapped[source.id] = colour
        generic -= source.amount
    return tapped if generic <= 0 else None
