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
from bot.tournaments.terms import outcome_words, pairing_result
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
def pairing_rows(view: RoundView) -> list[render.TableRow]:
    """A round's pairings as the renderer's rows: tables first, byes last."""
    rows, byes = [], []
    for pairing in view.pairings:
        names = tuple(view.seat_names(pairing))
        if pairing.is_bye:
            byes.append(render.TableRow(None, (names[0], None), pairing.label))
        else:
            rows.append(render.TableRow(pairing.table, names, pairing.label))
    return rows + byes


def standing_names(standings: Standings) -> dict[int, str]:
    """Entrant id → name for the standings' lines."""
    return {line.standing.entrant: line.name for line in standings.lines}


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
    title = standings.tournament.name + (" — final" if standings.final else "")
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
    names = {e.user_id: e.name for e in entrants}
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
            winner, side, match.label))
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
        seated = [f"<@{user}>" if is_person(user) else name for user, name in place.players]
        try:
            await where.send(
                (" vs ".join(seated) if len(seated) == 2 else ", ".join(seated))
                + f" — your match of **{place.tournament.name}**, round {place.round}"
                + (f" ({place.label})" if place.label else "") + ", is here.",
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
            return PlaceRefused(
                "Croupier may not create threads in this channel (it needs the **Create "
                "Public Threads** permission)" if place.use_threads else
                "Croupier may not create channels on this server (it needs the **Manage "
                "Channels** permission)")
        if refused.code == TOO_MANY_THREADS:
            return PlaceRefused(f"the server has no room for more active threads (Discord "
                                f"allows {ACTIVE_THREADS:,}; archived ones do not count)")
        if refused.code == TOO_MANY_CHANNELS:
            return PlaceRefused(f"the server has no room for more channels (Discord allows "
                                f"{GUILD_CHANNELS})")
        if refused.code == INVALID_FORM and "parent_id" in refused.text:
            return PlaceRefused(f"the tournament channel's category has no room for more "
                                f"channels (Discord allows {CATEGORY_CHANNELS} in a "
                                "category)")
        if isinstance(refused, discord.NotFound):
            return PlaceFailed("the tournament's channel is gone")
        kind = "thread" if place.use_threads else "channel"
        return PlaceFailed(f"Discord did not make its {kind} just now (it answered with "
                           "an error)")

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
            reason=f"Tournament #{place.tournament.id}, round {place.round}, "
                   f"table {place.table}")

    async def retire_place(self, held: HeldPlace) -> None:
        """Give a pairing's place back once its games are over: archive its thread
        (its history stays readable; a message there opens it again), or delete its
        channel. A place already gone is given back; Discord refusing is logged and
        the place kept (it is not asked again)."""
        reason = f"Tournament #{held.tournament.id}: its match is over"
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
            return Room(ACTIVE_THREADS - len(guild.threads), "the server",
                        f"Discord allows {ACTIVE_THREADS:,} active threads in a server; "
                        "archived ones do not count")
        cap = (f"Discord allows {CATEGORY_CHANNELS} channels in a category and "
               f"{GUILD_CHANNELS} in a server")
        server = Room(GUILD_CHANNELS - len(guild.channels), "the server", cap)
        category = getattr(channel, "category", None)
        if category is None:
            return server
        inside = Room(CATEGORY_CHANNELS - len(category.channels),
                      f"the category {category.name}", cap)
        return min(server, inside, key=lambda room: room.free)

    async def announce(self, notice: Notice) -> None:
        """Post a notice in the tournament's channel: a round's pairings (every picture
        page, pinging that round's players only), standings after every round (every
        picture and text page), the final standings and, for a bracket, its picture;
        in as many messages as Discord's limits need (each pings only the people it
        mentions); then refresh the tournament message."""
        channel = await self._channel(notice.tournament.channel_id)
        makers: list[Any] = []
        texts = [notice.text]
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
        await refresh_message(self.bot, notice.tournament.id)

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
        return " · played unseen"
    deleted = pairing.place_retired and not tournament.settings.get("use_threads", True)
    return "" if deleted else f" · <#{pairing.thread_id}>"


def _pairing_block(view: RoundView, pairing: PairingRow,
                   games: Sequence[GameLink]) -> list[str]:
    """A pairing's lines: table, players, result and place; then a line per game."""
    names = view.seat_names(pairing)
    if pairing.is_bye:
        return [f"• {names[0]}: bye"]
    head = f"• Table {pairing.table}" + (f" ({pairing.label})" if pairing.label else "")
    players = " vs ".join(names) if len(names) == 2 else ", ".join(names)
    lines = [f"{head}: {players} — {pairing_result(pairing, names)}"
             f"{place_words(view.tournament, pairing)}"]
    for game in games:
        outcome = outcome_words(game.outcome)
        lines.append(f"  game {game.game_no}: match #{game.match_id}, {outcome}")
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
        stage = " (top cut)" if view.pairings and view.pairings[0].stage == "cut" else ""
        blocks.append([f"**Round {view.round}**{stage}"])
        for pairing in view.pairings:
            blocks.append([clip(line, limit // 2) for line in _pairing_block(
                view, pairing, by_pairing.get((view.round, pairing.table), []))])
    if not blocks:
        blocks.append(["No round has been paired yet."])
    room = limit - 120  # the heading: the name (at most 100) and the page number
    pages: list[list[str]] = [[]]
    for block in blocks:
        size = sum(len(line) + 1 for line in block)
        if pages[-1] and sum(len(line) + 1 for line in pages[-1]) + size > room:
            pages.append([])
        pages[-1].extend(block)
    head = f"🏆 **{tournament.name}** (#{tournament.id}) — matches"
    return [f"{head} · page {n} of {len(pages)}\n" + "\n".join(lines)
            for n, lines in enumerate(pages, start=1)]
