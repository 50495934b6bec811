"""The path every change of a match takes, shared by lobbies, submissions and
deadlines: find the match, check the rules on a copy of its state, commit to
SQLite, swap the copy in. Nothing here talks to Discord.
"""

from __future__ import annotations

import asyncio
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from bot.clock import Clock, SystemClock
from bot.errors import MovedOn, NoMatchHere, NotAllowed, NotRecorded, WrongPhase
from bot.i18n import Text
from bot.matches.hooks import NO_HOOKS, MatchHooks
from bot.matches.live import LiveMatch, Player, opening
from bot.matches.ratings import RATER, is_rated
from bot.matches.results import stored_reason
from bot.matches.thinker import Thinker
from bot.matches.transport import NullTransport, Transport
from rules.core import DEFAULT_LEVEL, Event, GameState, Outcome, thinking_rng
from rules.registry import get_game
from storage import Store
from storage import errors as storage_errors
from storage.models import ChoiceRow, ChoiceSource, MatchRow, SeatResult, SeatRow

log = logging.getLogger(__name__)

T = TypeVar("T")

MAX_ROWS = 64
"""Most choices one commit stores when it follows a person's choice with the
forced ones after it (a game's forced steps always end; this bounds a bug's)."""


@dataclass(frozen=True)
class Timing:
    """Deadline settings: per-server settings (``/config``) fall back to these."""

    turn_seconds: int | None = None
    """Seconds per decision; ``None`` means each game's own default."""
    warn_seconds: int = 60
    """How long before the deadline the player is pinged."""
    restart_grace: int = 60
    """A deadline that passed while the bot was down is moved this far ahead."""


class Ack(NamedTuple):
    """The answer to a submission, given once it is committed (a named tuple,
    like :class:`Move`: one is made for every choice)."""

    match_id: int
    seat: int
    choice: str
    duplicate: bool = False
    held: bool = False
    """True when the choice is a secret one held until the step resolves."""
    events: tuple[Event, ...] = ()


class Move(NamedTuple):
    """One choice to commit (a named tuple: one is made for every choice, and a
    frozen dataclass costs four times as much to make)."""

    seat: int
    choice: str
    source: ChoiceSource
    interaction_id: str | None = None
    checked: bool = False
    """Already in canonical form and checked against the state it is applied
    to (see :meth:`GameState.apply`)."""


ResultListener = Callable[[LiveMatch], object]
"""Told of a match whose result was just committed (it must not wait: it is called
while the match's lock is held; start a task for anything slow)."""
CloseListener = Callable[[LiveMatch], object]
"""Told of a lobby or match just closed without a result (cancelled or abandoned;
called like a :data:`ResultListener`, with the match's lock held)."""
DoneListener = Callable[[LiveMatch], object]
"""Told of a match that is over (a result, or closed without one) once it is done
with: its last table shown, or given up, and the match forgotten (it must not wait;
start a task for anything slow)."""
TimingSource = Callable[[LiveMatch], Awaitable[int | None]]
"""Asked, as a match starts or is restored, for seconds per decision that override
the server's (a tournament's own deadline, say); ``None``: no say."""
RatingCheck = Callable[[LiveMatch], Awaitable[bool]]
"""Asked, as a match's result is about to be committed, whether ratings may move
(``False`` keeps them still, e.g. the games of an unrated tournament)."""


def _setups(row: MatchRow) -> list[object]:
    return [seat.setup for seat in row.seats]


class MatchCore(ABC):
    """Live matches, their lookups and guards, and the one way to change one
    (:meth:`_commit`). The service's parts (lobby, submissions, deadlines,
    delivery) build on it."""

    def __init__(self, store: Store, transport: Transport | None = None, *,
                 clock: Clock | None = None, timing: Timing | None = None,
                 hooks: Mapping[str, MatchHooks] | None = None,
                 thinker: Thinker | None = None) -> None:
        self.store = store
        self.thinker = thinker or Thinker()
        """Where every computer decision of this service is worked out (closed by
        :meth:`~bot.matches.delivery.Delivery.wind_down`)."""
        self.transport: Transport = transport or NullTransport()
        self.clock = clock or SystemClock()
        self.timing = timing or Timing()
        self.hooks = dict(hooks or {})
        """Each game's :class:`~bot.matches.hooks.MatchHooks` (owned decks, stakes, prizes)."""
        self.result_listeners: list[ResultListener] = []
        """Told of each result once committed (tournaments, say)."""
        self.rating_checks: list[RatingCheck] = []
        """Each may keep a match's result from moving ratings."""
        self.close_listeners: list[CloseListener] = []
        """Told of each match closed without a result."""
        self.done_listeners: list[DoneListener] = []
        """Told of each match that is over once it is shown whole and forgotten (its
        place may then be given back: a tournament's thread archived, say)."""
        self.timing_sources: list[TimingSource] = []
        """Each may set a match's seconds per decision over the server's."""
        self._live: dict[int, LiveMatch] = {}
        self._by_channel: dict[int, int] = {}
        self.shared: bool = getattr(store, "shared", False)
        """Other processes serve matches from the same database: a match cached here
        may be behind, and one never seen here may be asked for (docs/clusters.md)."""
        self.deadlines_changed = asyncio.Event()
        self.next_wake: float | None = None
        """When the deadline task plans to wake (``inf``: not until told);
        ``None`` while it is not waiting."""

    def hooks_for(self, game: str) -> MatchHooks:
        """The game's hooks, or the do-nothing ones."""
        return self.hooks.get(game, NO_HOOKS)

    # -- what the other parts provide ----------------------------------------
    @abstractmethod
    def _schedule(self, match: LiveMatch) -> None:
        """Make sure the match's driver runs (computer moves, then showing)."""

    @abstractmethod
    async def _load_guild_timing(self, match: LiveMatch) -> None:
        """Read the server's (or a tournament's) deadline settings into ``match``."""

    @abstractmethod
    async def _show(self, match: LiveMatch) -> bool:
        """Show what changed: the public table, then private views; ``False`` when
        it must be shown again later."""

    # -- lookups ----------------------------------------------------------
    def match_in(self, channel_id: int | None) -> LiveMatch:
        """The live match of a channel; :class:`NoMatchHere` if none (or no channel:
        never the local table's channel 0)."""
        match_id = None if channel_id is None else self._by_channel.get(channel_id)
        if match_id is None:
            raise NoMatchHere()
        return self._live[match_id]

    def get(self, match_id: int) -> LiveMatch:
        """A live match by id; :class:`NoMatchHere` if it is over or unknown."""
        try:
            return self._live[match_id]
        except KeyError:
            raise NoMatchHere() from None

    async def current(self, match_id: int, *, step: int | None = None) -> LiveMatch:
        """A live match by id as the store has it now. In one process this is
        :meth:`get`. Where processes share the store, a match never seen here is
        read from it, and a cached one is brought up to date when another process
        may have moved it: always when ``step`` is not given (what is shown must be
        current), else only when the cache is behind ``step`` (a click is checked
        optimistically: :meth:`moving` catches up if the match moved)."""
        match = self._live.get(match_id)
        if not self.shared:
            if match is None:
                raise NoMatchHere()
            return match
        if match is None:
            return await self._load(match_id)
        if step is None or match.state is None or match.state.step < step:
            async with match.lock:
                await self._catch_up(match)
            if match.id not in self._live:
                raise NoMatchHere()
        return match

    async def _load(self, match_id: int) -> LiveMatch:
        """A lobby or match in play that another process made, read from the store."""
        row = await self.store.matches.get(match_id)
        if row is None or row.status not in ("lobby", "active"):
            raise NoMatchHere()
        known = self._live.get(match_id)
        if known is not None:  # loaded meanwhile, while this read waited
            return known
        match = LiveMatch(row=row, info=get_game(row.game))
        await self._load_guild_timing(match)
        if row.status == "active":
            await self._replay_log(match)
        if match_id in self._live:
            return self._live[match_id]
        self._register(match)
        self._due_at(self._due(match))
        return match

    async def _catch_up(self, match: LiveMatch) -> None:
        """Bring a cached match to what the store holds, another process having moved
        it: the choices logged since this process's last are applied (nothing is
        replayed in the usual case), and its row (seats, deadline, version) read
        again. A match that ended elsewhere is shown there, and forgotten here.
        Called with the match's lock held."""
        read = await self.store.matches.caught_up(match.id, since=match.next_seq)
        if read is None:
            return
        row, log_rows = read
        match.known_at = time.monotonic()
        if row.version == match.row.version:
            return
        if row.status == "active":
            if match.state is None or _setups(row) != _setups(match.row):
                # Started elsewhere, or a seat's setup changed (a game's setting of
                # the seat's own): the state is dealt from the setups, so again.
                match.row = row
                await self._replay_log(match)
            else:
                state = match.state.copy()
                narration = match.narration
                for choice in log_rows:
                    if choice.interaction_id is not None:
                        match.recent_interactions.add(choice.interaction_id)
                    narration.extend(e for e in state.apply(choice.seat, choice.choice)
                                     if e.public)
                match.state = state
                match.next_seq += len(log_rows)
        match.row = row
        if row.status not in ("lobby", "active"):
            # Ended in the process that ended it, which shows it: nothing to show here.
            match.finished = match.result_shown = match.last_shown = True
            match.elsewhere = True
            self._live.pop(match.id, None)
            self._free_channel(match)
            return
        self._due_at(self._due(match))

    async def moving(self, match: LiveMatch, write: Callable[..., Awaitable[T]]) -> T:
        """Run ``write`` (given ``version=``, the match's version as this process last saw it),
        a write that moves the match. The version moves with it. If another process
        moved the match first, nothing is stored: this process catches up and
        :class:`MovedOn` is raised."""
        try:
            done = await write(version=match.row.version)
        except storage_errors.MatchMoved:
            await self._catch_up(match)
            raise MovedOn() from None
        match.row.version += 1
        match.known_at = time.monotonic()
        return done

    def live_matches(self) -> list[LiveMatch]:
        """Every lobby and match in play."""
        return list(self._live.values())

    def _register(self, match: LiveMatch, *, holds_channel: bool = True) -> None:
        """Keep ``match`` live; a finished one waiting to be shown holds no channel."""
        self._live[match.id] = match
        if holds_channel:
            self._by_channel[match.row.channel_id] = match.id

    def _free_channel(self, match: LiveMatch) -> None:
        """The match no longer holds its channel (it ended): a new one may open
        there at once, while this one's last table edit and DMs still go out."""
        if self._by_channel.get(match.row.channel_id) == match.id:
            del self._by_channel[match.row.channel_id]

    def _forget(self, match: LiveMatch) -> None:
        """A match that is over is done with (its last table shown, or given up)."""
        self._live.pop(match.id, None)
        self._free_channel(match)
        if not match.elsewhere:  # the process that ended it tells its listeners
            self._tell(self.done_listeners, match)

    # -- guards -------------------------------------------------------------
    @staticmethod
    def _require_lobby(match: LiveMatch) -> None:
        if match.row.status != "lobby":
            raise WrongPhase(Text("error.game_started"))

    @staticmethod
    def _require_playing(match: LiveMatch) -> None:
        if match.row.status == "lobby":
            raise WrongPhase(Text("error.not_started"))
        if not match.playing:
            raise NoMatchHere()

    @staticmethod
    def _require_host(match: LiveMatch, player: Player) -> None:
        if player.user_id != match.row.host_id and not player.is_moderator:
            raise NotAllowed(Text("error.host_only"))

    # -- deadlines as numbers -------------------------------------------------
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
        """When the deadline task next has something to do for ``match``."""
        if not match.playing or match.row.deadline_at is None:
            return None
        return match.row.deadline_at - (0 if match.row.warned else self._warn_lead(match))

    def _due_at(self, due: float | None) -> None:
        """Wake the deadline task if ``due`` comes before it planned to wake.
        Otherwise it wakes when it planned to and looks again: waking it on every
        move would cost a pass over every live match per move."""
        if due is not None and (self.next_wake is None or due < self.next_wake):
            self.deadlines_changed.set()

    # -- committing ---------------------------------------------------------
    async def _commit(self, match: LiveMatch, moves: Sequence[Move], *,
                      seats: list[SeatRow] | None = None, forced: bool = False) -> list[Event]:
        """Apply ``moves`` to a copy, store them in one transaction, then swap the
        copy in. Raises (changing nothing) if the rules refuse any move.

        With ``forced``, the forced choices that follow (single options the
        platform may make) are applied and stored with them: one commit, not
        one per step.

        If storing fails, the match is read back from the store before the
        error is raised (:class:`NotRecorded`), so it never goes on from a
        state or a log position that the store does not have.
        """
        assert match.state is not None
        state = match.state.copy()
        before = state.step
        events: list[Event] = []
        rows: list[ChoiceRow] = []
        seq = match.next_seq
        batch: Sequence[Move] = moves
        while batch:
            for seat, choice, source, interaction_id, checked in batch:
                step = state.step
                events += state.apply(seat, choice, checked=checked)
                rows.append(ChoiceRow(seq + len(rows), seat, choice, source, step,
                                      interaction_id))
            batch = self._forced_moves(state) if forced and len(rows) < MAX_ROWS else ()
        outcome = state.outcome()
        moved = state.step != before
        result = rater = None
        prizes: list[tuple[int, int]] = []
        if outcome is not None:
            deadline = None
            result = (stored_reason(outcome.reason),
                      self._seat_results(seats or match.seats, outcome))
            rated = (is_rated(match.row.guild_id, result[1])
                     and await self._ratings_may_move(match))
            rater = RATER if rated else None
            try:
                prizes = await self.hooks_for(match.info.name).prizes(match, result[1], rated)
            except Exception:  # a prize never holds up a result
                log.exception("match %s: could not work out its prizes", match.id)
        elif moved:
            deadline = self._deadline(match, self.clock.now())
        else:
            deadline = match.row.deadline_at
        warned = match.row.warned and not moved
        try:
            await self.moving(match, lambda version: self.store.matches.record(
                match.id, rows, deadline_at=deadline, warned=warned, seats=seats,
                result=result, rater=rater, prizes=prizes, version=version))
        except (storage_errors.DuplicateInteraction, MovedOn):
            raise
        except Exception as exc:
            log.exception("match %s: storing a move failed (%d rows)", match.id, len(rows))
            await self._reload(match)
            raise NotRecorded() from exc
        match.state = state
        match.next_seq += len(rows)
        if seats is not None:
            match.row.seats = seats
        match.row.deadline_at = deadline
        match.row.warned = warned
        if outcome is not None:
            match.row.status = "finished"
            match.finished = True
            self._free_channel(match)
        match.tell(events)
        if moved:  # otherwise the deadline task already knows when this match is due
            self._due_at(self._due(match))
        if outcome is not None:
            self._tell_result(match)
        return events

    async def _ratings_may_move(self, match: LiveMatch) -> bool:
        """Whether every rating check lets this match's result move ratings (a check
        that fails lets them move: the result is stored whatever)."""
        for check in self.rating_checks:
            try:
                if not await check(match):
                    return False
            except Exception:
                log.exception("match %s: a rating check failed", match.id)
        return True

    def _tell_result(self, match: LiveMatch) -> None:
        """Tell the result listeners; one that fails never undoes the result."""
        self._tell(self.result_listeners, match)

    def _tell_closed(self, match: LiveMatch) -> None:
        """Tell the close listeners; one that fails never undoes the close."""
        self._tell(self.close_listeners, match)

    @staticmethod
    def _tell(listeners: Sequence[Callable[[LiveMatch], object]], match: LiveMatch) -> None:
        for listener in listeners:
            try:
                listener(match)
            except Exception:
                log.exception("match %s: a listener failed", match.id)

    async def _reload(self, match: LiveMatch) -> None:
        """Bring a live match back to what the store holds (after a failed write,
        which may have been stored after all: its row, version included, is read too)."""
        try:
            row = await self.store.matches.get(match.id)
            if row is not None:
                match.row = row
            await self._replay_log(match)
        except Exception:
            log.exception("match %s: could not be read back after a failed write", match.id)

    async def _replay_log(self, match: LiveMatch) -> list[ChoiceRow]:
        """Rebuild the match's state and its table's narration from its stored
        choice log; returns the log."""
        log_rows = await self.store.matches.choices(match.id)
        match.state = self._replay(match, log_rows)
        match.next_seq = len(log_rows)
        return log_rows

    @staticmethod
    def _replay(match: LiveMatch, log_rows: Sequence[ChoiceRow]) -> GameState:
        """The state the log leads to; the match's narration becomes the public
        events on the way, as they were told when the choices were made."""
        row = match.row
        state = match.info.new(row.options, len(row.seats), row.seed,
                               [s.setup for s in row.seats])
        narration = match.narration
        narration.clear()
        narration.append(opening(match.info))
        for choice in log_rows:
            narration.extend(e for e in state.apply(choice.seat, choice.choice) if e.public)
        return state

    @staticmethod
    def _seat_results(seats: Sequence[SeatRow], outcome: Outcome) -> list[SeatResult]:
        # A kicked person's seat ends played by the computer: a computer's seat, so
        # the match is not rated (nobody gains or loses by the computer's play).
        return [
            SeatResult(seat=s.seat, user_id=s.user_id, is_bot=s.computer_plays,
                       place=outcome.places[s.seat],
                       score=None if outcome.scores is None else outcome.scores[s.seat])
            for s in seats
        ]

    # -- the computer's moves -------------------------------------------------
    @staticmethod
    def _computer_turn(match: LiveMatch) -> bool:
        """Whether the current step has a forced choice or a computer seat to move."""
        if not match.playing:
            return False
        assert match.state is not None
        seats = match.seats
        for d in match.state.pending():  # a loop, not any(): asked after every move
            if d.forced is not None or seats[d.seat].computer_plays:
                return True
        return False

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
            seat = seats[decision.seat]
            if decision.seat not in forced and seat.computer_plays:
                # A person's seat the computer took over (a kick) gets the usual computer.
                level = seat.level if seat.is_bot else DEFAULT_LEVEL
                choice = await self._think(match, decision.seat, level)
                moves.append(Move(decision.seat, choice, "bot"))
        if not moves:
            return False
        await self._commit(match, moves)
        return True

    @staticmethod
    def _forced_moves(state: GameState) -> list[Move]:
        """The choices of the current step the platform makes itself: decisions
        with a single possible choice that the game lets be made at once."""
        if state.over:
            return []
        return [Move(d.seat, forced, "forced", None, True) for d in state.pending()
                if (forced := d.forced) is not None]

    async def _think(self, match: LiveMatch, seat: int, level: str = DEFAULT_LEVEL) -> str:
        """The ``level`` computer player's choice for ``seat`` (by default the one
        that chooses for a person out of time), on a copy, off the event loop."""
        assert match.state is not None
        rng = thinking_rng(match.row.seed, match.state.step, seat)
        return await self.thinker.choose(match.info, level, match.state, seat, rng)
