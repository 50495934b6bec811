"""Eclipse's tactics in numbers: who can put whom out, seen from the table.

A player goes out when they lose a hand and a subset in front of them holds six
cards they cannot save (the safe set takes one card of a kind it accepts, once),
or when the safe set is already complete. These helpers count, from the public
table and a hand, whether a winner's deposit — or a counterattack and then a
deposit — would do it. They work on plain numbers (:class:`Pile`), so that a
player can try many placements quickly.

>>> from rules.eclipse.cards import standard_deck
>>> s6m = standard_deck().card_by_code("S6m")            # sun ♂ bolt
>>> bolts = Pile(card_kind(s6m), 2, 0)
>>> deposit_kills(s6m, 3, [bolts], Safe(1, ("female", "even")))   # 2 + 1 + 3 followers
True
>>> deposit_kills(s6m, 3, [bolts], Safe(1, ("male", "bolt")))     # the safe set saves it
False
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.eclipse.cards import Card
from rules.eclipse.placement import COMPLETE
from rules.eclipse.view import SubsetView

Kind = tuple[str, str, str]
"""A regular subset's kind: top, bottom (``male``/``female``) and key (emblem or parity)."""
Class = tuple[str, str]
"""What the safe set asks of a card: bottom and key (it mixes tops)."""


def card_kind(card: Card) -> Kind:
    """The kind of subset a symbol card starts or joins."""
    assert card.top is not None and card.bottom is not None and card.emblem is not None
    key = card.emblem if card.male else ("odd" if card.number % 2 else "even")
    return card.top, card.bottom, key


@dataclass(frozen=True, slots=True)
class Pile:
    """A regular subset counted: its kind, its size and its followers."""

    kind: Kind
    size: int
    followers: int

    @property
    def cls(self) -> Class:
        """The safe set's class of its cards."""
        return self.kind[1], self.kind[2]

    @classmethod
    def of(cls, subset: SubsetView) -> Pile:
        """The pile of a subset as a view shows it."""
        assert subset.top is not None
        followers = sum(card.follower for card in subset.cards)
        return cls((subset.top, subset.bottom, subset.key), subset.size, followers)


@dataclass(frozen=True, slots=True)
class Safe:
    """The safe set counted: how many cards, and the class it accepts (``None``: any)."""

    size: int
    cls: Class | None

    @classmethod
    def of(cls, subset: SubsetView | None) -> Safe:
        """The safe set as a view shows it."""
        if subset is None:
            return cls(0, None)
        return cls(subset.size, (subset.bottom, subset.key))

    @property
    def complete(self) -> bool:
        """Whether the next loser is out whatever they hold."""
        return self.size >= COMPLETE

    def saves(self, pile: Pile) -> bool:
        """Whether the safe set can take a card of ``pile`` now."""
        return not self.complete and (self.cls is None or self.cls == pile.cls)


def out_after_loss(piles: Iterable[Pile], safe: Safe) -> bool:
    """Whether a loser with ``piles`` in front (after the winner's deposit) goes out."""
    if safe.complete:
        return True
    full = [pile for pile in piles if pile.size >= COMPLETE]
    if len(full) >= 2:
        return True
    return bool(full) and not safe.saves(full[0])


def deposit_kills(card: Card, followers: int, piles: Sequence[Pile], safe: Safe) -> bool:
    """Whether winning with ``card`` (and up to ``followers`` followers from the hand)
    can put the loser with ``piles`` out."""
    if safe.complete:
        return True
    kind = card_kind(card)
    for index, pile in enumerate(piles):
        if pile.kind == kind and pile.size < COMPLETE:
            grown = min(COMPLETE, pile.size + 1 + followers)
            if grown >= COMPLETE and out_after_loss(
                    (*piles[:index], Pile(kind, grown, 0), *piles[index + 1:]), safe):
                return True
    if 1 + followers >= COMPLETE:
        return out_after_loss((*piles, Pile(kind, COMPLETE, 0)), safe)
    return out_after_loss(piles, safe)


__all__ = ["Class", "Kind", "Pile", "Safe", "card_kind", "deposit_kills", "out_after_loss"]
