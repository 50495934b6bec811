"""The SQLite file: connection settings, transactions and numbered migrations.

Everything that touches SQL lives in ``storage/``. One connection serves the
process; an :class:`asyncio.Lock` keeps one coroutine's transaction from
interleaving with another's.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import aiosqlite

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


class Database:
    """An open SQLite file in WAL mode with the schema brought up to date."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self.path = path
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, migrations: list[Migration] | None = None) -> Database:
        """Open (creating if needed) the file at ``path`` and apply pending migrations."""
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode=WAL")
        # NORMAL is durable across application crashes in WAL mode and much faster than FULL.
        await conn.execute("PRAGMA synchronous=NORMAL")
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute("PRAGMA busy_timeout=5000")
        db = cls(conn, path)
        await db.migrate(shipped_migrations() if migrations is None else migrations)
        return db

    async def close(self) -> None:
        """Close the connection."""
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

    async def fetchall(self, sql: str, params: tuple | dict = ()) -> list[aiosqlite.Row]:
        """Rows of one read."""
        async with self._lock, self._conn.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def fetchone(self, sql: str, params: tuple | dict = ()) -> aiosqlite.Row | None:
        """The first row of one read, or ``None``."""
        async with self._lock, self._conn.execute(sql, params) as cur:
            return await cur.fetchone()

    async def execute(self, sql: str, params: tuple | dict = ()) -> int:
        """One write in its own transaction; returns the last row id."""
        async with self.transaction() as conn, conn.execute(sql, params) as cur:
            return cur.lastrowid or 0
