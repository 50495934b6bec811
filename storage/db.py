"""The SQLite file: connection settings, transactions and numbered migrations.

Everything that touches SQL lives in ``storage/``. One connection serves the
process; an :class:`asyncio.Lock` keeps one coroutine's transaction from
interleaving with another's.

The hot paths do not step through a transaction statement by statement (each
step a hop to aiosqlite's thread and back): :meth:`Database.run` runs a plain
function against the :mod:`sqlite3` connection in one hop, and
:meth:`Database.write` also groups the writes of concurrent callers into one
transaction (group commit) while each caller still waits for its own durable
commit and sees only its own failure.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, TypeVar

import aiosqlite

ROUNDS_SECONDS = 0.05
"""The longest the connection's thread keeps committing groups of writes before
it lets anything else queued for it run."""

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], Any]
"""A function run on the connection's thread with the :mod:`sqlite3` connection."""

_MIGRATION_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    """One numbered schema change."""

    version: int
    name: str
    sql: str


def shipped_migrations() -> list[Migration]:
    """The migrations shipped in ``storage/migrations``, in order."""
    found = []
    for entry in resources.files("storage.migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 001, 002, … without gaps: {versions}")
    return found


SYNCHRONOUS = "FULL"
"""SQLite's ``synchronous`` level. A choice is acknowledged only once committed,
so a commit must survive a power cut, not only the bot crashing: in WAL mode
that takes ``FULL`` (``NORMAL`` may lose the last commits). Each commit then
waits for the disk, which group commit (:meth:`Database.write`) shares among
every write made meanwhile."""


class Database:
    """An open SQLite file in WAL mode with the schema brought up to date."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._writes: deque[tuple[Work, asyncio.Future[Any]]] = deque()
        """Writes not yet taken, appended by the event loop and taken by the
        connection's thread (a deque's append and popleft are thread-safe)."""
        self._writer: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, path: str | Path, migrations: list[Migration] | None = None) -> Database:
        """Open (creating if needed) the file at ``path`` and apply pending migrations."""
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # Bulk writes use a statement per chunk size (storage.matches.BULK_ROWS),
        # so keep more compiled statements than sqlite3's default 128.
        conn = await aiosqlite.connect(path, isolation_level=None, cached_statements=512)
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute("PRAGMA busy_timeout=5000")
        db = cls(conn, path)
        await db.migrate(shipped_migrations() if migrations is None else migrations)
        return db

    async def close(self) -> None:
        """Close the connection, once the writes already asked for are committed."""
        while self._writer is not None and not self._writer.done():
            await asyncio.wait([self._writer])
        await self._conn.close()

    async def migrate(self, migrations: list[Migration]) -> list[int]:
        """Apply every migration newer than the file's schema; returns the versions applied."""
        async with self._lock:
            await self._conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
            )
            async with self._conn.execute("SELECT version FROM schema_migrations") as cur:
                done = {row[0] for row in await cur.fetchall()}
            applied = []
            for migration in migrations:
                if migration.version in done:
                    continue
                # One script, one transaction: a failing migration leaves no half-applied schema.
                script = (
                    "BEGIN IMMEDIATE;\n" + migration.sql + "\n"
                    f"INSERT INTO schema_migrations VALUES ({migration.version}, "
                    f"'{migration.name}', {time.time()});\nCOMMIT;"
                )
                try:
                    await self._conn.executescript(script)
                except Exception:
                    if self._conn.in_transaction:
                        await self._conn.execute("ROLLBACK")
                    raise
                applied.append(migration.version)
            return applied

    async def schema_version(self) -> int:
        """The newest applied migration."""
        row = await self.fetchone("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        return int(row[0]) if row else 0

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back on any exception."""
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            else:
                await self._conn.execute("COMMIT")

    async def run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` on the connection's thread, in one hop, between
        other coroutines' transactions. It must not leave a transaction open."""
        async with self._lock:
            return await self._call(work)

    async def _call(self, work: Callable[[sqlite3.Connection], T]) -> T:
        # aiosqlite runs every call on its own thread, one at a time; ``_execute``
        # queues one function there and ``_conn`` is the sqlite3 connection.
        conn = self._conn
        return await conn._execute(lambda: work(conn._conn))

    async def write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work(connection)`` inside a write transaction and return its
        result once that transaction is committed.

        Writes asked for while another group is being committed are committed
        together in the next transaction (group commit), each in a savepoint of
        its own: a ``work`` that raises has its changes rolled back and its
        exception raised to its caller only. If the commit itself fails, every
        write of the group raises and none of them is stored.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        entry = (work, future)
        self._writes.append(entry)
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_groups())
        try:
            return await future
        except asyncio.CancelledError:
            with suppress(ValueError):  # not taken yet: it never will be
                self._writes.remove(entry)
            raise

    async def _write_groups(self) -> None:
        loop = asyncio.get_running_loop()
        while self._writes:
            async with self._lock:
                await self._call(partial(self._commit_rounds, loop))

    def _commit_rounds(self, loop: asyncio.AbstractEventLoop, conn: sqlite3.Connection) -> None:
        """On the connection's thread: commit group after group, each of the writes
        queued meanwhile, until none is left or :data:`ROUNDS_SECONDS` is up (so
        reads get their turn). The event loop is not on this path: under load it
        may be busy for milliseconds at a time, and the next group does not wait
        for it. Each group's callers are answered as soon as it is committed."""
        started = time.monotonic()
        while self._writes and time.monotonic() - started < ROUNDS_SECONDS:
            group = []
            while self._writes:
                group.append(self._writes.popleft())
            try:
                outcomes = _commit_group(conn, group)
            except BaseException as exc:  # the commit failed: nothing of the group is stored
                loop.call_soon_threadsafe(_fail_group, group, exc)
                if not isinstance(exc, Exception):
                    raise
                return
            loop.call_soon_threadsafe(_answer_group, group, outcomes)

    async def fetchall(self, sql: str, params: tuple | dict = ()) -> list[aiosqlite.Row]:
        """Rows of one read."""
        return await self.run(lambda conn: conn.execute(sql, params).fetchall())

    async def fetchone(self, sql: str, params: tuple | dict = ()) -> aiosqlite.Row | None:
        """The first row of one read, or ``None``."""
        return await self.run(lambda conn: conn.execute(sql, params).fetchone())

    async def execute(self, sql: str, params: tuple | dict = ()) -> int:
        """One write, committed atomically (see :meth:`write`); returns the last row id."""
        return await self.write(lambda conn: conn.execute(sql, params).lastrowid or 0)


def _answer_group(group: Sequence[tuple[Work, asyncio.Future[Any]]],
                  outcomes: Sequence[tuple[bool, Any]]) -> None:
    for (_, future), (ok, value) in zip(group, outcomes, strict=True):
        if future.done():
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)


def _fail_group(group: Sequence[tuple[Work, asyncio.Future[Any]]], exc: BaseException) -> None:
    for _, future in group:
        if future.done():
            continue
        if isinstance(exc, asyncio.CancelledError):
            future.cancel()
        else:
            future.set_exception(exc)


class BulkWork(Protocol):
    """A write that a group may make together with others of its kind: calling it
    writes it alone; its ``bulk`` writes many of them at once, in a few
    statements (a group's GIL hand-offs and statement steps are then per group,
    not per write). Results of bulk writes are ``None``."""

    bulk: Callable[[sqlite3.Connection, Sequence[Any]], None]

    def __call__(self, conn: sqlite3.Connection) -> None: ...


def _commit_group(conn: sqlite3.Connection,
                  group: Sequence[tuple[Work, asyncio.Future[Any]]]) -> list[tuple[bool, Any]]:
    """One transaction for a group of writes, each in its own savepoint; runs on
    the connection's thread. Returns ``(True, result)`` or ``(False, exception)``
    per write, or raises (rolling everything back) if the transaction fails.

    Writes with a ``bulk`` (:class:`BulkWork`) are first made together, in one
    savepoint; if that fails, each is made alone so that only the failing one
    fails."""
    outcomes: list[tuple[bool, Any] | None] = [None] * len(group)
    conn.execute("BEGIN IMMEDIATE")
    try:
        if len(group) == 1:
            work, _ = group[0]
            try:
                outcomes[0] = (True, work(conn))
            except Exception as exc:
                conn.execute("ROLLBACK")
                return [(False, exc)]
        else:
            kinds: dict[Any, list[int]] = {}
            for n, (work, _) in enumerate(group):
                bulk = getattr(work, "bulk", None)
                if bulk is not None:
                    kinds.setdefault(bulk, []).append(n)
            for bulk, members in kinds.items():
                if len(members) < 2:
                    continue
                conn.execute("SAVEPOINT bulk")
                try:
                    bulk(conn, [group[n][0] for n in members])
                except Exception:
                    conn.execute("ROLLBACK TO bulk")  # each alone, below
                else:
                    for n in members:
                        outcomes[n] = (True, None)
                conn.execute("RELEASE bulk")
            for n, (work, _) in enumerate(group):
                if outcomes[n] is not None:
                    continue
                conn.execute("SAVEPOINT write")
                try:
                    outcomes[n] = (True, work(conn))
                except Exception as exc:
                    conn.execute("ROLLBACK TO write")
                    outcomes[n] = (False, exc)
                conn.execute("RELEASE write")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return [outcome for outcome in outcomes if outcome is not None]
