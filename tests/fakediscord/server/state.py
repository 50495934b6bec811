"""Everything the fake Discord knows, in one place: the application and its bot user, the
world (users, guilds, channels, messages, commands, interactions), the gateway sessions,
the record of every request and refusal, and the signal that something changed."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from ..model import (
    FakeAttachment,
    FakeChannel,
    FakeCommand,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeUser,
    SnowflakeFactory,
)
from .errors import Rejection
from .faults import Faults
from .wire import RequestRecord

if TYPE_CHECKING:
    from .gateway import GatewaySession

# Deliberately not under "discord": the fake's own chatter must never count as a bot error.
log = logging.getLogger("tests.fakediscord")

API_PREFIX = "/api/v10"
GATEWAY_PATH = "/ws"


class FakeState:
    """The fake's data. The layers above add behaviour (waiting, gateway, message store,
    interactions, REST routes); :class:`~.app.FakeDiscordServer` puts them together."""

    application_flags = 1 << 23  # APPLICATION_COMMAND_BADGE, as a bot with commands has

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_name: str = "Croupier",
        ack_deadline: float | None = 3.0,
        time_scale: float = 1.0,
    ) -> None:
        """``ack_deadline``: seconds within which an interaction must be acknowledged, as on
        Discord (3 s); ``None`` disables the check. ``time_scale``: see the attribute."""
        self.token = token
        self.ack_deadline = ack_deadline
        self.time_scale = time_scale
        """Real seconds per second of the waits Discord decides: a gateway outage, injected
        REST latency, and what discord.py waits on Discord's say against this fake (its
        reconnect backoff, its pause before a new IDENTIFY, Retry-After, its retries of
        5xx; see :meth:`~tests.fakediscord.harness.bots.BotRunner.patched`). Tests run
        them faster than life (``tests/conftest.py``): that the bot waits and goes on is
        tested, not how long. Never scaled: the 3 s to acknowledge an interaction and
        :attr:`interaction_delay`, which the bot measures by the real clock."""
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
        #: Files users attached to slash-command options, servable like message attachments.
        self.uploads: dict[int, FakeAttachment] = {}
        #: Gateway sessions by id (live and ended).
        self.sessions: dict[str, GatewaySession] = {}
        #: Requests to routes the fake does not implement ("METHOD /path").
        self.unhandled: list[str] = []
        #: Exceptions inside the fake itself (a bug in the fake, never the bot's fault).
        self.server_errors: list[str] = []
        #: Every error answer the bot received (validation, 403 on closed DMs, ...).
        self.rejections: list[Rejection] = []
        self.faults = Faults()
        self.interaction_delay = 0.0
        """Seconds between a user's action and its INTERACTION_CREATE reaching the bot
        (a slow gateway); the interaction's id and its 3 s still count from the action.
        Nobody waits for it: the action is dated that long ago and delivered at once,
        which is all the bot can tell of a late delivery."""
        """REST faults switched on by the test (:mod:`.faults`)."""
        #: Every REST request, in order.
        self.requests: list[RequestRecord] = []
        #: ERROR records logged on ``discord.*`` while the fake runs.
        self.bot_errors: list[logging.LogRecord] = []
        self._changed = asyncio.Event()
        self._last_change = time.monotonic()
        self.port = 0
        self.base_url = ""

    def next_id(self) -> int:
        """A fresh snowflake."""
        return self._ids.next()

    def earlier_id(self, seconds: float) -> int:
        """A fresh snowflake dated ``seconds`` ago."""
        return self._ids.earlier(seconds)

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be: ``http://127.0.0.1:PORT/api/v10``."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """The websocket URL (``ws://127.0.0.1:PORT/ws``)."""
        return f"ws://127.0.0.1:{self.port}{GATEWAY_PATH}"

    def _bump(self) -> None:
        """Wake every waiter: something changed."""
        self._last_change = time.monotonic()
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    def _bot_member(self, guild: FakeGuild) -> FakeMember:
        return guild.members[self.bot_user.id]

    def _me_payload(self) -> dict[str, Any]:
        """The bot's own user object, as ``/users/@me`` and READY carry it."""
        me = self.bot_user.to_payload()
        me.update(verified=True, mfa_enabled=False, flags=0)
        return me
