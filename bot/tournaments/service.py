"""Tournaments that moderators run (the spec: tournaments.md): the service the
``/tournament`` commands and the tournament message's buttons call, one call each.

Every action takes the acting :class:`~bot.tournaments.model.Member` (their server,
their right to manage it and their roles) and a tournament id, checks in code that the
tournament is that server's and, for an organiser's action, that they may organise
there (Manage Server or the server's organiser role), then changes the store in one
write, which refuses a change that does not fit the tournament's status. Refusals are
:class:`~bot.tournaments.model.TournamentError` (shown to the person as they are). The
rounds and games themselves run in :mod:`bot.tournaments.rounds`.

Wiring: make the service right after the :class:`~bot.matches.service.MatchService` (it
subscribes to match results and to the rating decision), with the Discord layer's
``starter`` (makes a pairing's thread, returns its id), ``retire`` (gives it back once
its games are over), ``room`` (the room Discord's caps leave for places, checked at the
start) and ``announce`` (posts a :class:`~bot.tournaments.model.Notice` in the
tournament's channel, pinging its ``mentions``); at start-up call :meth:`restore`
after ``MatchService.restore()``.

Generic: nothing here names a game.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import Any

from bot.errors import CroupierError, NoMatchHere, NotSeated
from bot.i18n import Number, Text
from bot.i18n.tournaments import text_of
from bot.matches.levels import checked_level
from bot.matches.live import Player
from bot.tournaments.formats import plan_rows, pod_size
from bot.tournaments.model import (
    FORMATS,
    MOST_PLAYERS,
    NAME_LENGTH,
    TWO_SEAT_FORMATS,
    Member,
    NotOrganiser,
    NoTournament,
    RoundView,
    Standings,
    TournamentError,
    TournamentSettings,
    is_person,
)
from bot.tournaments.rounds import CROUPIER, TournamentRounds
from rules.core import DEFAULT_LEVEL, GameInfo
from rules.errors import BadOptions, RulesError
from rules.phrases import Phrase
from rules.registry import get_game
from rules.tournament.model import Entrant, Result
from rules.words import clip
from storage.tournaments import (
    BEFORE_START,
    EntrantRow,
    GameLink,
    PairingRow,
    TournamentRefusal,
    TournamentRow,
    TournamentStatus,
)

__all__ = ["Member", "TournamentService"]

log = logging.getLogger(__name__)

def refused_words(refused: TournamentRefusal) -> Text | str:
    """A store's refusal in words for the person: its phrase (a key of the
    ``tournaments`` catalog) as :class:`~bot.i18n.Text`."""
    words = refused.words
    return text_of(words) if isinstance(words, Phrase) else str(words)


BRACKETS = ("single", "double")
"""Formats whose later rounds are paired from earlier winners: a result that decided
who plays on cannot change once the next round is paired."""


class TournamentService(TournamentRounds):
    """Creating, filling, starting and running tournaments; standings and pairings."""

    # -- checks ------------------------------------------------------------------------
    async def _get(self, who: Member, tournament_id: int) -> TournamentRow:
        """The tournament, if it is the acting person's server's."""
        tournament = await self.store.tournaments.get(tournament_id)
        if tournament is None or tournament.guild_id != who.guild_id:
            raise NoTournament(tournament_id)
        return tournament

    async def may_organise(self, who: Member) -> bool:
        """Whether ``who`` may run tournaments on their server."""
        if who.manages_server:
            return True
        role = (await self.store.settings.get(who.guild_id)).organiser_role_id
        return role is not None and role in who.role_ids

    async def _organiser(self, who: Member, tournament_id: int | None = None
                         ) -> TournamentRow | None:
        if not await self.may_organise(who):
            raise NotOrganiser()
        return None if tournament_id is None else await self._get(who, tournament_id)

    async def _write(self, call: Any) -> Any:
        """A store write whose refusal becomes the person's refusal."""
        try:
            return await call
        except TournamentRefusal as refused:
            raise TournamentError(refused_words(refused)) from None

    # -- creating and registration -----------------------------------------------------
    async def create(self, who: Member, *, channel_id: int, game: str,
                     format: str | None = None, options: dict[str, Any] | None = None,
                     settings: dict[str, Any] | None = None,
                     name: str | None = None) -> TournamentRow:
        """A new tournament of ``game`` in ``channel_id`` (organisers). The format is
        Swiss for games of two, pods for games of more; options and settings are
        checked now, against every table size the format will deal."""
        await self._organiser(who)
        info = get_game(game)
        chosen = format or ("swiss" if info.min_seats <= 2 <= info.max_seats else "pods")
        if chosen not in FORMATS:
            raise TournamentError(Text("tournaments.error.no_format", format=repr(chosen),
                                       formats=", ".join(FORMATS)))
        parsed = TournamentSettings.parse(settings)
        if parsed.top_cut and chosen != "swiss":
            raise TournamentError(Text("tournaments.error.top_cut_swiss"))
        if chosen == "pods" and parsed.best_of != 1:
            raise TournamentError(Text("tournaments.error.pods_one_game"))
        stored = info.options.parse(options).stored()
        try:
            await self.matches.hooks_for(info.name).check_arranged(who.guild_id, stored)
        except CroupierError as exc:
            raise TournamentError(exc.text) from None
        for seats in self._table_sizes(chosen, parsed, info):
            try:
                info.new(stored, seats, 0)
            except BadOptions as exc:
                raise TournamentError(Text("tournaments.error.options_at_tables",
                                           game=info.title, seats=seats,
                                           why=exc.text)) from None
        title = name or Text("tournaments.default_name", game=info.title).in_locale(None)
        tournament_id = await self.store.tournaments.create(
            guild_id=who.guild_id, channel_id=channel_id,
            name=clip(title.strip(), NAME_LENGTH), game=info.name,
            format=chosen, options=stored, settings=parsed.stored(), organiser_id=who.user_id,
            seed=random.SystemRandom().randrange(2**62))
        return await self._get(who, tournament_id)

    @staticmethod
    def _table_sizes(format: str, settings: TournamentSettings, info: GameInfo) -> list[int]:
        """The table sizes a format deals for this game; refused if the game cannot
        seat them."""
        if format in TWO_SEAT_FORMATS:
            if not info.min_seats <= 2 <= info.max_seats:
                raise TournamentError(Text("tournaments.error.not_two", game=info.title))
            return [2]
        size = pod_size(settings, info)
        if not 3 <= size <= info.max_seats or size < info.min_seats:
            raise TournamentError(Text("tournaments.error.pods_do_not_fit", game=info.title,
                                       seats=info.seat_words(), size=size))
        # Pods are one smaller when the count does not divide, and smaller still when
        # it must (never below the game's minimum): every size down to it is dealt.
        return list(range(size, info.min_seats - 1, -1))

    async def open(self, who: Member, tournament_id: int) -> TournamentRow:
        """Registration opens (organisers)."""
        await self._organiser(who, tournament_id)
        await self._write(self.store.tournaments.set_status(
            tournament_id, "open", allowed=("created",),
            doing=Phrase("tournaments.doing.open_registration")))
        return await self._get(who, tournament_id)

    async def open_checkin(self, who: Member, tournament_id: int) -> TournamentRow:
        """The check-in window opens (organisers): entrants confirm they are here."""
        await self._organiser(who, tournament_id)
        await self._write(self.store.tournaments.set_status(
            tournament_id, "checkin", allowed=("open",),
            doing=Phrase("tournaments.doing.open_checkin")))
        return await self._get(who, tournament_id)

    async def close_checkin(self, who: Member, tournament_id: int) -> list[int]:
        """The check-in window closes (organisers): who did not check in is removed
        (returned); registration stays open, and late entrants count as here."""
        await self._organiser(who, tournament_id)
        return await self._write(self.store.tournaments.close_check_in(tournament_id))

    async def join(self, who: Member, tournament_id: int) -> EntrantRow:
        """Enter while registration is open (during check-in, entering checks in)."""
        tournament = await self._get(who, tournament_id)
        settings = TournamentSettings.parse(tournament.settings)
        await self._write(self.store.tournaments.join(
            tournament_id, who.user_id, who.name, max_players=settings.max_players))
        return await self._entrant(tournament_id, who.user_id)

    async def leave(self, who: Member, tournament_id: int) -> None:
        """Leave before the start; once it runs, drop (between rounds)."""
        tournament = await self._get(who, tournament_id)
        if tournament.status == "running":
            await self.drop(who, tournament_id)
            return
        await self._write(self.store.tournaments.leave(tournament_id, who.user_id))

    async def checkin(self, who: Member, tournament_id: int) -> EntrantRow:
        """Confirm being here, during check-in."""
        await self._get(who, tournament_id)
        await self._write(self.store.tournaments.check_in(tournament_id, who.user_id))
        return await self._entrant(tournament_id, who.user_id)

    async def add(self, who: Member, tournament_id: int, user_id: int, name: str, *,
                  is_bot: bool = False) -> EntrantRow:
        """Enter someone (organisers; before the start, the organiser's cap aside, but
        never past :data:`MOST_PLAYERS` entrants in all). A bot account is refused: it
        cannot play its seats (computer players can, :meth:`add_computers`)."""
        await self._organiser(who, tournament_id)
        if is_bot:
            raise TournamentError(Text("tournaments.error.bot_account"))
        await self._write(self.store.tournaments.join(
            tournament_id, user_id, name, allowed=BEFORE_START))
        return await self._entrant(tournament_id, user_id)

    async def add_computers(self, who: Member, tournament_id: int, count: int,
                            level: str = DEFAULT_LEVEL) -> list[EntrantRow]:
        """Enter ``count`` computer players (organisers; before the start, the cap
        aside, but never past :data:`MOST_PLAYERS` entrants in all). Their user ids
        are negative, they are named "Computer N", always checked in, and the game's
        computer player of ``level`` plays their seats (a level the game has not
        is refused)."""
        tournament = await self._organiser(who, tournament_id)
        assert tournament is not None
        if not 1 <= count <= MOST_PLAYERS:
            raise TournamentError(Text("tournaments.error.computers_count", most=MOST_PLAYERS))
        checked_level(get_game(tournament.game), level)
        users = set(await self._write(self.store.tournaments.add_computers(
            tournament_id, count, allowed=BEFORE_START, level=level)))
        return [e for e in await self.store.tournaments.entrants(tournament_id)
                if e.user_id in users]

    async def remove(self, who: Member, tournament_id: int, user_id: int,
                     why: str = "") -> None:
        """Take someone out (organisers): before the start they are removed; once it
        runs, dropped (keeping their results)."""
        tournament = await self._organiser(who, tournament_id)
        assert tournament is not None
        if tournament.status == "running":
            await self.drop(who, tournament_id, user_id, why=why)
            return
        await self._write(self.store.tournaments.leave(tournament_id, user_id))

    async def _entrant(self, tournament_id: int, user_id: int) -> EntrantRow:
        entrant = await self.store.tournaments.entrant(tournament_id, user_id)
        if entrant is None:
            raise TournamentError(Text("tournaments.error.not_entered"))
        return entrant

    # -- starting and rounds -------------------------------------------------------------
    async def start(self, who: Member, tournament_id: int) -> RoundView:
        """Seed the entrants (by rating, or at random by the tournament's seed), pair
        round 1 and open its games (organisers). During check-in, only those who
        checked in play."""
        tournament = await self._organiser(who, tournament_id)
        assert tournament is not None
        async with self._lock(tournament_id):
            tournament = await self._get(who, tournament_id)
            if tournament.status not in ("open", "checkin"):
                raise TournamentError(Text("tournaments.error.cannot_start_now"))
            entrants = [e for e in await self.store.tournaments.entrants(tournament_id)
                        if tournament.status != "checkin" or e.checked_in]
            settings = TournamentSettings.parse(tournament.settings)
            info = get_game(tournament.game)
            least = 2 if tournament.format in TWO_SEAT_FORMATS else info.min_seats
            if len(entrants) < max(least, settings.top_cut + 1):
                if settings.top_cut:
                    raise TournamentError(Text("tournaments.error.too_few_for_cut",
                                               count=len(entrants), cut=settings.top_cut))
                raise TournamentError(Text("tournaments.error.too_few", count=len(entrants)))
            seeds = await self._seeds(tournament, settings, entrants)
            fmt = self.formats(tournament.format, settings, info)
            try:
                plan = fmt.next_round([Entrant(user, seed) for user, seed in seeds], [],
                                      tournament.seed)
            except ValueError as exc:
                why = exc.text if isinstance(exc, RulesError) else str(exc)
                raise TournamentError(Text("tournaments.error.cannot_start",
                                           why=why)) from None
            if plan is None:
                raise TournamentError(Text("tournaments.error.no_round"))
            await self._check_room(tournament, settings, info, entrants)
            await self._write(self.store.tournaments.start(tournament_id, seeds,
                                                           plan_rows(plan)))
            await self._advance(tournament_id)
            tournament = await self._get(who, tournament_id)
            return await self._round_view(tournament, 1)

    async def _check_room(self, tournament: TournamentRow, settings: TournamentSettings,
                          info: GameInfo, entrants: Sequence[EntrantRow]) -> None:
        """Refuse a start Discord has no room for. A round plays at most one table per
        person (a table of computers only gets no place) and per smallest table's
        worth of entrants, each in a place of its own; places are given back as
        rounds end, so the most at once is what must fit now."""
        people = sum(1 for e in entrants if is_person(e.user_id))
        smallest = 2 if tournament.format in TWO_SEAT_FORMATS else max(2, info.min_seats)
        needed = min(len(entrants) // smallest, people)
        room = await self.room(tournament, settings.use_threads) if needed else None
        if room is None or needed <= room.free:
            return
        if settings.use_threads:
            raise TournamentError(Text("tournaments.error.no_room_threads", count=needed,
                                       where=room.where, free=Number(room.free),
                                       cap=room.cap))
        raise TournamentError(Text("tournaments.error.no_room_channels", count=needed,
                                   where=room.where, free=Number(room.free), cap=room.cap))

    async def _seeds(self, tournament: TournamentRow, settings: TournamentSettings,
                     entrants: Sequence[EntrantRow]) -> list[tuple[int, int]]:
        """``(user, seed)``, 1 the top seed: by rating in the tournament's game on the
        server (the unrated after the rated), ties and the unrated in an order drawn
        with the tournament's seed; or all drawn so."""
        users = sorted(e.user_id for e in entrants)
        draw = random.Random(tournament.seed)
        draw.shuffle(users)
        order = {user: n for n, user in enumerate(users)}
        if settings.seeding == "rating":
            ratings = {}
            for user in users:
                rating = await self.store.stats.rating(tournament.guild_id, tournament.game,
                                                       user)
                if rating is not None:
                    ratings[user] = rating.ordinal
            users.sort(key=lambda u: (u not in ratings, -ratings.get(u, 0.0), order[u]))
        return [(user, seed) for seed, user in enumerate(users, start=1)]

    async def next_round(self, who: Member, tournament_id: int) -> RoundView:
        """Pair the next round (or the top cut, or finish) once every match of this one
        has its result (organisers)."""
        await self._organiser(who, tournament_id)
        async with self._lock(tournament_id):
            tournament = await self._get(who, tournament_id)
            if tournament.status != "running":
                raise TournamentError(Text("tournaments.error.not_running"))
            pairings = await self.store.tournaments.pairings(tournament_id, tournament.round)
            left = [p for p in pairings if not p.done]
            if left:
                raise TournamentError(Text(
                    "tournaments.error.round_not_done", count=len(left), round=tournament.round,
                    tables=", ".join(str(p.table) for p in left)))
            await self._write(self._pair(tournament, await self._progress(tournament)))
            await self._advance(tournament_id)
            tournament = await self._get(who, tournament_id)
            return await self._round_view(tournament, tournament.round)

    async def replay(self, who: Member, tournament_id: int, round_no: int,
                     table: int) -> PairingRow:
        """Open a new game for a pairing of the current round whose game was cancelled
        or abandoned, or could not be started (organisers)."""
        await self._organiser(who, tournament_id)
        async with self._lock(tournament_id):
            tournament = await self._get(who, tournament_id)
            pairing = await self.store.tournaments.pairing(tournament_id, round_no, table)
            if (tournament.status != "running" or pairing is None
                    or round_no != tournament.round):
                raise TournamentError(Text("tournaments.error.replay_current"))
            if pairing.done or pairing.in_play:
                raise TournamentError(Text("tournaments.error.table_busy", table=table))
            if not await self._start_game(tournament, pairing, wait_turn=False):
                raise TournamentError(Text("tournaments.error.not_started", table=table))
            await self._advance(tournament_id)
            return await self._pairing(tournament_id, round_no, table)

    async def _pairing(self, tournament_id: int, round_no: int, table: int) -> PairingRow:
        pairing = await self.store.tournaments.pairing(tournament_id, round_no, table)
        if pairing is None:
            raise TournamentError(Text("tournaments.error.no_table", round=round_no,
                                       table=table))
        return pairing

    # -- results, drops, the end -----------------------------------------------------------
    async def report(self, who: Member, tournament_id: int, table: int, *,
                     round_no: int | None = None, winner: int | None = None,
                     places: Sequence[int] | None = None, games: Sequence[int] | None = None,
                     drawn: int = 0, both_lose: bool = False, why: str = "") -> PairingRow:
        """Enter or correct a pairing's result (organisers), with an audit row: a
        ``winner`` (user id), ``places`` per seat (a pod), ``both_lose``, or — none of
        them — a draw; ``games`` won per seat (default: a clean win, or none for a
        draw) and ``drawn`` games. A game of it being played is closed; standings
        recompute. An earlier round's result may change in Swiss, round robin and pods,
        not in a bracket."""
        await self._organiser(who, tournament_id)
        async with self._lock(tournament_id):
            tournament = await self._get(who, tournament_id)
            if tournament.status != "running":
                raise TournamentError(Text("tournaments.error.results_fixed"))
            round_no = tournament.round if round_no is None else round_no
            pairing = await self._pairing(tournament_id, round_no, table)
            settings = TournamentSettings.parse(tournament.settings)
            placed, won, drawn = self._reported(pairing, settings, winner, places, games,
                                                drawn, both_lose)
            moot = await self._write(self.store.tournaments.report(
                tournament_id, round_no, table, places=placed, games=won, drawn=drawn,
                both_lose=both_lose, by_user=who.user_id, why=why,
                past_rounds=(tournament.format not in BRACKETS
                             and tournament.cut_after is None)))
            if moot is not None:
                await self._close_games([moot])
            await self._advance(tournament_id)
            return await self._pairing(tournament_id, round_no, table)

    @staticmethod
    def _reported(pairing: PairingRow, settings: TournamentSettings, winner: int | None,
                  places: Sequence[int] | None, games: Sequence[int] | None, drawn: int,
                  both_lose: bool) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """Places, games won and drawn games from what the organiser said; refused
        unless the formats can read them (:class:`Result`'s own check)."""
        placed, won, drawn = TournamentService._said(pairing, settings, winner, places,
                                                     games, drawn, both_lose)
        try:
            Result(pairing.round, pairing.seats, placed, won, drawn, both_lose)
        except ValueError:
            raise TournamentError(Text("tournaments.error.disagree")) from None
        return placed, won, drawn

    @staticmethod
    def _said(pairing: PairingRow, settings: TournamentSettings, winner: int | None,
              places: Sequence[int] | None, games: Sequence[int] | None, drawn: int,
              both_lose: bool) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """What the organiser said as places, games won and drawn games."""
        seats = pairing.seats
        n = len(seats)
        if n == 1:
            raise TournamentError(Text("tournaments.error.bye_result"))
        if winner is not None and winner not in seats:
            raise TournamentError(Text("tournaments.error.winner_seated"))
        if games is not None and (len(games) != n or any(g < 0 for g in games)):
            raise TournamentError(Text("tournaments.error.games_each", count=n))
        if drawn < 0:
            raise TournamentError(Text("tournaments.error.drawn_games"))
        if both_lose:
            return (n,) * n, tuple(games or (0,) * n), drawn
        if places is not None:
            if len(places) != n or any(not 1 <= p <= n for p in places):
                raise TournamentError(Text("tournaments.error.places_each", most=n))
            placed = tuple(places)
            if 1 not in placed:
                raise TournamentError(Text("tournaments.error.nobody_first"))
            return placed, tuple(games or (int(p == 1) for p in placed)), drawn
        needed = settings.best_of // 2 + 1 if n == 2 else 1
        if winner is None:  # a draw
            won = tuple(games or (0,) * n)
            if len(set(won)) != 1:
                raise TournamentError(Text("tournaments.error.draw_games"))
            return (1,) * n, won, drawn or (0 if any(won) else 1)
        placed = tuple(1 if user == winner else 2 for user in seats)
        won = tuple(games or (needed if user == winner else 0 for user in seats))
        if any(won[seats.index(winner)] <= won[i] for i in range(n) if seats[i] != winner):
            raise TournamentError(Text("tournaments.error.winner_games"))
        return placed, won, drawn

    async def drop(self, who: Member, tournament_id: int, user_id: int | None = None, *,
                   why: str = "") -> EntrantRow:
        """Drop from a running tournament: yourself between rounds (once your match has
        its result), or anyone at any time (organisers). They keep their results and
        are never paired again; a match of theirs under way is lost (their seat
        forfeits)."""
        return await self._remove(who, tournament_id, user_id, why=why, disqualify=False)

    async def disqualify(self, who: Member, tournament_id: int, user_id: int, *,
                         why: str = "") -> EntrantRow:
        """Disqualify a player (organisers): dropped, marked so, their match under way
        lost."""
        return await self._remove(who, tournament_id, user_id, why=why, disqualify=True)

    async def _remove(self, who: Member, tournament_id: int, user_id: int | None, *,
                      why: str, disqualify: bool) -> EntrantRow:
        target = who.user_id if user_id is None else user_id
        organiser = await self.may_organise(who)
        if (target != who.user_id or disqualify) and not organiser:
            raise NotOrganiser()
        async with self._lock(tournament_id):
            tournament = await self._get(who, tournament_id)
            if tournament.status != "running":
                raise TournamentError(Text("tournaments.error.drop_not_running"))
            playing = await self._write(self.store.tournaments.drop(
                tournament_id, target, by_user=who.user_id, why=why, disqualify=disqualify,
                between_rounds=not organiser))
        after = self._after_drop(tournament_id, playing, target)
        if self.closing:  # the seat must still forfeit: no restart would
            await after
        else:
            self.in_background(after, f"croupier-tournament-drop-{tournament_id}")
        return await self._entrant(tournament_id, target)

    async def _after_drop(self, tournament_id: int, playing: int | None, user_id: int) -> None:
        """What a drop brings about, once it is answered (it may take a while: a next
        round paired, announced and opened): the dropped seat forfeits its game under
        way, and the tournament goes on."""
        try:
            async with self._lock(tournament_id):
                if playing is not None:
                    await self._forfeit(playing, user_id)
                await self._advance(tournament_id)
        except Exception:
            log.exception("tournament %s: it could not go on after a drop", tournament_id)

    async def _forfeit(self, match_id: int, user_id: int) -> None:
        """Forfeit ``user_id``'s seat in a game (its result then decides the pairing)."""
        try:
            match = self.matches.get(match_id)
            if match.row.status == "lobby":
                await self.matches.start(CROUPIER, match.row.channel_id)
            await self.matches.forfeit(Player(user_id, "?"), match.row.channel_id)
        except (NoMatchHere, NotSeated):
            pass  # over already, or the computer plays the seat: its result decides

    async def cancel(self, who: Member, tournament_id: int, *, why: str = "") -> TournamentRow:
        """Cancel (organisers): what was played stays in history, games under way are
        closed without a result, and the tournament is marked cancelled."""
        await self._organiser(who, tournament_id)
        async with self._lock(tournament_id):
            playing = await self._write(self.store.tournaments.cancel(
                tournament_id, by_user=who.user_id, why=why))
            await self._close_games(playing)
            tournament = await self._get(who, tournament_id)
            await self._announce_end(tournament)
            await self._retire_places(tournament)  # those of games closed: once shown
        return await self._get(who, tournament_id)

    # -- reading -----------------------------------------------------------------------
    async def get(self, who: Member, tournament_id: int) -> TournamentRow:
        """A tournament of the person's server."""
        return await self._get(who, tournament_id)

    async def live(self, who: Member, channel_id: int | None = None) -> list[TournamentRow]:
        """The server's tournaments not finished or cancelled (those created in
        ``channel_id``, if given), oldest first."""
        found = await self.store.tournaments.live_in_guild(who.guild_id)
        return [t for t in found if channel_id is None or t.channel_id == channel_id]

    async def latest(self, who: Member, channel_id: int | None = None
                     ) -> TournamentRow | None:
        """The server's newest tournament whatever its status (the newest created in
        ``channel_id``, if given): what a reading command means without a number."""
        return await self.store.tournaments.latest_in_guild(who.guild_id, channel_id)

    async def entrants(self, who: Member, tournament_id: int) -> list[EntrantRow]:
        """Its entrants (by seed once it started)."""
        await self._get(who, tournament_id)
        return await self.store.tournaments.entrants(tournament_id)

    async def standings(self, who: Member, tournament_id: int) -> Standings:
        """The standings after the last result (final once it is finished)."""
        return await self._standings(await self._get(who, tournament_id))

    async def pairings(self, who: Member, tournament_id: int,
                       round_no: int | None = None) -> RoundView:
        """A round's pairings (the current round's by default)."""
        tournament = await self._get(who, tournament_id)
        return await self._round_view(tournament, tournament.round if round_no is None
                                      else round_no)

    async def bracket(self, who: Member, tournament_id: int) -> Any | None:
        """The bracket as it stands (:class:`rules.tournament.elimination.Bracket`, for
        ``bot.pictures.tournament.render_bracket``): an elimination tournament's, or the
        top cut's once it began; ``None`` for other formats."""
        tournament = await self._get(who, tournament_id)
        return (await self._progress(tournament)).bracket()

    async def history(self, who: Member, user_id: int
                      ) -> list[tuple[TournamentRow, EntrantRow]]:
        """The tournaments ``user_id`` entered on the person's server, newest first,
        with their entry (``final_rank`` 1: won) — for a badge in stats and a history."""
        return await self.store.tournaments.of_player(who.guild_id, user_id)

    async def games(self, who: Member, tournament_id: int) -> list[GameLink]:
        """Every game of a tournament (ordinary matches, by id), in the order opened."""
        await self._get(who, tournament_id)
        return await self.store.tournaments.games(tournament_id)

    async def set_message(self, who: Member, tournament_id: int, message_id: int) -> None:
        """Remember the tournament's message in its channel (the Discord layer)."""
        await self._get(who, tournament_id)
        await self.store.tournaments.set_message(tournament_id, message_id)

    async def status(self, who: Member, tournament_id: int) -> TournamentStatus:
        """Where the tournament stands."""
        return (await self._get(who, tournament_id)).status
