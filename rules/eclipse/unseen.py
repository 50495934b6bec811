"""Deal again what one seat of Eclipse cannot see (``GAME.unseen``).

A seat sees its own hand and the table. Hidden from it: the other hands, the
deck's order, the card a loser has drawn and not yet taken, the hands of players
who went out, the secret choice another seat has made and not yet revealed, and
the state's random numbers. :func:`unseen` deals all of that again at random,
consistently with what the seat has seen: cards whose whereabouts everyone knows
(seen going under the deck, drawn from there, taken out from the table) stay
where they are, every hand keeps its size, an attacker or defender about to play
still holds a symbol card, and a held choice is made again from what its seat
now holds.
"""

from __future__ import annotations

import random

from rules.core import GameState
from rules.eclipse.state import EclipseState

REPAIR_TRIES = 20
"""Fresh shuffles tried before a hand that must hold a symbol card is mended by a swap."""


class _Slots:
    """The hidden places of a state: (list, index) pairs, plus the loser's drawn card."""

    def __init__(self, state: EclipseState) -> None:
        self.state = state
        self.places: list[tuple[list[int], int]] = []
        self.owner: list[int | None] = []
        """The seat whose hand each place is in (``None``: the deck, out of the game)."""

    def add(self, cards: list[int], owner: int | None) -> None:
        hidden = self.state.open
        for index, card in enumerate(cards):
            if card not in hidden:
                self.places.append((cards, index))
                self.owner.append(owner)

    def cards(self) -> list[int]:
        return [cards[index] for cards, index in self.places]

    def fill(self, cards: list[int]) -> None:
        for (place, index), card in zip(self.places, cards, strict=True):
            place[index] = card


def unseen(state: GameState, seat: int, rng: random.Random) -> EclipseState:
    """A copy of ``state`` with everything ``seat`` cannot see dealt again at random
    (see the module's notes); ``seat``'s observation of it is the same."""
    assert isinstance(state, EclipseState)
    new = state.copy()
    slots = _Slots(new)
    for other in range(new.seats):
        if other != seat:
            slots.add(new.hands[other], other)
            slots.add(new.out_cards[other], None)
    slots.add(new.deck, None)
    drawing = [new.drawing] if new.drawing is not None else []
    slots.add(drawing, None)  # hidden even from the loser who drew it
    cards = slots.cards()
    rng.shuffle(cards)
    _must_hold_a_symbol(new, seat, slots, cards, rng)
    slots.fill(cards)
    if drawing:
        new.drawing = drawing[0]
    _choose_again(new, seat, rng)
    new.rng = random.Random(rng.getrandbits(64))
    new._decision_cache = new._pending_cache = None
    return new


def _must_hold_a_symbol(state: EclipseState, seat: int, slots: _Slots, cards: list[int],
                        rng: random.Random) -> None:
    """An attacker or defender asked to play holds a symbol card (the phase says so to
    everyone): shuffle again, and at last swap one in from another hidden place."""
    if state.phase != "play":
        return
    bound = [s for s in (state.attacker, state.defender) if s != seat]
    symbol = [not card.follower for card in state.cards]

    def lacking() -> list[int]:
        held = {s: False for s in bound}
        for owner, card in zip(slots.owner, cards, strict=True):
            if owner in held:
                held[owner] = held[owner] or symbol[card]
        for s in bound:  # the cards everyone knows of count too
            held[s] = held[s] or any(symbol[c] for c in state.hands[s] if c in state.open)
        return [s for s in bound if not held[s] and state.hands[s]]

    for _ in range(REPAIR_TRIES):
        if not lacking():
            return
        rng.shuffle(cards)
    for short in lacking():
        mine = [i for i, owner in enumerate(slots.owner) if owner == short]
        spare = [i for i, owner in enumerate(slots.owner)
                 if owner != short and symbol[cards[i]]
                 and (owner not in bound or sum(symbol[cards[j]] for j, o in
                                                enumerate(slots.owner) if o == owner) > 1)]
        if mine and spare:
            i, j = rng.choice(mine), rng.choice(spare)
            cards[i], cards[j] = cards[j], cards[i]


def _choose_again(state: EclipseState, seat: int, rng: random.Random) -> None:
    """Another seat's held secret choice, made again at random from what it may now
    choose: its card from the hand just dealt it, or its number."""
    held = state._held
    for other in sorted(held):
        if other == seat:
            continue
        if state.phase == "play":
            options = state._play_options(other)
        else:
            attacker_numbers, defender_numbers = state._number_options()
            options = attacker_numbers if other == state.attacker else defender_numbers
        held[other] = rng.choice(options)


__all__ = ["unseen"]
