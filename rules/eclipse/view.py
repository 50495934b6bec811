"""What a seat (or the channel) may see of a game of Eclipse.

Everything in front of the players is public: every regular subset, the safe
set, hand sizes, the deck size, played cards and presented numbers once
revealed, and where the cards seen going out of sight went (under the deck, back
into a hand, out of the game). Only a seat's own hand is private, and only that
seat's view holds it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core import Outcome
from rules.eclipse.cards import BOTTOM_SIGN, EMBLEM_SIGN, TOP_SIGN, Card
from rules.eclipse.terms import PARITY_WORD
from rules.phrases import Phrase, Words


@dataclass(frozen=True, slots=True)
class SubsetView:
    """One regular subset in front of a player (or the safe set, ``number`` 0)."""

    number: int
    """1, 2, … in front of its owner: how players name it (``2`` = the second)."""
    bottom: str
    """``male`` (same top and emblem) or ``female`` (same top, numbers of one parity)."""
    top: str | None
    """The shared top; ``None`` in the safe set, which may mix sun and moon."""
    key: str
    """The emblem of a ♂ subset, ``odd`` or ``even`` for a ♀ subset."""
    cards: tuple[Card, ...]

    @property
    def label(self) -> str:
        """``☀♂🛡`` or ``🌙♀ odd`` (``♀ even`` in the safe set).

        >>> SubsetView(1, "female", "moon", "odd", ()).label
        '🌙♀ odd'
        """
        top = TOP_SIGN[self.top] if self.top else ""
        key = EMBLEM_SIGN.get(self.key, f" {self.key}")
        return f"{top}{BOTTOM_SIGN[self.bottom]}{key}"

    @property
    def shown(self) -> Words:
        """The label as people read it: a ♀ subset's parity in words (``🌙♀ odd``).

        >>> SubsetView(1, "female", "moon", "odd", ()).shown
        Phrase(eclipse.subset.parity(signs='🌙♀', parity=Phrase(eclipse.parity.odd())))
        """
        if self.key not in PARITY_WORD:
            return self.label
        top = TOP_SIGN[self.top] if self.top else ""
        return Phrase("eclipse.subset.parity", signs=f"{top}{BOTTOM_SIGN[self.bottom]}",
                      parity=PARITY_WORD[self.key])

    @property
    def size(self) -> int:
        """Cards in it, followers included."""
        return len(self.cards)


@dataclass(frozen=True, slots=True)
class Reveal:
    """The two cards of a hand once revealed, and what the judging made of them."""

    attacker: int
    defender: int
    attacker_card: Card | None
    """``None`` when the attacker had no symbol card to play."""
    defender_card: Card | None
    numbers: tuple[int, int] | None
    """The numbers presented (attacker, defender), once presented."""
    winner: int | None
    """The seat that won, ``None`` while numbers are still awaited."""
    judging: tuple[Words, ...]
    """The judging step by step (:attr:`~rules.eclipse.judge.Verdict.path`): "same top:
    sun", "defender ♂", "emblems bolt vs cog → bolt wins"."""


@dataclass(frozen=True, slots=True)
class EclipseView:
    """One seat's view (``seat`` ``None``: the channel's)."""

    seat: int | None
    seats: int
    hand: tuple[Card, ...] | None
    """This seat's hand; ``None`` in the channel's view."""
    hand_sizes: tuple[int, ...]
    deck_size: int
    subsets: tuple[tuple[SubsetView, ...], ...]
    """Each seat's regular subsets, in order (empty for a seat that is out)."""
    safe_set: SubsetView | None
    out: tuple[bool, ...]
    """True for seats eliminated (or resigned)."""
    attacker: int
    defender: int
    phase: str
    """``counter`` · ``counter-card`` · ``counter-place`` · ``play`` · ``numbers`` ·
    ``deposit`` · ``safe`` · ``give-card`` · ``give-place`` · ``over``."""
    waiting: tuple[int, ...]
    """Seats whose decision is awaited."""
    chosen: tuple[int, ...]
    """Seats that have made their secret choice of this step (not what they chose)."""
    reveal: Reveal | None
    """The current hand's reveal (numbers phase onwards), else the last hand's."""
    counterattack: tuple[tuple[Card, int], ...]
    """Cards moved in this hand's counterattack, with the seat hosting each."""
    counter_left: int
    """Counterattack cards still to move (counterattack phases)."""
    moving: Card | None
    """The card being placed (counter-place, give-place)."""
    hands_played: int
    hand_cap: int
    outcome: Outcome | None
    step: int
    under: tuple[tuple[int, Card], ...] = ()
    """Cards everyone saw go under the deck (a lost hand's card, followers sent
    back) that are still in it, each with its place from the top (0 is drawn next)."""
    known: tuple[tuple[Card, ...], ...] = ()
    """Each seat's cards in hand that everyone knows of: drawn from under the deck
    where everyone saw them go, or a revealed card taken back."""
    taken_out: tuple[Card, ...] = ()
    """Cards everyone saw leave the game with a player who went out."""

    def cards_in_front(self, seat: int) -> int:
        """Cards in ``seat``'s regular subsets."""
        return sum(subset.size for subset in self.subsets[seat])
