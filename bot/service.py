"""The match service: lobbies, submissions, computer players, deadlines, recovery.

Every change follows one path: take the match's lock, validate with the rules
core on a copy of the state, commit the choices to SQLite, swap the copy in,
and only then acknowledge. Showing the result (table edits, DMs) happens after,
in a per-match background task, so a slow Discord edit never delays the
acknowledgement and two edits of one table never race.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.clock import Clock, SystemClock
from bot.errors import (
    AlreadySeated,
    ChannelBusy,
    LobbyFull,
    NoMatchHere,
    NotAllowed,
    NotSeated,
    StaleChoice,
    WrongPhase,
)
from bot.live import LiveMatch, Player, PrivateView
from bot.ratings import RATER, is_rated
from bot.transport import NullTransport, Transport
from rules.core import RESIGN, Decision, Event, GameInfo, GameState, Outcome, get_game, replay
from rules.errors import BadOptions, NotYourTurn
from storage import Store
from storage import errors as storage_errors
from storage.models import ChoiceRow, ChoiceSource, MatchRow, SeatResult, SeatRow

log = logging.getLogger(__name__)

MAX_STRIKES = 3
BOT_NAMES = ("Croupier Bot", "Dealer Bot", "Pit Boss Bot", "Shuffle Bot", "Ace Bot")


GC_THRESHOLDS = (200, 1, 30_000)
"""Young collections small and frequent, each young survivor promoted after one
middle-generation collection, and a full collection only after 30,000 of those.
Measured at 2,750 moves/s over 1,000 matches: pauses of at most about 1 ms
(with (700, 3, 3000): 5–20 ms) and the least collector time of the settings
tried."""
MAX_ROWS = 64
"""Most choices one commit stores when it follows a person's choice with the
forced ones after it (a game's forced steps always end; this bounds a bug's)."""


def tune_gc() -> None:
    """Tune the garbage collector for many live matches. The bot calls this once
    at start-up, after :meth:`MatchService.restore`.

    Every move swaps a new copy of the match's state in, and the copy lives until
    the match's next move, so nearly every young object a collection looks at
    survives it (none were garbage in our measurements). Young collections are
    then pure pause, growing with how many survivors they meet: kept small and
    frequent, each about 1 ms. Under Python's default thresholds a full
    collection also came every second or so under load, walking every object of
    every live match (0.1 s for 1,000 matches, 1 s for 10,000) with the event
    loop stopped; with these it comes every few minutes under that load. Garbage
    is still freed at once by reference counting; only reference cycles that
    reach the oldest generation wait longer.
    """
    gc.collect()
    gc.set_threshold(*GC_THRESHOLDS)


@dataclass(frozen=True)
class Timing:
    """Deadline settings: per-guild overrides fall back to these."""

    turn_seconds: int | None = None
    """Seconds per decision; ``None`` means each game's own default."""
    warn_seconds: int = 60
    """How long before the deadline the player is pinged."""
    restart_grace: int = 60
    """A deadline that passed while the bot was down is moved this far ahead."""


@dataclass(frozen=True)
class Ack:
    """The answer to a submission, given once it is committed."""

    match_id: int
    seat: int
    choice: str
    duplicate: bool = False
    held: bool = False
    """True when the choice is a secret one held until the step resolves."""
    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class Move:
    """One choice to commit."""

    seat: int
    choice: str
    source: ChoiceSource
    interaction_id: str | None = None


class MatchService:
    """Runs every lobby and match of the process."""

    def __init__(self, store: Store, transport: Transport | None = None, *,
                 clock: Clock | None = None, timing: Timing | None = None) -> None:
        self.store = store
        self.transport: Transport = transport or NullTransport()
        self.clock = clock or SystemClock()
        self.timing = timing or Timing()
        self._live: dict[int, LiveMatch] = {}
        self._by_channel: dict[int, int] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._rerun: set[int] = set()
        self.deadlines_changed = asyncio.Event()
        self.next_wake: float | None = None
        """When the deadline task plans to wake (``inf``: not until told);
        ``None`` while it is not waiting."""

    # -- lookups ----------------------------------------------------------
    def match_in(self, channel_id: int) -> LiveMatch:
        """The live match of a channel; :class:`NoMatchHere` if none."""
        match_id = self._by_channel.get(channel_id)
        if match_id is None:
            raise NoMatchHere()
        return self._live[match_id]

    def get(self, match_id: int) -> LiveMatch:
        """A live match by id; :class:`NoMatchHere` if it is over or unknown."""
        try:
            return self._live[match_id]
        except KeyError:
            raise NoMatchHere() from None

    def live_matches(self) -> list[LiveMatch]:
        """Every lobby and match in play."""
        return list(self._live.values())

    def _register(self, match: LiveMatch) -> None:
        self._live[match.id] = match
        self._by_channel[match.row.channel_id] = match.id

    def _forget(self, match: LiveMatch) -> None:
        self._live.pop(match.id, None)
        if self._by_channel.get(match.row.channel_id) == match.id:
            del self._by_channel[match.row.channel_id]

    # -- lobby --------------------------------------------------------------
    async def open_lobby(self, host: Player, *, guild_id: int | None, channel_id: int,
                         game: str, options: Mapping[str, Any] | None = None,
                         seats: int | None = None, vs_bot: bool = False,
                         seed: int | None = None) -> LiveMatch:
        """Open a lobby with the host in seat 0. With ``vs_bot`` the other seats
        go to computer players and the match starts at once."""
        info = get_game(game)
        options = dict(options or {})
        seats = info.default_seats if seats is None else seats
        if not info.min_seats <= seats <= info.max_seats:
            raise BadOptions(f"{info.title} takes {info.min_seats}–{info.max_seats} players, "
                             f"not {seats}")
        seed = random.SystemRandom().randrange(2**62) if seed is None else seed
        info.new(options, seats, seed)  # refuse bad options before anything is stored
        if channel_id in self._by_channel:
            raise ChannelBusy()
        host_seat = SeatRow(seat=0, user_id=host.user_id, name=host.name)
        try:
            match_id = await self.store.matches.create_lobby(
                game=info.name, options=options, seed=seed, guild_id=guild_id,
                channel_id=channel_id, host_id=host.user_id, max_seats=seats, seats=[host_seat],
            )
        except storage_errors.ChannelBusy:
            raise ChannelBusy() from None
        row = MatchRow(id=match_id, game=info.name, options=options, seed=seed,
                       guild_id=guild_id, channel_id=channel_id, host_id=host.user_id,
                       max_seats=seats, status="lobby", seats=[host_seat])
        match = LiveMatch(row=row, info=info)
        self._register(match)
        if vs_bot:
            await self.start(host, channel_id, fill_with_bots=True)
        else:
            self._schedule(match)
        return match

    async def join(self, player: Player, channel_id: int) -> LiveMatch:
        """Take the next free seat of the channel's lobby."""
        match = self.match_in(channel_id)
        async with match.lock:
            self._require_lobby(match)
            if any(s.user_id == player.user_id for s in match.seats):
                raise AlreadySeated()
            if len(match.seats) >= match.row.max_seats:
                raise LobbyFull(f"The table is full ({match.row.max_seats} seats).")
            seats = [*match.seats, SeatRow(seat=len(match.seats), user_id=player.user_id,
                                           name=player.name)]
            await self.store.matches.set_seats(match.id, seats)
            match.row.seats = seats
        self._schedule(match)
        return match

    async def leave(self, player: Player, channel_id: int) -> LiveMatch:
        """Leave a lobby. The host leaving hands the lobby to the next person, or
        closes it if nobody is left."""
        match = self.match_in(channel_id)
        async with match.lock:
            self._require_lobby(match)
            if not any(s.user_id == player.user_id for s in match.seats):
                raise NotSeated()
            remaining = [s for s in match.seats if s.user_id != player.user_id]
            if not remaining:
                await self._close(match, "cancelled", f"{player.name} left; the lobby is closed.")
                return match
            seats = [SeatRow(seat=i, user_id=s.user_id, name=s.name, is_bot=s.is_bot)
                     for i, s in enumerate(remaining)]
            await self.store.matches.set_seats(match.id, seats)
            match.row.seats = seats
            if match.row.host_id == player.user_id:
                match.row.host_id = seats[0].user_id or match.row.host_id
        self._schedule(match)
        return match

    async def start(self, player: Player, channel_id: int, *,
                    fill_with_bots: bool = False) -> LiveMatch:
        """Deal and begin. Empty seats go to computer players if asked."""
        match = self.match_in(channel_id)
        async with match.lock:
            self._require_lobby(match)
            self._require_host(match, player)
            seats = list(match.seats)
            if fill_with_bots:
                while len(seats) < match.row.max_seats:
                    n = len(seats)
                    seats.append(SeatRow(seat=n, user_id=None, is_bot=True,
                                         name=BOT_NAMES[(n - 1) % len(BOT_NAMES)]))
            if len(seats) < match.info.min_seats:
                raise WrongPhase(
                    f"{match.info.title} needs at least {match.info.min_seats} players; "
                    f"{len(seats)} seated. Wait for /join, or /start bots:true to fill "
                    "the empty seats with computer players."
                )
            state = match.info.new(match.row.options, len(seats), match.row.seed)
            await self._load_guild_timing(match)
            deadline = self._deadline(match, self.clock.now())
            await self.store.matches.start(match.id, seats, deadline)
            match.row.seats = seats
            match.row.status = "active"
            match.row.deadline_at = deadline
            match.row.warned = False
            match.state = state
            match.outbox.append(Event("start", f"{match.info.title} begins."))
        self._due_at(self._due(match))
        self._schedule(match)
        return match

    async def cancel(self, player: Player, channel_id: int) -> LiveMatch:
        """Close the channel's lobby or match without a result (host or moderator)."""
        match = self.match_in(channel_id)
        async with match.lock:
            self._require_host(match, player)
            await self._close(match, "cancelled", f"{player.name} cancelled the game.")
        return match

    async def kick(self, player: Player, channel_id: int, target_user_id: int) -> LiveMatch:
        """Remove someone (host or moderator). In a lobby their seat is freed; in
        play the computer player takes their seat over."""
        match = self.match_in(channel_id)
        if match.row.status == "lobby":
            async with match.lock:
                self._require_host(match, player)
                if target_user_id == player.user_id:
                    raise NotAllowed("You cannot kick yourself; use /leave.")
                if not any(s.user_id == target_user_id for s in match.seats):
                    raise NotSeated()
            return await self.leave(Player(target_user_id, "?"), channel_id)
        async with match.lock:
            self._require_host(match, player)
            seat = match.seat_of(target_user_id)
            if seat is None:
                raise NotAllowed("That person has no seat in this match.")
            seats = [SeatRow(**{**vars(s), "state": "kicked"}) if s.seat == seat.seat else s
                     for s in match.seats]
            await self.store.matches.set_seats(match.id, seats)
            match.row.seats = seats
        await self.transport.notify(
            match, f"{seat.name} was removed; the computer player takes their seat.")
        self._schedule(match)
        return match

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

    # -- play ---------------------------------------------------------------
    async def submit(self, user_id: int, match_id: int, choice: str, *,
                     interaction_id: str | None = None, step: int | None = None) -> Ack:
        """A person's choice. Validated, committed, then acknowledged.

        ``step`` is the step a button or menu was made for: an older one is
        stale. A repeated ``interaction_id`` is acknowledged again and changes
        nothing.
        """
        match = self.get(match_id)
        async with match.lock:
            if interaction_id is not None and interaction_id in match.recent_interactions:
                return self._duplicate(match, user_id, choice)
            try:
                seat, canonical = self._check(match, user_id, choice, step)
            except Exception:
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
                                                         interaction_id)], forced=True)
            except storage_errors.DuplicateInteraction:
                return Ack(match.id, seat.seat, canonical, duplicate=True)
            if interaction_id is not None:
                match.recent_interactions.append(interaction_id)
            held = match.state.step == before and not match.finished
        self._schedule(match)
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
                raise NotYourTurn("You have already made your choice for this step; "
                                  "it stays secret until everyone has chosen.")
            raise NotYourTurn("It is not your turn.")
        return seat, match.state.validate(seat.seat, choice)  # canonical form for the log

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
        self._require_playing(match)
        seat = match.seat_of(player.user_id)
        if seat is None:
            raise NotSeated()
        return match.private_view(seat.seat)

    # -- committing ---------------------------------------------------------
    async def _commit(self, match: LiveMatch, moves: Sequence[Move], *,
                      seats: list[SeatRow] | None = None, forced: bool = False) -> list[Event]:
        """Apply ``moves`` to a copy, store them in one transaction, then swap the
        copy in. Raises (changing nothing) if the rules refuse any move.

        With ``forced``, the forced choices that follow (single options the
        platform may make) are applied and stored with them: one commit, not
        one per step."""
        assert match.state is not None
        state = match.state.copy()
        before = state.step
        events: list[Event] = []
        rows: list[ChoiceRow] = []
        queue = list(moves)
        while queue:
            move = queue.pop(0)
            step = state.step
            events += state.apply(move.seat, move.choice)
            rows.append(ChoiceRow(seq=match.next_seq + len(rows), seat=move.seat,
                                  choice=move.choice, source=move.source, step=step,
                                  interaction_id=move.interaction_id))
            if forced and not queue and len(rows) < MAX_ROWS:
                queue = self._forced_moves(state)
        outcome = state.outcome()
        now = self.clock.now()
        deadline = None if outcome else (
            match.row.deadline_at if state.step == before else self._deadline(match, now))
        result = None if outcome is None else (outcome.reason, self._seat_results(
            seats or match.seats, outcome))
        warned = match.row.warned and state.step == before
        rater = RATER if result is not None and is_rated(match.row.guild_id, result[1]) else None
        await self.store.matches.record(match.id, rows, deadline_at=deadline, warned=warned,
                                        seats=seats, result=result, rater=rater)
        match.state = state
        match.next_seq += len(rows)
        if seats is not None:
            match.row.seats = seats
        match.row.deadline_at = deadline
        match.row.warned = warned
        if outcome is not None:
            match.row.status = "finished"
            match.finished = True
        for event in events:
            (match.outbox if event.seats is None else match.private_outbox).append(event)
        self._due_at(self._due(match))
        return events

    @staticmethod
    def _seat_results(seats: Sequence[SeatRow], outcome: Outcome) -> list[SeatResult]:
        return [
            SeatResult(seat=s.seat, user_id=s.user_id, is_bot=s.is_bot,
                       place=outcome.places[s.seat],
                       score=None if outcome.scores is None else outcome.scores[s.seat])
            for s in seats
        ]

    @staticmethod
    def _computer_turn(match: LiveMatch) -> bool:
        """Whether the current step has a forced choice or a computer seat to move."""
        if not match.playing:
            return False
        assert match.state is not None
        seats = match.seats
        return any((len(d.options) == 1 and d.automatic) or seats[d.seat].computer_plays
                   for d in match.state.pending())

    async def _computer_moves(self, match: LiveMatch) -> bool:
        """Commit the computer's choices and forced choices of the current step.
        Returns ``True`` if anything was committed."""
        if not match.playing:
            return False
        assert match.state is not None
        seats = {s.seat: s for s in match.seats}
        moves = self._forced_moves(match.state)
        forced = {move.seat for move in moves}
        for decision in match.state.pending():
            if decision.seat not in forced and seats[decision.seat].computer_plays:
                choice = await self._think(match, decision.seat)
                moves.append(Move(decision.seat, choice, "bot"))
        if not moves:
            return False
        await self._commit(match, moves)
        return True

    @staticmethod
    def _forced_moves(state: GameState) -> list[Move]:
        """The choices of the current step the platform makes itself: decisions
        with a single option that the game lets be made at once."""
        if state.over:
            return []
        return [Move(d.seat, d.options[0], "forced") for d in state.pending()
                if len(d.options) == 1 and d.automatic]

    async def _think(self, match: LiveMatch, seat: int) -> str:
        """The computer player's choice for ``seat``, on a copy, off the event loop."""
        assert match.state is not None
        rng = random.Random(f"{match.row.seed}:{match.state.step}:{seat}")
        return await asyncio.to_thread(match.info.bot, match.state.copy(), seat, rng)

    # -- showing ------------------------------------------------------------
    def _schedule(self, match: LiveMatch) -> None:
        """Make sure the match's driver runs: computer moves, then the table and DMs."""
        task = self._tasks.get(match.id)
        if task is not None and not task.done():
            self._rerun.add(match.id)
            return
        self._tasks[match.id] = asyncio.get_running_loop().create_task(
            self._drive(match), name=f"croupier-match-{match.id}")

    async def _drive(self, match: LiveMatch) -> None:
        while True:
            self._rerun.discard(match.id)
            try:
                # All computer moves first, then one table edit: Discord rate-limits
                # edits per channel, and the narration lists every move anyway.
                # A look first, without the lock: most steps wait for people. A
                # change being committed meanwhile schedules this driver again.
                while match.lock.locked() or self._computer_turn(match):
                    async with match.lock:
                        if not await self._computer_moves(match):
                            break
                await self._show(match)
            except Exception:
                log.exception("match %s: driving failed", match.id)
            if match.id not in self._rerun:
                break
        if self._tasks.get(match.id) is asyncio.current_task():
            del self._tasks[match.id]  # idle: the next change starts a new driver
        if match.finished or match.row.status in ("cancelled", "abandoned"):
            self._forget(match)

    async def _show(self, match: LiveMatch) -> None:
        events, match.outbox = match.outbox, []
        message_id = await self.transport.publish(match, events)
        if message_id is not None and message_id != match.row.table_message_id:
            match.row.table_message_id = message_id
            await self.store.matches.set_table_message(match.id, message_id)
        if match.state is not None and match.info.has_secrets:
            await self._deliver_private(match)

    async def _deliver_private(self, match: LiveMatch) -> None:
        private, match.private_outbox = match.private_outbox, []
        decided: GameState | None = None
        decisions: dict[int, Decision] = {}
        for seat in match.seats:
            if seat.computer_plays or seat.user_id is None or seat.user_id in match.dm_failed:
                continue
            state = match.state
            assert state is not None
            if state is not decided:  # what LiveMatch.private_view gives, pending read once
                decided, decisions = state, {}
                for pending in state.pending():
                    decisions.setdefault(pending.seat, pending)
            decision = decisions.get(seat.seat)
            # A DM follows what is private: the hand, the seat's own decision and
            # whether it has chosen. Public changes are the table's business.
            key = (state.step if decision else None, state.has_chosen(seat.seat),
                   match.finished, state.private_part(seat.seat))
            if match.delivered.get(seat.seat) == key:
                continue
            observation = state.observe(seat.seat)
            view = PrivateView(
                match_id=match.id, game=match.info.name, seat=seat.seat, step=state.step,
                observation=observation, decision=decision, names=match.names,
                events=tuple(e for e in private if e.visible_to(seat.seat)))
            if await self.transport.deliver_private(match, seat, view):
                match.delivered[seat.seat] = key
                continue
            match.dm_failed.add(seat.user_id)
            await self.store.closed_dms.mark_closed(seat.user_id, self.clock.now())
            await self.transport.notify(
                match,
                f"I can't send {seat.name} a direct message (their DMs are closed). "
                f"{seat.name}: use the **My hand** button on the table, or /hand.",
                mentions=[seat.user_id],
            )

    async def settle(self) -> None:
        """Wait until every match's driver is idle (tests, the local table)."""
        while True:
            running = [t for t in self._tasks.values() if not t.done()]
            if not running:
                return
            await asyncio.gather(*running, return_exceptions=True)

    async def repost(self, channel_id: int) -> LiveMatch:
        """Post the table again as a new message (``/table``)."""
        match = self.match_in(channel_id)
        async with match.lock:
            match.row.table_message_id = None
        self._schedule(match)
        return match

    # -- deadlines ----------------------------------------------------------
    async def _load_guild_timing(self, match: LiveMatch) -> None:
        if match.row.guild_id is None:
            return
        settings = await self.store.settings.get(match.row.guild_id)
        match.turn_seconds = settings.turn_seconds
        match.warn_seconds = settings.warn_seconds

    def _turn_seconds(self, match: LiveMatch) -> int:
        """The server's setting, else the process-wide one, else the game's default."""
        return (match.turn_seconds or self.timing.turn_seconds
                or match.info.default_turn_seconds)

    def _warn_lead(self, match: LiveMatch) -> float:
        warn = self.timing.warn_seconds if match.warn_seconds is None else match.warn_seconds
        return min(warn, self._turn_seconds(match) / 2)

    def _deadline(self, match: LiveMatch, now: float) -> float:
        return now + self._turn_seconds(match)

    def _due(self, match: LiveMatch) -> float | None:
        """When :meth:`tick` next has something to do for ``match``."""
        if not match.playing or match.row.deadline_at is None:
            return None
        return match.row.deadline_at - (0 if match.row.warned else self._warn_lead(match))

    def _due_at(self, due: float | None) -> None:
        """Wake the deadline task if ``due`` comes before it planned to wake.
        Otherwise it wakes when it planned to and looks again: waking it on every
        move would cost a pass over every live match per move."""
        if due is not None and (self.next_wake is None or due < self.next_wake):
            self.deadlines_changed.set()

    def next_due(self) -> float | None:
        """When :meth:`tick` next has something to do (a warning or a deadline)."""
        return min((due for m in self._live.values() if (due := self._due(m)) is not None),
                   default=None)

    async def tick(self) -> None:
        """Warn and expire whatever is due at the clock's current time."""
        now = self.clock.now()
        for match in list(self._live.values()):
            deadline = match.row.deadline_at
            if not match.playing or deadline is None:
                continue
            if now >= deadline:
                await self._expire(match)
            elif not match.row.warned and now >= deadline - self._warn_lead(match):
                await self._warn(match)

    async def _warn(self, match: LiveMatch) -> None:
        async with match.lock:
            if match.row.warned or not match.playing:
                return
            match.row.warned = True
            await self.store.matches.set_deadline(match.id, match.row.deadline_at, True)
            late = match.humans_pending()
        if late:
            left = max(0, round((match.row.deadline_at or 0) - self.clock.now()))
            await self.transport.notify(
                match, f"⏳ {', '.join(s.name for s in late)}: {left} seconds left to choose, "
                "then the computer chooses for you and you get a strike.",
                mentions=[s.user_id for s in late if s.user_id is not None],
            )

    async def _expire(self, match: LiveMatch) -> None:
        """The deadline passed: the computer chooses for each late seat, with a
        strike; the third strike forfeits the seat."""
        notes = []
        async with match.lock:
            deadline = match.row.deadline_at
            if not match.playing or deadline is None or self.clock.now() < deadline:
                return
            late = match.humans_pending()
            if not late:
                # Only computer seats are pending: their driver is on it. Push the
                # deadline on so the deadline task does not wake for it again.
                match.row.deadline_at = self._deadline(match, self.clock.now())
                await self.store.matches.set_deadline(match.id, match.row.deadline_at, False)
                self._schedule(match)
                return
            seats = [SeatRow(**vars(s)) for s in match.seats]
            moves = []
            for seat in late:
                struck = seats[seat.seat]
                struck.strikes += 1
                if struck.strikes >= MAX_STRIKES:
                    struck.state = "forfeited"
                    moves.append(Move(seat.seat, RESIGN, "resign"))
                    notes.append(f"{seat.name} ran out of time a third time and forfeits.")
                else:
                    choice = await self._think(match, seat.seat)
                    moves.append(Move(seat.seat, choice, "auto"))
                    notes.append(f"⏰ {seat.name} ran out of time; the computer chose for them "
                                 f"(strike {struck.strikes} of {MAX_STRIKES}).")
            await self._commit_each(match, moves, seats)
        for note in notes:
            await self.transport.notify(match, note)
        self._schedule(match)

    async def _commit_each(self, match: LiveMatch, moves: list[Move],
                           seats: list[SeatRow]) -> None:
        """Commit moves one by one: a forfeit can end the game before the next."""
        for i, move in enumerate(moves):
            if match.finished:
                break
            await self._commit(match, [move], seats=seats if i == 0 else None)
        if not moves:
            await self.store.matches.set_seats(match.id, seats)
            match.row.seats = seats

    # -- recovery -----------------------------------------------------------
    async def restore(self) -> list[LiveMatch]:
        """Rebuild every unfinished match from its log and re-arm its deadline."""
        restored = []
        now = self.clock.now()
        for row in await self.store.matches.unfinished():
            try:
                info = get_game(row.game)
                match = LiveMatch(row=row, info=info)
                await self._load_guild_timing(match)
                if row.status == "active":
                    log_rows = await self.store.matches.choices(row.id)
                    match.state = replay(info, row.options, len(row.seats), row.seed,
                                         [(c.seat, c.choice) for c in log_rows])
                    match.next_seq = len(log_rows)
                    match.recent_interactions.extend(
                        c.interaction_id for c in log_rows[-64:] if c.interaction_id)
                    if match.state.over:
                        raise RuntimeError("log ends in a finished game without a result")
                    grace = now + self.timing.restart_grace
                    if row.deadline_at is not None and row.deadline_at < grace:
                        row.deadline_at = grace
                        row.warned = False
                        await self.store.matches.set_deadline(row.id, row.deadline_at, False)
            except Exception:
                log.exception("match %s could not be restored; marking it abandoned", row.id)
                await self.store.matches.set_status(row.id, "abandoned")
                continue
            self._register(match)
            restored.append(match)
        self.deadlines_changed.set()
        for match in restored:
            if match.playing:
                self._schedule(match)
        return restored

    # -- guards and closing -------------------------------------------------
    @staticmethod
    def _require_lobby(match: LiveMatch) -> None:
        if match.row.status != "lobby":
            raise WrongPhase("The game has already started.")

    @staticmethod
    def _require_playing(match: LiveMatch) -> None:
        if match.row.status == "lobby":
            raise WrongPhase("The game has not started yet; the host uses /start.")
        if not match.playing:
            raise NoMatchHere()

    @staticmethod
    def _require_host(match: LiveMatch, player: Player) -> None:
        if player.user_id != match.row.host_id and not player.is_moderator:
            raise NotAllowed("Only the host or a moderator can do that.")

    async def _close(self, match: LiveMatch, status: str, note: str) -> None:
        await self.store.matches.set_status(match.id, status)  # type: ignore[arg-type]
        match.row.status = status  # type: ignore[assignment]
        match.row.deadline_at = None
        match.outbox.append(Event("closed", note))
        self.deadlines_changed.set()
        self._schedule(match)

    def game(self, name: str) -> GameInfo:
        """A game by name (for commands that show rules)."""
        return get_game(name)
