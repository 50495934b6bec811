"""Which engine a store runs on: a path is a SQLite file (the default), a
``postgresql://`` URL a PostgreSQL database (issue 31). One setting,
``CROUPIER_DATABASE``, holds either."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from storage.db import Database
    from storage.postgres.db import PostgresDatabase

    AnyDatabase = Database | PostgresDatabase

_URL_SCHEMES = ("postgresql://", "postgres://", "postgresql+asyncpg://")


def is_postgres(target: str | os.PathLike[str]) -> bool:
    """Whether ``target`` names a PostgreSQL database rather than a SQLite file.

    >>> is_postgres("postgresql://croupier@db.example/croupier")
    True
    >>> from pathlib import Path
    >>> is_postgres("data/croupier.sqlite3"), is_postgres(Path("postgresql"))
    (False, False)
    """
    return isinstance(target, str) and target.startswith(_URL_SCHEMES)


async def open_database(target: str | os.PathLike[str], *,
                        read_only: bool = False) -> AnyDatabase:
    """The database at ``target``, migrated to the current schema: a
    :class:`~storage.postgres.db.PostgresDatabase` for a ``postgresql://`` URL,
    else a SQLite :class:`~storage.db.Database` on that path (as before).
    ``read_only``: for reading alone, migrating nothing (the web companion's)."""
    if is_postgres(target):
        # Imported only here: a SQLite bot never loads SQLAlchemy or asyncpg.
        from storage.postgres.db import PostgresDatabase

        return await PostgresDatabase.open(str(target), read_only=read_only)
    from storage.db import Database

    return await Database.open(target, read_only=read_only)
