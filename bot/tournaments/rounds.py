"""Running a tournament's rounds: pairing the next round, opening each pairing's
games as ordinary matches in a place of their own, going on when games end, and
finishing — all worked out again from the store each time, so that the same steps
continue a tournament after a restart (:meth:`TournamentRounds.restore`).

A pairing's place is made when its first game opens and given back once its games
are over and shown (:meth:`TournamentRounds._retire_places`): a thread is archived as
soon as its last game's result is posted there; a channel is deleted once its round is
over (its players keep it while others still play); everything left when the
tournament ends. A table of computer players only gets no place at all: nobody needs
to watch it (:func:`~bot.tournaments.model.unseen_place`).

Every step for one tournament runs under that tournament's lock and asks the store
what is next (:meth:`TournamentRounds._advance`): it posts the current round if it is
not posted yet, opens a game for every pairing that needs one (a new pairing, the
next game of a best-of-three), and once every pairing has its result pairs the next
round (or, without ``auto_next``, waits for the organiser) or finishes. A game's
result reaches its pairing in the store's own write of that result
(:func:`storage.tournaments.record_game_in`); the match service then tells this part
(:attr:`~bot.matches.commit.MatchCore.result_listeners`), which takes the next step.
Generic: nothing here names a game.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from bot.clock import Clock, SystemClock
from bot.errors import ChannelBusy, CroupierError, NoMatchHere
from bot.i18n import Text
from bot.matches.live import LiveMatch, Player
from bot.matches.service import MatchService
from bot.tournaments.formats import FormatBuilder, Progress, build_format, read_progress
from bot.tournaments.model import (
    Announcer,
    HeldPlace,
    MatchPlace,
    Notice,
    PlaceBusy,
    PlaceRefused,
    Retirer,
    Room,
    RoomCheck,
    RoundView,
    StandingLine,
    Standings,
    Starter,
    TournamentSettings,
    announce_nothing,
    is_computer,
    is_person,
    names_of,
    unseen_place,
)
from bot.tournaments.terms import entrant_words, players_words
from rules.core import DEFAULT_LEVEL
from rules.phrases import Phrase, Words
from storage import Store
from storage.tournaments import PairingRow, TournamentRow

log = logging.getLogger(__name__)

CROUPIER = Player(0, "Croupier", is_moderator=True)
"""The bot itself, closing a game it no longer needs (a moderator's right)."""


class TournamentRounds:
    """Rounds and games of every running tournament of the process."""

    def __init__(self, store: Store, matches: MatchService, clock: Clock | None = None,
                 starter: Starter | None = None, *, announce: Announcer | None = None,
                 retire: Retirer | None = None, room: RoomCheck | None = None,
                 formats: FormatBuilder = build_format) -> None:
        """``starter`` makes a pairing's place, ``retire`` gives it back, ``room`` says
        how many more places Discord has room for (the Discord layer's; without
        ``room`` nothing is checked before the start)."""
        self.store = store
        self.matches = matches
        self.clock = clock or SystemClock()
        self.starter = starter or self._no_places
        self.retire = retire or self._keep_places
        self.room = room or self._room_unknown
        self.announce = announce or announce_nothing
        self.formats = formats
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False
        self._refused: set[tuple[int, int]] = set()
        """``(tournament, round)`` whose places Discord refused to make: its other
        tables go straight to the tournament's channel (one refusal a round)."""
        matches.result_listeners.append(self._game_ended)
        matches.close_listeners.append(self._game_closed)
        matches.done_listeners.append(self._game_done)
        matches.rating_checks.append(self._rated)
        matches.timing_sources.append(self._turn_seconds)

    @staticmethod
    async def _no_places(place: MatchPlace) -> int:
        raise RuntimeError("this tournament service was given no starter to make places")

    @staticmethod
    async def _keep_places(place: HeldPlace) -> None:
        """A service given no way to give places back keeps them."""

    @staticmethod
    async def _room_unknown(tournament: TournamentRow, threads: bool) -> Room | None:
        return None

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # -- the match service tells ---------------------------------------------------------
    def _game_ended(self, match: LiveMatch) -> None:
        """A match's result is committed: if it was a tournament game, go on (in a task:
        the match's lock is held here)."""
        self._spawn(self._after_game(match), f"croupier-tournament-{match.id}")

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        """Run ``work`` in a task the service keeps (and :meth:`settle` waits for);
        not once the bot is closing (what the step needs is in the store, and
        :meth:`restore` takes it after the restart)."""
        if self._closing:
            work.close()
            return
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def in_background(self, work: Coroutine[Any, Any, None], name: str) -> None:
        """Run ``work`` as one of this service's own steps, after whoever asked has
        been answered: :meth:`settle` waits for it, a closing bot for its end, and
        nothing is started once the bot is closing. ``work`` logs its own failures."""
        self._spawn(work, name)

    async def _after_game(self, match: LiveMatch) -> None:
        try:
            link = await self.store.tournaments.game(match.id)
            if link is None:
                await self._take_turns(match)
                return
            async with self._lock(link.tournament_id):
                await self._advance(link.tournament_id)
        except Exception:
            log.exception("match %s: the tournament could not go on after it", match.id)

    async def _take_turns(self, match: LiveMatch) -> None:
        """A match that was no tournament's game ended: a tournament whose tables take
        turns in its channel (Discord refused their places this round) goes on."""
        if match.row.guild_id is None or not self._refused:
            return
        for tournament in await self.store.tournaments.live_in_guild(match.row.guild_id):
            if (tournament.channel_id == match.row.channel_id
                    and (tournament.id, tournament.round) in self._refused):
                async with self._lock(tournament.id):
                    await self._advance(tournament.id)

    def _game_done(self, match: LiveMatch) -> None:
        """A match that is over was shown whole: if it was a tournament game (the bot
        hosts them all), its place may be given back (in a task)."""
        if match.row.host_id == CROUPIER.user_id:
            self._spawn(self._after_done(match.id), f"croupier-tournament-done-{match.id}")

    async def _after_done(self, match_id: int) -> None:
        try:
            link = await self.store.tournaments.game(match_id)
            if link is None:
                return
            async with self._lock(link.tournament_id):
                tournament = await self.store.tournaments.get(link.tournament_id)
                if tournament is not None:
                    await self._retire_places(tournament)
        except Exception:
            log.exception("match %s: its tournament place could not be given back", match_id)

    async def _retire_places(self, tournament: TournamentRow) -> None:
        """Give back each place of the tournament whose games are over and shown (the
        lock held): a thread once its pairing has its result, a channel once its
        round is over, every place once the tournament is. A place where a game is
        still live (being played, or its last table still being shown) waits: the
        match service tells when that game is done with (:meth:`_game_done`)."""
        held = await self.store.tournaments.places_held(tournament.id)
        if not held:
            return
        threads = TournamentSettings.parse(tournament.settings).use_threads
        live = {match.row.channel_id for match in self.matches.live_matches()}
        for pairing in held:
            place = pairing.thread_id
            if place is None or place in live or not (
                    tournament.status != "running"
                    or (pairing.done and (threads or pairing.round < tournament.round))):
                continue
            try:
                await self.retire(HeldPlace(tournament, place, threads))
            except Exception:
                log.exception("tournament %s: round %s table %s: its place %s could not be "
                              "given back", tournament.id, pairing.round, pairing.table,
                              place)
                continue
            await self.store.tournaments.place_retired(tournament.id, pairing.round,
                                                       pairing.table)

    def _game_closed(self, match: LiveMatch) -> None:
        """A match closed without a result (a moderator cancelled it, say): if it was
        a tournament game its pairing now waits, and the organiser is told."""
        self._spawn(self._after_close(match), f"croupier-tournament-closed-{match.id}")

    async def _after_close(self, match: LiveMatch) -> None:
        match_id = match.id
        try:
            link = await self.store.tournaments.game(match_id)
            if link is None:
                await self._take_turns(match)
                return
            if link.outcome not in ("cancelled", "abandoned"):
                return
            async with self._lock(link.tournament_id):
                tournament = await self.store.tournaments.get(link.tournament_id)
                pairing = await self.store.tournaments.pairing(link.tournament_id,
                                                               link.round, link.table)
                # The bot's own closes (a cancelled tournament, a reported result, a
                # stray game) leave nothing waiting: only a pairing left without a
                # game and a result is news.
                if (tournament is None or tournament.status != "running" or pairing is None
                        or pairing.done or pairing.in_play):
                    return
                outcome = (Text("tournaments.notice.closed_cancelled")
                           if link.outcome == "cancelled"
                           else Text("tournaments.notice.closed_abandoned"))
                await self._tell(Notice(
                    "game_closed", tournament, pairing.round,
                    Text("tournaments.notice.game_closed", name=tournament.name,
                         round=pairing.round, table=pairing.table, outcome=outcome),
                    (tournament.organiser_id,)))
                await self._advance(tournament.id)  # tables may wait for its place
        except Exception:
            log.exception("match %s: its close could not be told to its tournament",
                          match_id)

    async def _turn_seconds(self, match: LiveMatch) -> int | None:
        """A tournament game's seconds per decision: its tournament's own, if set."""
        link = await self.store.tournaments.game(match.id)
        if link is None:
            return None
        tournament = await self.store.tournaments.get(link.tournament_id)
        if tournament is None:
            return None
        return TournamentSettings.parse(tournament.settings).turn_seconds

    async def _rated(self, match: LiveMatch) -> bool:
        """A tournament's games move ratings only if its ``rated`` setting says so."""
        link = await self.store.tournaments.game(match.id)
        return link is None or link.rated

    async def settle(self) -> None:
        """Wait until no match driver and no tournament step is under way (tests)."""
        while True:
            await self.matches.settle()
            running = [t for t in self._tasks if not t.done()]
            if not running:
                return
            await asyncio.gather(*running, return_exceptions=True)

    @property
    def closing(self) -> bool:
        """Whether the bot is closing: steps under way stop at their next game, and
        whoever called one says nothing more (Discord is being let go)."""
        return self._closing

    async def wind_down(self) -> None:
        """The bot is closing (before the match service winds down, Discord and the
        store still open): take no new step, and wait for the steps under way to
        end at their next game. A round half opened is carried on by :meth:`restore`
        after the restart, as after any stop."""
        self._closing = True
        # Nothing is spawned once closing: one wait ends every task.
        await asyncio.gather(*self._tasks, return_exceptions=True)
        while busy := [lock for lock in self._locks.values() if lock.locked()]:
            for lock in busy:  # every step (a command's too) holds its tournament's lock
                async with lock:
                    pass

    # -- reading a tournament as its format sees it -----------------------------------------
    async def _progress(self, tournament: TournamentRow) -> Progress:
        return await read_progress(self.store, tournament, self.formats)

    async def _standings(self, tournament: TournamentRow) -> Standings:
        progress = await self._progress(tournament)
        names = names_of(progress.entrants)
        return Standings(tournament, tournament.round, tournament.status == "finished",
                         tuple(StandingLine(s, names.get(s.entrant, "?"))
                               for s in progress.standings()))

    async def _round_view(self, tournament: TournamentRow, round_no: int) -> RoundView:
        return RoundView(tournament, round_no,
                         tuple(await self.store.tournaments.pairings(tournament.id, round_no)),
                         names_of(await self.store.tournaments.entrants(tournament.id)))

    # -- going on ------------------------------------------------------------------------
    async def _advance(self, tournament_id: int) -> None:
        """Take every step the store says is due (the tournament's lock held); none
        once the bot is closing (the restart takes them)."""
        while not self._closing:
            tournament = await self.store.tournaments.get(tournament_id)
            if tournament is None:
                return
            await self._retire_places(tournament)  # before a new round's places
            if tournament.status != "running":
                return
            pairings = await self.store.tournaments.pairings(tournament_id, tournament.round)
            if tournament.announced_round < tournament.round:
                await self._announce_round(tournament)
            for pairing in pairings:
                if self._closing:
                    return
                if pairing.needs_game:
                    await self._start_game(tournament, pairing)
            pairings = await self.store.tournaments.pairings(tournament_id, tournament.round)
            if not all(p.done for p in pairings):
                return
            if not await self._round_done(tournament):
                return

    async def _round_done(self, tournament: TournamentRow) -> bool:
        """Every pairing of the current round has its result: pair the next round (if
        ``auto_next``) or finish. Returns whether a new round was paired."""
        progress = await self._progress(tournament)
        upcoming = progress.next_round()
        if upcoming is None:
            await self._finish(tournament, progress)
            return False
        if not progress.settings.auto_next:
            if tournament.announced_done < tournament.round and await self._tell(Notice(
                    "round_done", tournament, tournament.round,
                    Text("tournaments.notice.round_done", round=tournament.round),
                    standings=await self._standings(tournament))):
                await self.store.tournaments.announced_done(tournament.id, tournament.round)
            return False
        await self._pair(tournament, progress)
        return True

    async def _pair(self, tournament: TournamentRow, progress: Progress) -> None:
        """Store the next round (the lock held; every pairing of this one decided)."""
        upcoming = progress.next_round()
        if upcoming is None:
            await self._finish(tournament, progress)
            return
        await self.store.tournaments.add_round(tournament.id, upcoming.round,
                                               upcoming.pairings, stage=upcoming.stage,
                                               cut_seeds=upcoming.cut_seeds)

    async def _finish(self, tournament: TournamentRow, progress: Progress) -> None:
        standings = progress.standings()
        await self.store.tournaments.finish(tournament.id,
                                            [(s.entrant, s.rank) for s in standings])
        await self._announce_end(await self.store.tournaments.get(tournament.id))

    async def _announce_round(self, tournament: TournamentRow) -> None:
        """Post the current round's pairings, pinging its players; remembered once
        posted (a restart posts a round it had not). The notice's words are its heading:
        the pairings' lines are written from its ``pairings`` where it is posted, in the
        channel's language."""
        view = await self._round_view(tournament, tournament.round)
        cut = bool(view.pairings) and view.pairings[0].stage == "cut"
        text = (Text("tournaments.notice.round_cut", name=tournament.name,
                     round=tournament.round) if cut
                else Text("tournaments.notice.round", name=tournament.name,
                          round=tournament.round))
        mentions = tuple(user for p in view.pairings for user in p.seats
                         if is_person(user))
        if await self._tell(Notice("round", tournament, tournament.round, text, mentions,
                                   pairings=view,
                                   standings=await self._standings(tournament))):
            await self.store.tournaments.announced(tournament.id, tournament.round)

    async def _announce_end(self, tournament: TournamentRow | None) -> None:
        """Post the final standings (or the cancel); remembered once posted."""
        if tournament is None or tournament.final_announced:
            return
        if tournament.status == "finished":
            standings = await self._standings(tournament)
            text = (Text("tournaments.notice.finished", name=tournament.name,
                         winner=entrant_words(standings.lines[0].standing.entrant,
                                              standings.lines[0].name)) if standings.lines
                    else Text("tournaments.notice.finished_nobody", name=tournament.name))
            notice = Notice("finished", tournament, tournament.round, text,
                            standings=standings)
        else:
            notice = Notice("cancelled", tournament, tournament.round,
                            Text("tournaments.notice.cancelled", name=tournament.name),
                            standings=await self._standings(tournament)
                            if tournament.round else None)
        if await self._tell(notice):
            await self.store.tournaments.final_announced(tournament.id)

    async def _tell(self, notice: Notice) -> bool:
        """Announce; ``False`` (logged) if it could not be posted."""
        try:
            await self.announce(notice)
        except Exception:
            log.exception("tournament %s: could not announce %s", notice.tournament.id,
                          notice.kind)
            return False
        return True

    # -- a pairing's games -----------------------------------------------------------------
    async def _start_game(self, tournament: TournamentRow, pairing: PairingRow, *,
                          wait_turn: bool = True) -> bool:
        """Open the pairing's next game (making its place first, if it has none);
        ``False`` (logged and announced) if it could not be opened: it is tried again
        with the tournament's next step, or by the organiser. ``False`` too, quietly, if
        its place is the tournament's channel and another game holds it: it opens
        when that one ends (unless ``wait_turn`` is false: then :class:`PlaceBusy`)."""
        try:
            await self._open_game(tournament, pairing)
        except PlaceBusy:
            if not wait_turn:
                raise
            return False
        except Exception as exc:
            if self._closing:  # not the table's fault: the restart opens it again
                log.info("tournament %s: round %s table %s: not opened, the bot is closing "
                         "(%s)", tournament.id, pairing.round, pairing.table, exc)
                return False
            if isinstance(exc, CroupierError):  # a refusal, said in words
                log.warning("tournament %s: round %s table %s: the game could not be "
                            "opened (%s)", tournament.id, pairing.round, pairing.table, exc)
                # A refusal's words end with a full stop, as the notice's sentence does.
                why: Words = (exc.text if isinstance(exc.text, Phrase)
                              else str(exc).rstrip(".") + ".")
            else:  # never an error's own text: it is for the log, not for people
                log.exception("tournament %s: round %s table %s: the game could not be "
                              "opened", tournament.id, pairing.round, pairing.table)
                why = Text("tournaments.notice.our_fault")
            await self._tell(Notice(
                "game_failed", tournament, pairing.round,
                Text("tournaments.notice.game_failed", table=pairing.table, why=why)))
            return False
        return True

    async def _open_game(self, tournament: TournamentRow, pairing: PairingRow) -> None:
        entrants = await self.store.tournaments.entrants(tournament.id)
        names = names_of(entrants)
        levels = {e.user_id: e.level for e in entrants}
        settings = TournamentSettings.parse(tournament.settings)
        seats = list(pairing.seats)
        game_no = pairing.games_linked + 1
        if len(seats) == 2 and game_no % 2 == 0:
            seats.reverse()  # games of a best-of-three alternate who sits first
        place = pairing.thread_id
        if place is None:
            place = await self._make_place(tournament, pairing, MatchPlace(
                tournament, pairing.round, pairing.table, pairing.label,
                tuple((user, names.get(user, "?")) for user in pairing.seats),
                settings.use_threads))
        shared = place == tournament.channel_id
        if not shared and pairing.thread_id is None:  # a place is one pairing's
            await self.store.tournaments.set_thread(tournament.id, pairing.round,
                                                    pairing.table, place)
        busy = PlaceBusy(Text("tournaments.error.place_busy", table=pairing.table))
        if not await self._clear_place(place, shared=shared):
            raise busy

        async def link(match: LiveMatch) -> None:
            # Linked before the match starts: its result always finds its pairing.
            await self.store.tournaments.link_game(tournament.id, pairing.round, pairing.table,
                                                   game_no, match.id)

        # The bot hosts: only a moderator may cancel a tournament game, not a player.
        try:
            await self.matches.open_seated(
                [Player(user, names.get(user, "?")) for user in seats],
                guild_id=tournament.guild_id, channel_id=place, game=tournament.game,
                options=tournament.options, on_open=link,
                computers={user: levels.get(user, DEFAULT_LEVEL) for user in seats
                           if is_computer(user)},
                host=CROUPIER)
        except ChannelBusy:
            if shared:  # someone opened a game there meanwhile
                raise busy from None
            raise
        if shared:  # a place of its own pinged them when it was made
            seated = players_words([entrant_words(user, names.get(user, "?"))
                                    for user in pairing.seats])
            await self._tell(Notice(
                "table_here", tournament, pairing.round,
                Text("tournaments.notice.table_here", players=seated, name=tournament.name,
                     round=pairing.round, table=pairing.table),
                tuple(user for user in pairing.seats if is_person(user))))

    async def _make_place(self, tournament: TournamentRow, pairing: PairingRow,
                          place: MatchPlace) -> int:
        """A new place for the pairing's games (the ``starter``'s); none for a table of
        computer players only (an unseen place: nobody needs to watch it). If Discord
        does not let the bot make one, the tournament's own channel, where the tables take
        turns — the organiser is told why, and the round's other tables go there
        without asking Discord again (the channel is not stored as their place: after
        a restart, Discord is asked once more)."""
        if not any(is_person(user) for user in pairing.seats):
            return unseen_place(tournament.id, pairing.round, pairing.table)
        key = (tournament.id, pairing.round)
        if key not in self._refused:
            try:
                return await self.starter(place)
            except PlaceRefused as refused:
                self._refused.add(key)
                await self._tell(Notice(
                    "no_place", tournament, pairing.round,
                    Text("tournaments.notice.no_place", name=tournament.name,
                         round=pairing.round, why=refused.text),
                    (tournament.organiser_id,)))
        return tournament.channel_id

    async def _clear_place(self, place: int, *, shared: bool) -> bool:
        """Whether a new game may open in the place, clearing it first: a match the
        bot left there that is no tournament's game (it stopped between opening a
        game and linking it) is closed — in a place of the pairing's own, any match
        that is no tournament's game. In the tournament's channel (``shared``) any
        other game (another table's, or people's own) keeps it: ``False``."""
        try:
            match = self.matches.match_in(place)
        except NoMatchHere:
            return True
        stray = await self.store.tournaments.game(match.id) is None
        if shared and not (stray and match.row.host_id == CROUPIER.user_id):
            return False
        if stray:
            await self.matches.cancel(CROUPIER, place)
        return True

    async def _resume_game(self, pairing: PairingRow) -> None:
        """A game linked but not started when the bot stopped (still a lobby) starts."""
        if pairing.match_id is None:
            return
        try:
            match = self.matches.get(pairing.match_id)
        except NoMatchHere:
            return
        if match.row.status == "lobby":
            await self.matches.start(CROUPIER, match.row.channel_id)

    async def _close_games(self, match_ids: Sequence[int]) -> None:
        """Close games no longer needed (their tournament was cancelled, their result
        reported)."""
        for match_id in match_ids:
            try:
                match = self.matches.get(match_id)
                if match.row.status in ("lobby", "active") and not match.finished:
                    await self.matches.cancel(CROUPIER, match.row.channel_id)
            except NoMatchHere:
                continue

    # -- after a restart -----------------------------------------------------------------
    async def restore(self, owns: Callable[[int | None], bool] | None = None) -> list[int]:
        """Continue every running tournament from the store (after
        :meth:`MatchService.restore`): games linked but never started start, pairings
        without a game get one, a round complete with ``auto_next`` is followed by the
        next, and announcements not posted are posted. Returns the tournaments running.
        ``owns``: which servers' tournaments are this process's (a cluster's shards')."""
        running = []
        for tournament in await self.store.tournaments.to_restore():
            if owns is not None and not owns(tournament.guild_id):
                continue
            try:
                async with self._lock(tournament.id):
                    if tournament.status != "running":
                        await self._announce_end(tournament)
                        continue
                    for pairing in await self.store.tournaments.pairings(tournament.id,
                                                                         tournament.round):
                        if pairing.in_play:
                            await self._resume_game(pairing)
                    await self._advance(tournament.id)
                running.append(tournament.id)
            except Exception:
                log.exception("tournament %s could not be restored", tournament.id)
        return running
