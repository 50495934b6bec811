"""REST routes for messages in channels: history, posting, editing, deleting (one or
in bulk), reactions, and the attachment files themselves."""

from __future__ import annotations

from aiohttp import web

from ...model.constants import MANAGE_MESSAGES
from ..errors import DiscordAPIError
from ..validation import check_request_size
from ..wire import json_response, no_content, read_body
from .base import Route, RouteBase

REACTION = "/channels/{channel_id}/messages/{message_id}/reactions"


class MessageRoutes(RouteBase):
    """``/channels/{channel_id}/messages`` and below; ``/attachments`` (the fake's CDN)."""

    def _message_routes(self) -> list[Route]:
        return [
            ("GET", "/channels/{channel_id}/messages", self._history),
            ("POST", "/channels/{channel_id}/messages", self._post_message),
            ("POST", "/channels/{channel_id}/messages/bulk-delete", self._bulk_delete),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._patch_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message),
            ("PUT", REACTION + "/{emoji}/@me", self._add_reaction),
            ("DELETE", REACTION + "/{emoji}/@me", self._remove_reaction),
            ("DELETE", REACTION, self._clear_reactions),
        ]

    async def _history(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        q = request.query
        limit = max(1, min(100, int(q.get("limit", 50))))
        visible = [m for m in channel.messages if not m.ephemeral]
        if "before" in q:
            visible = [m for m in visible if m.id < int(q["before"])]
        if "after" in q:
            visible = [m for m in visible if m.id > int(q["after"])]
            visible = visible[:limit]
        if "around" in q:
            around = int(q["around"])
            older = [m for m in visible if m.id <= around][-(limit // 2 + 1) :]
            newer = [m for m in visible if m.id > around][: limit // 2]
            visible = older + newer
        visible = visible[-limit:]
        return json_response([m.to_payload() for m in reversed(visible)])

    async def _get_message(self, request: web.Request) -> web.Response:
        return json_response(self._channel_message(request).to_payload())

    async def _post_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.is_dm and channel.recipient is not None and channel.recipient.dms_closed:
            raise DiscordAPIError(403, 50007, "Cannot send messages to this user")
        if channel.is_thread and channel.locked:
            raise DiscordAPIError(403, 50083, "Thread is locked")
        check_request_size(request.content_length)
        body, uploads = await read_body(request)
        message = self.create_message(channel, self.bot_user, body, uploads)
        return json_response(message.to_payload())

    async def _patch_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message.author.id != self.bot_user.id:
            raise DiscordAPIError(403, 50005, "Cannot edit a message authored by another user")
        check_request_size(request.content_length)
        body, uploads = await read_body(request)
        self.edit_message(message, body, uploads)
        return json_response(message.to_payload())

    async def _delete_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message.author.id != self.bot_user.id:
            # Others' messages: never in DMs, in guilds only with Manage Messages.
            guild = message.guild
            if guild is None:
                raise DiscordAPIError(403, 50003, "Cannot execute action on a DM channel")
            if not self._bot_member(guild).permissions & MANAGE_MESSAGES:
                raise DiscordAPIError(403, 50013, "Missing Permissions")
        self.delete_message(message)
        return no_content()

    async def _bulk_delete(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, _ = await read_body(request)
        for raw_id in body.get("messages", []):
            message = self.messages.get(int(raw_id))
            if message is not None and message.channel is channel and not message.deleted:
                self.delete_message(message)
        return no_content()

    async def _add_reaction(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        users = message.reactions.setdefault(request.match_info["emoji"], [])
        if self.bot_user.id not in users:
            users.append(self.bot_user.id)
        return no_content()

    async def _remove_reaction(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        emoji = request.match_info["emoji"]
        users = message.reactions.get(emoji, [])
        if self.bot_user.id in users:
            users.remove(self.bot_user.id)
        if not users:
            message.reactions.pop(emoji, None)
        return no_content()

    async def _clear_reactions(self, request: web.Request) -> web.Response:
        self._channel_message(request).reactions.clear()
        return no_content()

    async def _attachment(self, request: web.Request) -> web.StreamResponse:
        att = self.find_attachment(int(request.match_info["attachment_id"]))
        if att is None:
            return web.Response(status=404, text="attachment not found")
        return web.Response(body=att.data, headers={"Content-Type": att.content_type})
