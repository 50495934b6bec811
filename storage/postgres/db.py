"""The PostgreSQL engine behind the repositories: the same interface as
:class:`storage.db.Database`, over asyncpg through SQLAlchemy's async engine.

The repositories' writes are the synchronous ``work(connection)`` callables
that SQLite's writer process runs; here each runs unchanged in a transaction of
its own, through :meth:`sqlalchemy.ext.asyncio.AsyncConnection.run_sync`, over
:class:`Connection`, which offers the part of :mod:`sqlite3`'s connection and
cursor that the works use and translates their SQL (:mod:`storage.postgres.dialect`).

**Isolation.** SQLite commits one write transaction at a time, and the works rely
on it (a serial number read, then the next inserted). PostgreSQL runs them side by
side, so each runs ``SERIALIZABLE`` and is run again when PostgreSQL says it could
not be serialised (or chose it as a deadlock's victim): a work does nothing but
SQL, so running it again is safe (group commit asks the same of it).

Reads run on a pooled connection outside any transaction, straight on asyncpg:
one round trip each.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import re
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from storage.errors import ReadOnlyStore, StorageError
from storage.group_commit import Outcome, Work, each_alone, together
from storage.postgres.dialect import translate

log = logging.getLogger(__name__)

POOL_SIZE = 8
"""Connections a process keeps (writes and reads share them)."""
GROUP_MOST = 256
"""Most writes one group commits."""
RETRIES = 20
"""Times a write is run again after a serialisation failure or a deadlock."""
WRITERS = 1
"""Writes a process runs at once by default. More mostly abort each other: on the small
tables of a community SERIALIZABLE's reads lock whole tables, so most concurrent writes
conflict (tests/test_collections_storage's hundreds of concurrent trades: 2.3 s with
one, 4.0 s with three, past 30 s with eight). Other processes' writes are still
serialised by PostgreSQL."""
LOST_RETRIES = POOL_SIZE + 1
"""Times a read, or a write whose connection was lost before its commit, runs again
on another connection: as many as the pool holds, plus one, for a server that ended
every connection at once (each dead one found is dropped from the pool)."""
_RETRY_STATES = frozenset({"40001", "40P01"})  # serialization_failure, deadlock_detected
_RETURNING = re.compile(r"\bRETURNING\b", re.IGNORECASE)

Params = Sequence[Any] | Mapping[str, Any]


def engine_url(url: str) -> str:
    """``url`` for SQLAlchemy's asyncpg dialect.

    >>> engine_url("postgresql://u@localhost:5432/croupier")
    'postgresql+asyncpg://u@localhost:5432/croupier'
    >>> engine_url("postgres://h/db")
    'postgresql+asyncpg://h/db'
    """
    scheme, sep, rest = url.partition("://")
    if not sep or scheme not in ("postgresql", "postgres", "postgresql+asyncpg"):
        raise ValueError(f"not a postgresql:// URL: {url!r}")
    return "postgresql+asyncpg://" + rest


# -- what a work sees --------------------------------------------------------------------
class Cursor:
    """The part of :class:`sqlite3.Cursor` the works use, over a DBAPI cursor of
    SQLAlchemy's asyncpg adapter. Rows are asyncpg records: read by index and by
    column name, like :class:`sqlite3.Row`."""

    __slots__ = ("_cursor", "_returning")

    def __init__(self, cursor: Any, returning: bool) -> None:
        self._cursor = cursor
        self._returning = returning

    @property
    def rowcount(self) -> int:
        """Rows changed by the statement (``-1`` when unknown)."""
        return int(self._cursor.rowcount)

    @property
    def lastrowid(self) -> int | None:
        """The first column of the first row a ``RETURNING`` statement returned
        (``None`` without ``RETURNING``: PostgreSQL has no row ids)."""
        if not self._returning:
            return None
        rows = self._cursor._rows  # peeked, not taken: fetchone still returns it
        return None if not rows else rows[0][0]

    def fetchone(self) -> Any:
        """The next row, or ``None``."""
        return self._cursor.fetchone()

    def fetchall(self) -> list[Any]:
        """The rows left."""
        return list(self._cursor.fetchall())

    def __iter__(self) -> Iterator[Any]:
        return iter(self._cursor.fetchall())


class Connection:
    """The part of :class:`sqlite3.Connection` the works use, on one PostgreSQL
    connection inside the work's transaction."""

    __slots__ = ("_dbapi",)

    def __init__(self, dbapi: Any) -> None:
        self._dbapi = dbapi

    def execute(self, sql: str, params: Params = ()) -> Cursor:
        """Run one statement written for SQLite's placeholders."""
        translated = translate(sql)
        cursor = self._dbapi.cursor()
        cursor.execute(translated.sql, translated.arguments(params))
        return Cursor(cursor, bool(_RETURNING.search(translated.sql)))

    def executemany(self, sql: str, seq_of_params: Sequence[Params]) -> Cursor:
        """Run one statement once per parameter set."""
        translated = translate(sql)
        cursor = self._dbapi.cursor()
        rows = [translated.arguments(params) for params in seq_of_params]
        if rows:
            cursor.executemany(translated.sql, rows)
        return Cursor(cursor, False)


def _run_work(sync_conn: Any, work: Work) -> Any:
    return work(Connection(sync_conn.connection.dbapi_connection))  # type: ignore[arg-type]


def _sqlstate(exc: BaseException) -> str | None:
    for seen in (exc, getattr(exc, "orig", None), exc.__cause__):
        state = getattr(seen, "sqlstate", None)
        if state:
            return str(state)
    return None


# -- the database ------------------------------------------------------------------------
LOCK_TIMEOUT = "2s"
"""How long a write waits for a row another process has locked: within Discord's
three seconds, and a click is deferred before it waits (docs/clusters.md)."""


def application_name() -> str:
    """``croupier-<pid>``: how this process's connections show in pg_stat_activity."""
    return f"croupier-{os.getpid()}"


class PostgresDatabase:
    """A PostgreSQL database with the schema brought up to date: the interface of
    :class:`storage.db.Database`."""

    path: str | None = None
    """No file: what a SQLite store's folder is for (pictures) has no place here."""
    shared = True
    """Other processes may write to it too: a match cached here may be behind
    (docs/clusters.md)."""
    writer_pid: int | None = None
    """No writer process: every process writes through its own connections."""

    def __init__(self, url: str, engine: AsyncEngine, writers: int = WRITERS) -> None:
        self.url = url
        self._engine: AsyncEngine | None = engine
        self.read_only = False
        """Whether every write is refused (:meth:`open`'s ``read_only``)."""
        self._writes: set[asyncio.Task[None]] = set()
        """The tasks committing groups (at most ``writers``)."""
        self._writers = writers
        self._grouping = 0
        """Group tasks between their start and their last look at the waiting writes
        (a finished task leaves ``_writes`` only later, from its done callback)."""
        self._waiting: collections.deque[tuple[Work, asyncio.Future[Any]]] = (
            collections.deque())
        """Writes asked for and not yet taken into a group."""

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE, writers: int = WRITERS,
                   migrate: bool = True, read_only: bool = False) -> PostgresDatabase:
        """Connect to the database at ``url`` (``postgresql://…``) and, unless
        ``migrate`` is false, apply pending migrations; at most ``writers`` writes
        run at once (each on a connection of the pool).

        ``read_only``: every transaction is read-only (the server's
        ``default_transaction_read_only``), nothing is migrated, and a database not at
        the current schema raises :class:`ReadOnlyStore`, as does every write."""
        settings = {"lock_timeout": LOCK_TIMEOUT, "application_name": application_name()}
        if read_only:
            settings["default_transaction_read_only"] = "on"
        engine = create_async_engine(
            engine_url(url), pool_size=pool_size, max_overflow=0, pool_timeout=600,
            isolation_level="SERIALIZABLE",
            # Statements differ only by their values: asyncpg keeps them prepared.
            # A write waits for another process's lock on a match row at most
            # LOCK_TIMEOUT (then fails, storing nothing: docs/clusters.md); the
            # application name tells each process's connections apart.
            connect_args={"statement_cache_size": 512, "server_settings": settings})
        db = cls(url, engine, min(writers, pool_size))
        db.read_only = read_only
        try:
            if read_only:
                await db._check_current()
            elif migrate:
                await db.migrate()
        except BaseException:
            await db.close()
            raise
        return db

    async def _check_current(self) -> None:
        from storage.postgres.migrations import shipped_migrations

        current = shipped_migrations()[-1].version
        try:
            version = await self.schema_version()
        except Exception:  # no schema_migrations: never migrated
            version = 0
        if version != current:
            raise ReadOnlyStore(f"the database is at schema {version}, not {current}:"
                                " start the bot once to migrate it")

    def _running(self) -> AsyncEngine:
        if self._engine is None:
            raise StorageError("the store is closed")
        return self._engine

    async def migrate(self) -> list[int]:
        """Apply every migration newer than the database's schema; returns the versions
        applied."""
        from storage.postgres.migrations import migrate  # the schema's own module

        async with self.driver_connection() as conn:
            return list(await migrate(conn))

    @contextlib.asynccontextmanager
    async def driver_connection(self) -> AsyncIterator[Any]:
        """A pooled connection as asyncpg itself offers it (for what asyncpg does
        best: migrations in one transaction, ``COPY``), back to the pool afterwards."""
        async with self._running().connect() as conn:
            raw = await conn.get_raw_connection()
            yield raw.driver_connection

    async def close(self) -> None:
        """Close the connections, once the writes already asked for are committed."""
        while self._writes:
            await asyncio.wait(list(self._writes))
        if self._engine is not None:
            engine, self._engine = self._engine, None
            await engine.dispose()

    async def schema_version(self) -> int:
        """The newest applied migration."""
        row = await self.fetchone("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        return int(row[0]) if row else 0

    def write(self, work: Work) -> asyncio.Future[Any]:
        """Run ``work(connection)`` atomically: a future of its result, answered once
        it is committed. If ``work`` raises, nothing of it is stored and the
        exception is raised to its caller only. A caller cancelled after asking
        still has its write committed (as with SQLite's writer).

        Group commit, as SQLite's writer does it (:func:`storage.group_commit.commit_group`):
        the writes asked for while a group commits wait, and go together as the next
        group, in one transaction (the usual moves in one statement); a write that
        fails there fails alone. One transaction a group, not a write, is what lets
        a process's moves keep up with its event loop (docs/performance.md)."""
        if self.read_only:
            raise ReadOnlyStore("this store was opened read-only")
        engine = self._running()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append((work, future))
        if self._grouping < self._writers:
            self._grouping += 1
            task = asyncio.get_running_loop().create_task(self._commit_groups(engine))
            self._writes.add(task)
            task.add_done_callback(self._writes.discard)
        return future

    async def _commit_groups(self, engine: AsyncEngine) -> None:
        """Commit group after group of the writes waiting, until none is left."""
        try:
            await self._commit_waiting(engine)
        finally:
            self._grouping -= 1  # with no await after the last look: none is missed

    async def _commit_waiting(self, engine: AsyncEngine) -> None:
        while self._waiting:
            taken = [self._waiting.popleft()
                     for _ in range(min(GROUP_MOST, len(self._waiting)))]
            # The writes that serialise themselves (the usual moves, by their match's
            # version) go as a group of their own in READ COMMITTED: under
            # SERIALIZABLE, two processes' groups of moves of different matches
            # aborted each other by the hundred (read/write dependencies through the
            # matches' index), each abort a pause and a whole group again.
            self_serialised = [w for w in taken if getattr(w[0], "self_serialised", False)]
            others = [w for w in taken if not getattr(w[0], "self_serialised", False)]
            for group, relaxed in ((self_serialised, True), (others, False)):
                if group:
                    await self._commit_one_group(engine, group, relaxed)

    async def _commit_one_group(self, engine: AsyncEngine,
                                group: list[tuple[Work, asyncio.Future[Any]]],
                                relaxed: bool) -> None:
        works = [work for work, _ in group]
        try:
            outcomes = await self._committed_group(engine, works, relaxed)
        except BaseException as exc:
            for _, future in group:
                if not future.done():
                    future.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
            return
        for (_, future), (ok, value) in zip(group, outcomes, strict=True):
            if future.done():
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    async def _committed_group(self, engine: AsyncEngine, works: list[Work],
                               relaxed: bool) -> list[Outcome]:
        """The group in one go; if a write fails there, the group again with each
        write in a savepoint of its own (nothing of the first try is stored)."""
        if len(works) == 1:  # no group to spare from its failure
            try:
                return [(True, await self._committed(engine, works[0], relaxed))]
            except Exception as exc:
                return [(False, exc)]
        try:
            return await self._committed(engine, _Together(works), relaxed)
        except _GroupFailed:
            return await self._committed(engine, _EachAlone(works), relaxed)

    async def _committed(self, engine: AsyncEngine, work: Work, relaxed: bool = False) -> Any:
        """``work`` committed in a transaction of its own: SERIALIZABLE, or with
        ``relaxed`` READ COMMITTED (for writes that serialise themselves)."""
        lost = 0
        for attempt in range(RETRIES + 1):
            broken = False
            try:
                async with _transaction(engine, relaxed) as conn:
                    try:
                        return await conn.run_sync(_run_work, work)
                    except Exception:
                        broken = await _drop_if_broken(conn)
                        raise
            except Exception as exc:
                # A connection lost before the commit was asked for (its backend
                # terminated, say) committed nothing: the work runs again on a new
                # one, once. Lost during the commit, the outcome is unknown: raised.
                if broken and lost < LOST_RETRIES and attempt < RETRIES:
                    lost += 1
                    log.warning("a connection was lost mid-write; the write runs again")
                    continue
                if _sqlstate(exc) not in _RETRY_STATES or attempt == RETRIES:
                    raise
                log.debug("write %r run again after %s", work, _sqlstate(exc))
                await asyncio.sleep(0.001 * attempt)  # let the one it met commit
        raise AssertionError("unreachable")

    async def execute(self, sql: str, params: Params = ()) -> int:
        """One write, committed atomically (see :meth:`write`); returns the first
        column of the first row it returns (``RETURNING id``), else 0."""
        return int(await self.write(_Statement(sql, params)) or 0)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Any]:
        """Rows of one read (readable by index and by column name)."""
        translated = translate(sql)
        for tried in range(LOST_RETRIES + 1):
            async with self._running().connect() as conn:
                raw = await conn.get_raw_connection()
                try:
                    return list(await raw.driver_connection.fetch(  # type: ignore[union-attr]
                        translated.sql, *translated.arguments(params)))
                except Exception:
                    if not await _drop_if_broken(conn) or tried == LOST_RETRIES:
                        raise
            log.warning("a connection was lost mid-read; the read runs again")
        raise AssertionError("unreachable")

    async def fetchone(self, sql: str, params: Params = ()) -> Any:
        """The first row of one read, or ``None``."""
        return next(iter(await self.fetchall(sql, params)), None)


class _GroupFailed(Exception):
    """A write of the group failed: the group is written again, each write alone."""


class _Together:
    """A group's writes in one go (:func:`storage.group_commit.together`)."""

    __slots__ = ("works",)

    def __init__(self, works: Sequence[Work]) -> None:
        self.works = works

    def __call__(self, conn: Any) -> list[Outcome]:
        try:
            return together(conn, self.works)
        except Exception as exc:
            cause = exc.__cause__ or exc
            if _sqlstate(cause) in _RETRY_STATES:
                raise cause from None  # the whole group runs again
            raise _GroupFailed() from cause


class _EachAlone:
    """A group's writes, each in a savepoint of its own
    (:func:`storage.group_commit.each_alone`)."""

    __slots__ = ("works",)

    def __init__(self, works: Sequence[Work]) -> None:
        self.works = works

    def __call__(self, conn: Any) -> list[Outcome]:
        outcomes = each_alone(conn, self.works)
        for ok, value in outcomes:
            # A serialisation failure is the transaction's, not the write's: all
            # of it runs again.
            if not ok and _sqlstate(value) in _RETRY_STATES:
                raise value
        return outcomes


class _Statement:
    """One SQL statement as a write; returns what :meth:`Cursor.lastrowid` says."""

    __slots__ = ("params", "sql")

    def __init__(self, sql: str, params: Params) -> None:
        self.sql = sql
        self.params = params

    def __call__(self, conn: Connection) -> int:
        return conn.execute(self.sql, self.params).lastrowid or 0


@contextlib.asynccontextmanager
async def _transaction(engine: AsyncEngine, relaxed: bool) -> AsyncIterator[AsyncConnection]:
    """A transaction on a pooled connection, READ COMMITTED if ``relaxed`` (the pool
    puts the engine's SERIALIZABLE back when the connection returns)."""
    async with engine.connect() as conn:
        if relaxed:
            await conn.execution_options(isolation_level="READ COMMITTED")
        async with conn.begin():
            yield conn


async def _drop_if_broken(conn: AsyncConnection) -> bool:
    """Drop ``conn`` from the pool if its server connection is gone (killed, say), so
    that the next caller gets a live one; ``True`` if it was gone."""
    raw = await conn.get_raw_connection()
    driver = raw.driver_connection
    if driver is not None and driver.is_closed():
        await conn.invalidate()
        return True
    return False
