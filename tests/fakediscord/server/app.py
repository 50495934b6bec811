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
import re
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from .errors import DiscordAPIError, Rejection, WaitTimeout
from .faults import Fault
from .latency import EditBucket, Verdict
from .routes.channels import ChannelRoutes
from .routes.commands import CommandRoutes
from .routes.guilds import GuildRoutes
from .routes.interactions import InteractionRoutes
from .routes.messages import MessageRoutes
from .routes.users import UserRoutes
from .state import API_PREFIX, GATEWAY_PATH, log
from .wire import RequestRecord, json_response


class FakeDiscordServer(
    UserRoutes, GuildRoutes, CommandRoutes, ChannelRoutes, MessageRoutes, InteractionRoutes
):
    """State plus the HTTP/websocket protocol. :class:`~tests.fakediscord.FakeDiscord`
    adds the user-simulation API on top; use that one in tests."""

    _runner: web.AppRunner | None = None
    """The HTTP server while it runs."""

    def __init__(self, *, latency: float = 0.0, edit_bucket: bool | EditBucket = False,
                 **kwargs: Any) -> None:
        """``latency``: real seconds every REST request takes, as Discord's round trip
        does (never scaled: it is what eats the 3 s to acknowledge). ``edit_bucket``:
        Discord's per-channel bucket of message edits (``True``: 5 per 5 s), answering
        429 past it. Both in :mod:`.latency`; the rest goes to the state."""
        super().__init__(**kwargs)
        self.latency = latency
        self.edit_bucket: EditBucket | None = (
            EditBucket() if edit_bucket is True else edit_bucket or None)
        self.default_locale = "en-US"
        """The locale of a client an interaction does not name one for (a test of
        another language sets it once, as every user's)."""
        self.answers_shown: list[dict[str, Any]] = []
        """Every modal and autocomplete answer the bot sent (what a person read in them)."""
        self.in_flight = 0
        """REST requests taken and not yet answered (with latency, some time after the
        fake acted on them)."""

    async def answers_delivered(self, timeout: float = 5.0) -> None:
        """Wait (at most ``timeout``) until no REST answer is on its way: a bot closed
        sooner would see its session cut under requests Discord already carried out."""
        with contextlib.suppress(WaitTimeout):
            await self.wait_for(lambda: self.in_flight == 0, timeout,
                                description="REST answers on their way",
                                fail_on_bot_error=False)

    async def start(self) -> None:
        """Bind 127.0.0.1 on an ephemeral port and start serving."""
        if self._runner is not None:
            raise RuntimeError("already started")
        self._start_watching()
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        # shutdown_timeout is short: on stop, open websockets are closed first anyway.
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self.base_url = f"http://127.0.0.1:{self.port}"
        log.debug("fake Discord listening on %s", self.base_url)

    async def stop(self) -> None:
        """Close every websocket and stop the server."""
        await self._close_connections()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self._stop_watching()

    def _add_routes(self, app: web.Application) -> None:
        tables = (
            self._user_routes(),
            self._guild_routes(),
            self._command_routes(),
            self._channel_routes(),
            self._message_routes(),
            self._interaction_routes(),
        )
        for table in tables:
            for method, path, handler in table:
                app.router.add_route(method, API_PREFIX + path, handler)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._attachment)
        app.router.add_get(GATEWAY_PATH, self._gateway)
        app.router.add_get(GATEWAY_PATH + "/", self._gateway)

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        path = request.path
        # Belt and braces: the socket is bound to 127.0.0.1, but refuse anything that does
        # not claim to be local too, so the fake can never act as a relay.
        if request.remote not in ("127.0.0.1", "::1") or request.host.split(":")[0] not in (
            "127.0.0.1",
            "localhost",
        ):
            return json_response({"code": 0, "message": "fake Discord is loopback-only"}, 403)
        paced = self._paced(path)
        self.in_flight += paced
        try:
            return await self._serve(request, handler, paced)
        finally:
            self.in_flight -= paced

    async def _serve(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
        paced: bool,
    ) -> web.StreamResponse:
        method, path = request.method, request.path
        try:
            if paced:
                await asyncio.sleep(self.latency / 2)  # on the way to Discord
            if path.startswith(API_PREFIX) and not self._is_token_route(path):
                self._check_auth(request)
            bucket = self._edit_verdict(method, path)
            limited = bucket is not None and not bucket.allowed
            fault = None if limited else self._fault_for(method, path)
            if fault is not None and fault.kind == "latency":
                await asyncio.sleep(fault.seconds * self.time_scale)
            if bucket is not None and limited:
                response = self._rate_limited(method, path, bucket)
            elif fault is None or fault.kind == "latency":
                response = await handler(request)
                if bucket is not None:
                    response.headers.update(bucket.headers)
            else:
                if fault.kind == "performed_then":
                    await handler(request)
                body = fault.body()
                response = json_response(body, 429 if fault.kind == "ratelimit"
                                         else fault.status)
                response.headers.update(fault.headers())
                self.rejections.append(Rejection(method, path, response.status,
                                                 body.get("code", 0), body["message"]))
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
        if paced:
            await asyncio.sleep(self.latency / 2)  # the answer's way back
        return response

    def _paced(self, path: str) -> bool:
        """Whether a request takes :attr:`latency` (every one but the gateway's)."""
        return bool(self.latency) and not path.startswith(GATEWAY_PATH)

    def _edit_verdict(self, method: str, path: str) -> Verdict | None:
        """A message edit counted in its channel's bucket (``None``: not an edit, or
        no bucket)."""
        if self.edit_bucket is None or not path.startswith(API_PREFIX):
            return None
        channel = self.edit_bucket.channel_of(method, path[len(API_PREFIX):])
        if channel is None:
            return None
        return self.edit_bucket.take(channel, scale=self.time_scale)

    def _rate_limited(self, method: str, path: str, verdict: Verdict) -> web.Response:
        """Discord's 429 for an edit past its channel's bucket (recorded as refused)."""
        body = verdict.body()
        self.rejections.append(Rejection(method, path, 429, 0, str(body["message"])))
        response = json_response(body, 429)
        response.headers.update(verdict.headers)
        return response

    def _fault_for(self, method: str, path: str) -> Fault | None:
        """The injected fault this REST request meets, if any (counted as a hit)."""
        if not self.faults.active or not path.startswith(API_PREFIX):
            return None
        rest = path[len(API_PREFIX):]
        found = re.match(r"/channels/(\d+)", rest)
        channel = self.channels.get(int(found[1])) if found else None
        return self.faults.take(method, rest, dm=channel is not None and channel.is_dm)

    @staticmethod
    def _is_token_route(path: str) -> bool:
        # Interaction callbacks and webhook follow-ups authenticate by the token in the URL.
        rest = path[len(API_PREFIX) :]
        return rest.startswith(("/interactions/", "/webhooks/"))

    def _check_auth(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise DiscordAPIError(401, 0, "401: Unauthorized")
