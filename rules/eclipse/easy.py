"""Eclipse's ``easy`` computer player: today's ``normal`` made fallible the way
beginners are.

* It plays its best card first: the card that beats most of the deck, whatever
  has already gone by, so its shields and high cards are spent early and a
  sure loss is met with a strong card.
* It ignores what it has seen: no counting of the cards on the table or gone
  under the deck.
* It counterattacks only once its own subsets are crowded, the way a beginner
  notices the rule only when in trouble, and then lays each card moved in a
  subset of its own, building nothing.

Everything else (numbers, deposits, the safe set, where cards go) is the
``normal`` player's, so its moves stay legal and look sensible.
"""

from __future__ import annotations

import random
from functools import cache

from rules.core import GameState
from rules.eclipse import bot as normal
from rules.eclipse.cards import Card, Deck
from rules.eclipse.reading import pair_values
from rules.eclipse.state import COUNTER, NEW, SKIP, EclipseState

CROWDED = 8
"""Cards in front of it before it thinks of counterattacking."""


def choose(state: GameState, seat: int, rng: random.Random) -> str:
    """The easy computer's choice for ``seat`` (a legal option of its decision)."""
    assert isinstance(state, EclipseState)
    decision = state.decision_for(seat)
    assert decision is not None, "the computer was asked to move without a decision"
    options = decision.options
    if len(options) == 1:
        return options[0]
    if decision.kind == "card":
        view = state.observe(seat)
        attacking = seat == view.attacker
        strength = _strength(state.deck_def, attacking)
        cards = [state.deck_def.card_by_code(code) for code in options]
        best = max(cards, key=lambda card: (strength[card.id], card.number))
        return best.code
    if decision.kind == "counter":
        view = state.observe(seat)
        return COUNTER if view.cards_in_front(seat) >= CROWDED else SKIP
    if decision.kind == "counter-place":
        news = [o for o in options if o.endswith(":" + NEW)]
        return news[0] if news else options[0]
    return normal.choose(state, seat, rng)


@cache
def _strength(deck: Deck, attacking: bool) -> dict[int, float]:
    """Each symbol card's chance against a card drawn from the whole deck."""
    values = pair_values(deck)
    symbols: list[Card] = [card for card in deck.cards if not card.follower]
    strength = {}
    for card in symbols:
        if attacking:
            total = sum(values[card.id][other.id] for other in symbols if other is not card)
        else:
            total = sum(1 - values[other.id][card.id] for other in symbols if other is not card)
        strength[card.id] = total / (len(symbols) - 1)
    return strength


__all__ = ["choose"]
