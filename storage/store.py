"""The repositories over one database, SQLite or PostgreSQL: :class:`Store`."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from storage.collections import CollectionRepository
from storage.engine import open_database
from storage.matches import MatchRepository
from storage.settings import ClosedDmRepository, ReaderLocaleRepository, SettingsRepository
from storage.stats import StatsRepository
from storage.tournaments import TournamentRepository
from storage.web import WebRepository

if TYPE_CHECKING:
    from storage.engine import AnyDatabase


class Store:
    """The repositories over one database (:mod:`storage.engine`)."""

    def __init__(self, db: AnyDatabase) -> None:
        self.db = db
        self.matches = MatchRepository(db)
        self.settings = SettingsRepository(db)
        self.closed_dms = ClosedDmRepository(db)
        self.reader_locales = ReaderLocaleRepository(db)
        self.stats = StatsRepository(db)
        self.collections = CollectionRepository(db)
        self.tournaments = TournamentRepository(db)
        self.web = WebRepository(db)

    @classmethod
    async def open(cls, target: str | os.PathLike[str], *, read_only: bool = False) -> Store:
        """Open the database at ``target``, migrating it to the current schema: a
        SQLite file's path, or a ``postgresql://`` URL. ``read_only`` (the web
        companion's): an existing database at the current schema, for reading alone;
        migrating nothing, every write refused with
        :class:`~storage.errors.ReadOnlyStore`."""
        return cls(await open_database(target, read_only=read_only))

    @property
    def shared(self) -> bool:
        """Whether other processes may share the database (PostgreSQL): then every
        process serves every match and a cached one may be behind (docs/clusters.md)."""
        return getattr(self.db, "shared", False)

    async def close(self) -> None:
        """Close the database."""
        await self.db.close()
