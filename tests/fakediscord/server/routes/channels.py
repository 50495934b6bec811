"""REST routes for channels themselves: reading, editing and deleting them, starting
threads (the bot needs Create Public or Create Private Threads, as on Discord; a name
of 1 to 100 characters, an ``auto_archive_duration`` Discord takes, room under the
server's active threads), archiving and unarchiving threads (``PATCH``, with the
rights Discord asks), typing indicators and joining threads."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from ...model import FakeChannel
from ...model.channels import ARCHIVE_DURATIONS, DEFAULT_ARCHIVE_DURATION
from ...model.constants import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    GUILD_TEXT,
    MANAGE_CHANNELS,
    MANAGE_THREADS,
    PRIVATE_THREAD,
)
from ..errors import DiscordAPIError
from ..threads import TOO_MANY_THREADS
from ..validation import FormErrors
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
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._add_thread_member),
        ]

    def advance(self, seconds: float) -> None:
        """Move Discord's clock ``seconds`` on (see the interactions' clock): threads
        idle for their ``auto_archive_duration`` archive themselves meanwhile."""
        super().advance(seconds)
        self.archive_idle_threads(seconds)

    async def _get_channel(self, request: web.Request) -> web.Response:
        return json_response(self._channel(request).to_payload())

    async def _edit_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, _ = await read_body(request)
        if channel.is_thread:
            self._edit_thread(channel, body)
            return json_response(channel.to_payload())
        if "name" in body:
            channel.name = body["name"]
        if "topic" in body:
            channel.topic = body["topic"]
        self._channel_event(channel, "UPDATE")
        return json_response(channel.to_payload())

    def _edit_thread(self, thread: FakeChannel, body: dict[str, Any]) -> None:
        """Modify Channel's thread params (resources/channel): the creator or Manage
        Threads may rename, archive and set the duration (unarchiving a thread not
        locked needs only to be able to send there); locking needs Manage Threads; an
        archived thread changes only if the request unarchives it (50083); a name of 1
        to 100 characters and a duration Discord takes (50035); unarchiving needs room
        under the server's active threads (160006)."""
        assert thread.guild is not None
        errors = self._thread_form_errors(body, creating=False)
        if errors:
            raise DiscordAPIError(400, 50035, "Invalid Form Body", errors.tree)
        if not self._may_edit_thread(thread, body):
            raise DiscordAPIError(403, 50013, "Missing Permissions")
        unarchiving = thread.archived and body.get("archived") is False
        if thread.archived and not unarchiving:
            self.check_not_archived(thread)
        if unarchiving and not thread.guild.thread_room():
            raise DiscordAPIError(400, TOO_MANY_THREADS,
                                  "Maximum number of active threads reached")
        if "name" in body:
            thread.name = body["name"]
        if "auto_archive_duration" in body:
            thread.auto_archive_duration = body["auto_archive_duration"]
            thread.idle = 0.0  # a new duration is activity
        if "locked" in body:
            thread.locked = bool(body["locked"])
        if "archived" in body and bool(body["archived"]) != thread.archived:
            thread.set_archived(bool(body["archived"]))
        self._channel_event(thread, "UPDATE")

    def _may_edit_thread(self, thread: FakeChannel, body: dict[str, Any]) -> bool:
        """Whether the bot may make this change (topics/threads, "Editing & Deleting
        Threads"): unarchiving a thread not locked needs only to be able to send
        there; locking, or unarchiving a locked thread, needs Manage Threads; anything
        else (name, archived, duration), Manage Threads or having created the thread."""
        assert thread.guild is not None
        moderates = bool(self._bot_member(thread.guild).permissions & MANAGE_THREADS)
        if "locked" in body or (thread.locked and body.get("archived") is False):
            return moderates
        if set(body) <= {"archived"} and body.get("archived") is False:
            return True
        return moderates or thread.owner_id == self.bot_user.id

    @staticmethod
    def _thread_form_errors(body: dict[str, Any], *, creating: bool) -> FormErrors:
        """What Discord's form check says of a thread's name (1 to 100 characters,
        required when creating) and ``auto_archive_duration`` (60, 1440, 4320 or
        10080)."""
        errors = FormErrors()
        name = body.get("name")
        if creating or "name" in body:
            if isinstance(name, str):
                errors.length("name", name, 100, 1)
            else:
                errors.add("name", "BASE_TYPE_REQUIRED", "This field is required")
        duration = body.get("auto_archive_duration")
        if duration is not None and (isinstance(duration, bool)
                                     or duration not in ARCHIVE_DURATIONS):
            errors.add("auto_archive_duration", "BASE_TYPE_CHOICES",
                       f"Value must be one of {{{', '.join(map(str, ARCHIVE_DURATIONS))}}}.")
        return errors

    async def _delete_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.guild is None:
            return json_response(channel.to_payload())  # "closing" a DM
        # Delete Channel: Manage Channels, or Manage Threads for a thread.
        needed = MANAGE_THREADS if channel.is_thread else MANAGE_CHANNELS
        if not self._bot_member(channel.guild).permissions & needed:
            raise DiscordAPIError(403, 50013, "Missing Permissions")
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
        errors = self._thread_form_errors(body, creating=True)
        if errors:
            raise DiscordAPIError(400, 50035, "Invalid Form Body", errors.tree)
        name = body["name"]
        duration = body.get("auto_archive_duration") or DEFAULT_ARCHIVE_DURATION
        owner = self.bot_user
        from_message = "message_id" in request.match_info
        # A thread from a message is public; without a message the type says.
        private = not from_message and int(body.get("type") or PRIVATE_THREAD) == PRIVATE_THREAD
        needed = CREATE_PRIVATE_THREADS if private else CREATE_PUBLIC_THREADS
        if not self._bot_member(channel.guild).permissions & needed:
            raise DiscordAPIError(403, 50013, "Missing Permissions")
        start = self._channel_message(request) if from_message else None
        if not channel.guild.thread_room():
            raise DiscordAPIError(400, TOO_MANY_THREADS,
                                  "Maximum number of active threads reached")
        if start is not None:
            # A thread started from a message shares the message's id, as on Discord.
            thread = channel.guild.add_thread(channel, name, owner=owner, thread_id=start.id,
                                              auto_archive_duration=duration)
        else:
            thread = channel.guild.add_thread(channel, name, private=private, owner=owner,
                                              auto_archive_duration=duration)
        return json_response(thread.to_payload(), 201)

    async def _accept(self, request: web.Request) -> web.Response:
        # Typing indicators: valid channel, nothing to store.
        self._channel(request)
        return no_content()

    async def _add_thread_member(self, request: web.Request) -> web.Response:
        """Add Thread Member: "requires the thread is not archived" (50083)."""
        self.check_not_archived(self._channel(request))
        return no_content()

