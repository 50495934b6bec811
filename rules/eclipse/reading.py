"""Reading a game of Eclipse from one seat: what the others may hold, and what
two cards are worth against each other.

* :func:`number_game` solves the numbers the judging may call for (the ♂
  maneuver, the ♀ parity) as the small zero-sum games they are: each side's
  best mix of numbers and the attacker's chance to win when both mix well.
* :func:`pair_values` is that chance for every two symbol cards of a deck.
* :class:`Reading` is what a seat can tell of the cards it cannot see, from
  its observation alone: the hidden pool (every card not in its hand, on the
  table, or seen going under the deck, back into a hand or out of the game),
  and hands for the other seats drawn from it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from rules.eclipse.cards import Card, Deck
from rules.eclipse.judge import judge
from rules.eclipse.view import EclipseView

Mix = dict[int, Fraction]
"""A mixed choice of numbers: each number's probability."""


@dataclass(frozen=True, slots=True)
class NumberGame:
    """The numbers two revealed cards call for, solved."""

    value: Fraction
    """The attacker's chance to win when both sides mix as below."""
    attacker: Mix
    defender: Mix


def _uniform(numbers: Sequence[int]) -> Mix:
    return {n: Fraction(1, len(numbers)) for n in numbers}


def _by_parity(numbers: Sequence[int], parity: int) -> Mix:
    return _uniform([n for n in numbers if n % 2 == parity])


def _half_each(numbers: Sequence[int]) -> Mix:
    even, odd = _by_parity(numbers, 0), _by_parity(numbers, 1)
    return {n: p / 2 for n, p in (*even.items(), *odd.items())}


@cache
def number_game(attacker: Card, defender: Card) -> NumberGame | None:
    """The solved numbers step of ``attacker`` against ``defender`` (``None``
    when the cards alone decide the hand).

    ♀ branch: the total's parity is all that counts, so a side with both
    parities in its range mixes them half and half, and a side with one
    parity only (a ♂ shield presents 1) loses to one with both. ♂ maneuver:
    the lower card wins only when both present the same number ``v`` with
    ``4v`` above the difference (equal: the defender), so the higher card
    avoids such a number when it can, and otherwise both spread evenly over
    the higher card's range.

    >>> from rules.eclipse.cards import standard_deck
    >>> deck = standard_deck()
    >>> number_game(deck.card_by_code("S13m"), deck.card_by_code("S10f")).value
    Fraction(1, 2)
    >>> game = number_game(deck.card_by_code("S1f"), deck.card_by_code("S2m"))  # both cog
    >>> game.value, sorted(game.defender)
    (Fraction(1, 3), [1, 2, 3])
    """
    verdict = judge(attacker, defender)
    if verdict.winner is not None:
        return None
    assert verdict.numbers is not None
    a_range, d_range = verdict.numbers
    if verdict.branch == "female":
        base = attacker.number + defender.number
        a_parities = {n % 2 for n in a_range}
        d_parities = {n % 2 for n in d_range}
        if len(a_parities) == 2 and len(d_parities) == 2:
            return NumberGame(Fraction(1, 2), _half_each(a_range), _half_each(d_range))
        if len(a_parities) == 1 and len(d_parities) == 2:
            odd = (base + next(iter(a_parities)) + 1) % 2  # the defender's winning parity
            return NumberGame(Fraction(0), _uniform(a_range), _by_parity(d_range, odd))
        if len(d_parities) == 1 and len(a_parities) == 2:
            even = (base + next(iter(d_parities))) % 2
            return NumberGame(Fraction(1), _by_parity(a_range, even), _uniform(d_range))
        wins = (base + a_range[0] + d_range[0]) % 2 == 0
        return NumberGame(Fraction(int(wins)), _uniform(a_range), _uniform(d_range))
    difference = abs(attacker.number - defender.number)
    if difference == 0:
        return NumberGame(Fraction(0), _uniform(a_range), _uniform(d_range))
    if attacker.number > defender.number:
        # The defender (lower) wins by matching a v with 4v >= difference (a tie is its).
        good = {v for v in d_range if 4 * v >= difference}
        escape = [a for a in a_range if a not in good]
        if escape:
            return NumberGame(Fraction(1), _uniform(escape), _uniform(d_range))
        return NumberGame(1 - Fraction(1, len(a_range)), _uniform(a_range), _uniform(a_range))
    good = {v for v in a_range if 4 * v > difference}
    escape = [d for d in d_range if d not in good]
    if escape:
        return NumberGame(Fraction(0), _uniform(a_range), _uniform(escape))
    return NumberGame(Fraction(1, len(d_range)), _uniform(d_range), _uniform(d_range))


def pair_value(attacker: Card, defender: Card) -> float:
    """The attacker's chance to win the hand with these two cards, numbers well mixed."""
    game = number_game(attacker, defender)
    if game is None:
        return 1.0 if judge(attacker, defender).attacker_wins else 0.0
    return float(game.value)


@cache
def pair_values(deck: Deck) -> tuple[tuple[float, ...], ...]:
    """``values[a][d]``: :func:`pair_value` for every two cards of ``deck`` by id
    (0 where either is a follower)."""
    cards = deck.cards
    return tuple(
        tuple(0.0 if a.follower or d.follower or a.id == d.id else pair_value(a, d)
              for d in cards)
        for a in cards)


@dataclass(frozen=True, slots=True)
class Reading:
    """What one seat can tell of the cards it cannot see."""

    view: EclipseView
    deck: Deck
    pool: tuple[Card, ...]
    """Cards that may be in another hand, in the deck unseen, or out of the game
    unseen: none of them is where the seat can see it."""

    @classmethod
    def of(cls, view: EclipseView, deck: Deck) -> Reading:
        """The reading of ``view`` (a seat's observation) of a game with ``deck``."""
        seen: set[int] = {card.id for card in view.hand or ()}
        for subsets in view.subsets:
            seen.update(card.id for subset in subsets for card in subset.cards)
        if view.safe_set:
            seen.update(card.id for card in view.safe_set.cards)
        seen.update(card.id for _, card in view.under)
        seen.update(card.id for known in view.known for card in known)
        seen.update(card.id for card in view.taken_out)
        if view.reveal is not None:
            seen.update(card.id for card in (view.reveal.attacker_card,
                                             view.reveal.defender_card) if card is not None)
        return cls(view, deck, tuple(card for card in deck.cards if card.id not in seen))

    def hidden_in_hand(self, seat: int) -> int:
        """How many cards of ``seat``'s hand the reading cannot name."""
        known = self.view.known[seat] if self.view.known else ()
        return max(0, self.view.hand_sizes[seat] - len(known))

    def deal(self, seat: int, rng: random.Random) -> list[Card]:
        """A hand ``seat`` may hold: the cards everyone knows it holds, and the
        rest drawn at random from the pool."""
        known = list(self.view.known[seat]) if self.view.known else []
        hidden = min(self.hidden_in_hand(seat), len(self.pool))
        return known + rng.sample(self.pool, hidden)

    def follower_share(self) -> float:
        """The share of followers in the pool (0 when it is empty)."""
        if not self.pool:
            return 0.0
        return sum(card.follower for card in self.pool) / len(self.pool)


__all__ = ["NumberGame", "Reading", "number_game", "pair_value", "pair_values"]
