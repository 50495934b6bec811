"""A whole community copied from its SQLite file to a new PostgreSQL database
(``croupier migrate --from FILE --to postgresql://…``).

Every table is copied, in an order that puts each row after the rows it refers
to, with PostgreSQL's ``COPY`` (asyncpg's ``copy_records_to_table``), inside one
transaction: the target ends with all of it or none of it. Before that
transaction commits, every table is read back and compared with the source row
for row; identity sequences are moved past the largest copied id, so new rows
never take an old id.

The source is brought up to the current schema first (as the bot does when it
opens it); the target must be empty (a new database, or one this command
migrated and nothing wrote to since).
"""

from __future__ import annotations

import math
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from storage.backup import unusable
from storage.connection import connect_read_only
from storage.errors import StorageError

SKIPPED = frozenset({"schema_migrations", "writer_last_group"})
"""Tables that belong to one engine's own machinery, not to the community."""


class TransferRefused(StorageError):
    """Nothing was copied; the message says why, in plain words."""


@dataclass(frozen=True)
class TransferMade:
    """What was copied: rows per table, in the order they were copied."""

    rows: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def total(self) -> int:
        """Rows copied in all."""
        return sum(self.rows.values())


def in_reference_order(tables: Iterable[str], references: Iterable[tuple[str, str]]) -> list[str]:
    """``tables`` ordered so that each comes after every table it refers to
    (``references``: ``(table, referred)`` pairs; a table may refer to itself).

    >>> in_reference_order(["seats", "matches", "results"],
    ...                    [("seats", "matches"), ("results", "matches")])
    ['matches', 'results', 'seats']
    """
    left = sorted(set(tables))
    needs = {t: {r for s, r in references if s == t and r != t and r in left} for t in left}
    ordered: list[str] = []
    while left:
        ready = [t for t in left if needs[t] <= set(ordered)]
        if not ready:
            raise TransferRefused(f"the tables {', '.join(left)} refer to each other in a circle")
        ordered += ready
        left = [t for t in left if t not in ready]
    return ordered


def _value(value: Any, pg_type: str) -> Any:
    """A SQLite value as the PostgreSQL column's type takes it (SQLite keeps
    ``REAL`` columns' whole numbers as integers)."""
    if value is None:
        return None
    if pg_type == "double precision":
        return float(value)
    return value


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and math.isclose(float(a), float(b),
                                                                rel_tol=1e-12, abs_tol=0.0)
    return bool(a == b)


def _sort_key(row: Sequence[Any]) -> tuple[Any, ...]:
    return tuple((v is None, type(v).__name__ if not isinstance(v, (int, float)) else "n",
                  v if v is not None else 0) for v in row)


async def copy_store(source: str | Path, target: str) -> TransferMade:
    """Copy the SQLite store at ``source`` into the empty PostgreSQL database at
    ``target`` (a ``postgresql://`` URL), checked row for row before it commits.

    Raises :class:`TransferRefused` (nothing copied) when the source is missing
    or not a Croupier store, or the target is not empty."""
    from storage.db import Database
    from storage.postgres.db import PostgresDatabase

    started = time.perf_counter()
    source = Path(source)
    try:
        if not source.is_file():
            raise TransferRefused(f"there is no database file at {source}")
        opened = await Database.open(source)  # brings it up to the current schema
    except sqlite3.DatabaseError as exc:
        raise TransferRefused(f"{source}: {exc}: this is not a Croupier database") from None
    except OSError as exc:
        raise TransferRefused(f"cannot use {unusable(exc)}") from None
    await opened.close()
    target_db = await PostgresDatabase.open(target)  # creates or updates the schema
    reading = connect_read_only(source)
    try:
        async with target_db.driver_connection() as conn:
            made = await _copy(reading, conn)
    finally:
        reading.close()
        await target_db.close()
    return TransferMade(made.rows, time.perf_counter() - started)


async def _copy(reading: sqlite3.Connection, conn: Any) -> TransferMade:
    """Every table from ``reading`` into ``conn`` (asyncpg) in one transaction,
    checked row for row before it commits."""
    columns = await _columns(conn)
    references = [(r["table"], r["referred"]) for r in await conn.fetch(_REFERENCES)]
    order = in_reference_order(columns, references)
    for table in order:
        if await conn.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{table}")'):
            raise TransferRefused(f"the target database already holds data (table "
                                  f"{table}): copy into a new, empty database")
    made = TransferMade()
    reading.execute("BEGIN")  # one snapshot of the source for the whole copy
    async with conn.transaction():
        for table in order:
            names = [name for name, _ in columns[table]]
            types = [kind for _, kind in columns[table]]
            rows = [tuple(_value(v, t) for v, t in zip(row, types, strict=True))
                    for row in _select(reading, table, names)]
            if rows:
                await conn.copy_records_to_table(table, records=rows, columns=names)
            made.rows[table] = len(rows)
        for table, column in await conn.fetch(_IDENTITIES):
            await conn.execute(
                f"SELECT setval(pg_get_serial_sequence('\"{table}\"', '{column}'),"
                f" COALESCE(MAX(\"{column}\"), 1), MAX(\"{column}\") IS NOT NULL)"
                f' FROM "{table}"')
        for table in order:
            await _check_same(conn, reading, table, [name for name, _ in columns[table]])
    reading.execute("COMMIT")
    return made


_REFERENCES = """
SELECT c.conrelid::regclass::text AS table, c.confrelid::regclass::text AS referred
FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
WHERE c.contype = 'f' AND n.nspname = current_schema()
"""

_IDENTITIES = """
SELECT table_name, column_name FROM information_schema.columns
WHERE table_schema = current_schema() AND is_identity = 'YES'
"""


async def _columns(conn: Any) -> dict[str, list[tuple[str, str]]]:
    """Every community table of the target and its columns (name, type), in order."""
    rows = await conn.fetch(
        "SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c"
        " JOIN information_schema.tables t ON t.table_schema = c.table_schema"
        " AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'"
        " WHERE c.table_schema = current_schema() ORDER BY c.table_name, c.ordinal_position")
    found: dict[str, list[tuple[str, str]]] = {}
    for row in rows:
        if row["table_name"] not in SKIPPED:
            found.setdefault(row["table_name"], []).append((row["column_name"], row["data_type"]))
    return found


def _select(reading: sqlite3.Connection, table: str, names: Sequence[str]) -> list[tuple]:
    quoted = ", ".join(f'"{n}"' for n in names)
    try:
        return [tuple(r) for r in reading.execute(f'SELECT {quoted} FROM "{table}"')]
    except sqlite3.OperationalError as exc:
        raise TransferRefused(f"the two schemas differ at table {table}: {exc}") from None


async def _check_same(conn: Any, reading: sqlite3.Connection, table: str,
                      names: Sequence[str]) -> None:
    """Refuse (rolling the copy back) unless ``table`` holds the same rows on both."""
    quoted = ", ".join(f'"{n}"' for n in names)
    copied = sorted((tuple(r) for r in await conn.fetch(f'SELECT {quoted} FROM "{table}"')),
                    key=_sort_key)
    kept = sorted(_select(reading, table, names), key=_sort_key)
    if len(copied) != len(kept) or not all(
            _same(a, b) for x, y in zip(copied, kept, strict=True)
            for a, b in zip(x, y, strict=True)):
        raise TransferRefused(f"table {table} did not copy the same ({len(kept)} rows in, "
                              f"{len(copied)} out); nothing was copied")
