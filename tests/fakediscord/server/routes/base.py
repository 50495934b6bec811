"""What every REST route needs: the objects named in the URL, or Discord's 404 for them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

from ...model import FakeChannel, FakeGuild, FakeMessage
from ..errors import DiscordAPIError
from ..interactions import InteractionDispatch

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
#: (method, path under /api/v10, handler)
Route = tuple[str, str, Handler]


class RouteBase(InteractionDispatch):
    """URL lookups shared by the route modules."""

    def _channel(self, request: web.Request) -> FakeChannel:
        try:
            return self.channels[int(request.match_info["channel_id"])]
        except (KeyError, ValueError):
            raise DiscordAPIError(404, 10003, "Unknown Channel") from None

    def _guild(self, request: web.Request) -> FakeGuild:
        try:
            return self.guilds[int(request.match_info["guild_id"])]
        except (KeyError, ValueError):
            raise DiscordAPIError(404, 10004, "Unknown Guild") from None

    def _channel_message(self, request: web.Request) -> FakeMessage:
        """The message in the URL, in the channel in the URL."""
        channel = self._channel(request)
        try:
            message = self.messages[int(request.match_info["message_id"])]
        except (KeyError, ValueError):
            raise DiscordAPIError(404, 10008, "Unknown Message") from None
        # Ephemeral messages do not exist for the channel endpoints.
        if message.channel is not channel or message.deleted or message.ephemeral:
            raise DiscordAPIError(404, 10008, "Unknown Message")
        return message
