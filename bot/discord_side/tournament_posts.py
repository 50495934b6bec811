"""The tournament service's Discord side: the place a pairing plays in (a public thread
of the tournament's channel, its players added and pinged, or a text channel of its own
when the tournament does not use threads), given back once its games are over (the
thread archived, the channel deleted), the room Discord's caps leave for places (1,000
active threads in a server; 50 channels in a category, 500 in a server), the notices it
posts (pairings and standings
as pictures drawn off the event loop, every page of them, with a text version that fits
a phone; a round pings only its own players), the tournament message with its buttons,
and the converter from the format's bracket to the renderer's.

Computer entrants have user ids of 0 or less: they are named in every text but never
mentioned, pinged or added to a thread.

Generic: nothing here names a game.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_parts.limits import (
    ACTIVE_THREADS,
    CATEGORY_CHANNELS,
    CHANNEL_NAME,
    CONTENT,
    FILES,
    GUILD_CHANNELS,
    LONGEST_ARCHIVE,
)
from bot.discord_parts.replies import ping
from bot.discord_side.tournament_terms import robot
from bot.discord_side.tournament_views import refresh_message
from bot.discord_side.transport import ARCHIVED_THREAD
from bot.i18n import Number, Text, say, speaking, tr
from bot.pictures import tournament as render
from bot.tournaments.model import (
    HeldPlace,
    MatchPlace,
    Notice,
    PlaceFailed,
    PlaceRefused,
    Room,
    RoundView,
    Standings,
    is_person,
    is_unseen,
)
from bot.tournaments.terms import (
    entrant_name,
    label_said,
    outcome_words,
    pairing_result,
    players_words,
)
from rules.tournament import elimination
from rules.words import clip
from storage.tournaments import EntrantRow, GameLink, PairingRow, TournamentRow

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot

log = logging.getLogger(__name__)

SIDES: dict[str, render.Side] = {"main": "winners", "winners": "winners",
                                 "losers": "losers", "grand_final": "final"}
"""The format's bracket sections as the renderer's sides (the match for third place
has no place in the renderer's picture)."""

MATCH_THREAD_ARCHIVE = LONGEST_ARCHIVE
"""A match thread's ``auto_archive_duration``, in minutes: a week, the longest Discord
takes (a turn may last seven days; the table is edited in an archived thread anyway,
see :mod:`bot.discord_side.transport`)."""
TOO_MANY_THREADS = 160006
TOO_MANY_CHANNELS = 30013
INVALID_FORM = 50035
"""Discord's codes for "Maximum number of active threads reached", "Maximum number of
guild channels reached (500)", and an Invalid Form Body (a full category's is on
``parent_id``)."""


def channel_name(title: str) -> str:
    """A place's title as a text channel's name: lowercase, words joined by dashes
    (anything but letters, digits, ``_`` and ``-`` becomes a dash), at most 100
    characters; ``match`` if nothing is left.

    >>> channel_name("R2 · Table 3: Ada vs Bo")
    'r2-table-3-ada-vs-bo'
    >>> channel_name("· ·"), len(channel_name("x" * 300))
    ('match', 100)
    """
    name = re.sub(r"[^\w-]+", "-", title.lower())
    name = re.sub(r"-{2,}", "-", name).strip("-")[:CHANNEL_NAME].strip("-")
    return name or "match"


# -- rows, texts and pictures ----------------------------------------------------------
def seat_names(view: RoundView, pairing: PairingRow) -> list[str]:
    """The names in a pairing's seats as shown (a computer entrant's in the words of
    the locale spoken)."""
    return [entrant_name(user, name)
            for user, name in zip(pairing.seats, view.seat_names(pairing), strict=True)]


def pairing_rows(view: RoundView) -> list[render.TableRow]:
    """A round's pairings as the renderer's rows: tables first, byes last; labels in
    the words of the locale spoken."""
    rows, byes = [], []
    for pairing in view.pairings:
        names = tuple(seat_names(view, pairing))
        label = label_said(pairing.label)
        if pairing.is_bye:
            byes.append(render.TableRow(None, (names[0], None), label))
        else:
            rows.append(render.TableRow(pairing.table, names, label))
    return rows + byes


def round_lines(view: RoundView) -> list[str]:
    """A round's pairings as lines of the round's notice: each table's players, then
    the byes."""
    lines = []
    for pairing in view.pairings:
        names = seat_names(view, pairing)
        label = label_said(pairing.label)
        if pairing.is_bye:
            lines.append(tr("tournaments.post.bye_line", name=names[0]))
        else:
            players = say(players_words(names))
            lines.append(tr("tournaments.post.table_label_line", table=pairing.table,
                            label=label, players=players) if label
                         else tr("tournaments.post.table_line", table=pairing.table,
                                 players=players))
    return lines


def standing_names(standings: Standings) -> dict[int, str]:
    """Entrant id → name for the standings' lines (a computer entrant's in the words
    of the locale spoken)."""
    return {line.standing.entrant: entrant_name(line.standing.entrant, line.name)
            for line in standings.lines}


def pairings_files(view: RoundView) -> list[Any]:
    """Callables drawing every page of the round's pairings, each as a file (the first
    ``pairings-<round>.png``, later ones ``pairings-<round>-<page>.png``)."""
    title, rows = view.tournament.name, pairing_rows(view)

    def page_file(page: int) -> Any:
        name = f"pairings-{view.round}" + (f"-{page}" if page > 1 else "") + ".png"
        return lambda: discord.File(
            io.BytesIO(render.render_pairings(title, view.round, rows, page)), filename=name)

    return [page_file(page) for page in range(1, render.pairings_pages(rows) + 1)]


def standings_files(standings: Standings) -> list[Any]:
    """Callables drawing every page of the standings, each as a file (the first
    ``standings.png``, later ones ``standings-<page>.png``)."""
    title = (tr("tournaments.post.final_title", name=standings.tournament.name)
             if standings.final else standings.tournament.name)
    lines = [line.standing for line in standings.lines]
    names = standing_names(standings)

    def page_file(page: int) -> Any:
        name = "standings" + (f"-{page}" if page > 1 else "") + ".png"
        return lambda: discord.File(
            io.BytesIO(render.render_standings(title, lines, names, page)), filename=name)

    return [page_file(page) for page in range(1, render.standings_pages(lines) + 1)]


def bracket_file(title: str, bracket: render.Bracket) -> Any:
    """A callable drawing a bracket as a file."""
    return lambda: discord.File(io.BytesIO(render.render_bracket(title, bracket)),
                                filename="bracket.png")


def standings_texts(standings: Standings) -> list[str]:
    """Every page of the standings as code blocks that fit a phone (and a message)."""
    lines = [line.standing for line in standings.lines]
    names = standing_names(standings)
    return [render.standings_text(standings.tournament.name, lines, names, page)
            for page in range(1, render.standings_pages(lines, text=True) + 1)]


def pairings_texts(view: RoundView) -> list[str]:
    """Every page of the round's pairings as code blocks."""
    rows = pairing_rows(view)
    return [render.pairings_text(view.tournament.name, view.round, rows, page)
            for page in range(1, render.pairings_pages(rows, text=True) + 1)]


def split_text(text: str, limit: int = CONTENT) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut between lines (a line
    longer than that is cut itself).

    >>> split_text("ab\\ncd\\nef", 5)
    ['ab\\ncd', 'ef']
    >>> split_text("abcdefg", 3)
    ['abc', 'def', 'g']
    """
    pieces: list[str] = []
    for line in text.split("\n"):
        while len(line) > limit:
            pieces.append(line[:limit])
            line = line[limit:]
        if pieces and len(pieces[-1]) + 1 + len(line) <= limit:
            pieces[-1] += "\n" + line
        else:
            pieces.append(line)
    return [piece for piece in pieces if piece.strip()]


def messages_of(texts: Sequence[str], makers: Sequence[Any],
                limit: int = CONTENT) -> list[tuple[str, list[Any]]]:
    """Texts and pictures as messages Discord takes: the texts joined by new lines
    while a message holds at most ``limit`` characters (a longer text is cut between
    its lines; a code block from the renderer always fits one message), and at most
    :data:`FILES` pictures a message, in order; more pictures than messages
    make more messages.

    >>> [(text, len(files)) for text, files in messages_of(["a" * 6, "b" * 6], [0] * 12, 10)]
    [('aaaaaa', 10), ('bbbbbb', 2)]
    >>> [(text, len(files)) for text, files in messages_of(["hi"], [0] * 11)]
    [('hi', 10), ('', 1)]
    """
    contents: list[str] = []
    for text in texts:
        for piece in split_text(text, limit):
            if contents and len(contents[-1]) + 1 + len(piece) <= limit:
                contents[-1] += "\n" + piece
            else:
                contents.append(piece)
    batches = [list(makers[k:k + FILES])
               for k in range(0, len(makers), FILES)]
    count = max(len(contents), len(batches), 1)
    contents += [""] * (count - len(contents))
    batches += [[]] * (count - len(batches))
    return list(zip(contents, batches, strict=True))


def mentioned(content: str) -> list[int]:
    """The people a message's content mentions (``<@id>`` and ``<@!id>``), in order.

    >>> mentioned("<@12> and <@!34>, not <#56> or <@-1>")
    [12, 34]
    """
    return list(dict.fromkeys(int(found) for found in re.findall(r"<@!?(\d+)>", content)))


async def draw(makers: Sequence[Any]) -> list[discord.File]:
    """Draw pictures in worker threads (Pillow lets go of the GIL while encoding)."""
    return list(await asyncio.gather(*(asyncio.to_thread(make) for make in makers)))


# -- the bracket -----------------------------------------------------------------------
def to_render_bracket(bracket: elimination.Bracket,
                      entrants: Sequence[EntrantRow]) -> render.Bracket:
    """The format's bracket as the renderer draws it: section → side, column → round,
    index from 0, the winner as a slot's position; the match for third place is left
    out (the picture has no place for it)."""
    names = {e.user_id: entrant_name(e.user_id, e.name) for e in entrants}
    seeds = {e.user_id: e.seed for e in entrants}

    def slot(who: elimination.Slot) -> render.Slot:
        if who == elimination.BYE:
            return render.BYE
        if who is None:
            return render.TBD
        return render.Slot(names.get(who, "?"), seeds.get(who))

    matches = []
    for match in bracket.matches:
        side = SIDES.get(match.section)
        if side is None:
            continue
        winner = (match.slots.index(match.winner)
                  if match.winner is not None and match.winner in match.slots else None)
        matches.append(render.BracketMatch(
            match.column, match.index - 1, (slot(match.slots[0]), slot(match.slots[1])),
            winner, side, say(match.label)))
    return render.Bracket(tuple(matches))


# -- the place maker and the notices ---------------------------------------------------
class TournamentPoster:
    """The ``starter`` and ``announce`` the tournament service is given."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot

    async def _channel(self, channel_id: int) -> Any:
        channel = self.bot.get_channel(channel_id)
        return channel if channel is not None else await self.bot.fetch_channel(channel_id)

    async def make_place(self, place: MatchPlace) -> int:
        """The place of one pairing's games; returns its id. With threads (the
        default), a public thread of the tournament's channel (archived after a week
        without a message, the longest Discord allows) with its players added (the bot
        needs Create Public Threads); otherwise a text channel of its own, named after
        the pairing, in the tournament channel's category (the bot needs Manage
        Channels). Discord refusing it (a permission, or no room under its caps) is
        :class:`PlaceRefused`, failing for now :class:`PlaceFailed`, both in words (the
        service then plays the tables in the tournament's channel, or tries again).
        Either way the players are pinged there; computer entrants are only named."""
        users = [user for user, _ in place.players if is_person(user)]
        with speaking(await self.bot.languages.channel(place.tournament.guild_id)):
            return await self._make_place(place, users)

    async def _make_place(self, place: MatchPlace, users: list[int]) -> int:
        """:meth:`make_place`, in the channel's language."""
        try:
            channel = await self._channel(place.tournament.channel_id)
            where = await self._new_place(channel, place)
        except discord.HTTPException as refused:
            log.info("tournament %s: Discord refused a place for table %s (%s)",
                     place.tournament.id, place.table, refused)
            raise self._place_refusal(refused, place) from None
        if place.use_threads:
            for user in users:
                try:
                    await where.add_user(discord.Object(user))
                except discord.HTTPException:
                    log.info("thread %s: could not add %s (the ping below adds them)",
                             where.id, user)
        seated = say(players_words([f"<@{user}>" if is_person(user)
                                    else entrant_name(user, name)
                                    for user, name in place.players]))
        label = label_said(place.label)
        try:
            await where.send(
                tr("tournaments.post.here_label", players=seated, name=place.tournament.name,
                   round=place.round, label=label) if label
                else tr("tournaments.post.here", players=seated, name=place.tournament.name,
                        round=place.round),
                allowed_mentions=ping(users))
        except discord.HTTPException as failed:  # the place is made: the table follows
            log.warning("tournament %s: table %s: its players could not be pinged in %s "
                        "(%s)", place.tournament.id, place.table, where.id, failed)
        return int(where.id)

    @staticmethod
    def _place_refusal(refused: discord.HTTPException, place: MatchPlace
                       ) -> PlaceRefused | PlaceFailed:
        """Discord's answer to a new place, in words for the organiser."""
        if isinstance(refused, discord.Forbidden):
            return PlaceRefused(Text("tournaments.place.no_thread_permission")
                                if place.use_threads
                                else Text("tournaments.place.no_channel_permission"))
        if refused.code == TOO_MANY_THREADS:
            return PlaceRefused(Text("tournaments.place.no_thread_room",
                                     most=Number(ACTIVE_THREADS)))
        if refused.code == TOO_MANY_CHANNELS:
            return PlaceRefused(Text("tournaments.place.no_channel_room",
                                     most=Number(GUILD_CHANNELS)))
        if refused.code == INVALID_FORM and "parent_id" in refused.text:
            return PlaceRefused(Text("tournaments.place.no_category_room",
                                     most=Number(CATEGORY_CHANNELS)))
        if isinstance(refused, discord.NotFound):
            return PlaceFailed(Text("tournaments.place.channel_gone"))
        return PlaceFailed(Text("tournaments.place.thread_failed") if place.use_threads
                           else Text("tournaments.place.channel_failed"))

    @staticmethod
    async def _new_place(channel: Any, place: MatchPlace) -> Any:
        """A new public thread of ``channel``, or (without threads) a text channel in
        its category."""
        if place.use_threads:
            return await channel.create_thread(name=place.title,
                                               type=discord.ChannelType.public_thread,
                                               auto_archive_duration=MATCH_THREAD_ARCHIVE)
        return await channel.guild.create_text_channel(
            channel_name(place.title), category=channel.category,
            reason=tr("tournaments.place.reason", id=place.tournament.id, round=place.round,
                      table=place.table))

    async def retire_place(self, held: HeldPlace) -> None:
        """Give a pairing's place back once its games are over: archive its thread
        (its history stays readable; a message there opens it again), or delete its
        channel. A place already gone is given back; Discord refusing is logged and
        the place kept (it is not asked again)."""
        with speaking(await self.bot.languages.channel(held.tournament.guild_id)):
            reason = tr("tournaments.place.retired", id=held.tournament.id)
        try:
            if held.thread:
                await self.bot.http.edit_channel(held.place_id, archived=True, reason=reason)
            else:
                await self.bot.http.delete_channel(held.place_id, reason=reason)
        except discord.NotFound:
            pass
        except discord.HTTPException as refused:
            if held.thread and refused.code == ARCHIVED_THREAD:
                return  # Discord archived it already
            log.warning("tournament %s: its place %s could not be given back (%s)",
                        held.tournament.id, held.place_id, refused)

    async def room(self, tournament: TournamentRow, threads: bool) -> Room | None:
        """The room Discord's caps leave for the tournament's places now: active
        threads in the server, or channels in the tournament channel's category and
        in the server (the tighter); ``None`` if the channel cannot be found."""
        try:
            channel = await self._channel(tournament.channel_id)
        except discord.HTTPException:
            return None
        guild = getattr(channel, "guild", None)
        if guild is None:
            return None
        if threads:
            return Room(ACTIVE_THREADS - len(guild.threads), Text("tournaments.room.server"),
                        Text("tournaments.room.thread_cap", most=Number(ACTIVE_THREADS)))
        cap = Text("tournaments.room.channel_cap", category=Number(CATEGORY_CHANNELS),
                   server=Number(GUILD_CHANNELS))
        server = Room(GUILD_CHANNELS - len(guild.channels), Text("tournaments.room.server"),
                      cap)
        category = getattr(channel, "category", None)
        if category is None:
            return server
        inside = Room(CATEGORY_CHANNELS - len(category.channels),
                      Text("tournaments.room.category", name=category.name), cap)
        return min(server, inside, key=lambda room: room.free)

    async def announce(self, notice: Notice) -> None:
        """Post a notice in the tournament's channel: a round's pairings (every picture
        page, pinging that round's players only), standings after every round (every
        picture and text page), the final standings and, for a bracket, its picture;
        in as many messages as Discord's limits need (each pings only the people it
        mentions), in the server's language; then refresh the tournament message."""
        with speaking(await self.bot.languages.channel(notice.tournament.guild_id)):
            await self._announce(notice)
        await refresh_message(self.bot, notice.tournament.id)

    async def _announce(self, notice: Notice) -> None:
        """:meth:`announce`'s messages, in the language spoken."""
        channel = await self._channel(notice.tournament.channel_id)
        makers: list[Any] = []
        texts = [say(notice.text)]
        if notice.kind == "round" and notice.pairings is not None:
            texts[0] += "".join("\n" + line for line in round_lines(notice.pairings))
        people = [user for user in dict.fromkeys(notice.mentions) if is_person(user)]
        if people:  # the pings themselves: only this round's players
            texts.append(" ".join(f"<@{u}>" for u in people))
        if notice.kind == "round" and notice.pairings is not None:
            makers += pairings_files(notice.pairings)
        if notice.standings is not None and notice.standings.lines and (
                notice.kind != "round" or notice.round > 1):
            makers += standings_files(notice.standings)
            texts += standings_texts(notice.standings)
        if notice.kind in ("finished", "cancelled", "round_done"):
            bracket = await self.bracket(notice.tournament)
            if bracket is not None:
                makers.append(bracket_file(notice.tournament.name, bracket))
        for content, batch in messages_of(texts, makers):
            pinged = [user for user in mentioned(content) if user in people]
            await channel.send(content or None, files=await draw(batch),
                               allowed_mentions=ping(pinged))

    async def bracket(self, tournament: TournamentRow) -> render.Bracket | None:
        """The renderer's bracket of an elimination tournament (or its top cut)."""
        who = robot(tournament)
        found = await self.bot.tournaments.bracket(who, tournament.id)
        if found is None:
            return None
        converted = to_render_bracket(found, await self.bot.tournaments.entrants(
            who, tournament.id))
        return converted if converted.matches else None


# -- a tournament's matches, round by round --------------------------------------------
def place_words(tournament: TournamentRow, pairing: PairingRow) -> str:
    """Where a pairing played, for its line in the history: a link to its thread or
    channel; "played unseen" for a table of computers only; nothing once its channel
    was deleted (its games are still listed) or if it played in the tournament's
    channel.

    >>> from types import SimpleNamespace as S
    >>> place_words(S(settings={}), S(thread_id=12, place_retired=True))
    ' · <#12>'
    >>> place_words(S(settings={"use_threads": False}), S(thread_id=12, place_retired=True))
    ''
    >>> place_words(S(settings={}), S(thread_id=-1002001, place_retired=False))
    ' · played unseen'
    """
    if pairing.thread_id is None:
        return ""
    if is_unseen(pairing.thread_id):
        return tr("tournaments.history.unseen")
    deleted = pairing.place_retired and not tournament.settings.get("use_threads", True)
    return "" if deleted else f" · <#{pairing.thread_id}>"


def _pairing_block(view: RoundView, pairing: PairingRow,
                   games: Sequence[GameLink]) -> list[str]:
    """A pairing's lines: table, players, result and place; then a line per game."""
    names = seat_names(view, pairing)
    if pairing.is_bye:
        return [tr("tournaments.history.bye", name=names[0])]
    label = label_said(pairing.label)
    players = say(players_words(names))
    result = pairing_result(pairing, names)
    place = place_words(view.tournament, pairing)
    lines = [tr("tournaments.history.table_label", table=pairing.table, label=label,
                players=players, result=result, place=place) if label
             else tr("tournaments.history.table", table=pairing.table, players=players,
                     result=result, place=place)]
    for game in games:
        lines.append(tr("tournaments.history.game", number=game.game_no,
                        match=game.match_id, outcome=outcome_words(game.outcome)))
    return lines


def history_pages(tournament: TournamentRow, rounds: Sequence[RoundView],
                  games: Sequence[GameLink], limit: int = CONTENT) -> list[str]:
    """A tournament's matches, round by round — each table with its players, result,
    place and games — cut into pages of at most ``limit`` characters (a table's lines
    never split), each headed with the tournament and its page number."""
    by_pairing: dict[tuple[int, int], list[GameLink]] = {}
    for game in games:
        by_pairing.setdefault((game.round, game.table), []).append(game)
    blocks: list[list[str]] = []
    for view in rounds:
        cut = bool(view.pairings) and view.pairings[0].stage == "cut"
        blocks.append([tr("tournaments.history.round_cut", round=view.round) if cut
                       else tr("tournaments.history.round", round=view.round)])
        for pairing in view.pairings:
            blocks.append([clip(line, limit // 2) for line in _pairing_block(
                view, pairing, by_pairing.get((view.round, pairing.table), []))])
    if not blocks:
        blocks.append([tr("tournaments.history.none")])
    room = limit - 120  # the heading: the name (at most 100) and the page number
    pages: list[list[str]] = [[]]
    for block in blocks:
        size = sum(len(line) + 1 for line in block)
        if pages[-1] and sum(len(line) + 1 for line in pages[-1]) + size > room:
            pages.append([])
        pages[-1].extend(block)
    return [tr("tournaments.history.head", name=tournament.name, id=tournament.id, page=n,
               pages=len(pages)) + "\n" + "\n".join(lines)
            for n, lines in enumerate(pages, start=1)]
