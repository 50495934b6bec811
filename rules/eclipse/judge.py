"""The judging tree of a hand: who wins when attacker and defender reveal.

:func:`judge` looks at the two cards alone. Either that settles the hand, or
the cards call for numbers — the maneuver of the ♂ branch or the parity of the
♀ branch — and :func:`judge` says which numbers each side may present;
:func:`settle` then finishes with the presented numbers. Every tie goes to the
defender. Both return a :class:`Verdict` whose ``path`` tells the judging in
words, the way the table narrates it.

>>> from rules.eclipse.cards import standard_deck
>>> deck = standard_deck()
>>> judge(deck.card_by_code("S3m"), deck.card_by_code("M3m")).path
('tops differ: sun vs moon → attacker wins',)
>>> v = settle(deck.card_by_code("S13m"), deck.card_by_code("S10f"), 4, 1)
>>> v.winner, v.path[-1]
('attacker', '4 + 1 + 13 + 10 = 28, even → attacker wins')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.eclipse.cards import Card, emblem_max, emblem_rank

Side = Literal["attacker", "defender"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judging so far. ``winner`` is ``None`` while numbers are needed, and
    then ``numbers`` holds what the attacker and the defender may present."""

    winner: Side | None
    path: tuple[str, ...]
    branch: Literal["tops", "male", "female"]
    numbers: tuple[tuple[int, ...], tuple[int, ...]] | None = None

    @property
    def text(self) -> str:
        """The judging in one line for the table.

        >>> from rules.eclipse.cards import standard_deck
        >>> deck = standard_deck()
        >>> judge(deck.card_by_code("S2m"), deck.card_by_code("S3m")).text
        'same top: sun; defender ♂; emblems cog vs butterfly → cog wins'
        """
        return "; ".join(self.path)

    @property
    def attacker_wins(self) -> bool:
        """True when the attacker won the hand."""
        return self.winner == "attacker"


def _higher_number(attacker: Card, defender: Card) -> Side:
    return "attacker" if attacker.number > defender.number else "defender"


def judge(attacker: Card, defender: Card) -> Verdict:
    """Judge two revealed symbol cards as far as the cards alone allow."""
    assert not attacker.follower and not defender.follower
    if attacker.top != defender.top:
        return Verdict("attacker", (f"tops differ: {attacker.top} vs {defender.top} "
                                    "→ attacker wins",), "tops")
    same = f"same top: {attacker.top}"
    if not defender.male:
        path = (same, "defender ♀: both present a number; even total → attacker, "
                      "odd → defender")
        return Verdict(None, path, "female", (attacker.numbers(), defender.numbers()))
    path: tuple[str, ...] = (same, "defender ♂")
    a, d = attacker.emblem, defender.emblem
    assert a is not None and d is not None
    if a != d:
        winner: Side = "attacker" if emblem_rank(a) > emblem_rank(d) else "defender"
        better = a if winner == "attacker" else d
        return Verdict(winner, (*path, f"emblems {a} vs {d} → {better} wins"), "male")
    path = (*path, f"both {a}")
    if attacker.number == defender.number and a == "shield":
        return Verdict("defender", (*path, f"equal numbers {attacker.number} → tie to the "
                                           "defender"), "male")
    if a == "shield":
        winner = _higher_number(attacker, defender)
        return Verdict(winner, (*path, f"numbers {attacker.number} vs {defender.number} → "
                                       f"higher number wins: {winner}"), "male")
    difference = abs(attacker.number - defender.number)
    most = emblem_max(a)
    if difference > most:
        winner = _higher_number(attacker, defender)
        return Verdict(winner, (*path, f"numbers {attacker.number} vs {defender.number} "
                                       f"differ by {difference} > {most} → {winner} wins"),
                       "male")
    path = (*path, f"numbers {attacker.number} vs {defender.number} differ by {difference} "
                   f"≤ {most} → maneuver")
    return Verdict(None, path, "male", (attacker.numbers(a), defender.numbers(a)))


def settle(attacker: Card, defender: Card, attacker_number: int | None = None,
           defender_number: int | None = None) -> Verdict:
    """Judge two cards and, where needed, the numbers both presented.

    Raises :class:`ValueError` if numbers are needed but missing or out of range.
    """
    verdict = judge(attacker, defender)
    if verdict.winner is not None:
        return verdict
    assert verdict.numbers is not None
    if attacker_number not in verdict.numbers[0] or defender_number not in verdict.numbers[1]:
        raise ValueError(f"presented numbers {attacker_number}, {defender_number} are not in "
                         f"{verdict.numbers}")
    a, b = attacker_number, defender_number
    path = (*verdict.path, f"attacker presents {a}, defender presents {b}")
    if verdict.branch == "female":
        total = a + b + attacker.number + defender.number
        winner: Side = "attacker" if total % 2 == 0 else "defender"
        parity = "even" if total % 2 == 0 else "odd"
        return Verdict(winner, (*path, f"{a} + {b} + {attacker.number} + {defender.number} = "
                                       f"{total}, {parity} → {winner} wins"), "female")
    if a != b:
        if attacker.number == defender.number:
            return Verdict("defender", (*path, "presented numbers differ, card numbers equal "
                                               "→ tie to the defender"), "male")
        winner = _higher_number(attacker, defender)
        return Verdict(winner, (*path, f"presented numbers differ → higher card number wins: "
                                       f"{winner}"), "male")
    s = a + b
    if attacker.number == defender.number:
        return Verdict("defender", (*path, "equal card numbers → tie to the defender"), "male")
    low_side: Side = "attacker" if attacker.number < defender.number else "defender"
    low, high = sorted((attacker.number, defender.number))
    low_total, high_total = low + s, high - s
    if low_total == high_total:
        winner = "defender"
        why = "equal totals → tie to the defender"
    else:
        high_side: Side = "defender" if low_side == "attacker" else "attacker"
        winner = low_side if low_total > high_total else high_side
        why = f"{winner} wins"
    return Verdict(winner, (*path, f"same number: s = {s}; {low} + {s} = {low_total} vs "
                                   f"{high} − {s} = {high_total} → {why}"), "male")


__all__ = ["Side", "Verdict", "judge", "settle"]
