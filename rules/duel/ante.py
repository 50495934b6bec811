"""Who keeps the ante, in words: one wording for the event that says it as the duel
ends (or as it is cancelled, every card going back) and for every later view of the
table (channel, DMs, terminal). Seats are :class:`~rules.phrases.Seat` (a player named
where the words are made), never by number."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.core import Event
from rules.duel.phrasing import card_named, listed
from rules.phrases import Phrase, Seat


def settled_event(ante: Sequence[str | None], winner: int | None) -> Event | None:
    """The event that says who keeps the cards set aside (see :func:`settled_words`):
    ``ante-won`` by ``winner``, or ``ante-back`` (``winner`` ``None``: a draw, a shared
    first place, a duel cancelled); ``None`` in a duel without ante.

    >>> settled_event(["Burrtusk Boar", "Rushing Sap"], None).text.key
    'duel.ante.sentence'
    """
    if not any(ante):
        return None
    return Event("ante-won" if winner is not None else "ante-back",
                 Phrase("duel.ante.sentence", line=settled_words(ante, winner)),
                 data={"seat": winner, "cards": tuple(card for card in ante if card)})


def settled_words(ante: Sequence[str | None], winner: int | None,
                  who: Callable[[int], object] = Seat) -> Phrase:
    """Who keeps the cards set aside: the sole winner takes every one, else each goes
    back to whoever set it aside (a draw, or first place shared). Seats are named by
    ``who`` (a :class:`~rules.phrases.Seat`, named where the words are made; a view
    gives the players' names).

    >>> settled_words(["Burrtusk Boar", "Rushing Sap"], 1).key
    'duel.ante.won'
    """
    staked = [(seat, card) for seat, card in enumerate(ante) if card is not None]
    if winner is not None:
        won = [Phrase("duel.ante.own", card=card_named(card), who=who(seat)) if seat == winner
               else Phrase("duel.ante.from", card=card_named(card), who=who(seat))
               for seat, card in staked]
        return Phrase("duel.ante.won", who=who(winner), cards=listed(won, last="and"))
    back = [Phrase("duel.ante.goes_back", card=card_named(card), who=who(seat)) if n == 0
            else Phrase("duel.ante.back_to", card=card_named(card), who=who(seat))
            for n, (seat, card) in enumerate(staked)]
    return Phrase("duel.ante.back", cards=listed(back, last="and"))
