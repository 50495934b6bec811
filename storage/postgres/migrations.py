"""PostgreSQL's numbered migrations: the loader and the runner.

The files live in ``storage/postgres/migrations`` as ``NNN_name.sql``, numbered like
SQLite's (``storage/migrations``) so that both engines report the same schema version:
a fresh PostgreSQL has no history, so the first file shipped is a baseline standing for
every SQLite migration up to its number, and the files after it must follow without
gaps. Each migration runs in one transaction and is recorded in ``schema_migrations``,
as :meth:`storage.db.Database.migrate` does on SQLite. Processes starting together
(a cluster) serialise on a transaction-scoped advisory lock, so each migration is
applied once.
"""

from __future__ import annotations

import re
import time
from importlib import resources
from typing import TYPE_CHECKING

from storage.db import Migration

if TYPE_CHECKING:
    import asyncpg

__all__ = ["Migration", "migrate", "schema_version", "shipped_migrations"]

_MIGRATION_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")

MIGRATION_LOCK = 0x63726F75706965
"""The advisory lock key migrations hold (transaction-scoped: released at commit or
rollback, so a process that dies mid-migration holds nothing)."""

_SCHEMA_MIGRATIONS = (
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version BIGINT PRIMARY KEY, name TEXT NOT NULL,"
    " applied_at DOUBLE PRECISION NOT NULL)"
)


def shipped_migrations() -> list[Migration]:
    """The PostgreSQL migrations shipped in ``storage/postgres/migrations``, in order:
    contiguous numbers from the first (the baseline)."""
    found = []
    # The folder shares this module's name, so it is data beside it, not a package.
    for entry in resources.files("storage.postgres").joinpath("migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    check_numbering(found)
    return found


def check_numbering(migrations: list[Migration]) -> None:
    """Refuse migrations that do not follow on from the first without gaps or repeats.

    >>> check_numbering([Migration(16, "baseline", ""), Migration(17, "next", "")])
    >>> check_numbering([Migration(16, "baseline", ""), Migration(18, "next", "")])
    Traceback (most recent call last):
    ...
    RuntimeError: PostgreSQL migrations must follow on from 016 without gaps: [16, 18]
    """
    versions = [m.version for m in migrations]
    if not versions:
        raise RuntimeError("no PostgreSQL migrations shipped")
    first = versions[0]
    if versions != list(range(first, first + len(versions))):
        raise RuntimeError(
            f"PostgreSQL migrations must follow on from {first:03d} without gaps: {versions}")


async def migrate(conn: asyncpg.Connection,
                  migrations: list[Migration] | None = None) -> list[int]:
    """Apply every migration newer than the database's schema, each in one transaction
    with its row in ``schema_migrations``; returns the versions applied. A database
    that has some history must not be behind the first migration given (the
    baseline cannot bring an old schema forward)."""
    migrations = shipped_migrations() if migrations is None else migrations
    check_numbering(migrations)
    applied = []
    for migration in migrations:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute(_SCHEMA_MIGRATIONS)
            done = {row[0] for row in await conn.fetch("SELECT version FROM schema_migrations")}
            if migration.version in done:
                continue
            if done and max(done) < migration.version - 1:
                raise RuntimeError(
                    f"the database's schema is at {max(done):03d}; PostgreSQL's migrations "
                    f"go on from {migration.version:03d}")
            await conn.execute(migration.sql)
            await conn.execute("INSERT INTO schema_migrations VALUES ($1, $2, $3)",
                               migration.version, migration.name, time.time())
            applied.append(migration.version)
    return applied


async def schema_version(conn: asyncpg.Connection) -> int:
    """The newest applied migration (0 for a database never migrated)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))
