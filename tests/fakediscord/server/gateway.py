"""The gateway: websocket connections (zlib-stream or plain text frames), sessions that
outlive a connection so RESUME can replay what was missed, IDENTIFY, heartbeats, member
requests, and the fan-out of dispatch events to every live session by intent and by
shard (:mod:`.sharding`)."""

from __future__ import annotations

import asyncio
import json
import uuid
import zlib
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from aiohttp import WSMsgType, web

from .sharding import INVALID_SHARD, IdentifyBuckets, ShardKey
from .state import log
from .waiting import Waiting

# Gateway intents the fake honours when deciding who receives what.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15


class GatewaySession:
    """A logical gateway session; it outlives one websocket so RESUME can replay events."""

    def __init__(self, session_id: str, intents: int, identify: dict[str, Any],
                 shard: ShardKey | None = None) -> None:
        self.id = session_id
        self.intents = intents
        self.identify = identify
        self.shard = shard or ShardKey()
        """Which guilds' events this session receives (``[0, 1]``: all, and DMs)."""
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

    def __init__(self, ws: web.WebSocketResponse, compress: str | None,
                 transport: asyncio.BaseTransport | None = None) -> None:
        self.ws = ws
        self.transport = transport
        """The TCP connection under the websocket (to cut it without a close frame)."""
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


class Gateway(Waiting):
    """Serves the websocket and sends dispatch events to the connected bots."""

    heartbeat_interval_ms = 41250

    def __init__(self, *, shards: int = 1, max_concurrency: int = 1,
                 identify_limit: bool = False, **kwargs: Any) -> None:
        """``shards``: the shard count ``GET /gateway/bot`` recommends.
        ``max_concurrency``: what it says of IDENTIFY buckets; with ``identify_limit``
        a second IDENTIFY of one bucket within 5 s (of ``time_scale``) is answered op 9
        Invalid Session, as Discord does. Off by default: a test restarting a bot at
        once should not wait out Discord's 5 s."""
        super().__init__(**kwargs)
        self.recommended_shards = shards
        self.identify_buckets = IdentifyBuckets(max_concurrency)
        self.identify_limit = identify_limit
        #: Counters for assertions.
        self.identify_count = 0
        self.identify_refused = 0
        """IDENTIFYs answered op 9 for coming too soon in their bucket."""
        self.shard_refused = 0
        """IDENTIFYs closed with 4010 Invalid Shard."""
        self.resume_count = 0
        #: Query parameters of every gateway websocket (v, encoding, compress).
        self.connection_queries: list[dict[str, str]] = []
        self._connections: set[GatewayConnection] = set()
        self._quiet = 0
        self._outage_until = 0.0
        self._outage_unmet = False
        """No connection met the outage yet (the first one tried is refused however late)."""
        self.refused_connections = 0

    def _live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if s.alive]

    def identified_shards(self) -> list[list[int]]:
        """``[shard_id, num_shards]`` of every live session, in the order they began."""
        return [session.shard.as_list() for session in self._live_sessions()]

    def _broadcast(
        self,
        event: str,
        data: Any | Callable[[GatewaySession], Any],
        *,
        guild_id: int | None,
        intent: int | None = None,
    ) -> None:
        """Send ``event`` to every live session with ``intent`` whose shard receives
        ``guild_id``'s events (``None``: an event without a guild, for shard 0)."""
        if self._quiet:
            self._bump()
            return
        for session in self._live_sessions():
            if intent is not None and not session.intents & intent:
                continue
            if not session.shard.receives(guild_id):
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
        """Send a dispatch event (op 0, ``t=event``) to every connected client whose
        shard receives it (by ``data["guild_id"]``, if any) and wait until it was
        written to the sockets."""
        raw_guild = data.get("guild_id") if isinstance(data, dict) else None
        self._broadcast(event, data, guild_id=None if raw_guild is None else int(raw_guild))
        await self.flush()

    async def flush(self) -> None:
        """Wait until all queued gateway frames were handed to the sockets."""
        for conn in list(self._connections):
            await conn.flush()

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if self._outage_unmet or asyncio.get_running_loop().time() < self._outage_until:
            self._outage_unmet = False
            self.refused_connections += 1
            self._bump()
            return web.Response(status=503, text="upstream connect error")
        ws = web.WebSocketResponse(timeout=1.0, max_msg_size=0)
        await ws.prepare(request)
        self.connection_queries.append(dict(request.query))
        conn = GatewayConnection(ws, request.query.get("compress"), request.transport)
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
        shard = ShardKey.parse(data.get("shard"))
        if shard is None:
            self.shard_refused += 1
            self._bump()
            await conn.close(INVALID_SHARD, "Invalid shard")
            return
        if self.identify_limit and not self.identify_buckets.take(
                shard, asyncio.get_running_loop().time(), scale=self.time_scale):
            self.identify_refused += 1
            self._bump()
            conn.send_op(9, False)  # INVALID_SESSION: IDENTIFY again, after 5 s
            return
        session = GatewaySession(uuid.uuid4().hex, int(data.get("intents") or 0), data, shard)
        guilds = [g for g in self.guilds.values() if shard.receives(g.id)]
        self.sessions[session.id] = session
        session.conn = conn
        conn.session = session
        self.identify_count += 1
        session.dispatch(
            "READY",
            {
                "v": 10,
                "user": self._me_payload(),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": self.gateway_url,
                "shard": shard.as_list(),
                "application": {"id": str(self.application_id), "flags": self.application_flags},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "user_settings": {},
            },
        )
        for guild in guilds:
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
            if guild is None or not session.shard.receives(guild.id):
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

    async def close_gateway(self, code: int = 4000, message: str = "Unknown error") -> None:
        """Close every bot's websocket with ``code``: 4000 is Discord's "unknown
        error", after which a bot reconnects and RESUMEs."""
        for conn in list(self._connections):
            await conn.close(code=code, message=message)

    async def drop_gateway(self) -> None:
        """Cut every bot's connection without a close frame (a plain disconnect)."""
        for conn in list(self._connections):
            if conn.transport is not None:
                conn.transport.abort()

    async def gateway_outage(self, seconds: float) -> None:
        """The gateway is down for ``seconds`` (of :attr:`time_scale`): connections are
        cut, new ones are refused with 503, and afterwards RESUME is refused (op 9):
        every session has ended, so a bot must IDENTIFY again. REST stays up. The first
        connection tried is refused however late it comes: a busy machine never turns an
        outage into none."""
        self._outage_until = asyncio.get_running_loop().time() + seconds * self.time_scale
        self._outage_unmet = True
        for session in self.sessions.values():
            session.alive = False
        await self.drop_gateway()

    async def _close_connections(self) -> None:
        for conn in list(self._connections):
            await conn.close(code=1001, message="fake Discord stopping")
