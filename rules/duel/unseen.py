"""What one seat of a duel may not see, dealt again at random (:data:`rules.core.Unseen`).

A seat sees its own hand, every graveyard, the battlefield, the stack and how
many cards each hand and library holds. It does not see another player's hand,
the order of any library (its own too), nor the random numbers still to be drawn.
:func:`unseen` deals those again: each other player's hand is drawn from the cards
that seat has not seen (that player's library and hand together), every library
is shuffled, and the state's RNG is reseeded. A card everyone saw return to a
hand stays there: it is no secret.
"""

from __future__ import annotations

import random

from rules.core import GameState
from rules.duel.state import DuelState


def unseen(state: GameState, seat: int, rng: random.Random) -> DuelState:
    """A copy of ``state`` in which what ``seat`` cannot see is dealt again from
    ``rng``; ``state`` is left alone and ``seat``'s observation is the same.

    >>> from rules.registry import get_game
    >>> duel = get_game("duel")
    >>> state = duel.new({}, 2, 5)
    >>> dealt = unseen(state, 0, random.Random(1))
    >>> dealt.observe(0) == state.observe(0), dealt.observe(1) == state.observe(1)
    (True, False)
    """
    assert isinstance(state, DuelState)
    dealt = state.copy()
    kept = set(dealt.seen_in_hand)
    if dealt.casting is not None and dealt.casting.card_id is not None:
        kept.add(dealt.casting.card_id)  # being cast: it is on its way out of the hand
    for index, player in enumerate(dealt.players):
        # Sorted before shuffling: the deal depends on which cards are unseen and on
        # ``rng`` only, never on where they lay (which the seat cannot know).
        if index == seat:
            player.library = sorted(player.library)
            rng.shuffle(player.library)
            continue
        slots = [i for i, cid in enumerate(player.hand) if cid not in kept]
        pool = sorted([player.hand[i] for i in slots] + player.library)
        rng.shuffle(pool)
        hand = list(player.hand)
        for i, cid in zip(slots, pool, strict=False):
            hand[i] = cid
        player.hand = hand
        player.library = pool[len(slots):]
    dealt.rng = random.Random(rng.getrandbits(64))
    return dealt
