"""Keeping each tournament's message true to its tournament without ever holding up an
answer.

Discord gives an interaction 3 s to be acknowledged, a request to Discord takes a
quarter of a second or so, and the edits of one channel's messages share a bucket
(5 per 5 s): a command that edited the tournament message before answering was late
as soon as a few people joined at once. So:

* a command answers first and asks for the message to be edited *soon*
  (:meth:`TournamentMessages.refresh`): one edit runs at a time for a tournament, and
  every change asked for meanwhile is shown by one more edit, of the state as it is
  then (twelve joins: two or three edits, not twelve);
* a click on the message's own buttons answers by updating the clicked message with the
  interaction's response, which is not a channel edit at all; inside
  :meth:`TournamentMessages.editing`, so that when two updates cross (each read the
  tournament before the other's change, and either may land last) one more edit
  follows with the state as it is once they are all done (an edit asked for while
  one is under way waits for that one, for the same reason).

The edits run as the tournament service's own background steps
(:meth:`~bot.tournaments.rounds.TournamentRounds.in_background`): its ``settle`` waits
for them, and a closing bot ends them before it lets Discord go.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from bot.discord_side.tournament_views import refresh_message

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot


class TournamentMessages:
    """The tournament messages of one bot (see the module)."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot
        self._editing: dict[int, int] = {}
        """Per tournament: edits of its message under way."""
        self._crossed: set[int] = set()
        """Tournaments whose edits under way overlapped: any of them may land last."""
        self._wanted: set[int] = set()
        """Tournaments whose message must be edited (again) once the edit running ends."""
        self._running: set[int] = set()
        """Tournaments with a refresh running."""

    def refresh(self, tournament_id: int) -> None:
        """Have the message show the tournament as it is, soon: at once if no refresh of
        it runs, else once more after the one running (however often asked)."""
        self._wanted.add(tournament_id)
        if tournament_id in self._running:
            return
        self._running.add(tournament_id)
        self.bot.tournaments.in_background(self._refreshing(tournament_id),
                                           f"croupier-tournament-message-{tournament_id}")

    async def _refreshing(self, tournament_id: int) -> None:
        try:
            while tournament_id in self._wanted and not self.bot.tournaments.closing:
                self._wanted.discard(tournament_id)
                if self._editing.get(tournament_id):
                    # An update is under way: once it is done, one more edit follows.
                    self._crossed.add(tournament_id)
                    return
                async with self.editing(tournament_id):
                    await refresh_message(self.bot, tournament_id)
        finally:
            self._running.discard(tournament_id)
            self._wanted.discard(tournament_id)

    @contextlib.asynccontextmanager
    async def editing(self, tournament_id: int) -> AsyncIterator[None]:
        """Around one edit of the message that reads the tournament inside it: if another
        edit overlaps it, one more edit follows once they are all done."""
        under_way = self._editing.get(tournament_id, 0) + 1
        self._editing[tournament_id] = under_way
        if under_way > 1:
            self._crossed.add(tournament_id)
        try:
            yield
        finally:
            left = self._editing[tournament_id] - 1
            self._editing[tournament_id] = left
            crossed = tournament_id in self._crossed
            if not left:
                del self._editing[tournament_id]
                self._crossed.discard(tournament_id)
            if crossed:
                self.refresh(tournament_id)
