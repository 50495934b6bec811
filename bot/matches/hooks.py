"""What a game adds around its matches beyond the rules: decks people own, stakes
that change hands with the result, prizes for a win. The match service calls a
game's :class:`MatchHooks` at the moments below; a game without any gets this
do-nothing base, so the service itself names no game and owns no card.

* **Seating** — ``/play … deck:`` and ``/join deck:`` name a deck that is not one
  of the game's own (:attr:`~rules.core.GameInfo.decks`): :meth:`MatchHooks.seat_setup`
  turns it into the seat's setup (a list of cards someone owns, say), or refuses.
* **Opening** — :meth:`MatchHooks.check_open` may refuse options the server or the
  table does not allow (ante where the server forbids it, against the computer);
  :meth:`MatchHooks.check_arranged` those a tournament's dealt seats cannot play.
* **Kicking** — :meth:`MatchHooks.check_hand_over` may refuse giving a person's
  seat to the computer player in play.
* **Starting** — :meth:`MatchHooks.starting` checks again what was checked when
  people sat down (cards may have been traded since) and names the stakes, which
  are locked in the same write that starts the match.
* **Ending** — :meth:`MatchHooks.prizes` names who gets a prize with the result;
  storage pays stakes out in the result's own write. A match closed without a
  result (cancelled) gives every stake back in the write that closes it, and
  :meth:`MatchHooks.closing` says so on its table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rules.core import Event, GameState, SeatSetup
from storage.models import Ante, SeatResult, SeatRow

if TYPE_CHECKING:
    from bot.clock import Clock
    from bot.matches.live import LiveMatch
    from storage import Store


class MatchHooks:
    """The do-nothing hooks of a game with no owned cards."""

    async def seat_setup(self, guild_id: int | None, user_id: int,
                         deck: str) -> SeatSetup | None:
        """The setup of a seat bringing ``deck`` of its own, or ``None`` if the game
        knows no such deck (the caller then refuses, naming the decks there are)."""
        return None

    async def deck_names(self, guild_id: int | None, user_id: int) -> list[str]:
        """The decks of their own that ``user_id`` may bring (for autocomplete)."""
        return []

    async def check_open(self, guild_id: int | None, options: Mapping[str, Any], *,
                         vs_bot: bool) -> None:
        """Refuse (raising a :class:`~bot.errors.CroupierError`) options this table
        may not be opened with."""

    async def check_arranged(self, guild_id: int | None,
                             options: Mapping[str, Any]) -> None:
        """Refuse options that matches someone else arranges cannot be played with
        (a tournament's: its seats are dealt, bringing nothing of their own)."""

    async def check_seat(self, match: LiveMatch, setup: SeatSetup,
                         user_id: int | None = None) -> None:
        """Refuse a seat whose setup this table does not allow (for ``user_id``, who
        sits down with it)."""

    async def check_hand_over(self, match: LiveMatch) -> None:
        """Refuse handing a person's seat to the computer player mid-match (``/kick``)
        where the game does not allow it (a stake would be won or lost by the
        computer's play)."""

    async def starting(self, match: LiveMatch, seats: Sequence[SeatRow],
                       state: GameState) -> Ante | None:
        """Check the seats' setups again as the match starts (refusing if one no
        longer holds), and name what is staked, if anything."""
        return None

    async def prizes(self, match: LiveMatch, result: Sequence[SeatResult],
                     rated: bool) -> list[tuple[int, int]]:
        """``(guild, user)`` pairs who get a prize with this result."""
        return []

    async def closing(self, match: LiveMatch) -> Sequence[Event]:
        """What the table tells as ``match`` closes without a result, after who closed
        it (each stake going back to whoever staked it, say)."""
        return ()


HooksFactory = Callable[["Store", "Clock"], MatchHooks]
"""How a game's hooks are made: from the bot's storage and clock."""

NO_HOOKS = MatchHooks()
