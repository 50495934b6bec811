"""Who keeps the ante, in words: one wording for the event that says it as the duel
ends (or as it is cancelled, every card going back) and for every later view of the
table (channel, DMs, terminal). Seats are named through ``name`` (``who`` for an
event's ``{s0}`` place-holders, the players' names for a view): never by number."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.core import Event
from rules.words import who


def settled_event(ante: Sequence[str | None], winner: int | None) -> Event | None:
    """The event that says who keeps the cards set aside (see :func:`settled_text`):
    ``ante-won`` by ``winner``, or ``ante-back`` (``winner`` ``None``: a draw, a shared
    first place, a duel cancelled); ``None`` in a duel without ante.

    >>> settled_event(["Burrtusk Boar", "Rushing Sap"], None).render(["Ada", "Bo"])
    'No one wins the ante: Burrtusk Boar goes back to Ada and Rushing Sap to Bo.'
    """
    if not any(ante):
        return None
    return Event("ante-won" if winner is not None else "ante-back",
                 settled_text(ante, winner, who) + ".",
                 data={"seat": winner, "cards": tuple(card for card in ante if card)})


def settled_text(ante: Sequence[str | None], winner: int | None,
                 name: Callable[[int], str]) -> str:
    """Who keeps the cards set aside: the sole winner takes every one, else each goes
    back to whoever set it aside (a draw, or first place shared).

    >>> names = ["Ada", "Bo", "Cy"].__getitem__
    >>> settled_text(["Burrtusk Boar", "Rushing Sap"], 1, names)
    "Bo wins the ante: Burrtusk Boar (from Ada) and Rushing Sap (Bo's own)"
    >>> settled_text(["Burrtusk Boar", "Rushing Sap", "Ashpeak"], None, names)
    'No one wins the ante: Burrtusk Boar goes back to Ada, Rushing Sap to Bo and Ashpeak to Cy'
    """
    staked = [(seat, card) for seat, card in enumerate(ante) if card is not None]
    if winner is not None:
        cards = [f"{card} ({name(seat)}'s own)" if seat == winner
                 else f"{card} (from {name(seat)})" for seat, card in staked]
        return f"{name(winner)} wins the ante: {_and(cards)}"
    back = [f"{card} goes back to {name(seat)}" if n == 0 else f"{card} to {name(seat)}"
            for n, (seat, card) in enumerate(staked)]
    return f"No one wins the ante: {_and(back)}"


def _and(parts: Sequence[str]) -> str:
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)
