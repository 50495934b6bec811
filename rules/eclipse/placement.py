"""Where cards may go: regular subsets, the safe set, and whether a
counterattack can still move all its cards.

A regular subset is defined by its symbol cards: a ♂ subset holds ♂ cards of
one top and one emblem; a ♀ subset holds ♀ cards of one top whose numbers are
all odd or all even. Followers join any regular subset and count toward its
six, but never start one and never enter the safe set. The safe set follows
the ♂ or ♀ rule its first card sets, except that it may mix sun and moon.

>>> from rules.eclipse.cards import standard_deck
>>> deck = standard_deck()
>>> s1m, s6m = deck.card_by_code("S1m"), deck.card_by_code("S6m")   # both sun ♂ bolt
>>> fits_subset(s6m, [s1m])
True
>>> fits_subset(deck.card_by_code("M1m"), [s1m])   # moon: another subset
False
>>> fits_safe_set(deck.card_by_code("M6m"), [s1m])  # moon ♂ 6 is a butterfly, not a bolt
False
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rules.eclipse.cards import Card

COMPLETE = 6
"""The requisite number: a regular subset or the safe set with 6 cards is complete."""


def _key(card: Card) -> str:
    """What a card shares with its subset besides top and bottom."""
    if card.male:
        assert card.emblem is not None
        return card.emblem
    return "odd" if card.number % 2 else "even"


def subset_kind(cards: Sequence[Card]) -> tuple[str, str, str] | None:
    """``(top, bottom, key)`` of the subset ``cards`` form (``None`` without a
    symbol card). ``key`` is the emblem (♂) or ``odd``/``even`` (♀)."""
    for card in cards:
        if not card.follower:
            assert card.top is not None and card.bottom is not None
            return card.top, card.bottom, _key(card)
    return None


def fits_subset(card: Card, cards: Sequence[Card]) -> bool:
    """May ``card`` join the regular subset ``cards`` (an existing one)?"""
    if len(cards) >= COMPLETE:
        return False
    kind = subset_kind(cards)
    if kind is None:
        return False
    if card.follower:
        return True
    return (card.top, card.bottom, _key(card)) == kind


def fits_safe_set(card: Card, safe: Sequence[Card]) -> bool:
    """May ``card`` go into the safe set (starting it when empty)?"""
    if card.follower or len(safe) >= COMPLETE:
        return False
    if not safe:
        return True
    first = safe[0]
    return card.bottom == first.bottom and _key(card) == _key(first)


def safe_set_key(safe: Sequence[Card]) -> tuple[str, str] | None:
    """``(bottom, key)`` the safe set's first card set, or ``None`` when empty."""
    if not safe:
        return None
    return safe[0].bottom or "", _key(safe[0])


Shape = tuple[tuple[int, int], ...]
"""A player's subsets for counting: ``(symbol cards, followers)`` each, sorted."""


@lru_cache(maxsize=65536)
def can_move(shape: Shape, room: int, count: int) -> bool:
    """Can ``count`` more cards leave subsets of ``shape`` for other players'
    subsets with ``room`` free places?

    A symbol card can always start a new subset (adding five places); a
    follower needs a free place, and followers left without a symbol card in
    their subset go back to the deck, so they no longer count.

    >>> can_move(((1, 2),), 0, 3)   # the symbol must go first: its followers are lost
    False
    >>> can_move(((1, 2),), 2, 3)   # followers first, then the symbol
    True
    >>> can_move(((2, 0), (1, 0)), 0, 3)
    True
    """
    if count <= 0:
        return True
    room = min(room, count)
    for i, (symbols, followers) in enumerate(shape):
        rest = shape[:i] + shape[i + 1:]
        if followers and room and can_move(tuple(sorted((*rest, (symbols, followers - 1)))),
                                           room - 1, count - 1):
            return True
        if symbols:
            left = (symbols - 1, followers if symbols > 1 else 0)
            after = tuple(sorted((*rest, left))) if left != (0, 0) else rest
            if can_move(after, room + COMPLETE - 1, count - 1):
                return True
    return False
