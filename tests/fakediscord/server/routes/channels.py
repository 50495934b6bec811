"""REST routes for channels themselves: reading, editing and deleting them, starting
threads (the bot needs Create Public or Create Private Threads, as on Discord), typing
indicators and joining threads."""

from __future__ import annotations

from aiohttp import web

from ...model.constants import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    GUILD_TEXT,
    PRIVATE_THREAD,
)
from ..errors import DiscordAPIError
from ..wire import json_response, no_content, read_body
from .base import Route, RouteBase


class ChannelRoutes(RouteBase):
    """``/channels/{channel_id}``, its threads and typing."""

    def _channel_routes(self) -> list[Route]:
        return [
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("PATCH", "/channels/{channel_id}", self._edit_channel),
            ("DELETE", "/channels/{channel_id}", self._delete_channel),
            ("POST", "/channels/{channel_id}/typing", self._accept),
            ("POST", "/channels/{channel_id}/threads", self._start_thread),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._start_thread),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._accept),
        ]

    async def _get_channel(self, request: web.Request) -> web.Response:
        return json_response(self._channel(request).to_payload())

    async def _edit_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, _ = await read_body(request)
        if "name" in body:
            channel.name = body["name"]
        if "topic" in body:
            channel.topic = body["topic"]
        if "archived" in body:
            channel.archived = bool(body["archived"])
        if "locked" in body:
            channel.locked = bool(body["locked"])
        self._channel_event(channel, "UPDATE")
        return json_response(channel.to_payload())

    async def _delete_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.guild is None:
            return json_response(channel.to_payload())  # "closing" a DM
        siblings = channel.guild.threads if channel.is_thread else channel.guild.channels
        siblings.remove(channel)
        del self.channels[channel.id]
        self._channel_event(channel, "DELETE")
        return json_response(channel.to_payload())

    async def _start_thread(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, _ = await read_body(request)
        if channel.guild is None or channel.type != GUILD_TEXT:
            raise DiscordAPIError(400, 50024, "Cannot execute action on this channel type")
        name = str(body.get("name") or "thread")
        owner = self.bot_user
        from_message = "message_id" in request.match_info
        # A thread from a message is public; without a message the type says.
        private = not from_message and int(body.get("type") or PRIVATE_THREAD) == PRIVATE_THREAD
        needed = CREATE_PRIVATE_THREADS if private else CREATE_PUBLIC_THREADS
        if not self._bot_member(channel.guild).permissions & needed:
            raise DiscordAPIError(403, 50013, "Missing Permissions")
        if from_message:
            # A thread started from a message shares the message's id, as on Discord.
            start = self._channel_message(request)
            thread = channel.guild.add_thread(channel, name, owner=owner, thread_id=start.id)
        else:
            thread = channel.guild.add_thread(channel, name, private=private, owner=owner)
        return json_response(thread.to_payload(), 201)

    async def _accept(self, request: web.Request) -> web.Response:
        # Typing indicators and joining threads: valid channel, nothing to store.
        self._channel(request)
        return no_content()
