"""The SQLite file: connection settings, reads, writes and numbered migrations.

Everything that touches SQL lives in ``storage/``. Reads run on aiosqlite's
thread, one hop each (:meth:`Database.run`); an :class:`asyncio.Lock` keeps one
coroutine's statements from interleaving with another's. Every write goes to the
writer process (:mod:`storage.writer`), which groups the writes of concurrent
callers into one transaction (group commit) while each caller still waits for
its own durable commit and sees only its own failure.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from storage.connection import PRAGMAS
from storage.writer import Work, WriterProcess

T = TypeVar("T")

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

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._writer = WriterProcess(path)

    @classmethod
    async def open(cls, path: str | Path, migrations: list[Migration] | None = None) -> Database:
        """Open (creating if needed) the file at ``path`` and apply pending migrations.
        It must be a file: the writer process opens it too."""
        path = str(path)
        if path == ":memory:" or path.startswith("file:"):
            raise ValueError("the store needs a file path: its writer process opens it too")
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        conn.row_factory = aiosqlite.Row
        for pragma in PRAGMAS:
            await conn.execute(pragma)
        db = cls(conn, path)
        await db.migrate(shipped_migrations() if migrations is None else migrations)
        return db

    @property
    def writer_pid(self) -> int | None:
        """The writer process's id while it runs (it starts with the first write)."""
        return self._writer.pid

    async def close(self) -> None:
        """Close the file, once the writes already asked for are committed."""
        await self._writer.close()
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

    async def run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` on the reading connection's thread, in one hop,
        between other coroutines' reads. For reads: writes go through :meth:`write`."""
        async with self._lock:
            conn = self._conn
            # aiosqlite runs every call on its own thread, one at a time; ``_execute``
            # queues one function there and ``_conn`` is the sqlite3 connection.
            return await conn._execute(lambda: work(conn._conn))

    async def write(self, work: Work) -> Any:
        """Run ``work(connection)`` inside a write transaction and return its
        result once that transaction is committed.

        ``work`` runs in the writer process, so it must pickle: a module-level
        dataclass instance with a ``__call__``, or a :func:`functools.partial` of a
        module-level function (a :exc:`pickle.PicklingError` or similar is raised
        here otherwise). Writes asked for while another group is being committed
        are committed together in the next transaction (group commit), each in a
        savepoint of its own: a ``work`` that raises has its changes rolled back
        and its exception raised to its caller only. If the commit itself fails,
        every write of the group raises and none of them is stored. A caller
        cancelled after asking still has its write committed.
        """
        return await self._writer.submit(work)

    async def fetchall(self, sql: str, params: tuple | dict = ()) -> list[aiosqlite.Row]:
        """Rows of one read."""
        return await self.run(lambda conn: conn.execute(sql, params).fetchall())

    async def fetchone(self, sql: str, params: tuple | dict = ()) -> aiosqlite.Row | None:
        """The first row of one read, or ``None``."""
        return await self.run(lambda conn: conn.execute(sql, params).fetchone())

    async def execute(self, sql: str, params: tuple | dict = ()) -> int:
        """One write, committed atomically (see :meth:`write`); returns the last row id."""
        return await self.write(Statement(sql, params))
