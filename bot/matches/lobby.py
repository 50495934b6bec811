"""Lobbies: open a table, take and leave seats, start, cancel, kick."""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from typing import Any

from bot.errors import (
    AlreadySeated,
    ChannelBusy,
    DiscordBusy,
    LobbyFull,
    NotAllowed,
    NotSeated,
    WrongPhase,
)
from bot.i18n import Phrase, Seat, Text
from bot.matches.commit import MatchCore
from bot.matches.levels import checked_level
from bot.matches.live import LiveMatch, Player, opening
from rules.core import DEFAULT_LEVEL, Event, GameInfo, SeatSetup
from rules.errors import shown
from rules.registry import get_game
from rules.words import clip
from storage import errors as storage_errors
from storage.collections import CollectionRefusal
from storage.models import MatchRow, SeatRow

log = logging.getLogger(__name__)

BOT_NAMES = ("Croupier Bot", "Dealer Bot", "Pit Boss Bot", "Shuffle Bot", "Ace Bot")
NAME_LENGTH = 32
"""Longest seat name kept (Discord's own limit for display names)."""


def seat_name(name: str) -> str:
    """A display name as a seat keeps it: one line, at most :data:`NAME_LENGTH` characters.

    >>> seat_name("  Ada\\nLovelace ")
    'Ada Lovelace'
    >>> len(seat_name("x" * 500))
    32
    """
    return clip(" ".join(str(name).split()) or "?", NAME_LENGTH)


class Lobby(MatchCore):
    """Opening, filling, starting and closing tables."""

    async def open_lobby(self, host: Player, *, guild_id: int | None, channel_id: int,
                         game: str, options: Mapping[str, Any] | None = None,
                         seats: int | None = None, vs_bot: bool = False,
                         seed: int | None = None, setup: SeatSetup = None,
                         computer_level: str = DEFAULT_LEVEL) -> LiveMatch:
        """Open a lobby with the host in seat 0, and return once its table is
        posted (a lobby nobody can see is not opened: it is cancelled and the
        transport's refusal raised). The computer players that fill its empty
        seats play at ``computer_level``; with ``vs_bot`` they take the other seats
        and the match starts at once."""
        info = get_game(game)
        seats = info.check_seats(info.default_seats if seats is None else seats)
        level = checked_level(info, computer_level)
        seed = random.SystemRandom().randrange(2**62) if seed is None else seed
        # Refuse bad options before anything is stored; store them all, resolved.
        parsed = info.options.parse(options)
        info.new(parsed, seats, seed, [setup] + [None] * (seats - 1))
        if channel_id in self._by_channel:
            raise ChannelBusy()
        await self.hooks_for(info.name).check_open(guild_id, parsed.stored(), vs_bot=vs_bot)
        host_seat = SeatRow(seat=0, user_id=host.user_id, name=seat_name(host.name), setup=setup)
        stored = parsed.stored()
        if not vs_bot:
            await self.hooks_for(info.name).check_seat(
                LiveMatch(row=MatchRow(id=0, game=info.name, options=stored, seed=seed,
                                       guild_id=guild_id, channel_id=channel_id,
                                       host_id=host.user_id, max_seats=seats,
                                       status="lobby", seats=[]), info=info), setup,
                host.user_id)
        try:
            match_id = await self.store.matches.create_lobby(
                game=info.name, options=stored, seed=seed, guild_id=guild_id,
                channel_id=channel_id, host_id=host.user_id, max_seats=seats, seats=[host_seat],
                computer_level=level,
            )
        except storage_errors.ChannelBusy:
            raise ChannelBusy() from None
        row = MatchRow(id=match_id, game=info.name, options=stored, seed=seed,
                       guild_id=guild_id, channel_id=channel_id, host_id=host.user_id,
                       max_seats=seats, status="lobby", seats=[host_seat],
                       computer_level=level)
        match = LiveMatch(row=row, info=info)
        self._register(match)
        try:
            if vs_bot:
                await self.start(host, channel_id, fill_with_bots=True, show=False)
            await self._show_first(match)
        except Exception:
            await self._close(match, "cancelled", Phrase("lobby.closed.not_shown"), show=False)
            raise
        return match

    async def open_seated(self, players: Sequence[Player], *, guild_id: int | None,
                          channel_id: int, game: str,
                          options: Mapping[str, Any] | None = None, seed: int | None = None,
                          on_open: Callable[[LiveMatch], Awaitable[None]] | None = None,
                          computers: Mapping[int, str] | Collection[int] = (),
                          host: Player | None = None) -> LiveMatch:
        """Open a match with ``players`` in these seats and start it at once,
        returning once its table is posted — for matches someone else arranged, such
        as a tournament's. ``host`` hosts (default: the first player); the seats of
        ``computers`` (user ids) are played by the computer player, each at the level
        the mapping gives it (a plain collection: ``normal``). ``on_open`` runs
        once the match has its id and before it starts (so whatever it writes is in
        the store before anyone can move); if it raises, or the table cannot be shown,
        the match is cancelled and the error raised."""
        info = get_game(game)
        info.check_seats(len(players))
        if len({p.user_id for p in players}) != len(players):
            raise AlreadySeated()
        levels = {user: checked_level(info, level) for user, level in (
            computers.items() if isinstance(computers, Mapping)
            else ((user, DEFAULT_LEVEL) for user in computers))}
        seed = random.SystemRandom().randrange(2**62) if seed is None else seed
        parsed = info.options.parse(options)
        info.new(parsed, len(players), seed)
        if channel_id in self._by_channel:
            raise ChannelBusy()
        stored = parsed.stored()
        await self.hooks_for(info.name).check_open(guild_id, stored, vs_bot=False)
        seats = [SeatRow(seat=n, user_id=p.user_id, name=seat_name(p.name),
                         is_bot=p.user_id in levels,
                         level=levels.get(p.user_id, DEFAULT_LEVEL))
                 for n, p in enumerate(players)]
        host = host or players[0]
        try:
            match_id = await self.store.matches.create_lobby(
                game=info.name, options=stored, seed=seed, guild_id=guild_id,
                channel_id=channel_id, host_id=host.user_id, max_seats=len(players),
                seats=seats)
        except storage_errors.ChannelBusy:
            raise ChannelBusy() from None
        match = LiveMatch(row=MatchRow(
            id=match_id, game=info.name, options=stored, seed=seed, guild_id=guild_id,
            channel_id=channel_id, host_id=host.user_id, max_seats=len(players),
            status="lobby", seats=seats), info=info)
        self._register(match)
        try:
            if on_open is not None:
                await on_open(match)
            await self.start(host, channel_id, show=False)
            await self._show_first(match)
        except Exception:
            if match.row.status in ("lobby", "active"):
                await self._close(match, "cancelled", Phrase("lobby.closed.not_started"),
                                  show=False)
            raise
        return match

    async def _show_first(self, match: LiveMatch) -> None:
        """Post a new table at once (not by the match's driver), so that its
        opener hears of it only once it is there, or hears why not."""
        async with match.lock:
            if not await self._show(match) and match.row.table_message_id is None:
                raise DiscordBusy()
        self._schedule(match)

    async def join(self, player: Player, channel_id: int, *,
                   setup: SeatSetup = None) -> LiveMatch:
        """Take the next free seat of the channel's lobby."""
        match = self.match_in(channel_id)
        async with match.lock:
            self._require_lobby(match)
            if any(s.user_id == player.user_id for s in match.seats):
                raise AlreadySeated()
            if len(match.seats) >= match.row.max_seats:
                raise LobbyFull(Text("error.table_full", seats=match.row.max_seats))
            await self.hooks_for(match.info.name).check_seat(match, setup, player.user_id)
            seats = [*match.seats, SeatRow(seat=len(match.seats), user_id=player.user_id,
                                           name=seat_name(player.name), setup=setup)]
            await self.moving(match, lambda version: self.store.matches.set_seats(
                match.id, seats, version=version))
            match.row.seats = seats
        self._schedule(match)
        return match

    async def leave(self, player: Player, channel_id: int) -> LiveMatch:
        """Leave a lobby. The host leaving hands the lobby to the next person (who
        may then start or cancel it, after a restart too), or closes it if
        nobody is left."""
        match = self.match_in(channel_id)
        async with match.lock:
            self._require_lobby(match)
            leaving = next((s for s in match.seats if s.user_id == player.user_id), None)
            if leaving is None:
                raise NotSeated()
            remaining = [s for s in match.seats if s.user_id != player.user_id]
            people = [s for s in remaining if s.user_id is not None and not s.is_bot]
            if not people:
                await self._close(match, "cancelled",
                                  Phrase("lobby.closed.left", name=leaving.name))
                return match
            seats = [SeatRow(seat=i, user_id=s.user_id, name=s.name, is_bot=s.is_bot,
                             setup=s.setup, level=s.level) for i, s in enumerate(remaining)]
            host_id = match.row.host_id
            if host_id == player.user_id:
                host_id = people[0].user_id or host_id
            await self.moving(match, lambda version: self.store.matches.set_seats(
                match.id, seats, host_id=host_id, version=version))
            match.row.seats = seats
            if host_id != match.row.host_id:
                match.row.host_id = host_id
                match.tell([Event("host", Phrase("lobby.host_now", left=leaving.name,
                                                 host=people[0].name))])
        self._schedule(match)
        return match

    async def start(self, player: Player, channel_id: int, *,
                    fill_with_bots: bool = False, computer_level: str | None = None,
                    show: bool = True) -> LiveMatch:
        """Deal and begin. Empty seats go to computer players if asked, at
        ``computer_level`` (by default the lobby's, chosen as it opened)."""
        match = self.match_in(channel_id)
        async with match.lock:
            self._require_lobby(match)
            self._require_host(match, player)
            level = checked_level(match.info, match.row.computer_level
                                  if computer_level is None else computer_level)
            seats = list(match.seats)
            if fill_with_bots:
                while len(seats) < match.row.max_seats:
                    n = len(seats)
                    seats.append(SeatRow(seat=n, user_id=None, is_bot=True,
                                         name=BOT_NAMES[(n - 1) % len(BOT_NAMES)],
                                         level=level))
            if len(seats) < match.info.min_seats:
                raise WrongPhase(Text("error.too_few_players", game=match.info.title,
                                      least=match.info.min_seats, seated=len(seats))
                )
            state = match.info.new(match.row.options, len(seats), match.row.seed,
                                   [s.setup for s in seats])
            ante = await self.hooks_for(match.info.name).starting(match, seats, state)
            await self._load_guild_timing(match)
            deadline = self._deadline(match, self.clock.now())
            try:
                await self.moving(match, lambda version: self.store.matches.start(
                    match.id, seats, deadline, ante=ante, version=version))
            except CollectionRefusal:
                raise NotAllowed(Text("error.stake_taken")) from None
            match.row.seats = seats
            match.row.status = "active"
            match.row.deadline_at = deadline
            match.row.warned = False
            match.state = state
            match.tell([opening(match.info)])
        self._due_at(self._due(match))
        if show:
            self._schedule(match)
        return match

    async def seat_deck(self, info: GameInfo, guild_id: int | None, user_id: int,
                        deck: str | None) -> SeatSetup:
        """A seat's setup for the deck named in ``/play … deck:`` or ``/join deck:``:
        one of the game's own decks, or one the person keeps (the game's hooks);
        refused, naming the decks there are, if neither.

        >>> import asyncio
        >>> from bot.matches.service import MatchService
        >>> from rules.registry import games
        >>> lobby = MatchService(None)  # type: ignore[arg-type]
        >>> with_decks = next(info for info in games().values() if info.decks)
        >>> asyncio.run(lobby.seat_deck(with_decks, 1, 2, with_decks.decks[0])) == {
        ...     "deck": with_decks.decks[0]}
        True
        """
        if deck is None:
            return None
        # Their own deck first: a starter someone claimed is saved under its name,
        # and their own copies are what they play (and may stake).
        hooks = self.hooks_for(info.name)
        own = await hooks.seat_setup(guild_id, user_id, deck)
        if own is not None:
            return own
        if deck in info.decks:
            return {"deck": deck}
        if not info.decks:
            raise WrongPhase(Text("error.no_decks", game=info.title))
        mine = await hooks.deck_names(guild_id, user_id)
        decks = ", ".join(info.decks)
        raise WrongPhase(Text("error.no_such_deck_yours", game=info.title, deck=shown(deck),
                              decks=decks, mine=", ".join(mine)) if mine
                         else Text("error.no_such_deck", game=info.title, deck=shown(deck),
                                   decks=decks))

    async def _load_guild_timing(self, match: LiveMatch) -> None:
        """The server's deadline settings for this game (``/config``), if any."""
        if match.row.guild_id is None:
            return
        timing = await self.store.settings.timing(match.row.guild_id, match.info.name)
        match.turn_seconds = timing.turn_seconds
        match.warn_seconds = timing.warn_seconds
        for source in self.timing_sources:
            try:
                own = await source(match)
            except Exception:
                log.exception("match %s: a timing source failed", match.id)
                continue
            if own is not None:
                match.turn_seconds = own

    async def cancel(self, player: Player, channel_id: int) -> LiveMatch:
        """Close the channel's lobby or match without a result (host or moderator)."""
        match = self.match_in(channel_id)
        async with match.lock:
            self._require_host(match, player)
            await self._close(match, "cancelled", Phrase("lobby.cancelled", name=player.name))
        return match

    async def kick(self, player: Player, channel_id: int, target_user_id: int) -> LiveMatch:
        """Remove someone (host or moderator). In a lobby their seat is freed; in
        play the computer player takes their seat over."""
        match = self.match_in(channel_id)
        if match.row.status == "lobby":
            async with match.lock:
                self._require_host(match, player)
                if target_user_id == player.user_id:
                    raise NotAllowed(Text("error.kick_self"))
                if not any(s.user_id == target_user_id for s in match.seats):
                    raise NotSeated(Text("error.kick_nobody"))
            return await self.leave(Player(target_user_id, "?"), channel_id)
        async with match.lock:
            self._require_host(match, player)
            seat = match.seat_of(target_user_id)
            if seat is None:
                raise NotAllowed(Text("error.kick_not_in_match"))
            await self.hooks_for(match.info.name).check_hand_over(match)
            seats = [SeatRow(**{**vars(s), "state": "kicked"}) if s.seat == seat.seat else s
                     for s in match.seats]
            await self.moving(match, lambda version: self.store.matches.set_seats(
                match.id, seats, version=version))
            match.row.seats = seats
        await self.transport.notify(match, Event(
            "kicked", Phrase("lobby.kicked", who=Seat(seat.seat))))
        self._schedule(match)
        return match

    async def _close(self, match: LiveMatch, status: str, note: Phrase, *,
                     show: bool = True) -> None:
        """End a lobby or match without a result; its channel is free at once."""
        await self.moving(match, lambda version: self.store.matches.set_status(
            match.id, status, version=version))  # type: ignore[arg-type]
        match.row.status = status  # type: ignore[assignment]
        match.row.deadline_at = None
        try:
            said = await self.hooks_for(match.info.name).closing(match)
        except Exception:  # what a game says of it never keeps a match from closing
            log.exception("match %s: what its game says as it closes failed", match.id)
            said = ()
        match.tell([Event("closed", note), *said])
        self._free_channel(match)
        self.deadlines_changed.set()
        self._tell_closed(match)
        if show:
            self._schedule(match)
        else:
            self._forget(match)
