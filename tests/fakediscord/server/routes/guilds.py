"""REST routes reading a guild: the guild, its channels, roles and members."""

from __future__ import annotations

from aiohttp import web

from ..errors import DiscordAPIError
from ..wire import json_response
from .base import Route, RouteBase


class GuildRoutes(RouteBase):
    """``/guilds/{guild_id}`` and below (read-only: the bot does not manage servers)."""

    def _guild_routes(self) -> list[Route]:
        return [
            ("GET", "/guilds/{guild_id}", self._get_guild),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self._get_guild_roles),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
        ]

    async def _get_guild(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        payload = guild.to_payload()
        for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at"):
            payload.pop(key, None)
        payload.update(approximate_member_count=len(guild.members), approximate_presence_count=0)
        return json_response(payload)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        return json_response([c.to_payload() for c in self._guild(request).channels])

    async def _get_guild_roles(self, request: web.Request) -> web.Response:
        return json_response([r.to_payload() for r in self._guild(request).roles])

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        try:
            member = guild.members[int(request.match_info["user_id"])]
        except (KeyError, ValueError):
            raise DiscordAPIError(404, 10007, "Unknown Member") from None
        return json_response(member.to_payload())
