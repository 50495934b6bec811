"""The match service's window onto Discord: the table message, DMs, notices."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.live import LiveMatch, PrivateView
from rules.core import Event
from storage.models import SeatRow

if TYPE_CHECKING:
    from bot.client import CroupierBot

log = logging.getLogger(__name__)
NARRATION_LINES = 6


class DiscordTransport:
    """Posts and edits tables in channels and sends private views by DM."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot
        self._narration: dict[int, deque[str]] = {}

    def _channel(self, match: LiveMatch) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(match.row.channel_id, guild_id=match.row.guild_id)

    async def publish(self, match: LiveMatch, events: Sequence[Event]) -> int | None:
        """Edit the table in place (or post it if it has no message yet)."""
        lines = self._narration.setdefault(match.id, deque(maxlen=NARRATION_LINES))
        lines.extend(event.render(match.names) for event in events)
        parts = self.bot.presenters.table(match, list(lines))
        channel = self._channel(match)
        message_id = match.row.table_message_id
        sent_id = None
        if message_id is not None:
            try:
                await channel.get_partial_message(message_id).edit(**_for_edit(parts))
                sent_id = message_id
            except discord.NotFound:
                log.info("match %s: table message %s is gone; posting anew", match.id,
                         message_id)
        if sent_id is None:
            message = await channel.send(**_for_send(parts))
            sent_id = message.id
        if match.finished or match.row.status in ("cancelled", "abandoned"):
            self._narration.pop(match.id, None)
        if match.finished:
            await channel.send(f"🏁 **{match.info.title}** match #{match.id} is over.\n"
                               + self.bot.presenters.result(match),
                               allowed_mentions=discord.AllowedMentions.none())
        return sent_id

    async def deliver_private(self, match: LiveMatch, seat: SeatRow, view: PrivateView) -> bool:
        """DM the seat its view; ``False`` when Discord refuses (closed DMs)."""
        assert seat.user_id is not None
        try:
            user = self.bot.get_user(seat.user_id) or await self.bot.fetch_user(seat.user_id)
            await user.send(**_for_send(self.bot.presenters.private(match, view)))
        except discord.Forbidden:
            return False
        except discord.HTTPException:
            log.warning("match %s: DM to seat %s failed", match.id, seat.seat, exc_info=True)
            return False
        return True

    async def notify(self, match: LiveMatch, text: str, mentions: Sequence[int] = ()) -> None:
        """A line in the match's channel, pinging only the named users."""
        pings = " ".join(f"<@{user_id}>" for user_id in mentions)
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in mentions])
        await self._channel(match).send(f"{pings} {text}".strip(), allowed_mentions=allowed)


def _for_send(parts: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in parts.items() if k != "attachments" and v is not None}
    if parts.get("attachments"):
        out["files"] = parts["attachments"]
    return out


def _for_edit(parts: dict[str, Any]) -> dict[str, Any]:
    return {**parts, "attachments": parts.get("attachments") or []}
