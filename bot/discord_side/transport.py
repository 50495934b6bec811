"""The match service's window onto Discord: the table message, DMs, notices.

A match whose channel id is below 0 is played in no Discord channel (a tournament's
table of computer players only, which nobody needs to watch): its table and notices
are shown nowhere. A table in a thread Discord archived (after its
``auto_archive_duration`` without a message, while a turn may last days) is edited
all the same: the thread is unarchived first."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.discord_parts.replies import NOBODY, drawn, for_edit, for_send, ping
from bot.discord_parts.web_links import link_view, web_page
from bot.errors import CannotPost
from bot.games.presenter import shown_names
from bot.i18n import Text, narrate, speaking, tr
from bot.matches.live import LiveMatch, PrivateView
from bot.matches.transport import ShowLater
from rules.core import Event
from storage.models import SeatRow

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot

log = logging.getLogger(__name__)
DMS_CLOSED = 50007
"""Discord's "Cannot send messages to this user": the only answer that means a
player's DMs are closed to the bot."""
ARCHIVED_THREAD = 50083
"""Discord's "Tried to perform an operation on an archived thread" (an edit there)."""
REPLAY_LABEL = Text("table.replay")
"""The result's link to the match's replay on the server's web companion."""


def shown_nowhere(channel_id: int) -> bool:
    """Whether a match's channel is no Discord channel: nothing of it is shown.

    >>> shown_nowhere(-3002017), shown_nowhere(1234567890)
    (True, False)
    """
    return channel_id < 0


def temporary(error: BaseException) -> bool:
    """Whether a failed request may well work if made again later: Discord's 5xx,
    a rate limit that outlasted discord.py's waiting, a timeout, a dropped
    connection.

    >>> temporary(TimeoutError()), temporary(ValueError())
    (True, False)
    """
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.status == 429
    return isinstance(error, (discord.RateLimited, TimeoutError, aiohttp.ClientError))


@asynccontextmanager
async def later_on_temporary(what: str) -> AsyncIterator[None]:
    """Turn a temporary failure of the requests inside into :class:`ShowLater`."""
    try:
        yield
    except Exception as error:
        if temporary(error):
            raise ShowLater(f"{what}: {error!r}") from error
        raise


class DiscordTransport:
    """Posts and edits tables in channels and sends private views by DM."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot
        self._dms: dict[tuple[int, int], tuple[discord.Message, int | None]] = {}
        """(match, seat) → the latest DM and the step of the decision it carries."""

    def _channel(self, match: LiveMatch) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(match.row.channel_id, guild_id=match.row.guild_id)

    async def publish(self, match: LiveMatch, events: Sequence[Event]) -> int | None:
        """Edit the table in place (or post it if it has no message yet), narrating
        the match's latest events (``events`` among them); :class:`CannotPost` when
        Discord refuses a new table."""
        if shown_nowhere(match.row.channel_id):
            return None
        async with later_on_temporary(f"match {match.id}: the table"):
            with speaking(await self.bot.languages.channel(match.row.guild_id)):
                return await self._publish(match)

    async def _publish(self, match: LiveMatch) -> int | None:
        names = shown_names(match.names)
        lines = [narrate(event, names) for event in match.narration]
        parts = await drawn(self.bot.presenters.table(match, lines))
        channel = self._channel(match)
        message_id = match.row.table_message_id
        sent_id = None
        if message_id is not None:
            try:
                await self._edit_table(match, channel.get_partial_message(message_id), parts)
                sent_id = message_id
            except discord.NotFound:
                log.info("match %s: table message %s is gone; posting anew", match.id,
                         message_id)
        if sent_id is None:
            try:
                message = await channel.send(**for_send(parts))
            except discord.Forbidden as refused:
                raise CannotPost(Text("error.cannot_post.not_allowed")) from refused
            except discord.NotFound as gone:
                raise CannotPost(Text("error.cannot_post.gone")) from gone
            sent_id = message.id
        if match.finished and not match.result_shown:
            replay = await web_page(self.bot.store, self.bot.settings.web_url,
                                    match.row.guild_id, "matches", match.id)
            await channel.send(tr("table.over", game=match.info.title, match_id=match.id)
                               + "\n" + self.bot.presenters.result(match),
                               allowed_mentions=NOBODY,
                               view=link_view(REPLAY_LABEL.in_locale(None), replay))
        return sent_id

    async def _edit_table(self, match: LiveMatch, message: discord.PartialMessage,
                          parts: dict[str, Any]) -> None:
        """Edit the table in place; in a thread Discord archived (50083), unarchive
        the thread and edit again (its pictures read from the start again)."""
        try:
            await message.edit(**for_edit(parts))
        except discord.HTTPException as failed:
            if failed.code != ARCHIVED_THREAD:
                raise
            log.info("match %s: its thread %s was archived; unarchiving it to edit the "
                     "table", match.id, match.row.channel_id)
            try:
                await self.bot.http.edit_channel(match.row.channel_id, archived=False)
            except discord.HTTPException as refused:
                if temporary(refused):
                    raise
                # Locked, or the server at its cap of active threads: not now.
                raise CannotPost(Text("error.cannot_post.archived")) from refused
            for file in parts.get("attachments") or []:
                if isinstance(file, discord.File):
                    file.reset()
            await message.edit(**for_edit(parts))

    async def deliver_private(self, match: LiveMatch, seat: SeatRow, view: PrivateView) -> bool:
        """Keep the seat's DM up to date; ``False`` when Discord refuses (closed DMs).

        One DM message per seat is edited as the hand changes. A new decision
        gets a new message, so the player is notified, and the previous one
        loses its menu."""
        assert seat.user_id is not None
        with speaking(await self.bot.languages.reader(seat.user_id, match.row.guild_id)):
            parts = self.bot.presenters.private(match, view)
        key = (match.id, seat.seat)
        last = self._dms.get(key)
        new_decision = view.decision is not None and (last is None or last[1] != view.step)
        try:
            async with later_on_temporary(f"match {match.id}: the DM of seat {seat.seat}"):
                if last is not None and not new_decision:
                    try:
                        await last[0].edit(**for_edit(parts))
                        return True
                    except discord.NotFound:
                        pass
                elif last is not None:
                    await self._retire(last[0])
                user = (self.bot.get_user(seat.user_id)
                        or await self.bot.fetch_user(seat.user_id))
                message = await user.send(**for_send(parts))
        except discord.HTTPException as failed:
            if isinstance(failed, discord.Forbidden) and failed.code == DMS_CLOSED:
                return False
            # Neither temporary nor "closed": shown again with the next change.
            log.warning("match %s: DM to seat %s failed (%s)", match.id, seat.seat, failed)
            return True
        self._dms[key] = (message, view.step if view.decision is not None else None)
        if match.finished:
            self._dms.pop(key, None)
        return True

    @staticmethod
    async def _retire(message: discord.Message) -> None:
        """Take the menu off an older DM (a stale menu would only be refused)."""
        try:
            await message.edit(view=None)
        except discord.HTTPException:
            log.info("could not retire DM %s", message.id)

    async def notify(self, match: LiveMatch, notice: Event, mentions: Sequence[int] = ()
                     ) -> None:
        """A line in the match's channel, pinging only the named users."""
        if shown_nowhere(match.row.channel_id):
            return
        with speaking(await self.bot.languages.channel(match.row.guild_id)):
            text = narrate(notice, shown_names(match.names))
        pings = " ".join(f"<@{user_id}>" for user_id in mentions)
        async with later_on_temporary(f"match {match.id}: a notice"):
            await self._channel(match).send(f"{pings} {text}".strip(),
                                            allowed_mentions=ping(mentions))
