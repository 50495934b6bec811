"""Arcane Duel around its matches (``../shared/specs/collections.md``, "Decks" and
"Ante"): a seat may bring a deck of its own, checked when it sits down and again
when the duel starts; a duel may be played for ante; a rated win may bring a pack.

Where the spec is silent:

* A deck of one's own is a saved deck (``/deck``), named in ``/play duel deck:`` or
  ``/join deck:`` as it was saved; a starter's name still plays that starter, owned
  or not ("open play also allows unlimited decks").
* Ante is for people only (two to four), each bringing a deck of their own: the
  computer owns no cards, and a starter's copies are not the player's to stake. Opening a table with
  ``ante:true`` asks for it; taking a seat at a table that says so is agreeing.
* The server's ``/config ante`` is off until a moderator allows it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.duel.collections import CollectionService
from bot.errors import NotAllowed, WrongPhase
from bot.i18n import Text
from bot.matches.hooks import MatchHooks
from rules.core import Event, GameState, SeatSetup
from rules.duel.ante import settled_event
from storage.models import Ante, SeatResult, SeatRow

if TYPE_CHECKING:
    from bot.clock import Clock
    from bot.matches.live import LiveMatch
    from storage import Store


def plays_for_ante(options: Mapping[str, Any]) -> bool:
    """Whether a duel's options ask for ante."""
    return bool(options.get("ante"))


def own_cards(setup: SeatSetup) -> list[str] | None:
    """The cards of a seat bringing a saved deck of its own (``None``: a starter, a
    list given outside collections — the local table's or a test's —, or none)."""
    deck = (setup or {}).get("deck")
    if isinstance(deck, list) and isinstance((setup or {}).get("saved"), str):
        return list(deck)
    return None


class DuelHooks(MatchHooks):
    """Decks people own, ante and prize packs, over the collections service."""

    async def check_hand_over(self, match: LiveMatch) -> None:
        """A duel for ante is played out by the people who staked: a kicked seat
        would lose (or win) its card by the computer's play. Someone who stops
        playing forfeits after three missed deadlines, or with ``/forfeit``."""
        if plays_for_ante(match.row.options):
            raise NotAllowed(Text("error.ante.no_hand_over"))

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.collections = CollectionService(store, clock)

    async def seat_setup(self, guild_id: int | None, user_id: int,
                         deck: str) -> SeatSetup | None:
        """A saved deck's cards, refused (naming the cards short) unless owned and free."""
        if guild_id is None:
            return None
        # None: no deck of that name (in any case) or not a deck's name at all; the
        # caller then lists the decks there are.
        name = await self.collections.saved_name(guild_id, user_id, deck)
        if name is None:
            return None
        cards = await self.collections.deck_for_duel(guild_id, user_id, name)
        return {"deck": list(cards), "saved": name}

    async def deck_names(self, guild_id: int | None, user_id: int) -> list[str]:
        """The decks ``user_id`` saved on this server."""
        if guild_id is None:
            return []
        return [deck.name for deck in await self.store.collections.decks(guild_id, user_id)]

    async def check_open(self, guild_id: int | None, options: Mapping[str, Any], *,
                         vs_bot: bool) -> None:
        """Ante only on a server that allows it, and between people only."""
        if not plays_for_ante(options):
            return
        if guild_id is None:
            raise NotAllowed(Text("error.ante.server_only"))
        if not (await self.store.settings.get(guild_id)).ante:
            raise NotAllowed(Text("error.ante.off"))
        if vs_bot:
            raise NotAllowed(Text("error.ante.not_against_computer"))

    async def check_arranged(self, guild_id: int | None,
                             options: Mapping[str, Any]) -> None:
        """A tournament's duels are not played for ante: its seats are dealt without
        decks of their own, and a starter's cards can't be staked."""
        if plays_for_ante(options):
            raise NotAllowed(Text("error.ante.not_in_tournaments"))

    async def check_seat(self, match: LiveMatch, setup: SeatSetup,
                         user_id: int | None = None) -> None:
        """At an ante table, each seat brings a deck of its own that can be staked,
        checked as :meth:`starting` checks it again."""
        if not plays_for_ante(match.row.options):
            return
        cards = own_cards(setup)
        if cards is None:
            raise WrongPhase(Text("error.ante.own_deck"))
        problem = await self._problem(match, user_id, cards)
        if problem:
            raise WrongPhase(Text("error.ante.deck_unfit", deck=(setup or {}).get("saved"),
                                  problem=problem))

    async def _problem(self, match: LiveMatch, user_id: int | None,
                       cards: Sequence[str]) -> str | None:
        """What keeps a seat's own deck from this table now: the one check of a seat
        and of the start, so a deck seated is a deck the duel can start with."""
        guild = match.row.guild_id
        if guild is None or user_id is None:
            return None
        return await self.collections.deck_problem(
            guild, user_id, Counter(cards), ante=plays_for_ante(match.row.options))

    async def starting(self, match: LiveMatch, seats: Sequence[SeatRow],
                       state: GameState) -> Ante | None:
        """Every deck of one's own checked again (cards may have been traded since),
        then, at an ante table, each seat's set-aside card staked."""
        guild = match.row.guild_id
        for seat in seats:
            cards = own_cards(seat.setup)
            if cards is None:
                continue
            problem = await self._problem(match, seat.user_id, cards)
            if problem:
                raise WrongPhase(Text("error.deck_unfit_now", seat=seat.name, problem=problem))
        if not plays_for_ante(match.row.options):
            return None
        if guild is None or any(s.is_bot or s.user_id is None or own_cards(s.setup) is None
                                for s in seats):
            raise WrongPhase(Text("error.ante.no_computer_seats"))
        set_aside = state.ante  # type: ignore[attr-defined]
        return Ante(guild, tuple((s.user_id, set_aside[s.seat]) for s in seats
                                 if s.user_id is not None))

    async def closing(self, match: LiveMatch) -> Sequence[Event]:
        """A duel for ante closed without a result (cancelled) gives every staked card
        back: the table says so, by name, as the end of a duel says who keeps them."""
        state = match.state
        if state is None or not plays_for_ante(match.row.options):
            return ()  # nothing was staked: the lobby never started
        event = settled_event(state.ante, None)  # type: ignore[attr-defined]
        return () if event is None else (event,)

    async def prizes(self, match: LiveMatch, result: Sequence[SeatResult],
                     rated: bool) -> list[tuple[int, int]]:
        """A pack for the winner of a rated duel, where the server gives them."""
        guild = match.row.guild_id
        first = [s for s in result if s.place == 1]
        if (not rated or guild is None or len(first) != 1 or first[0].is_bot
                or first[0].user_id is None):
            return []
        if not (await self.store.settings.get(guild)).win_packs:
            return []
        return [(guild, first[0].user_id)]
