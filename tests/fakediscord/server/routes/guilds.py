"""REST routes of a guild: reading the guild, its channels, roles and members; creating
a channel (the bot needs Manage Channels, as on Discord)."""

from __future__ import annotations

from aiohttp import web

from ...model import FakeChannel, FakeGuild
from ...model.constants import GUILD_CATEGORY, GUILD_TEXT, MANAGE_CHANNELS
from ..errors import DiscordAPIError
from ..validation import FormErrors
from ..wire import json_response, read_body
from .base import Route, RouteBase


class GuildRoutes(RouteBase):
    """``/guilds/{guild_id}`` and below (reading, and creating text channels and
    categories; the bot manages nothing else of a server)."""

    def _guild_routes(self) -> list[Route]:
        return [
            ("GET", "/guilds/{guild_id}", self._get_guild),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels),
            ("POST", "/guilds/{guild_id}/channels", self._create_channel),
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

    async def _create_channel(self, request: web.Request) -> web.Response:
        """Create a text channel or a category, as ``Guild.create_text_channel`` asks:
        ``{"type", "name", "parent_id"?, "topic"?, …}``; 403 (50013) without Manage
        Channels, 400 (50035) for a bad name, type or category, or a full category
        (50 channels), 400 (30013) in a full server (500)."""
        guild = self._guild(request)
        body, _ = await read_body(request)
        if not self._bot_member(guild).permissions & MANAGE_CHANNELS:
            raise DiscordAPIError(403, 50013, "Missing Permissions")
        errors: dict[str, str] = {}
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            errors["name"] = "Must be between 1 and 100 in length."
        kind = body.get("type", GUILD_TEXT)
        if kind not in (GUILD_TEXT, GUILD_CATEGORY):
            errors["type"] = "Value must be one of the channel types the fake models (0, 4)."
        category = self._category(guild, body.get("parent_id"))
        if body.get("parent_id") is not None and (category is None or kind == GUILD_CATEGORY):
            errors["parent_id"] = "Not a category of this guild."
        if errors:
            raise DiscordAPIError(400, 50035, "Invalid Form Body", errors)
        self._check_channel_room(guild, category)
        if kind == GUILD_CATEGORY:
            channel = guild.add_category(name)
        else:
            channel = guild.add_text_channel(name, topic=body.get("topic"), category=category)
        return json_response(channel.to_payload(), 201)

    @staticmethod
    def _check_channel_room(guild: FakeGuild, category: FakeChannel | None) -> None:
        """Discord's caps on channels: 500 in a server (400, 30013) and 50 in a
        category (400, 50035, the error on ``parent_id``)."""
        cap = guild.channel_cap(category)
        if cap == "server":
            raise DiscordAPIError(400, 30013, "Maximum number of guild channels reached (500)")
        if cap == "category":
            errors = FormErrors()
            errors.add("parent_id", "CHANNEL_PARENT_MAX_CHANNELS",
                       "Maximum number of channels in category reached (50)")
            raise DiscordAPIError(400, 50035, "Invalid Form Body", errors.tree)

    @staticmethod
    def _category(guild: FakeGuild, raw_id: object) -> FakeChannel | None:
        """The guild's category with the id given, if it is one."""
        try:
            wanted = int(str(raw_id))
        except ValueError:
            return None
        return next((c for c in guild.channels
                     if c.id == wanted and c.type == GUILD_CATEGORY), None)

    async def _get_guild_roles(self, request: web.Request) -> web.Response:
        return json_response([r.to_payload() for r in self._guild(request).roles])

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        try:
            member = guild.members[int(request.match_info["user_id"])]
        except (KeyError, ValueError):
            raise DiscordAPIError(404, 10007, "Unknown Member") from None
        return json_response(member.to_payload())
