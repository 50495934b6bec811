"""REST routes for application commands, global and per guild: bulk overwrite (what
``tree.sync()`` does), create, read, edit and delete, validated as Discord does."""

from __future__ import annotations

import copy
from typing import Any

from aiohttp import web

from ...model import FakeCommand
from ..errors import DiscordAPIError
from ..validation import FormErrors, command_errors, localized_clash
from ..wire import json_response, no_content, read_body, read_json
from .base import Route, RouteBase


class CommandRoutes(RouteBase):
    """``/applications/{app_id}[/guilds/{guild_id}]/commands``."""

    def _command_routes(self) -> list[Route]:
        routes: list[Route] = []
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            routes += [
                ("GET", prefix + "/commands", self._list_commands),
                ("PUT", prefix + "/commands", self._overwrite_commands),
                ("POST", prefix + "/commands", self._upsert_command),
                ("GET", prefix + "/commands/{command_id}", self._get_command),
                ("PATCH", prefix + "/commands/{command_id}", self._edit_command),
                ("DELETE", prefix + "/commands/{command_id}", self._delete_command),
            ]
        return routes

    def _command_scope(self, request: web.Request) -> tuple[list[FakeCommand], int | None]:
        if int(request.match_info["app_id"]) != self.application_id:
            raise DiscordAPIError(403, 50001, "Missing Access")
        if "guild_id" not in request.match_info:
            return self.global_commands, None
        guild = self._guild(request)
        return self.guild_commands.setdefault(guild.id, []), guild.id

    def _build_command(
        self, raw: dict[str, Any], existing: list[FakeCommand], guild_id: int | None, where: str
    ) -> FakeCommand:
        """The command ``raw`` registers, unless Discord refuses it (its errors nested under
        ``where``: the index in a bulk overwrite, ``""`` for one command)."""
        command_errors(raw).raise_if_any(where)
        ctype = int(raw.get("type") or 1)
        old = next((c for c in existing if c.name == raw["name"] and c.type == ctype), None)
        full: dict[str, Any] = {
            "id": str(old.id if old else self.next_id()),
            "application_id": str(self.application_id),
            "version": str(self.next_id()),
            "type": ctype,
            "name": raw["name"],
            "name_localizations": raw.get("name_localizations") or None,
            "description": raw.get("description", "") if ctype == 1 else "",
            "description_localizations": raw.get("description_localizations") or None,
            "default_member_permissions": raw.get("default_member_permissions"),
            "dm_permission": raw.get("dm_permission", True),
            "contexts": raw.get("contexts"),
            "integration_types": raw.get("integration_types") or [0],
            "nsfw": bool(raw.get("nsfw", False)),
        }
        if raw.get("options"):
            full["options"] = copy.deepcopy(raw["options"])
        if guild_id is not None:
            full["guild_id"] = str(guild_id)
            full.pop("dm_permission")
        return FakeCommand(full)

    async def _list_commands(self, request: web.Request) -> web.Response:
        commands, _ = self._command_scope(request)
        return json_response([c.raw for c in commands])

    async def _overwrite_commands(self, request: web.Request) -> web.Response:
        commands, guild_id = self._command_scope(request)
        payload = await read_json(request)
        if not isinstance(payload, list):
            raise DiscordAPIError(400, 50035, "Invalid Form Body")
        if len(payload) > 100:
            raise DiscordAPIError(400, 30032, "Maximum number of application commands reached")
        names = [(p.get("name"), p.get("type", 1)) for p in payload]
        if len(set(names)) != len(names) or localized_clash(payload):
            errors = FormErrors()
            errors.add("", "APPLICATION_COMMANDS_DUPLICATE_NAME",
                       "Application command names must be unique")
            errors.raise_if_any()
        new = [
            self._build_command(raw, commands, guild_id, str(i)) for i, raw in enumerate(payload)
        ]
        commands[:] = new
        return json_response([c.raw for c in new])

    async def _upsert_command(self, request: web.Request) -> web.Response:
        commands, guild_id = self._command_scope(request)
        body, _ = await read_body(request)
        cmd = self._build_command(body, commands, guild_id, "")
        commands[:] = [c for c in commands if c.id != cmd.id] + [cmd]
        return json_response(cmd.raw, 201)

    def _find_command(self, request: web.Request) -> tuple[list[FakeCommand], FakeCommand]:
        commands, _ = self._command_scope(request)
        for cmd in commands:
            if str(cmd.id) == request.match_info["command_id"]:
                return commands, cmd
        raise DiscordAPIError(404, 10063, "Unknown application command")

    async def _get_command(self, request: web.Request) -> web.Response:
        return json_response(self._find_command(request)[1].raw)

    async def _edit_command(self, request: web.Request) -> web.Response:
        _, cmd = self._find_command(request)
        body, _ = await read_body(request)
        edited = {**cmd.raw, **{k: v for k, v in body.items() if k != "id"}}
        command_errors(edited).raise_if_any()
        cmd.raw.update(edited)
        return json_response(cmd.raw)

    async def _delete_command(self, request: web.Request) -> web.Response:
        commands, cmd = self._find_command(request)
        commands.remove(cmd)
        return no_content()
