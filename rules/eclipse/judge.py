"""The judging tree of a hand: who wins when attacker and defender reveal.

:func:`judge` looks at the two cards alone. Either that settles the hand, or
the cards call for numbers — the maneuver of the ♂ branch or the parity of the
♀ branch — and :func:`judge` says which numbers each side may present;
:func:`settle` then finishes with the presented numbers. Every tie goes to the
defender. Both return a :class:`Verdict` whose ``path`` tells the judging step by
step (phrases: ``bot.i18n`` says them), the way the table narrates it.

>>> from rules.eclipse.cards import standard_deck
>>> deck = standard_deck()
>>> print(judge(deck.card_by_code("S3m"), deck.card_by_code("M3m")).path[0])
eclipse.judge.tops_differ(attacker=Phrase(eclipse.top.sun()), defender=Phrase(eclipse.top.moon()))
>>> v = settle(deck.card_by_code("S13m"), deck.card_by_code("S10f"), 4, 1)
>>> v.winner, v.path[-1]
('attacker', Phrase(eclipse.judge.even_total(a=4, b=1, c=13, d=10, total=28)))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from rules.eclipse.cards import Card, emblem_max, emblem_rank
from rules.eclipse.terms import EMBLEM_WORD, SIDE_WORD, TOP_WORD, steps
from rules.phrases import Phrase, Words

Side = Literal["attacker", "defender"]
Said = Callable[[], tuple[Words, ...]]
"""How a verdict's steps are said, made only when asked: the computer players judge
hundreds of thousands of card pairs and read only who wins."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judging so far. ``winner`` is ``None`` while numbers are needed, and
    then ``numbers`` holds what the attacker and the defender may present."""

    winner: Side | None
    said: Said = field(repr=False, compare=False)
    branch: Literal["tops", "male", "female"] = "tops"
    numbers: tuple[tuple[int, ...], tuple[int, ...]] | None = None

    @property
    def path(self) -> tuple[Words, ...]:
        """The judging step by step, each step a phrase."""
        return self.said()

    @property
    def text(self) -> Words:
        """The judging in one line for the table (its steps, ``;`` between them).

        >>> from rules.eclipse.cards import standard_deck
        >>> deck = standard_deck()
        >>> judge(deck.card_by_code("S2m"), deck.card_by_code("S3m")).text.key
        'eclipse.join.steps'
        """
        return steps(self.path)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled with its steps said (a state crosses to a thinking process): the
        lazy way of saying them is a closure, which does not pickle."""
        return (_said_verdict, (self.winner, self.path, self.branch, self.numbers))

    @property
    def attacker_wins(self) -> bool:
        """True when the attacker won the hand."""
        return self.winner == "attacker"


def _said_verdict(winner: Side | None, path: tuple[Words, ...],
                  branch: Literal["tops", "male", "female"],
                  numbers: tuple[tuple[int, ...], tuple[int, ...]] | None) -> Verdict:
    return Verdict(winner, lambda: path, branch, numbers)


def _higher_number(attacker: Card, defender: Card) -> Side:
    return "attacker" if attacker.number > defender.number else "defender"


WINS: dict[str, Phrase] = {"attacker": Phrase("eclipse.judge.attacker_wins"),
                           "defender": Phrase("eclipse.judge.defender_wins")}
"""``attacker wins`` / ``defender wins``: how a judging step ends."""


def _numbers(attacker: Card, defender: Card) -> dict[str, int]:
    return {"attacker": attacker.number, "defender": defender.number}


def _male_steps(attacker: Card, defender: Card) -> tuple[Words, ...]:
    """The steps every ♂ defender's judging starts with."""
    assert attacker.top is not None
    return (Phrase("eclipse.judge.same_top", top=TOP_WORD[attacker.top]),
            Phrase("eclipse.judge.defender_male"))


def judge(attacker: Card, defender: Card) -> Verdict:
    """Judge two revealed symbol cards as far as the cards alone allow."""
    assert not attacker.follower and not defender.follower
    assert attacker.top is not None and defender.top is not None
    if attacker.top != defender.top:
        return Verdict("attacker", lambda: (Phrase(
            "eclipse.judge.tops_differ", attacker=TOP_WORD[attacker.top or ""],
            defender=TOP_WORD[defender.top or ""]),), "tops")
    if not defender.male:
        return Verdict(None, lambda: (
            Phrase("eclipse.judge.same_top", top=TOP_WORD[attacker.top or ""]),
            Phrase("eclipse.judge.defender_female")),
            "female", (attacker.numbers(), defender.numbers()))
    a, d = attacker.emblem, defender.emblem
    assert a is not None and d is not None
    if a != d:
        winner: Side = "attacker" if emblem_rank(a) > emblem_rank(d) else "defender"
        better = a if winner == "attacker" else d
        return Verdict(winner, lambda: (*_male_steps(attacker, defender), Phrase(
            "eclipse.judge.emblems", attacker=EMBLEM_WORD[a], defender=EMBLEM_WORD[d],
            better=EMBLEM_WORD[better])), "male")

    def both(*more: Words) -> Said:
        return lambda: (*_male_steps(attacker, defender),
                        Phrase("eclipse.judge.both", emblem=EMBLEM_WORD[a]), *more)

    if attacker.number == defender.number and a == "shield":
        return Verdict("defender", lambda: both(Phrase(
            "eclipse.judge.equal_shields", number=attacker.number))(), "male")
    if a == "shield":
        side = _higher_number(attacker, defender)
        return Verdict(side, lambda: both(Phrase(
            "eclipse.judge.shield_numbers", **_numbers(attacker, defender),
            side=SIDE_WORD[side]))(), "male")
    difference = abs(attacker.number - defender.number)
    most = emblem_max(a)
    if difference > most:
        side = _higher_number(attacker, defender)
        return Verdict(side, lambda: both(Phrase(
            "eclipse.judge.too_far", **_numbers(attacker, defender), difference=difference,
            most=most, wins=WINS[side]))(), "male")
    return Verdict(None, lambda: both(Phrase(
        "eclipse.judge.maneuver", **_numbers(attacker, defender), difference=difference,
        most=most))(), "male", (attacker.numbers(a), defender.numbers(a)))


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
    assert a is not None and b is not None

    def then(last: Callable[[], Phrase]) -> Said:
        return lambda: (*verdict.path,
                        Phrase("eclipse.judge.presented", attacker=a, defender=b), last())

    if verdict.branch == "female":
        total = a + b + attacker.number + defender.number
        summed = {"a": a, "b": b, "c": attacker.number, "d": defender.number, "total": total}
        if total % 2 == 0:
            return Verdict("attacker", then(lambda: Phrase("eclipse.judge.even_total",
                                                           **summed)), "female")
        return Verdict("defender", then(lambda: Phrase("eclipse.judge.odd_total", **summed)),
                       "female")
    if a != b:
        if attacker.number == defender.number:
            return Verdict("defender", then(lambda: Phrase("eclipse.judge.differ_equal_cards")),
                           "male")
        side = _higher_number(attacker, defender)
        return Verdict(side, then(lambda: Phrase("eclipse.judge.differ",
                                                 side=SIDE_WORD[side])), "male")
    s = a + b
    if attacker.number == defender.number:
        return Verdict("defender", then(lambda: Phrase("eclipse.judge.equal_cards")), "male")
    low_side: Side = "attacker" if attacker.number < defender.number else "defender"
    low, high = sorted((attacker.number, defender.number))
    low_total, high_total = low + s, high - s
    totals = {"s": s, "low": low, "low_total": low_total, "high": high,
              "high_total": high_total}
    if low_total == high_total:
        return Verdict("defender", then(lambda: Phrase("eclipse.judge.same_number_tie",
                                                       **totals)), "male")
    high_side: Side = "defender" if low_side == "attacker" else "attacker"
    winner: Side = low_side if low_total > high_total else high_side
    return Verdict(winner, then(lambda: Phrase("eclipse.judge.same_number", **totals,
                                               wins=WINS[winner])), "male")


__all__ = ["Side", "Verdict", "judge", "settle"]
