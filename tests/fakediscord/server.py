"""The fake Discord server: an aiohttp app serving REST API v10 and the gateway websocket.

It binds 127.0.0.1 on an ephemeral port only. It mirrors the behaviour a bot can observe
(status codes, JSON error codes, message/interaction lifecycles, gateway sequencing) and
is strict where Discord is strict, so a bot that passes here has a fair chance in real life:
empty or oversized messages, a second interaction callback, a late acknowledgement and a DM
to a user who closed DMs are all refused the way Discord refuses them.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import mimetypes
import re
import secrets
import threading
import uuid
import zlib
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import quote

from aiohttp import WSMsgType, web

from .model import (
    APPLICATION_COMMAND,
    BUTTON,
    CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_UPDATE_MESSAGE,
    DM,
    DM_APP_PERMISSIONS,
    EPHEMERAL,
    GUILD_TEXT,
    IS_COMPONENTS_V2,
    LINK_BUTTON_STYLE,
    LOADING,
    MANAGE_MESSAGES,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SELECT_TYPES,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
    UPDATE_MESSAGE,
    FakeAttachment,
    FakeChannel,
    FakeCommand,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    SnowflakeFactory,
    assign_component_ids,
    now_iso,
    walk_components,
)

# Deliberately not under "discord": the fake's own chatter must never count as a bot error.
log = logging.getLogger("tests.fakediscord")

API_PREFIX = "/api/v10"
GATEWAY_PATH = "/ws"

# Gateway intents the fake honours when deciding who receives what.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15

#: Which callback types Discord accepts for each interaction type.
ALLOWED_CALLBACKS: dict[int, set[int]] = {
    APPLICATION_COMMAND: {4, 5, 9, 12},
    MESSAGE_COMPONENT: {4, 5, 6, 7, 9, 12},
    4: {8},
    MODAL_SUBMIT: {4, 5, 6, 7},
}

T = TypeVar("T")


# --- errors --------------------------------------------------------------------------------


class DiscordAPIError(Exception):
    """Raised inside a handler to answer with Discord's JSON error body."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors


class BotError(AssertionError):
    """The bot logged an ERROR (on a ``discord.*`` logger) while the test was waiting."""

    def __init__(self, records: list[logging.LogRecord]) -> None:
        formatter = logging.Formatter("%(name)s: %(message)s")
        parts = []
        for record in records:
            text = formatter.format(record)
            parts.append(text)
        super().__init__("the bot logged errors:\n" + "\n".join(parts))
        self.records = records


class WaitTimeout(AssertionError):
    """A condition awaited with :meth:`FakeDiscordServer.wait_for` did not come true in time."""


def json_response(data: Any, status: int = 200) -> web.Response:
    """A JSON response with exactly ``Content-Type: application/json``.

    discord.py only decodes bodies whose content-type header *equals* that string, and
    aiohttp's ``json_response`` would append ``; charset=utf-8``.
    """
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def no_content() -> web.Response:
    """204, what Discord answers for actions without a body."""
    return web.Response(status=204)


@dataclass
class Upload:
    """A file part of a multipart request (``files[n]``)."""

    index: int
    filename: str
    content_type: str | None
    data: bytes


@dataclass
class RequestRecord:
    """One REST request the bot made, for debugging and assertions."""

    method: str
    path: str
    status: int


@dataclass
class Rejection:
    """A request the fake refused with an error, as Discord would."""

    method: str
    path: str
    status: int
    code: int
    message: str
    errors: dict[str, Any] | None = None


# --- gateway -----------------------------------------------------------------------------


class GatewaySession:
    """A logical gateway session; it outlives one websocket so RESUME can replay events."""

    def __init__(self, session_id: str, intents: int, identify: dict[str, Any]) -> None:
        self.id = session_id
        self.intents = intents
        self.identify = identify
        self.seq = 0
        self.log: deque[tuple[int, str]] = deque(maxlen=2000)
        self.conn: GatewayConnection | None = None
        self.alive = True
        self.resumes = 0

    def dispatch(self, event: str, data: Any) -> None:
        """Sequence and send (or buffer, while disconnected) one dispatch event."""
        self.seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": self.seq, "d": data})
        self.log.append((self.seq, frame))
        if self.conn is not None:
            self.conn.enqueue(frame)


class GatewayConnection:
    """One websocket. A writer task sends queued frames in order, optionally zlib-compressed."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.compress = compress
        # zlib-stream: one compressor for the whole connection; every frame ends with a
        # Z_SYNC_FLUSH marker, which is what discord.py looks for to split messages.
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.session: GatewaySession | None = None
        self.writer = asyncio.get_running_loop().create_task(self._write(), name="fake-gw-writer")

    def enqueue(self, frame: str) -> None:
        """Queue a text frame for sending."""
        self.queue.put_nowait(frame)

    def send_op(self, op: int, data: Any) -> None:
        """Queue a non-dispatch opcode."""
        self.enqueue(json.dumps({"op": op, "d": data}))

    async def _write(self) -> None:
        try:
            while True:
                frame = await self.queue.get()
                try:
                    if frame is None:
                        return
                    if self._zlib is not None:
                        data = self._zlib.compress(frame.encode()) + self._zlib.flush(
                            zlib.Z_SYNC_FLUSH
                        )
                        await self.ws.send_bytes(data)
                    else:
                        # Text frames also cover "zstd-stream": discord.py only decompresses
                        # binary frames and parses text frames as plain JSON.
                        await self.ws.send_str(frame)
                finally:
                    self.queue.task_done()
        except (ConnectionError, RuntimeError):
            # The client went away mid-send; the reader side cleans up.
            pass
        finally:
            while not self.queue.empty():
                self.queue.get_nowait()
                self.queue.task_done()

    async def flush(self) -> None:
        """Wait until every queued frame was handed to the socket."""
        if not self.writer.done():
            await self.queue.join()

    async def close(self, code: int = 1000, message: str = "") -> None:
        """Stop writing and close the websocket."""
        self.queue.put_nowait(None)
        await asyncio.gather(self.writer, return_exceptions=True)
        if not self.ws.closed:
            await self.ws.close(code=code, message=message.encode())


# --- the server ----------------------------------------------------------------------------


class FakeDiscordServer:
    """State plus the HTTP/websocket protocol. :class:`~.harness.FakeDiscord` adds the
    user-simulation API on top; use that one in tests."""

    heartbeat_interval_ms = 41250
    application_flags = 1 << 23  # APPLICATION_COMMAND_BADGE, as a bot with commands has

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_name: str = "Croupier",
        ack_deadline: float | None = 3.0,
    ) -> None:
        """``ack_deadline``: seconds within which an interaction must be acknowledged, as on
        Discord (3 s); ``None`` disables the check."""
        self.token = token
        self.ack_deadline = ack_deadline
        self._ids = SnowflakeFactory()
        self.application_id = self.next_id()
        # New applications have a bot user whose id equals the application id.
        self.bot_user = FakeUser(self.application_id, bot_name, bot=True)
        self.owner = FakeUser(self.next_id(), "App Owner")
        self.users: dict[int, FakeUser] = {u.id: u for u in (self.bot_user, self.owner)}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.deleted_messages: list[FakeMessage] = []
        self.global_commands: list[FakeCommand] = []
        self.guild_commands: dict[int, list[FakeCommand]] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self._by_token: dict[str, FakeInteraction] = {}
        self._dm_channels: dict[int, FakeChannel] = {}
        #: Requests to routes the fake does not implement ("METHOD /path").
        self.unhandled: list[str] = []
        #: Exceptions inside the fake itself (a bug in the fake, never the bot's fault).
        self.server_errors: list[str] = []
        #: Every error answer the bot received (validation, 403 on closed DMs, ...).
        self.rejections: list[Rejection] = []
        #: Every REST request, in order.
        self.requests: list[RequestRecord] = []
        #: ERROR records logged on ``discord.*`` while the fake runs.
        self.bot_errors: list[logging.LogRecord] = []
        self._errors_reported = 0
        #: Gateway sessions by id (live and ended), and counters for assertions.
        self.sessions: dict[str, GatewaySession] = {}
        self.identify_count = 0
        self.resume_count = 0
        #: Query parameters of every gateway websocket (v, encoding, compress).
        self.connection_queries: list[dict[str, str]] = []
        self._connections: set[GatewayConnection] = set()
        self._quiet = 0
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread = 0
        #: Files users attached to slash-command options, servable like message attachments.
        self.uploads: dict[int, FakeAttachment] = {}
        self._log_handler: _BotErrorHandler | None = None
        self.port = 0
        self.base_url = ""

    # --- identity and lifecycle -------------------------------------------------------

    def next_id(self) -> int:
        """A fresh snowflake."""
        return self._ids.next()

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be: ``http://127.0.0.1:PORT/api/v10``."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """The websocket URL (``ws://127.0.0.1:PORT/ws``)."""
        return f"ws://127.0.0.1:{self.port}{GATEWAY_PATH}"

    async def start(self) -> None:
        """Bind 127.0.0.1 on an ephemeral port and start serving."""
        if self._runner is not None:
            raise RuntimeError("already started")
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self._changed = asyncio.Event()
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        # shutdown_timeout is short: on stop, open websockets are closed first anyway.
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self.base_url = f"http://127.0.0.1:{self.port}"
        self._log_handler = _BotErrorHandler(self)
        logging.getLogger("discord").addHandler(self._log_handler)
        log.debug("fake Discord listening on %s", self.base_url)

    async def stop(self) -> None:
        """Close every websocket and stop the server."""
        for conn in list(self._connections):
            await conn.close(code=1001, message="fake Discord stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._log_handler is not None:
            logging.getLogger("discord").removeHandler(self._log_handler)
            self._log_handler = None

    # --- change notification and waiting ----------------------------------------------

    def _bump(self) -> None:
        """Wake every waiter: something changed."""
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    def _bump_threadsafe(self) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == self._loop_thread:
            self._bump()
        else:
            loop.call_soon_threadsafe(self._bump)

    def _on_bot_error(self, record: logging.LogRecord) -> None:
        self.bot_errors.append(record)
        self._bump_threadsafe()

    def _raise_new_bot_errors(self) -> None:
        if len(self.bot_errors) > self._errors_reported:
            new = self.bot_errors[self._errors_reported :]
            self._errors_reported = len(self.bot_errors)
            raise BotError(new)

    async def wait_for(
        self,
        predicate: Callable[[], T],
        timeout: float = 5.0,
        *,
        description: str | None = None,
        fail_on_bot_error: bool = True,
        recheck: float = 0.02,
    ) -> T:
        """Wait until ``predicate()`` returns something truthy and return it.

        The predicate is re-checked at once after every change the fake sees (REST call,
        gateway traffic, log record). State the fake cannot see change, such as the bot's
        own cache or a list your listener fills, is re-checked every ``recheck`` seconds.
        Raises :class:`WaitTimeout` after ``timeout`` seconds, and :class:`BotError` as soon
        as the bot logs an ERROR (unless ``fail_on_bot_error`` is false), so a crashing
        handler fails fast instead of running into the timeout.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if fail_on_bot_error:
                self._raise_new_bot_errors()
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise WaitTimeout(self._timeout_report(description or repr(predicate), timeout))
            event = self._changed
            # Timing out here just leads to another predicate check above.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, recheck))

    def _timeout_report(self, what: str, timeout: float) -> str:
        lines = [f"timed out after {timeout:g}s waiting for: {what}"]
        recent = sorted(self.messages.values(), key=lambda m: m.id)[-6:]
        if recent:
            lines.append("latest messages:")
            lines.extend(f"  {m!r}" for m in recent)
        if self.rejections:
            lines.append(f"requests the fake refused: {self.rejections[-5:]}")
        if self.unhandled:
            lines.append(f"unhandled routes: {self.unhandled}")
        if not any(s.conn for s in self.sessions.values()):
            lines.append("no bot is connected to the gateway")
        return "\n".join(lines)

    # --- world hooks used by the model -------------------------------------------------

    def _live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if s.alive]

    def _broadcast(
        self,
        event: str,
        data: Any | Callable[[GatewaySession], Any],
        *,
        intent: int | None = None,
    ) -> None:
        if self._quiet:
            self._bump()
            return
        for session in self._live_sessions():
            if intent is not None and not session.intents & intent:
                continue
            session.dispatch(event, data(session) if callable(data) else data)
        self._bump()

    @contextmanager
    def _quietly(self) -> Iterator[None]:
        """Suppress gateway events while building something announced as a whole later."""
        self._quiet += 1
        try:
            yield
        finally:
            self._quiet -= 1

    async def dispatch(self, event: str, data: Any) -> None:
        """Send a dispatch event (op 0, ``t=event``) to every connected client and wait
        until it was written to the sockets."""
        self._broadcast(event, data)
        await self.flush()

    async def flush(self) -> None:
        """Wait until all queued gateway frames were handed to the sockets."""
        for conn in list(self._connections):
            await conn.flush()

    def _channel_added(self, channel: FakeChannel) -> None:
        self.channels[channel.id] = channel
        payload = channel.to_payload()
        if channel.is_thread:
            payload = {**payload, "newly_created": True}
            self._broadcast("THREAD_CREATE", payload, intent=INTENT_GUILDS)
        else:
            self._broadcast("CHANNEL_CREATE", payload, intent=INTENT_GUILDS)

    def _role_added(self, guild: FakeGuild, role: FakeRole) -> None:
        payload = {"guild_id": str(guild.id), "role": role.to_payload()}
        self._broadcast("GUILD_ROLE_CREATE", payload, intent=INTENT_GUILDS)

    def _member_added(self, member: FakeMember) -> None:
        self.users[member.user.id] = member.user
        if member.user.id == self.bot_user.id:
            return
        payload = {**member.to_payload(), "guild_id": str(member.guild.id)}
        self._broadcast("GUILD_MEMBER_ADD", payload, intent=INTENT_GUILD_MEMBERS)

    def _add_user_to_guild(
        self, guild: FakeGuild, name: str, *, admin: bool, roles: tuple[str | FakeRole, ...]
    ) -> FakeUser:
        user = FakeUser(self.next_id(), name)
        self.users[user.id] = user
        guild.add_member(user, admin=admin, roles=roles)
        return user

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The bot's DM channel with ``user`` (created on first use, like Discord does)."""
        channel = self._dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(self.next_id(), user.name, DM, self, recipient=user)
            self._dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    # --- routing ----------------------------------------------------------------------

    def _add_routes(self, app: web.Application) -> None:
        def api(method: str, path: str, handler: Callable[[web.Request], Awaitable[Any]]) -> None:
            app.router.add_route(method, API_PREFIX + path, handler)

        api("GET", "/users/@me", self._get_me)
        api("PATCH", "/users/@me", self._get_me)
        api("POST", "/users/@me/channels", self._create_dm)
        api("GET", "/users/{user_id}", self._get_user)
        api("GET", "/oauth2/applications/@me", self._get_application)
        api("GET", "/applications/@me", self._get_application)
        api("GET", "/gateway", self._get_gateway)
        api("GET", "/gateway/bot", self._get_gateway)
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            api("GET", prefix + "/commands", self._list_commands)
            api("PUT", prefix + "/commands", self._overwrite_commands)
            api("POST", prefix + "/commands", self._upsert_command)
            api("GET", prefix + "/commands/{command_id}", self._get_command)
            api("PATCH", prefix + "/commands/{command_id}", self._edit_command)
            api("DELETE", prefix + "/commands/{command_id}", self._delete_command)
        api("GET", "/channels/{channel_id}", self._get_channel)
        api("PATCH", "/channels/{channel_id}", self._edit_channel)
        api("DELETE", "/channels/{channel_id}", self._delete_channel)
        api("GET", "/channels/{channel_id}/messages", self._history)
        api("POST", "/channels/{channel_id}/messages", self._post_message)
        api("POST", "/channels/{channel_id}/messages/bulk-delete", self._bulk_delete)
        api("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message)
        api("PATCH", "/channels/{channel_id}/messages/{message_id}", self._patch_message)
        api("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message_route)
        api("POST", "/channels/{channel_id}/typing", self._accept)
        reaction = "/channels/{channel_id}/messages/{message_id}/reactions"
        api("PUT", reaction + "/{emoji}/@me", self._add_reaction)
        api("DELETE", reaction + "/{emoji}/@me", self._remove_reaction)
        api("DELETE", reaction, self._clear_reactions)
        api("POST", "/channels/{channel_id}/threads", self._start_thread)
        api("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._start_thread)
        api("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._accept)
        api("GET", "/guilds/{guild_id}", self._get_guild)
        api("GET", "/guilds/{guild_id}/channels", self._get_guild_channels)
        api("GET", "/guilds/{guild_id}/roles", self._get_guild_roles)
        api("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member)
        api("POST", "/interactions/{interaction_id}/{token}/callback", self._callback)
        api("POST", "/webhooks/{app_id}/{token}", self._followup)
        api("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_get)
        api("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_patch)
        api("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_delete)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._attachment)
        app.router.add_get(GATEWAY_PATH, self._gateway)
        app.router.add_get(GATEWAY_PATH + "/", self._gateway)

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        method, path = request.method, request.path
        # Belt and braces: the socket is bound to 127.0.0.1, but refuse anything that does
        # not claim to be local too, so the fake can never act as a relay.
        if request.remote not in ("127.0.0.1", "::1") or request.host.split(":")[0] not in (
            "127.0.0.1",
            "localhost",
        ):
            return json_response({"code": 0, "message": "fake Discord is loopback-only"}, 403)
        try:
            if path.startswith(API_PREFIX) and not self._is_token_route(path):
                self._check_auth(request)
            response = await handler(request)
        except DiscordAPIError as exc:
            body: dict[str, Any] = {"code": exc.code, "message": exc.message}
            if exc.errors:
                body["errors"] = exc.errors
            self.rejections.append(
                Rejection(method, path, exc.status, exc.code, exc.message, exc.errors)
            )
            if exc.status != 401:
                log.info("fake Discord refused %s %s: %s %s", method, path, exc.status, body)
            response = json_response(body, exc.status)
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
            entry = f"{method} {path}"
            self.unhandled.append(entry)
            log.warning("fake Discord has no route for %s", entry)
            response = json_response({"code": 0, "message": f"unknown route {entry}"}, 404)
        except web.HTTPException:
            raise
        except Exception as exc:
            # A bug in the fake. Never answer 5xx: discord.py retries those with sleeps.
            log.exception("fake Discord crashed on %s %s", method, path)
            self.server_errors.append(f"{method} {path}: {exc!r}")
            response = json_response({"code": 0, "message": f"fake Discord error: {exc!r}"}, 400)
        self.requests.append(RequestRecord(method, path, response.status))
        self._bump()
        return response

    @staticmethod
    def _is_token_route(path: str) -> bool:
        # Interaction callbacks and webhook follow-ups authenticate by the token in the URL.
        rest = path[len(API_PREFIX) :]
        return rest.startswith(("/interactions/", "/webhooks/"))

    def _check_auth(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise DiscordAPIError(401, 0, "401: Unauthorized")

    # --- body parsing -----------------------------------------------------------------

    async def _read_body(self, request: web.Request) -> tuple[dict[str, Any], dict[int, Upload]]:
        """JSON body, or multipart with ``payload_json`` and ``files[n]`` parts."""
        uploads: dict[int, Upload] = {}
        if request.content_type.startswith("multipart/"):
            payload: dict[str, Any] = {}
            reader = await request.multipart()
            async for part in reader:
                name = getattr(part, "name", None) or ""
                if name == "payload_json":
                    payload = json.loads(await part.text())  # type: ignore[union-attr]
                elif match := re.fullmatch(r"files\[(\d+)\]", name):
                    index = int(match.group(1))
                    data = await part.read(decode=False)  # type: ignore[union-attr]
                    uploads[index] = Upload(
                        index,
                        getattr(part, "filename", None) or f"file{index}",
                        part.headers.get("Content-Type"),
                        bytes(data),
                    )
                else:
                    raise DiscordAPIError(
                        400, 50035, f"Invalid Form Body: unexpected part {name!r}"
                    )
            return payload, uploads
        body = await self._read_json(request)
        if body is None:
            return {}, uploads
        if not isinstance(body, dict):
            raise DiscordAPIError(
                400, 50035, "Invalid Form Body", {"_errors": "expected an object"}
            )
        return body, uploads

    async def _read_json(self, request: web.Request) -> Any:
        """The JSON body, ``None`` if there is none."""
        if not request.can_read_body:
            return None
        try:
            return await request.json()
        except json.JSONDecodeError as exc:
            raise DiscordAPIError(400, 50109, "The request body contains invalid JSON.") from exc

    # --- lookups ----------------------------------------------------------------------

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

    def _channel_message(self, request: web.Request, channel: FakeChannel) -> FakeMessage:
        try:
            message = self.messages[int(request.match_info["message_id"])]
        except (KeyError, ValueError):
            raise DiscordAPIError(404, 10008, "Unknown Message") from None
        # Ephemeral messages do not exist for the channel endpoints.
        if message.channel is not channel or message.deleted or message.ephemeral:
            raise DiscordAPIError(404, 10008, "Unknown Message")
        return message

    def _bot_member(self, guild: FakeGuild) -> FakeMember:
        return guild.members[self.bot_user.id]

    # --- users, application, gateway info --------------------------------------------

    async def _get_me(self, request: web.Request) -> web.Response:
        payload = self.bot_user.to_payload()
        payload.update(verified=True, mfa_enabled=False, flags=0, locale="en-US", email=None)
        return json_response(payload)

    async def _get_user(self, request: web.Request) -> web.Response:
        try:
            user = self.users[int(request.match_info["user_id"])]
        except (KeyError, ValueError):
            raise DiscordAPIError(404, 10013, "Unknown User") from None
        return json_response(user.to_payload())

    async def _create_dm(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
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
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    # --- guilds -----------------------------------------------------------------------

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

    # --- application commands ---------------------------------------------------------

    def _command_scope(self, request: web.Request) -> tuple[list[FakeCommand], int | None]:
        if int(request.match_info["app_id"]) != self.application_id:
            raise DiscordAPIError(403, 50001, "Missing Access")
        if "guild_id" not in request.match_info:
            return self.global_commands, None
        guild = self._guild(request)
        return self.guild_commands.setdefault(guild.id, []), guild.id

    def _build_command(
        self, raw: dict[str, Any], existing: list[FakeCommand], guild_id: int | None, index: int
    ) -> FakeCommand:
        errors = _validate_command(raw)
        if errors:
            raise DiscordAPIError(400, 50035, "Invalid Form Body", {str(index): errors})
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
        payload = await self._read_json(request)
        if not isinstance(payload, list):
            raise DiscordAPIError(400, 50035, "Invalid Form Body")
        if len(payload) > 100:
            raise DiscordAPIError(400, 30032, "Maximum number of application commands reached")
        names = [(p.get("name"), p.get("type", 1)) for p in payload]
        if len(set(names)) != len(names):
            raise DiscordAPIError(400, 50035, "Invalid Form Body", {"_errors": "duplicate name"})
        new = [self._build_command(raw, commands, guild_id, i) for i, raw in enumerate(payload)]
        commands[:] = new
        return json_response([c.raw for c in new])

    async def _upsert_command(self, request: web.Request) -> web.Response:
        commands, guild_id = self._command_scope(request)
        body, _ = await self._read_body(request)
        cmd = self._build_command(body, commands, guild_id, 0)
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
        body, _ = await self._read_body(request)
        cmd.raw.update({k: v for k, v in body.items() if k != "id"})
        return json_response(cmd.raw)

    async def _delete_command(self, request: web.Request) -> web.Response:
        commands, cmd = self._find_command(request)
        commands.remove(cmd)
        return no_content()

    # --- channels and messages --------------------------------------------------------

    async def _get_channel(self, request: web.Request) -> web.Response:
        return json_response(self._channel(request).to_payload())

    async def _edit_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, _ = await self._read_body(request)
        if "name" in body:
            channel.name = body["name"]
        if "topic" in body:
            channel.topic = body["topic"]
        if "archived" in body:
            channel.archived = bool(body["archived"])
        if "locked" in body:
            channel.locked = bool(body["locked"])
        payload = channel.to_payload()
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        self._broadcast(event, payload, intent=INTENT_GUILDS)
        return json_response(payload)

    async def _delete_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.guild is None:
            return json_response(channel.to_payload())  # "closing" a DM
        payload = channel.to_payload()
        if channel in channel.guild.threads:
            channel.guild.threads.remove(channel)
            self._broadcast("THREAD_DELETE", payload, intent=INTENT_GUILDS)
        else:
            channel.guild.channels.remove(channel)
            self._broadcast("CHANNEL_DELETE", payload, intent=INTENT_GUILDS)
        del self.channels[channel.id]
        return json_response(payload)

    async def _start_thread(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, _ = await self._read_body(request)
        if channel.guild is None or channel.type != GUILD_TEXT:
            raise DiscordAPIError(400, 50024, "Cannot execute action on this channel type")
        name = str(body.get("name") or "thread")
        if "message_id" in request.match_info:
            start = self._channel_message(request, channel)
            thread = FakeChannel(
                start.id,
                name,
                PUBLIC_THREAD,
                self,
                guild=channel.guild,
                parent=channel,
                owner_id=self.bot_user.id,
            )
            channel.guild.threads.append(thread)
            self._channel_added(thread)
        else:
            private = int(body.get("type") or PRIVATE_THREAD) == PRIVATE_THREAD
            thread = channel.guild.add_thread(channel, name, private=private, owner=self.bot_user)
        return json_response(thread.to_payload(), 201)

    async def _accept(self, request: web.Request) -> web.Response:
        # Typing indicators and joining threads: valid channel, nothing to store.
        self._channel(request)
        return no_content()

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
        channel = self._channel(request)
        return json_response(self._channel_message(request, channel).to_payload())

    async def _post_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.is_dm and channel.recipient is not None and channel.recipient.dms_closed:
            raise DiscordAPIError(403, 50007, "Cannot send messages to this user")
        if channel.is_thread and channel.locked:
            raise DiscordAPIError(403, 50083, "Thread is locked")
        body, uploads = await self._read_body(request)
        message = self.create_message(channel, self.bot_user, body, uploads)
        return json_response(message.to_payload())

    async def _patch_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message = self._channel_message(request, channel)
        if message.author.id != self.bot_user.id:
            raise DiscordAPIError(403, 50005, "Cannot edit a message authored by another user")
        body, uploads = await self._read_body(request)
        self.edit_message(message, body, uploads)
        return json_response(message.to_payload())

    async def _delete_message_route(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message = self._channel_message(request, channel)
        if message.author.id != self.bot_user.id:
            # Others' messages: never in DMs, in guilds only with Manage Messages.
            if channel.guild is None:
                raise DiscordAPIError(403, 50003, "Cannot execute action on a DM channel")
            if not self._bot_member(channel.guild).permissions & MANAGE_MESSAGES:
                raise DiscordAPIError(403, 50013, "Missing Permissions")
        self.delete_message(message)
        return no_content()

    async def _bulk_delete(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, _ = await self._read_body(request)
        for raw_id in body.get("messages", []):
            message = self.messages.get(int(raw_id))
            if message is not None and message.channel is channel and not message.deleted:
                self.delete_message(message)
        return no_content()

    async def _add_reaction(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message = self._channel_message(request, channel)
        users = message.reactions.setdefault(request.match_info["emoji"], [])
        if self.bot_user.id not in users:
            users.append(self.bot_user.id)
        return no_content()

    async def _remove_reaction(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message = self._channel_message(request, channel)
        emoji = request.match_info["emoji"]
        users = message.reactions.get(emoji, [])
        if self.bot_user.id in users:
            users.remove(self.bot_user.id)
        if not users:
            message.reactions.pop(emoji, None)
        return no_content()

    async def _clear_reactions(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._channel_message(request, channel).reactions.clear()
        return no_content()

    async def _attachment(self, request: web.Request) -> web.StreamResponse:
        wanted = int(request.match_info["attachment_id"])
        if wanted in self.uploads:
            att = self.uploads[wanted]
            return web.Response(body=att.data, headers={"Content-Type": att.content_type})
        for message in [*self.messages.values(), *self.deleted_messages]:
            for att in message.attachments:
                if att.id == wanted:
                    return web.Response(body=att.data, headers={"Content-Type": att.content_type})
        for message in self.messages.values():
            for version in message.history:
                for att in version.attachments:
                    if att.id == wanted:
                        return web.Response(
                            body=att.data, headers={"Content-Type": att.content_type}
                        )
        return web.Response(status=404, text="attachment not found")

    # --- message store (also used by the harness for user messages) -----------------

    def _build_attachments(
        self,
        channel: FakeChannel,
        body: Mapping[str, Any],
        uploads: dict[int, Upload],
        existing: list[FakeAttachment],
        ephemeral: bool,
    ) -> list[FakeAttachment] | None:
        """Resolve ``attachments`` (kept ids and ``files[n]`` indexes); ``None`` = unchanged."""
        specs = body.get("attachments")
        if specs is None:
            if not uploads:
                return None
            specs = [{"id": index} for index in sorted(uploads)]
            keep = list(existing)
        else:
            keep = []
        used: set[int] = set()
        result = keep
        for spec in specs:
            spec_id = int(spec["id"])
            if spec_id in uploads and spec_id not in used:
                used.add(spec_id)
                result.append(self._new_attachment(channel, uploads[spec_id], spec, ephemeral))
                continue
            old = next((a for a in existing if a.id == spec_id), None)
            if old is None:
                raise DiscordAPIError(
                    400,
                    50035,
                    "Invalid Form Body",
                    {"attachments": f"unknown attachment {spec_id}"},
                )
            result.append(old)
        # Files uploaded but not listed are still attached by Discord.
        for index in sorted(set(uploads) - used):
            result.append(self._new_attachment(channel, uploads[index], {}, ephemeral))
        return result

    def _new_attachment(
        self, channel: FakeChannel, upload: Upload, spec: Mapping[str, Any], ephemeral: bool
    ) -> FakeAttachment:
        filename = str(spec.get("filename") or upload.filename)
        # discord.py sends every file as application/octet-stream; Discord sniffs the name.
        guessed = mimetypes.guess_type(filename)[0]
        declared = (
            upload.content_type if upload.content_type != "application/octet-stream" else None
        )
        content_type = guessed or declared or "application/octet-stream"
        att_id = self.next_id()
        return FakeAttachment(
            att_id,
            filename,
            content_type,
            upload.data,
            url=f"{self.base_url}/attachments/{channel.id}/{att_id}/{quote(filename)}",
            description=spec.get("description"),
            ephemeral=ephemeral,
        )

    def _normalize_embeds(
        self, embeds: list[dict[str, Any]], attachments: list[FakeAttachment]
    ) -> list[dict[str, Any]]:
        result = []
        for embed in copy.deepcopy(embeds):
            embed.setdefault("type", "rich")
            for key in ("image", "thumbnail"):
                media = embed.get(key)
                url = media.get("url", "") if isinstance(media, dict) else ""
                if url.startswith("attachment://"):
                    name = url.removeprefix("attachment://")
                    att = next((a for a in attachments if a.filename == name), None)
                    if att is not None:
                        media.update(url=att.url, proxy_url=att.url)
                        if att.image_size:
                            media["width"], media["height"] = att.image_size
            result.append(embed)
        return result

    def _interaction_message(
        self, inter: FakeInteraction, body: dict[str, Any], uploads: Any
    ) -> FakeMessage:
        """A message the bot creates in answer to an interaction (response or follow-up)."""
        return self.create_message(
            inter.channel,
            self.bot_user,
            body,
            uploads,
            interaction=inter,
            allow_ephemeral=True,
            message_type=20 if inter.type == APPLICATION_COMMAND else 0,
            webhook_id=self.application_id,
        )

    def create_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        body: Mapping[str, Any],
        uploads: dict[int, Upload] | None = None,
        *,
        interaction: FakeInteraction | None = None,
        allow_ephemeral: bool = False,
        message_type: int = 0,
        webhook_id: int | None = None,
    ) -> FakeMessage:
        """Validate like Discord, store, and announce (MESSAGE_CREATE) a new message."""
        uploads = uploads or {}
        allowed = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2
        if allow_ephemeral:
            allowed |= EPHEMERAL
        flags = int(body.get("flags") or 0) & allowed
        attachments = self._build_attachments(channel, body, uploads, [], bool(flags & EPHEMERAL))
        attachments = attachments or []
        content = "" if body.get("content") is None else str(body["content"])
        embeds = self._normalize_embeds(body.get("embeds") or [], attachments)
        components = assign_component_ids(copy.deepcopy(body.get("components") or []))
        poll = body.get("poll")
        _raise_if_invalid(
            content, embeds, components, attachments, flags, poll, body.get("sticker_ids")
        )
        reference_id = None
        ref = body.get("message_reference")
        if ref and ref.get("message_id"):
            reference_id = int(ref["message_id"])
            target = self.messages.get(reference_id)
            if (target is None or target.deleted) and ref.get("fail_if_not_exists", True):
                raise DiscordAPIError(
                    400, 50035, "Invalid Form Body", {"message_reference": "Unknown message"}
                )
        message = FakeMessage(
            self.next_id(),
            channel,
            author,
            content=content,
            embeds=embeds,
            components=components,
            attachments=attachments,
            flags=flags,
            type=message_type,
            tts=bool(body.get("tts")),
            webhook_id=webhook_id,
            application_id=self.application_id if interaction is not None else None,
            interaction=interaction,
            reference_id=reference_id,
            nonce=None if body.get("nonce") is None else str(body["nonce"]),
            poll=poll,
        )
        self._store_message(message)
        return message

    def _store_message(self, message: FakeMessage) -> None:
        message.channel.messages.append(message)
        self.messages[message.id] = message
        self._announce("MESSAGE_CREATE", message)

    def edit_message(
        self,
        message: FakeMessage,
        body: Mapping[str, Any],
        uploads: dict[int, Upload] | None = None,
    ) -> FakeMessage:
        """Apply an edit (only the fields present), keeping the old version in ``history``."""
        uploads = uploads or {}
        content = message.content
        if "content" in body:
            content = "" if body["content"] is None else str(body["content"])
        flags = message.flags & ~LOADING
        if body.get("flags") is not None:
            keep = EPHEMERAL | SUPPRESS_NOTIFICATIONS
            flags = (flags & keep) | (int(body["flags"]) & (SUPPRESS_EMBEDS | IS_COMPONENTS_V2))
        attachments = self._build_attachments(
            message.channel, body, uploads, message.attachments, message.ephemeral
        )
        if attachments is None:
            attachments = message.attachments
        embeds = message.embeds
        if "embeds" in body:
            embeds = self._normalize_embeds(body["embeds"] or [], attachments)
        components = message.components
        if "components" in body:
            components = assign_component_ids(copy.deepcopy(body["components"] or []))
        _raise_if_invalid(content, embeds, components, attachments, flags, message.poll, None)
        message.history.append(message.snapshot())
        message.content = content
        message.embeds = embeds
        message.components = components
        message.attachments = attachments
        message.flags = flags
        message.edited_timestamp = now_iso()
        self._announce("MESSAGE_UPDATE", message)
        return message

    def delete_message(self, message: FakeMessage) -> None:
        """Delete a message (it moves to ``deleted_messages``)."""
        message.deleted = True
        if message in message.channel.messages:
            message.channel.messages.remove(message)
        self.messages.pop(message.id, None)
        self.deleted_messages.append(message)
        if not message.ephemeral:
            payload: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.guild is not None:
                payload["guild_id"] = str(message.guild.id)
            intent = INTENT_DIRECT_MESSAGES if message.guild is None else INTENT_GUILD_MESSAGES
            self._broadcast("MESSAGE_DELETE", payload, intent=intent)
        self._bump()

    def _announce(self, event: str, message: FakeMessage) -> None:
        """MESSAGE_CREATE/UPDATE to sessions with the matching intent; ephemeral ones are
        never sent over the gateway, and content is blanked without MESSAGE_CONTENT just
        as Discord does for messages not by, to or mentioning the bot."""
        if message.ephemeral:
            self._bump()
            return
        guild = message.guild
        member = guild.members.get(message.author.id) if guild is not None else None
        intent = INTENT_DIRECT_MESSAGES if guild is None else INTENT_GUILD_MESSAGES

        def payload_for(session: GatewaySession) -> dict[str, Any]:
            payload = message.to_payload(member=member)
            exempt = (
                guild is None
                or message.author.id == self.bot_user.id
                or self.bot_user.id in message.mentions
            )
            if not session.intents & INTENT_MESSAGE_CONTENT and not exempt:
                payload.update(content="", embeds=[], attachments=[], components=[])
                payload.pop("poll", None)
            return payload

        self._broadcast(event, payload_for, intent=intent)

    # --- interactions -----------------------------------------------------------------

    def start_interaction(
        self,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        message: FakeMessage | None = None,
        command_name: str | None = None,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """Create an interaction and send INTERACTION_CREATE with the full v10 envelope."""
        if not self._live_sessions():
            raise RuntimeError("no bot is connected to the fake gateway (start one first)")
        loop = asyncio.get_running_loop()
        inter = FakeInteraction(
            id=self.next_id(),
            token=f"fake-{secrets.token_urlsafe(24)}",
            type=itype,
            user=user,
            channel=channel,
            payload={},
            created_at=loop.time(),
            command_name=command_name,
            message=message,
        )
        guild = channel.guild
        channel_payload = channel.to_payload()
        payload: dict[str, Any] = {
            "id": str(inter.id),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": inter.token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": channel_payload,
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": inter.integration_owners,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if guild is not None:
            member = guild.member(user)
            channel_payload["permissions"] = str(member.permissions)
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=member.to_payload(with_permissions=True),
                app_permissions=str(self._bot_member(guild).permissions),
                context=0,
            )
        else:
            payload.update(
                user=user.to_payload(), app_permissions=str(DM_APP_PERMISSIONS), context=1
            )
        if message is not None:
            payload["message"] = message.to_payload()
        inter.payload = payload
        self.interactions[inter.id] = inter
        self._by_token[inter.token] = inter
        self._broadcast("INTERACTION_CREATE", payload)
        return inter

    def forget_interaction(self, inter: FakeInteraction) -> None:
        """Drop an interaction, and the messages it created, from the fake's records, so a
        long load run does not grow them without end (a growing heap means ever longer
        garbage-collection pauses in the loop the fake shares with the bot). Its token and
        messages are unknown to the fake afterwards, as if long expired and deleted."""
        self.interactions.pop(inter.id, None)
        self._by_token.pop(inter.token, None)
        for message in (inter.original, *inter.followups):
            # Only what the interaction created: not the message a component was used on.
            if message is None or message.interaction is not inter:
                continue
            self.messages.pop(message.id, None)
            if message in message.channel.messages:  # the original may be a follow-up too
                message.channel.messages.remove(message)

    def _interaction_from_url(self, request: web.Request) -> FakeInteraction:
        try:
            inter = self.interactions[int(request.match_info["interaction_id"])]
        except (KeyError, ValueError):
            raise DiscordAPIError(404, 10062, "Unknown interaction") from None
        if inter.token != request.match_info["token"]:
            raise DiscordAPIError(401, 50027, "Invalid Webhook Token")
        return inter

    async def _callback(self, request: web.Request) -> web.Response:
        inter = self._interaction_from_url(request)
        if inter.callback_at is None:
            inter.callback_at = asyncio.get_running_loop().time()
        if inter.acked:
            raise DiscordAPIError(400, 40060, "Interaction has already been acknowledged.")
        age = asyncio.get_running_loop().time() - inter.created_at
        if self.ack_deadline is not None and age > self.ack_deadline:
            log.warning(
                "interaction %s acknowledged after %.2fs; Discord allows %.1fs",
                inter.id,
                age,
                self.ack_deadline,
            )
            raise DiscordAPIError(404, 10062, "Unknown interaction")
        body, uploads = await self._read_body(request)
        rtype = body.get("type")
        data = body.get("data") or {}
        if rtype not in ALLOWED_CALLBACKS[inter.type]:
            raise DiscordAPIError(
                400,
                50035,
                "Invalid Form Body",
                {"type": f"callback type {rtype} not valid for interaction type {inter.type}"},
            )
        if rtype in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE) and inter.message is None:
            raise DiscordAPIError(400, 50035, "Invalid Form Body", {"type": "no message to update"})
        if rtype == CHANNEL_MESSAGE_WITH_SOURCE:
            inter.original = self._interaction_message(inter, data, uploads)
        elif rtype == DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
            loading = FakeMessage(
                self.next_id(),
                inter.channel,
                self.bot_user,
                flags=LOADING | (int(data.get("flags") or 0) & EPHEMERAL),
                type=20 if inter.type == APPLICATION_COMMAND else 0,
                webhook_id=self.application_id,
                application_id=self.application_id,
                interaction=inter,
            )
            self._store_message(loading)
            inter.original = loading
        elif rtype == DEFERRED_UPDATE_MESSAGE:
            inter.original = inter.message
        elif rtype == UPDATE_MESSAGE:
            assert inter.message is not None
            self.edit_message(inter.message, data, uploads)
            inter.original = inter.message
        elif rtype == MODAL:
            errors = _validate_modal(data)
            if errors:
                raise DiscordAPIError(400, 50035, "Invalid Form Body", {"data": errors})
        inter.response_type = rtype
        inter.response_data = data
        self._bump()
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return no_content()
        return json_response(self._callback_response(inter))

    def _callback_response(self, inter: FakeInteraction) -> dict[str, Any]:
        """The InteractionCallbackResponse shape discord.py 2.5+ parses."""
        original = inter.original
        interaction: dict[str, Any] = {"id": str(inter.id), "type": inter.type}
        resource: dict[str, Any] = {"type": inter.response_type}
        if original is not None and inter.response_type != DEFERRED_UPDATE_MESSAGE:
            interaction.update(
                response_message_id=str(original.id),
                response_message_loading=original.loading,
                response_message_ephemeral=original.ephemeral,
            )
            resource["message"] = original.to_payload()
        return {"interaction": interaction, "resource": resource}

    def _webhook_interaction(self, request: web.Request) -> FakeInteraction:
        if request.match_info["app_id"] != str(self.application_id):
            raise DiscordAPIError(404, 10015, "Unknown Webhook")
        inter = self._by_token.get(request.match_info["token"])
        if inter is None or not inter.acked:
            # Follow-ups only exist after the initial callback.
            raise DiscordAPIError(404, 10015, "Unknown Webhook")
        return inter

    def _webhook_message(self, request: web.Request, inter: FakeInteraction) -> FakeMessage:
        raw = request.match_info["message_id"]
        if raw == "@original":
            message = inter.original
        else:
            try:
                message = self.messages.get(int(raw))
            except ValueError:
                message = None
            # The interaction token reaches any message the app sent through interactions.
            if message is not None and message.interaction is None and message is not inter.message:
                message = None
        if message is None or message.deleted:
            raise DiscordAPIError(404, 10008, "Unknown Message")
        return message

    async def _followup(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        body, uploads = await self._read_body(request)
        original = inter.original
        if (
            inter.response_type == DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # Discord: the first follow-up after a "thinking" deferral replaces the
            # loading message (and keeps the deferral's ephemerality).
            message = self.edit_message(original, body, uploads)
            inter.original_edits += 1
        else:
            message = self._interaction_message(inter, body, uploads)
        inter.followups.append(message)
        self._bump()
        if request.query.get("wait", "").lower() in ("1", "true"):
            return json_response(message.to_payload())
        return no_content()

    async def _webhook_get(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        return json_response(self._webhook_message(request, inter).to_payload())

    async def _webhook_patch(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        message = self._webhook_message(request, inter)
        body, uploads = await self._read_body(request)
        self.edit_message(message, body, uploads)
        if message is inter.original:
            inter.original_edits += 1
        return json_response(message.to_payload())

    async def _webhook_delete(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        message = self._webhook_message(request, inter)
        if message is inter.original:
            inter.deleted_original = True
        self.delete_message(message)
        return no_content()

    # --- gateway ----------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(timeout=1.0, max_msg_size=0)
        await ws.prepare(request)
        self.connection_queries.append(dict(request.query))
        conn = GatewayConnection(ws, request.query.get("compress"))
        self._connections.add(conn)
        try:
            if request.query.get("encoding", "json") != "json":
                await conn.close(4002, "only encoding=json is supported by the fake")
                return ws
            conn.send_op(10, {"heartbeat_interval": self.heartbeat_interval_ms})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._gateway_op(conn, json.loads(msg.data))
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            session = conn.session
            if session is not None and session.conn is conn:
                session.conn = None
                # A clean close (1000/1001) ends the session; anything else may RESUME.
                if ws.close_code in (1000, 1001):
                    session.alive = False
            self._connections.discard(conn)
            await conn.close()
            self._bump()
        return ws

    async def _gateway_op(self, conn: GatewayConnection, payload: dict[str, Any]) -> None:
        op, data = payload.get("op"), payload.get("d")
        if op == 1:  # HEARTBEAT
            conn.send_op(11, None)
        elif op == 2:  # IDENTIFY
            await self._identify(conn, data or {})
        elif op == 6:  # RESUME
            self._resume(conn, data or {})
        elif op == 8:  # REQUEST_GUILD_MEMBERS
            self._request_members(conn, data or {})
        elif op in (3, 4):  # PRESENCE_UPDATE, VOICE_STATE_UPDATE: accepted, nothing to do
            pass
        else:
            log.warning("fake gateway: unknown opcode %r", op)
            await conn.close(4001, "Unknown opcode")

    async def _identify(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await conn.close(4004, "Authentication failed")
            return
        if conn.session is not None:
            await conn.close(4005, "Already authenticated")
            return
        session = GatewaySession(uuid.uuid4().hex, int(data.get("intents") or 0), data)
        self.sessions[session.id] = session
        session.conn = conn
        conn.session = session
        self.identify_count += 1
        me = self.bot_user.to_payload()
        me.update(verified=True, mfa_enabled=False, flags=0)
        session.dispatch(
            "READY",
            {
                "v": 10,
                "user": me,
                "guilds": [{"id": str(g.id), "unavailable": True} for g in self.guilds.values()],
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": self.gateway_url,
                "shard": data.get("shard") or [0, 1],
                "application": {"id": str(self.application_id), "flags": self.application_flags},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "user_settings": {},
            },
        )
        for guild in self.guilds.values():
            session.dispatch("GUILD_CREATE", guild.to_payload())
        self._bump()

    def _resume(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != self.token or session is None or not session.alive:
            conn.send_op(9, False)  # INVALID_SESSION, not resumable
            return
        if session.conn is not None and session.conn is not conn:
            session.conn.session = None
        session.conn = conn
        conn.session = session
        session.resumes += 1
        self.resume_count += 1
        last_seen = int(data.get("seq") or 0)
        for seq, frame in session.log:
            if seq > last_seen:
                conn.enqueue(frame)
        session.dispatch("RESUMED", {})
        self._bump()

    def _request_members(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        session = conn.session
        if session is None:
            return
        guild_ids = data.get("guild_id")
        if not isinstance(guild_ids, list):
            guild_ids = [guild_ids]
        query = str(data.get("query") or "").lower()
        user_ids = {int(u) for u in (data.get("user_ids") or [])}
        limit = int(data.get("limit") or 0)
        for raw_gid in guild_ids:
            guild = self.guilds.get(int(raw_gid))
            if guild is None:
                continue
            members = [
                m
                for m in guild.members.values()
                if (not user_ids or m.user.id in user_ids) and m.user.username.startswith(query)
            ]
            if limit:
                members = members[:limit]
            chunk: dict[str, Any] = {
                "guild_id": str(guild.id),
                "members": [m.to_payload() for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if data.get("nonce") is not None:
                chunk["nonce"] = data["nonce"]
            session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT to every client; discord.py then reconnects and RESUMEs."""
        for conn in list(self._connections):
            if conn.session is not None:
                conn.send_op(7, None)
        await self.flush()


class _BotErrorHandler(logging.Handler):
    """Collects ERROR records from ``discord.*`` so waits can fail fast."""

    def __init__(self, fake: FakeDiscordServer) -> None:
        super().__init__(logging.ERROR)
        self.fake = fake

    def emit(self, record: logging.LogRecord) -> None:
        self.fake._on_bot_error(record)


# --- validation (the subset of Discord's rules bots trip over) ------------------------------


def _raise_if_invalid(
    content: str,
    embeds: list[dict[str, Any]],
    components: list[dict[str, Any]],
    attachments: list[FakeAttachment],
    flags: int,
    poll: Any,
    stickers: Any,
) -> None:
    errors: dict[str, Any] = {}
    v2 = bool(flags & IS_COMPONENTS_V2)
    if v2:
        if content or embeds:
            errors["content"] = "content and embeds cannot be used with IS_COMPONENTS_V2"
        if not components:
            raise DiscordAPIError(400, 50006, "Cannot send an empty message")
    elif not (content or embeds or attachments or poll or stickers):
        # Action rows alone do not make a (v1) message non-empty.
        raise DiscordAPIError(400, 50006, "Cannot send an empty message")
    if len(content) > 2000:
        errors["content"] = "Must be 2000 or fewer in length."
    if len(embeds) > 10:
        errors["embeds"] = "Must be 10 or fewer in length."
    total = 0
    limits = {"title": 256, "description": 4096}
    for i, embed in enumerate(embeds):
        for key, limit in limits.items():
            text = str(embed.get(key) or "")
            total += len(text)
            if len(text) > limit:
                errors[f"embeds.{i}.{key}"] = f"Must be {limit} or fewer in length."
        fields = embed.get("fields") or []
        if len(fields) > 25:
            errors[f"embeds.{i}.fields"] = "Must be 25 or fewer in length."
        for j, fld in enumerate(fields):
            name, value = str(fld.get("name") or ""), str(fld.get("value") or "")
            total += len(name) + len(value)
            if not name or len(name) > 256:
                errors[f"embeds.{i}.fields.{j}.name"] = "Must be between 1 and 256 in length."
            if not value or len(value) > 1024:
                errors[f"embeds.{i}.fields.{j}.value"] = "Must be between 1 and 1024 in length."
        footer = str((embed.get("footer") or {}).get("text") or "")
        author = str((embed.get("author") or {}).get("name") or "")
        total += len(footer) + len(author)
        if len(footer) > 2048:
            errors[f"embeds.{i}.footer.text"] = "Must be 2048 or fewer in length."
    if total > 6000:
        errors["embeds"] = "Embed size exceeds maximum size of 6000"
    errors.update(_component_errors(components, v2))
    if errors:
        raise DiscordAPIError(400, 50035, "Invalid Form Body", errors)


def _component_errors(components: list[dict[str, Any]], v2: bool) -> dict[str, str]:
    errors: dict[str, str] = {}
    if not v2:
        if len(components) > 5:
            errors["components"] = "Must be 5 or fewer in length."
        for i, row in enumerate(components):
            if row.get("type") != 1:
                errors[f"components.{i}"] = "top-level components must be action rows (no v2 flag)"
                continue
            children = row.get("components") or []
            selects = [c for c in children if c.get("type") in SELECT_TYPES]
            if not children or len(children) > 5 or (selects and len(children) > 1):
                errors[f"components.{i}.components"] = "an action row holds 1-5 buttons or 1 select"
    elif sum(1 for _ in walk_components(components)) > 40:
        errors["components"] = "Must be 40 or fewer components in total."
    seen: set[str] = set()
    for comp in walk_components(components):
        raw = comp.raw
        custom_id = raw.get("custom_id")
        if custom_id is not None:
            if custom_id in seen:
                errors[f"custom_id {custom_id}"] = "COMPONENT_CUSTOM_ID_DUPLICATED"
            seen.add(custom_id)
            if not 1 <= len(custom_id) <= 100:
                errors[f"custom_id {custom_id[:20]}"] = "Must be between 1 and 100 in length."
        if comp.type == BUTTON:
            if raw.get("style") == LINK_BUTTON_STYLE:
                if not raw.get("url") or custom_id is not None:
                    errors["button"] = "link buttons need a url and no custom_id"
            elif raw.get("style") != 6 and custom_id is None:
                errors["button"] = "non-link buttons need a custom_id"
            if len(str(raw.get("label") or "")) > 80:
                errors["button.label"] = "Must be 80 or fewer in length."
        if comp.type in SELECT_TYPES:
            options = raw.get("options") or []
            if comp.type == 3 and not 1 <= len(options) <= 25:
                errors[f"select {custom_id}.options"] = "Must be between 1 and 25 in length."
            if len({o.get("value") for o in options}) != len(options):
                errors[f"select {custom_id}.options"] = "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED"
            hi = int(raw.get("max_values", 1))
            lo = int(raw.get("min_values", 1))
            if (comp.type == 3 and hi > len(options)) or lo > hi:
                errors[f"select {custom_id}.max_values"] = "invalid min_values/max_values"
    return errors


_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


def _validate_command(raw: Mapping[str, Any]) -> dict[str, str]:
    errors: dict[str, str] = {}
    name = str(raw.get("name") or "")
    ctype = int(raw.get("type") or 1)
    if ctype == 1:
        if not _COMMAND_NAME.match(name) or name != name.lower():
            errors["name"] = "APPLICATION_COMMAND_INVALID_NAME"
        if not 1 <= len(str(raw.get("description") or "")) <= 100:
            errors["description"] = "Must be between 1 and 100 in length."
    elif not 1 <= len(name) <= 32:
        errors["name"] = "Must be between 1 and 32 in length."
    errors.update(_option_errors(raw.get("options") or [], "options"))
    return errors


def _option_errors(options: list[dict[str, Any]], where: str) -> dict[str, str]:
    errors: dict[str, str] = {}
    if len(options) > 25:
        errors[where] = "Must be 25 or fewer in length."
    seen_optional = False
    names: set[str] = set()
    for i, opt in enumerate(options):
        name = str(opt.get("name") or "")
        if name in names:
            errors[f"{where}.{i}.name"] = "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS"
        names.add(name)
        if not _COMMAND_NAME.match(name) or name != name.lower():
            errors[f"{where}.{i}.name"] = "APPLICATION_COMMAND_INVALID_NAME"
        if not 1 <= len(str(opt.get("description") or "")) <= 100:
            errors[f"{where}.{i}.description"] = "Must be between 1 and 100 in length."
        if opt.get("type") in (1, 2):
            errors.update(_option_errors(opt.get("options") or [], f"{where}.{i}.options"))
            continue
        if opt.get("required"):
            if seen_optional:
                errors[f"{where}.{i}.required"] = "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"
        else:
            seen_optional = True
        if len(opt.get("choices") or []) > 25:
            errors[f"{where}.{i}.choices"] = "Must be 25 or fewer in length."
    return errors


def _validate_modal(data: Mapping[str, Any]) -> dict[str, str]:
    errors: dict[str, str] = {}
    if not data.get("custom_id"):
        errors["custom_id"] = "required"
    if not 1 <= len(str(data.get("title") or "")) <= 45:
        errors["title"] = "Must be between 1 and 45 in length."
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        errors["components"] = "Must be between 1 and 5 in length."
    return errors
