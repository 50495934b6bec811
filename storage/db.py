"""The SQLite file: connection settings, reads, writes and numbered migrations.

Everything that touches SQL lives in ``storage/``. Reads run on aiosqlite's
thread, through its public API, one after another. Every
write goes to the writer process (:mod:`storage.writer`), which groups the
writes of concurrent callers into one transaction (group commit) while each
caller still waits for its own durable commit and sees only its own failure.
Reader and writer have a connection each; in WAL mode neither waits for the
other.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from storage.connection import PRAGMAS
from storage.errors import ReadOnlyStore, StorageError
from storage.writer import Work, WriterProcess

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


@dataclass(frozen=True, slots=True)
class Statement:
    """One SQL statement as a write: returns the last inserted row id."""

    sql: str
    params: tuple | dict = ()

    def __call__(self, conn: sqlite3.Connection) -> int:
        return conn.execute(self.sql, self.params).lastrowid or 0


class Database:
    """An open SQLite file in WAL mode with the schema brought up to date: reads
    on aiosqlite's thread, writes in the writer process."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._reader: aiosqlite.Connection | None = None
        self._writer = WriterProcess(path)
        self.read_only = False
        """Whether every write is refused (:meth:`open`'s ``read_only``)."""

    @classmethod
    async def open(cls, path: str | Path, migrations: list[Migration] | None = None, *,
                   read_only: bool = False) -> Database:
        """Open (creating if needed) the file at ``path`` and apply pending migrations.
        It must be a file: the reader and the writer process open it each.

        ``read_only``: open an existing file for reading alone (SQLite's ``mode=ro``
        and ``query_only``), migrating nothing; a file that is missing or not at the
        current schema raises :class:`ReadOnlyStore`, and so does every write."""
        path = str(path)
        if path == ":memory:" or path.startswith("file:"):
            raise ValueError("the store needs a file path: its reader and its writer open it each")
        migrations = shipped_migrations() if migrations is None else migrations
        if read_only:
            return await cls._open_read_only(path, migrations)
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = cls(path)
        try:
            db._reader = await aiosqlite.connect(path, isolation_level=None)
            db._reader.row_factory = sqlite3.Row
            for pragma in PRAGMAS:
                await db._reader.execute(pragma)
            await db.migrate(migrations)
        except BaseException:
            await db.close()
            raise
        return db

    @classmethod
    async def _open_read_only(cls, path: str, migrations: list[Migration]) -> Database:
        if not Path(path).is_file():
            raise ReadOnlyStore(f"no store at {path} (the bot makes it)")
        db = cls(path)
        db.read_only = True
        try:
            db._reader = await aiosqlite.connect(
                f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
            db._reader.row_factory = sqlite3.Row
            # The file's journal mode is the bot's to set; query_only refuses writes
            # even if mode=ro were lost along the way.
            for pragma in (*(p for p in PRAGMAS if "journal_mode" not in p),
                           "PRAGMA query_only=ON"):
                await db._reader.execute(pragma)
            current = migrations[-1].version if migrations else 0
            try:
                version = await db.schema_version()
            except sqlite3.OperationalError:  # no schema_migrations: never migrated
                version = 0
            if version != current:
                raise ReadOnlyStore(
                    f"the store at {path} is at schema {version}, not {current}: start"
                    " the bot once to migrate it")
        except BaseException:
            await db.close()
            raise
        return db

    @property
    def writer_pid(self) -> int | None:
        """The writer process's id while it runs (it starts with the first write)."""
        return self._writer.pid

    async def close(self) -> None:
        """Close the file, once the writes already asked for are committed."""
        await self._writer.close()
        if self._reader is not None:
            reader, self._reader = self._reader, None
            await reader.close()

    def _reading(self) -> aiosqlite.Connection:
        if self._reader is None:
            raise StorageError("the store is closed")
        return self._reader

    async def migrate(self, migrations: list[Migration]) -> list[int]:
        """Apply every migration newer than the file's schema; returns the versions applied."""
        conn = self._reading()
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
                           " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                           " applied_at REAL NOT NULL)")
        done = {row[0] for row in await conn.execute_fetchall(
            "SELECT version FROM schema_migrations")}
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
                await conn.executescript(script)
            except Exception:
                if conn.in_transaction:
                    await conn.execute("ROLLBACK")
                raise
            applied.append(migration.version)
        return applied

    async def schema_version(self) -> int:
        """The newest applied migration."""
        row = await self.fetchone("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        return int(row[0]) if row else 0

    def write(self, work: Work) -> asyncio.Future[Any]:
        """Run ``work(connection)`` inside a write transaction: a future of its
        result, answered once that transaction is committed. ``work`` is handed
        over at this call, not when the future is awaited (a coroutine here
        would keep one more frame per write in flight).

        ``work`` runs in the writer process, so it must pickle: a module-level
        dataclass instance with a ``__call__``, or a :func:`functools.partial` of a
        module-level function (a :exc:`pickle.PicklingError` or similar is raised
        here otherwise). Writes asked for while another group is being committed
        are committed together in the next transaction (group commit): a ``work``
        that raises has its changes rolled back and its exception raised to its
        caller only. If the commit itself fails, every write of the group raises
        and none of them is stored. Whenever this raises, nothing of ``work`` is
        stored, even if the writer process died meanwhile. A caller cancelled
        after asking still has its write committed.
        """
        if self.read_only:
            raise ReadOnlyStore("this store was opened read-only")
        return self._writer.submit(work)

    async def fetchall(self, sql: str, params: tuple | dict = ()) -> list[sqlite3.Row]:
        """Rows of one read."""
        return list(await self._reading().execute_fetchall(sql, params))

    async def fetchone(self, sql: str, params: tuple | dict = ()) -> sqlite3.Row | None:
        """The first row of one read, or ``None``. Read in one call, like
        :meth:`fetchall`: a cursor left open across an ``await`` keeps its statement
        (and so its snapshot) open, and the reads that other tasks make on the
        connection meanwhile would see that old snapshot, not the newest commit."""
        rows = await self._reading().execute_fetchall(sql, params)
        return next(iter(rows), None)

    async def execute(self, sql: str, params: tuple | dict = ()) -> int:
        """One write, committed atomically (see :meth:`write`); returns the last row id."""
        return await self.write(Statement(sql, params))
