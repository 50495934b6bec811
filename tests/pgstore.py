"""PostgreSQL databases for the ``store`` fixture's ``engines`` tests: one migrated
template per server, one copy of it per test module, emptied before each test after
the first (cheaper than a copy per test)."""

from __future__ import annotations

import asyncpg
import pytest

from storage.postgres.db import PostgresDatabase
from tests.pgserver import PgServer

TEMPLATE = "croupier_template"
_databases: dict[tuple[int, str], str] = {}
"""``(server, module)`` → the module's database URL."""


async def _migrated(url: str) -> None:
    db = await PostgresDatabase.open(url)
    await db.close()  # a template is copied only with no connection open


async def module_database(request: pytest.FixtureRequest) -> str:
    """The URL of the test module's database, empty but for its schema."""
    server: PgServer = request.getfixturevalue("pg_server")
    module = request.module.__name__
    key = (id(server), module)
    url = _databases.get(key)
    if url is None:
        template = await server.template(TEMPLATE, _migrated)
        url = await server.database(server.unique_name(module.rsplit(".", 1)[-1]),
                                    template=template)
        _databases[key] = url
    else:
        await empty(url)
    return url


async def empty(url: str) -> None:
    """Every table emptied and its ids restarted; the schema's history kept. Only the
    tables that hold rows are emptied, by DELETE (TRUNCATE makes new files for every
    table and index: several times slower for the few rows a test leaves). The
    append-only tables refuse DELETE by trigger, and foreign keys are triggers too:
    they are off for this transaction alone (``session_replication_role``, the
    server's superuser)."""
    conn = await asyncpg.connect(url)
    try:
        tables = [row[0] for row in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'schema_migrations'")]
        holding = [row[0] for row in await conn.fetch(" UNION ALL ".join(
            f"SELECT $${table}$$ WHERE EXISTS (SELECT 1 FROM \"{table}\")" for table in tables))]
        async with conn.transaction():
            await conn.execute("SET LOCAL session_replication_role = replica")
            for table in holding:
                await conn.execute(f'DELETE FROM "{table}"')
            # A failed insert uses up an id too: every sequence restarts, rows or none.
            await conn.execute(
                "SELECT setval(c.oid, 1, false) FROM pg_class c JOIN pg_namespace n"
                " ON n.oid = c.relnamespace WHERE c.relkind = 'S' AND n.nspname = 'public'")
    finally:
        await conn.close()


def refused_by_schema(exc: BaseException) -> bool:
    """Whether ``exc`` is the schema's refusal (a constraint or a trigger) on either
    engine: :class:`sqlite3.IntegrityError`, or PostgreSQL's class 23 SQLSTATE."""
    import sqlite3

    if isinstance(exc, sqlite3.IntegrityError):
        return True
    state = getattr(exc, "sqlstate", None) or getattr(getattr(exc, "orig", None), "sqlstate", None)
    return str(state or "").startswith("23")
