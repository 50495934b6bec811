"""The repositories over one SQLite file: :class:`Store`."""

from __future__ import annotations

from pathlib import Path

from storage.collections import CollectionRepository
from storage.db import Database
from storage.matches import MatchRepository
from storage.settings import ClosedDmRepository, SettingsRepository
from storage.stats import StatsRepository
from storage.tournaments import TournamentRepository


class Store:
    """The repositories over one SQLite file."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.matches = MatchRepository(db)
        self.settings = SettingsRepository(db)
        self.closed_dms = ClosedDmRepository(db)
        self.stats = StatsRepository(db)
        self.collections = CollectionRepository(db)
        self.tournaments = TournamentRepository(db)

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        """Open the file, migrating it to the current schema."""
        return cls(await Database.open(path))

    async def close(self) -> None:
        """Close the file."""
        await self.db.close()
