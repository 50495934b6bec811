"""Eclipse's cards and decks.

A symbol card has a top (sun or moon), a bottom (♂ or ♀), an emblem (one of
five, by priority) and a number. A follower card has no symbols. Cards are
written in a short notation players can type: top letter, number, bottom
letter — ``S13f`` is the sun ♀ 13, ``M4m`` the moon ♂ 4 — and ``F`` is a
follower.

Decks are data: :func:`standard_deck` builds the spec's 72-card deck, and
:func:`parse_deck` reads any other from text.

>>> card = standard_deck().card_by_code("S13f")
>>> card.emblem, card.label
('star', '☀13♀⭐')
>>> len(standard_deck().cards)
72
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from rules.eclipse.terms import FOLLOWER_WORD
from rules.errors import BadOptions, MalformedChoice, shown
from rules.phrases import Phrase, Words

TOPS = ("sun", "moon")
BOTTOMS = ("male", "female")
EMBLEMS = ("shield", "bolt", "cog", "butterfly", "star")
"""Emblems by priority, highest first; an emblem's maximum maneuver number is its
place in this list plus one."""

TOP_SIGN = {"sun": "☀", "moon": "🌙"}
BOTTOM_SIGN = {"male": "♂", "female": "♀"}
EMBLEM_SIGN = {"shield": "🛡", "bolt": "⚡", "cog": "⚙", "butterfly": "🦋", "star": "⭐"}
FOLLOWER = "F"
"""The notation of a follower card (followers are all alike)."""


def emblem_max(emblem: str) -> int:
    """The emblem's maximum maneuver number.

    >>> [emblem_max(e) for e in EMBLEMS]
    [1, 2, 3, 4, 5]
    """
    return EMBLEMS.index(emblem) + 1


def emblem_rank(emblem: str) -> int:
    """Priority as a number, higher is stronger (shield 5 … star 1)."""
    return len(EMBLEMS) - EMBLEMS.index(emblem)


@dataclass(frozen=True, slots=True)
class Card:
    """One card of a deck. ``id`` is its place in the deck's list, so two equal
    followers are still two cards."""

    id: int
    top: str | None = None
    bottom: str | None = None
    emblem: str | None = None
    number: int = 0

    @property
    def follower(self) -> bool:
        """True for a follower card (no symbols)."""
        return self.top is None

    @property
    def male(self) -> bool:
        """True for a ♂ symbol card."""
        return self.bottom == "male"

    @property
    def code(self) -> str:
        """The card in notation: ``S13f``, ``M4m``, or ``F`` for a follower."""
        if self.top is None or self.bottom is None:
            return FOLLOWER
        return f"{self.top[0].upper()}{self.number}{self.bottom[0]}"

    @property
    def label(self) -> str:
        """The card with its four symbols, for people: ``☀13♀⭐`` (a follower, which has
        none, is its notation ``F``: :attr:`shown` says it in words)."""
        if self.top is None or self.bottom is None or self.emblem is None:
            return FOLLOWER
        return (f"{TOP_SIGN[self.top]}{self.number}{BOTTOM_SIGN[self.bottom]}"
                f"{EMBLEM_SIGN[self.emblem]}")

    @property
    def shown(self) -> Words:
        """The card as people read it: its :attr:`label`, or the word for a follower."""
        return FOLLOWER_WORD if self.follower else self.label

    def numbers(self, emblem: str | None = None) -> tuple[int, ...]:
        """What this card may present in a maneuver, from ``emblem``'s range
        (its own by default): 0 only on a ♀ card.

        >>> Card(0, "sun", "male", "bolt", 4).numbers()
        (1, 2)
        >>> Card(1, "sun", "female", "shield", 4).numbers()
        (0, 1)
        """
        emblem = emblem or self.emblem
        assert emblem is not None
        low = 1 if self.male else 0
        return tuple(range(low, emblem_max(emblem) + 1))


@dataclass(frozen=True)
class Deck:
    """A deck: its cards in a fixed order (the order shuffling starts from)."""

    name: str
    cards: tuple[Card, ...]

    @cached_property
    def _by_code(self) -> dict[str, Card]:
        return {card.code: card for card in self.cards if not card.follower}

    @cached_property
    def symbol_ids(self) -> frozenset[int]:
        """Ids of the symbol cards."""
        return frozenset(card.id for card in self.cards if not card.follower)

    def card_by_code(self, code: str) -> Card:
        """The symbol card written ``code`` (case of the letters does not matter).

        Raises :class:`MalformedChoice` for text that is not a card of this deck.
        """
        card = self._by_code.get(normalise_code(code))
        if card is None:
            raise MalformedChoice(Phrase("eclipse.error.not_a_card", code=shown(code),
                                         deck=self.name))
        return card

    def __getitem__(self, card_id: int) -> Card:
        return self.cards[card_id]


def normalise_code(code: str) -> str:
    """``s13F`` → ``S13f``; anything else is returned stripped, for the error message."""
    text = code.strip()
    number = text[1:-1]
    if len(text) >= 3 and number.isascii() and number.isdigit() and len(number) <= 3:
        return text[0].upper() + str(int(text[1:-1])) + text[-1].lower()
    return text.upper() if text.upper() == FOLLOWER else text


OFFSETS = {("sun", "male"): 0, ("sun", "female"): 1, ("moon", "male"): 2, ("moon", "female"): 3}


def standard_deck() -> Deck:
    """The spec's deck: one symbol card per (top, bottom, number 1–15), emblem
    ``EMBLEMS[(number + offset) % 5]``, plus 12 followers — 72 cards."""
    return _STANDARD


def _build_standard() -> Deck:
    cards: list[Card] = []
    for top in TOPS:
        for bottom in BOTTOMS:
            for number in range(1, 16):
                emblem = EMBLEMS[(number + OFFSETS[top, bottom]) % 5]
                cards.append(Card(len(cards), top, bottom, emblem, number))
    cards += [Card(len(cards) + i) for i in range(12)]
    return Deck("standard", tuple(cards))


_STANDARD = _build_standard()


def parse_deck(name: str, text: str) -> Deck:
    """A deck from text: symbol cards as ``S13f:butterfly`` (code and emblem),
    and followers as ``F`` or ``Fx12``, separated by spaces or commas.

    >>> deck = parse_deck("tiny", "S1m:shield M2f:bolt Fx2")
    >>> [c.code for c in deck.cards]
    ['S1m', 'M2f', 'F', 'F']
    """
    cards: list[Card] = []
    for word in text.replace(",", " ").split():
        if word.upper().startswith(FOLLOWER + "X") or word.upper() == FOLLOWER:
            count = int(word[2:]) if len(word) > 1 else 1
            cards += [Card(len(cards) + i) for i in range(count)]
            continue
        code, _, emblem = word.partition(":")
        code = normalise_code(code)
        tops = {t[0].upper(): t for t in TOPS}
        bottoms = {b[0]: b for b in BOTTOMS}
        if (emblem not in EMBLEMS or len(code) < 3 or code[0] not in tops
                or code[-1] not in bottoms or not code[1:-1].isdigit()):
            raise BadOptions(Phrase("eclipse.error.not_a_deck_card", word=shown(word)))
        cards.append(Card(len(cards), tops[code[0]], bottoms[code[-1]], emblem,
                          int(code[1:-1])))
    codes = [c.code for c in cards if not c.follower]
    if len(set(codes)) != len(codes):
        raise BadOptions(Phrase("eclipse.error.deck_twice", deck=name))
    if not codes:
        raise BadOptions(Phrase("eclipse.error.deck_no_symbols", deck=name))
    return Deck(name, tuple(cards))


DECKS: dict[str, Deck] = {"standard": _STANDARD}
"""Decks by name, for the ``deck`` option."""
