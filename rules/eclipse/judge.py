"""The judging tree of a hand: who wins when attacker and defender reveal.

:func:`judge` looks at the two cards alone. Either that settles the hand, or
the cards call for numbers — the maneuver of the ♂ branch or the parity of the
♀ branch — and :func:`judge` says which numbers each side may present;
:func:`settle` then finishes with the presented numbers. Every tie goes to the
defender. Both return a :class:`Verdict` whose ``path`` tells the judging in
words, the way the table narrates it.

>>> from rules.eclipse.cards import standard_deck
>>> deck = standard_deck()
>>> print(judge(deck.card_by_code("S3m"), deck.card_by_code("M3m")).path[0])
eclipse.judge.tops_differ(attacker=Phrase(eclipse.top.sun()), defender=Phrase(eclipse.top.moon()))
>>> v = settle(deck.card_by_code("S13m"), deck.card_by_code("S10f"), 4, 1)
>>> v.winner, v.path[-1]
('attacker', Phrase(eclipse.judge.even_total(a=4, b=1, c=13, d=10, total=28)))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.eclipse.cards import Card, emblem_max, emblem_rank
from rules.eclipse.terms import EMBLEM_WORD, SIDE_WORD, TOP_WORD, steps
from rules.phrases import Phrase, Words

Side = Literal["attacker", "defender"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judging so far. ``winner`` is ``None`` while numbers are needed, and
    then ``numbers`` holds what the attacker and the defender may present."""

    winner: Side | None
    path: tuple[Words, ...]
    """The judging step by step, each step a phrase."""
    branch: Literal["tops", "male", "female"]
    numbers: tuple[tuple[int, ...], tuple[int, ...]] | None = None

    @property
    def text(self) -> Words:
        """The judging in one line for the table (its steps, ``;`` between them).

        >>> from rules.eclipse.cards import standard_deck
        >>> deck = standard_deck()
        >>> judge(deck.card_by_code("S2m"), deck.card_by_code("S3m")).text.key
        'eclipse.join.steps'
        """
        return steps(self.path)

    @property
    def attacker_wins(self) -> bool:
        """True when the attacker won the hand."""
        return self.winner == "attacker"


def _higher_number(attacker: Card, defender: Card) -> Side:
    return "attacker" if attacker.number > defender.number else "defender"


WINS: dict[str, Phrase] = {"attacker": Phrase("eclipse.judge.attacker_wins"),
                           "defender": Phrase("eclipse.judge.defender_wins")}
"""``attacker wins`` / ``defender wins``: how a judging step ends."""


def judge(attacker: Card, defender: Card) -> Verdict:
    """Judge two revealed symbol cards as far as the cards alone allow."""
    assert not attacker.follower and not defender.follower
    assert attacker.top is not None and defender.top is not None
    if attacker.top != defender.top:
        return Verdict("attacker", (Phrase("eclipse.judge.tops_differ",
                                           attacker=TOP_WORD[attacker.top],
                                           defender=TOP_WORD[defender.top]),), "tops")
    same = Phrase("eclipse.judge.same_top", top=TOP_WORD[attacker.top])
    if not defender.male:
        path: tuple[Words, ...] = (same, Phrase("eclipse.judge.defender_female"))
        return Verdict(None, path, "female", (attacker.numbers(), defender.numbers()))
    path = (same, Phrase("eclipse.judge.defender_male"))
    a, d = attacker.emblem, defender.emblem
    assert a is not None and d is not None
    if a != d:
        winner: Side = "attacker" if emblem_rank(a) > emblem_rank(d) else "defender"
        better = a if winner == "attacker" else d
        return Verdict(winner, (*path, Phrase("eclipse.judge.emblems", attacker=EMBLEM_WORD[a],
                                              defender=EMBLEM_WORD[d],
                                              better=EMBLEM_WORD[better])), "male")
    path = (*path, Phrase("eclipse.judge.both", emblem=EMBLEM_WORD[a]))
    numbers = {"attacker": attacker.number, "defender": defender.number}
    if attacker.number == defender.number and a == "shield":
        return Verdict("defender", (*path, Phrase("eclipse.judge.equal_shields",
                                                  number=attacker.number)), "male")
    if a == "shield":
        winner = _higher_number(attacker, defender)
        return Verdict(winner, (*path, Phrase("eclipse.judge.shield_numbers", **numbers,
                                              side=SIDE_WORD[winner])), "male")
    difference = abs(attacker.number - defender.number)
    most = emblem_max(a)
    if difference > most:
        winner = _higher_number(attacker, defender)
        return Verdict(winner, (*path, Phrase("eclipse.judge.too_far", **numbers,
                                              difference=difference, most=most,
                                              wins=WINS[winner])), "male")
    path = (*path, Phrase("eclipse.judge.maneuver", **numbers, difference=difference,
                          most=most))
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
    path = (*verdict.path, Phrase("eclipse.judge.presented", attacker=a, defender=b))
    if verdict.branch == "female":
        total = a + b + attacker.number + defender.number
        winner: Side = "attacker" if total % 2 == 0 else "defender"
        summed = {"a": a, "b": b, "c": attacker.number, "d": defender.number, "total": total}
        sum_of = Phrase("eclipse.judge.even_total", **summed) if total % 2 == 0 else \
            Phrase("eclipse.judge.odd_total", **summed)
        return Verdict(winner, (*path, sum_of), "female")
    if a != b:
        if attacker.number == defender.number:
            return Verdict("defender", (*path, Phrase("eclipse.judge.differ_equal_cards")),
                           "male")
        winner = _higher_number(attacker, defender)
        return Verdict(winner, (*path, Phrase("eclipse.judge.differ", side=SIDE_WORD[winner])),
                       "male")
    s = a + b
    if attacker.number == defender.number:
        return Verdict("defender", (*path, Phrase("eclipse.judge.equal_cards")), "male")
    low_side: Side = "attacker" if attacker.number < defender.number else "defender"
    low, high = sorted((attacker.number, defender.number))
    low_total, high_total = low + s, high - s
    totals = {"s": s, "low": low, "low_total": low_total, "high": high,
              "high_total": high_total}
    if low_total == high_total:
        return Verdict("defender", (*path, Phrase("eclipse.judge.same_number_tie", **totals)),
                       "male")
    high_side: Side = "defender" if low_side == "attacker" else "attacker"
    winner = low_side if low_total > high_total else high_side
    return Verdict(winner, (*path, Phrase("eclipse.judge.same_number", **totals,
                                          wins=WINS[winner])), "male")


__all__ = ["Side", "Verdict", "judge", "settle"]
