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
    """Every table emptied and its ids restarted; the schema's history kept. The
    append-only tables refuse TRUNCATE by trigger: triggers are off for this session
    alone (``session_replication_role``, the server's superuser)."""
    conn = await asyncpg.connect(url)
    try:
        tables = [row[0] for row in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'schema_migrations'")]
        await conn.execute("SET session_replication_role = replica")
        await conn.execute("TRUNCATE " + ", ".join(f'"{t}"' for t in tables)
                           + " RESTART IDENTITY CASCADE")
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
