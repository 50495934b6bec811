"""The tournament service's Discord side: the place a pairing plays in (a public thread
of the tournament's channel, its players added and pinged), the notices it posts
(pairings and standings as pictures drawn off the event loop, with a text version that
fits a phone; a round pings only its own players), the tournament message with its
buttons, and the converter from the format's bracket to the renderer's.

Generic: nothing here names a game.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.render import tournament as render
from bot.tournament_model import (
    MatchPlace,
    Member,
    Notice,
    RoundView,
    Standings,
    TournamentError,
)
from rules.tournament import elimination
from storage.tournaments import EntrantRow, TournamentRow

if TYPE_CHECKING:
    from bot.client import CroupierBot

log = logging.getLogger(__name__)

SIDES: dict[str, render.Side] = {"main": "winners", "winners": "winners",
                                 "losers": "losers", "grand_final": "final"}
"""The format's bracket sections as the renderer's sides (the match for third place
has no place in the renderer's picture)."""


def member_of(interaction: discord.Interaction) -> Member:
    """Who acts: their server, whether they may manage it, and their roles."""
    user = interaction.user
    perms = getattr(user, "guild_permissions", None)
    roles = frozenset(role.id for role in getattr(user, "roles", ()))
    return Member(user.id, user.display_name, manages_server=bool(perms and perms.manage_guild),
                  guild_id=interaction.guild_id or 0, role_ids=roles)


def robot(tournament: TournamentRow) -> Member:
    """The bot itself reading a tournament of its server (no organiser right)."""
    return Member(0, "Croupier", guild_id=tournament.guild_id)


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


def pairings_file(view: RoundView) -> Any:
    """A callable drawing the round's pairings (first page) as a file."""
    title, rows = view.tournament.name, pairing_rows(view)
    return lambda: discord.File(io.BytesIO(render.render_pairings(title, view.round, rows)),
                                filename=f"pairings-{view.round}.png")


def standings_file(standings: Standings) -> Any:
    """A callable drawing the standings (first page) as a file."""
    title = standings.tournament.name + (" — final" if standings.final else "")
    lines = [line.standing for line in standings.lines]
    names = standing_names(standings)
    return lambda: discord.File(io.BytesIO(render.render_standings(title, lines, names)),
                                filename="standings.png")


def bracket_file(title: str, bracket: render.Bracket) -> Any:
    """A callable drawing a bracket as a file."""
    return lambda: discord.File(io.BytesIO(render.render_bracket(title, bracket)),
                                filename="bracket.png")


def standings_text(standings: Standings) -> str:
    """The standings' first page as a code block that fits a phone."""
    return render.standings_text(standings.tournament.name,
                                 [line.standing for line in standings.lines],
                                 standing_names(standings))


def pairings_text(view: RoundView) -> str:
    """The round's pairings' first page as a code block."""
    return render.pairings_text(view.tournament.name, view.round, pairing_rows(view))


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
def ping(users: Sequence[int]) -> discord.AllowedMentions:
    """Mentions that ping exactly ``users`` (no roles, nobody else)."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(u) for u in users])


class TournamentPoster:
    """The ``starter`` and ``announce`` the tournament service is given."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot

    async def _channel(self, channel_id: int) -> Any:
        channel = self.bot.get_channel(channel_id)
        return channel if channel is not None else await self.bot.fetch_channel(channel_id)

    async def make_place(self, place: MatchPlace) -> int:
        """A public thread of the tournament's channel for one pairing, its players
        added and pinged there; returns its id. (Threads are always used: a channel per
        match would need the Manage Channels permission.)"""
        channel = await self._channel(place.tournament.channel_id)
        thread = await channel.create_thread(name=place.title,
                                             type=discord.ChannelType.public_thread)
        users = [user for user, _ in place.players]
        for user in users:
            try:
                await thread.add_user(discord.Object(user))
            except discord.HTTPException:
                log.info("thread %s: could not add %s (the ping below adds them)",
                         thread.id, user)
        await thread.send(
            " ".join(f"<@{u}>" for u in users)
            + f" — your match of **{place.tournament.name}**, round {place.round}"
            + (f" ({place.label})" if place.label else "") + ", is here.",
            allowed_mentions=ping(users))
        return int(thread.id)

    async def announce(self, notice: Notice) -> None:
        """Post a notice in the tournament's channel: a round's pairings (picture and
        text, pinging that round's players only), standings after every round, the final
        standings and, for a bracket, its picture; then refresh the tournament message."""
        channel = await self._channel(notice.tournament.channel_id)
        makers, texts = [], [notice.text]
        if notice.mentions:  # the pings themselves: only this round's players
            texts.append(" ".join(f"<@{u}>" for u in dict.fromkeys(notice.mentions)))
        if notice.kind == "round" and notice.pairings is not None:
            makers.append(pairings_file(notice.pairings))
        if notice.standings is not None and notice.standings.lines and (
                notice.kind != "round" or notice.round > 1):
            makers.append(standings_file(notice.standings))
            texts.append(standings_text(notice.standings))
        if notice.kind in ("finished", "cancelled", "round_done"):
            bracket = await self.bracket(notice.tournament)
            if bracket is not None:
                makers.append(bracket_file(notice.tournament.name, bracket))
        await channel.send("\n".join(texts)[:2000], files=await draw(makers),
                           allowed_mentions=ping(notice.mentions))
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


# -- the tournament message ------------------------------------------------------------
STATUS_WORDS: Mapping[str, str] = {
    "created": "created — registration not open yet",
    "open": "registration open",
    "checkin": "check-in open: entrants, check in",
    "running": "under way",
    "finished": "finished",
    "cancelled": "cancelled",
}


async def message_parts(bot: CroupierBot, tournament_id: int, guild_id: int
                        ) -> dict[str, Any]:
    """The tournament message: what it is, where it stands, who entered; the Join,
    Leave and Check in buttons while registration is open."""
    from bot.tournament_views import tournament_buttons  # the views import this module

    who = Member(0, "Croupier", guild_id=guild_id)
    tournament = await bot.tournaments.get(who, tournament_id)
    entrants = await bot.tournaments.entrants(who, tournament_id)
    status = STATUS_WORDS.get(tournament.status, tournament.status)
    if tournament.status == "running":
        status += f", round {tournament.round}"
    names = ", ".join(e.name + (" ✓" if e.checked_in and tournament.status == "checkin"
                                else "") for e in entrants) or "nobody yet"
    format_name = tournament.format.replace("_", " ")
    content = (f"🏆 **{tournament.name}** (#{tournament.id}) — {format_name}"
               f" of {tournament.game}\nStatus: {status}\n"
               f"Entrants ({len(entrants)}): {names}")
    return {"content": content[:2000],
            "view": tournament_buttons(tournament.id, tournament.status)}


async def refresh_message(bot: CroupierBot, tournament_id: int) -> None:
    """Edit the tournament message to its current state (if it was posted)."""
    try:
        tournament = await bot.store.tournaments.get(tournament_id)
        if tournament is None or tournament.message_id is None:
            return
        parts = await message_parts(bot, tournament_id, tournament.guild_id)
        channel = bot.get_partial_messageable(tournament.channel_id,
                                              guild_id=tournament.guild_id)
        await channel.get_partial_message(tournament.message_id).edit(
            content=parts["content"], view=parts["view"])
    except (discord.HTTPException, TournamentError):
        # Cosmetic: the action itself is done, and its notice must not be posted twice.
        log.info("tournament %s: its message could not be edited", tournament_id)
