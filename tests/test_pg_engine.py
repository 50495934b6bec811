"""The PostgreSQL engine (storage/postgres/db.py) on its own: the works SQLite's
writer runs, run unchanged in a transaction each; reads by index and name; one
work's failure its caller's alone; serialised read-then-write works; a killed
connection replaced."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass

import asyncpg
import pytest

from storage.errors import StorageError, unique_violation
from storage.postgres.db import Connection, PostgresDatabase
from tests.pgserver import PgServer

_SCHEMA = """
CREATE TABLE items (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL UNIQUE, n BIGINT,
                    guild BIGINT);
CREATE TABLE counter (id INTEGER PRIMARY KEY, value BIGINT NOT NULL);
INSERT INTO counter VALUES (1, 0);
"""


@pytest.fixture
async def db(pg_server: PgServer) -> AsyncIterator[PostgresDatabase]:
    """A database of its own with a small schema, no migrations."""
    url = await pg_server.database()
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(_SCHEMA)
    finally:
        await conn.close()
    opened = await PostgresDatabase.open(url, migrate=False, pool_size=4, writers=4)
    try:
        yield opened
    finally:
        await opened.close()


@dataclass(frozen=True)
class _Insert:
    """A work as the repositories write them: SQLite's placeholders, a cursor back."""

    name: str
    n: int | None = None

    def __call__(self, conn: sqlite3.Connection | Connection) -> int:
        cur = conn.execute("INSERT INTO items (name, n) VALUES (?, ?) RETURNING id",
                           (self.name, self.n))
        return int(cur.fetchone()[0])


@dataclass(frozen=True)
class _InsertThenFail:
    name: str

    def __call__(self, conn: Connection) -> None:
        conn.execute("INSERT INTO items (name) VALUES (?)", (self.name,))
        raise ValueError("changed its mind")


def _increment(conn: Connection) -> int:
    """Read, then write what was read plus one: right only if serialised."""
    value = conn.execute("SELECT value FROM counter WHERE id = ?", (1,)).fetchone()["value"]
    conn.execute("UPDATE counter SET value = :v WHERE id = :id", {"v": value + 1, "id": 1})
    return int(value) + 1


async def test_work_runs_unchanged_and_rows_read_like_sqlite_rows(db: PostgresDatabase) -> None:
    """A work written for sqlite3 runs here; rows read by index and by name; the
    cursor's rowcount, iteration and executemany work as sqlite3's do."""
    first = await db.write(_Insert("a", 1))
    second = await db.write(_Insert("b", 2))
    assert (first, second) == (1, 2)

    def many(conn: Connection) -> int:
        conn.executemany("INSERT INTO items (name, n) VALUES (?, ?)", [("c", 3), ("d", 4)])
        return conn.execute("UPDATE items SET guild = ? WHERE n > ?", (9, 1)).rowcount

    assert await db.write(many) == 3
    row = await db.fetchone("SELECT id, name, n FROM items WHERE name = ?", ("b",))
    assert row is not None and (row[0], row["name"], row["n"]) == (2, "b", 2)
    assert dict(row) == {"id": 2, "name": "b", "n": 2}
    rows = await db.fetchall("SELECT name FROM items WHERE guild IS ? ORDER BY id", (None,))
    assert [r["name"] for r in rows] == ["a"]
    assert [r[0] for r in await db.fetchall(
        "SELECT name FROM items WHERE guild IS :g ORDER BY name", {"g": 9})] == ["b", "c", "d"]
    assert await db.fetchone("SELECT 1 FROM items WHERE name = ?", ("zz",)) is None
    assert await db.execute("INSERT INTO items (name) VALUES (?) RETURNING id", ("e",)) == 5

    def listed(conn: Connection) -> list[str]:
        return [row["name"] for row in conn.execute("SELECT name FROM items ORDER BY id")]

    assert await db.write(listed) == ["a", "b", "c", "d", "e"]


async def test_failing_work_rolls_back_alone(db: PostgresDatabase) -> None:
    """A work that raises, or whose statement fails, has nothing of it stored and
    raises to its caller only; the writes beside it commit."""
    results = await asyncio.gather(
        db.write(_Insert("kept", 1)), db.write(_InsertThenFail("gone")),
        db.write(_Insert("kept", 2)), db.write(_Insert("also kept")),
        return_exceptions=True)
    assert isinstance(results[1], ValueError)
    duplicate = results[2] if isinstance(results[2], Exception) else results[0]
    assert isinstance(duplicate, Exception)
    assert unique_violation(duplicate, "items", "name")
    assert not unique_violation(duplicate, "items", "n")
    assert not unique_violation(duplicate, "counter", "name")
    names = [r["name"] for r in await db.fetchall("SELECT name FROM items ORDER BY name")]
    assert names == ["also kept", "kept"]


async def test_read_then_write_works_are_serialised(db: PostgresDatabase) -> None:
    """Works that read and then write, run side by side on several connections, end
    as if run one after another (SQLite's guarantee): none is lost."""
    got = await asyncio.gather(*(db.write(_increment) for _ in range(24)))
    assert sorted(got) == list(range(1, 25))
    row = await db.fetchone("SELECT value FROM counter")
    assert row is not None and row[0] == 24


async def test_cancelled_caller_still_has_its_write(db: PostgresDatabase) -> None:
    """As with SQLite's writer, a write asked for is committed even if its caller is
    cancelled while it waits."""
    async def ask() -> None:
        await db.write(_Insert("cancelled", 7))

    task = asyncio.create_task(ask())
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await db.close()  # waits for the writes asked for
    conn = await asyncpg.connect(db.url)
    try:
        assert await conn.fetchval("SELECT n FROM items WHERE name = 'cancelled'") == 7
    finally:
        await conn.close()


async def test_killed_connection_is_replaced(db: PostgresDatabase, pg_server: PgServer,
                                             caplog: pytest.LogCaptureFixture) -> None:
    """A server connection killed under the pool (``pg_terminate_backend``) fails
    nothing: a read, or a write lost before its commit, runs again on a live one."""
    await db.write(_Insert("before"))

    async def kill_all() -> None:
        admin = await asyncpg.connect(pg_server.dsn())
        try:
            await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                                " WHERE datname = $1 AND pid <> pg_backend_pid()",
                                db.url.rsplit("/", 1)[1])
        finally:
            await admin.close()

    await kill_all()
    await db.write(_Insert("after"))
    await kill_all()
    rows = await db.fetchall("SELECT name FROM items ORDER BY id")
    assert [r["name"] for r in rows] == ["before", "after"]
    lost = [r.getMessage() for r in caplog.records if "was lost" in r.getMessage()]
    assert set(lost) == {"a connection was lost mid-write; the write runs again",
                         "a connection was lost mid-read; the read runs again"}


async def test_closed_store_refuses(db: PostgresDatabase) -> None:
    """After close, reads and writes are refused with a storage error."""
    await db.close()
    with pytest.raises(StorageError):
        db.write(_Insert("late"))
    with pytest.raises(StorageError):
        await db.fetchall("SELECT 1")
