"""Submissions: a person's choice, checked, committed, then acknowledged; and
conceding."""

from __future__ import annotations

from bot.errors import MovedOn, NotSeated, StaleChoice, keyed
from bot.i18n import Text
from bot.matches.commit import Ack, MatchCore, Move
from bot.matches.live import LiveMatch, Player, PrivateView
from rules.core import RESIGN
from rules.errors import NotYourTurn
from storage import errors as storage_errors
from storage.models import SeatRow


class Submissions(MatchCore):
    """Choices people make, and forfeits."""

    async def submit(self, user_id: int, match_id: int, choice: str, *,
                     interaction_id: str | None = None, step: int | None = None) -> Ack:
        """A person's choice. Validated, committed, then acknowledged.

        ``step`` is the step a button or menu was made for: an older one is
        stale. A repeated ``interaction_id`` is acknowledged again and changes
        nothing.
        """
        match = self._live.get(match_id)  # one process: its copy is the store's
        if match is None or self.shared:
            match = await self.current(match_id, step=step)
        async with match.lock:
            if interaction_id is not None and interaction_id in match.recent_interactions:
                return self._duplicate(match, user_id, choice)
            # Where processes share the store, a cached match may be behind: a
            # refusal, or a commit that finds the match moved, is tried once more
            # on the match caught up (:meth:`moving`). One process: tried once.
            tries = 2 if self.shared else 1
            for tried in range(1, tries + 1):
                try:
                    ack = await self._submit(match, user_id, choice, interaction_id, step,
                                             last=tried == tries)
                except MovedOn:
                    if tried == tries:
                        raise
                    continue
                if ack is not None:
                    break
                await self._catch_up(match)
        self._schedule(match)
        return ack

    async def _submit(self, match: LiveMatch, user_id: int, choice: str,
                      interaction_id: str | None, step: int | None, *,
                      last: bool) -> Ack | None:
        """One try of :meth:`submit`, the match's lock held; ``None``: refused on a
        cached match that may be behind (not ``last``), to be tried again."""
        try:
            seat, canonical = self._check(match, user_id, choice, step)
        except Exception:
            if not last:
                # Tried again once caught up, which also learns the interactions
                # logged since: the log need not be asked about this one now.
                return None
            # Asked again after the choice was logged (before a restart, or too
            # long ago to be among the recent ones): acknowledged, not refused.
            if interaction_id is not None and await self._seen(match, interaction_id):
                return self._duplicate(match, user_id, choice)
            raise
        assert match.state is not None
        before = match.state.step
        try:
            # A repeat that passes the checks is caught by the log's unique
            # interaction index: nothing is written and it is acknowledged again.
            events = await self._commit(match, [Move(seat.seat, canonical, "player",
                                                     interaction_id, True)], forced=True)
        except storage_errors.DuplicateInteraction:
            return Ack(match.id, seat.seat, canonical, duplicate=True)
        if interaction_id is not None:
            match.recent_interactions.add(interaction_id)
        held = match.state.step == before and not match.finished
        return Ack(match.id, seat.seat, canonical, held=held, events=tuple(events))

    def _check(self, match: LiveMatch, user_id: int, choice: str,
               step: int | None) -> tuple[SeatRow, str]:
        """The submitter's seat and the choice in canonical form, or the refusal."""
        self._require_playing(match)
        seat = match.seat_of(user_id)
        if seat is None:
            raise NotSeated()
        assert match.state is not None
        if step is not None and step != match.state.step:
            raise StaleChoice()
        decision = match.state.decision_for(seat.seat)
        if decision is None:
            if match.state.has_chosen(seat.seat):
                raise keyed(NotYourTurn, Text("error.already_chosen"))
            raise keyed(NotYourTurn, Text("error.not_your_turn"))
        return seat, match.state.canonical(seat.seat, choice)  # what the log keeps

    @staticmethod
    def _duplicate(match: LiveMatch, user_id: int, choice: str) -> Ack:
        seat = match.seat_of(user_id)
        return Ack(match.id, seat.seat if seat else -1, choice, duplicate=True)

    async def _seen(self, match: LiveMatch, interaction_id: str) -> bool:
        if interaction_id in match.recent_interactions:
            return True
        return await self.store.matches.interaction_logged(interaction_id)

    def private_view(self, player: Player, channel_id: int) -> PrivateView:
        """The caller's hand and pending decision (the ``/hand`` fallback)."""
        match = self.match_in(channel_id)
        return self.private_view_of(player, match)

    def private_view_of(self, player: Player, match: LiveMatch) -> PrivateView:
        """The caller's hand and pending decision in ``match``."""
        self._require_playing(match)
        seat = match.seat_of(player.user_id)
        if seat is None:
            raise NotSeated()
        return match.private_view(seat.seat)

    async def forfeit(self, player: Player, channel_id: int) -> LiveMatch:
        """Concede: the rules decide what a resignation means in this game."""
        match = self.match_in(channel_id)
        async with match.lock:
            self._require_playing(match)
            seat = match.seat_of(player.user_id)
            if seat is None:
                raise NotSeated()
            seats = [SeatRow(**{**vars(s), "state": "forfeited"}) if s.seat == seat.seat else s
                     for s in match.seats]
            await self._commit(match, [Move(seat.seat, RESIGN, "resign")], seats=seats)
        self._schedule(match)
        return match
