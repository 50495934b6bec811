"""REST routes about users: the bot itself, other users, DM channels, and the
application and gateway information discord.py fetches at login."""

from __future__ import annotations

from aiohttp import web

from ..errors import DiscordAPIError
from ..wire import json_response, read_body
from .base import Route, RouteBase


class UserRoutes(RouteBase):
    """``/users``, ``/applications/@me`` and ``/gateway``."""

    def _user_routes(self) -> list[Route]:
        return [
            ("GET", "/users/@me", self._get_me),
            ("PATCH", "/users/@me", self._get_me),
            ("POST", "/users/@me/channels", self._create_dm),
            ("GET", "/users/{user_id}", self._get_user),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
        ]

    async def _get_me(self, request: web.Request) -> web.Response:
        payload = self._me_payload()
        payload.update(locale="en-US", email=None)
        return json_response(payload)

    async def _get_user(self, request: web.Request) -> web.Response:
        try:
            user = self.users[int(request.match_info["user_id"])]
        except (KeyError, ValueError):
            raise DiscordAPIError(404, 10013, "Unknown User") from None
        return json_response(user.to_payload())

    async def _create_dm(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        try:
            user = self.users[int(body["recipient_id"])]
        except (KeyError, ValueError, TypeError):
            raise DiscordAPIError(
                400, 50035, "Invalid Form Body", {"recipient_id": "unknown"}
            ) from None
        return json_response(self.dm_channel(user).to_payload())

    async def _get_application(self, request: web.Request) -> web.Response:
        # Every key AppInfo.__init__ reads, required ones included.
        return json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "icon": None,
                "description": "Fake application for tests",
                "summary": "",
                "type": None,
                "hook": True,
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": self.bot_user.to_payload(),
                "owner": self.owner.to_payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": self.application_flags,
                "guild_id": None,
                "primary_sku_id": None,
                "slug": None,
                "cover_image": None,
                "tags": [],
                "install_params": {"scopes": ["bot", "applications.commands"], "permissions": "0"},
                "custom_install_url": None,
                "terms_of_service_url": None,
                "privacy_policy_url": None,
                "role_connections_verification_url": None,
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "approximate_guild_count": len(self.guilds),
                "approximate_user_install_count": 0,
                "integration_types_config": {"0": {}},
            }
        )

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self.gateway_url,
                "shards": self.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": self.identify_buckets.max_concurrency,
                },
            }
        )
