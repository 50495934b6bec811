"""Per-guild settings and the known-closed DM list."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from storage.db import Database
from storage.models import GuildSettings

_SETTING_COLUMNS = ("turn_seconds", "warn_seconds", "organiser_role_id", "locale", "ante")


class SettingsRepository:
    """Guild settings: one row per server, defaults when absent."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, guild_id: int) -> GuildSettings:
        """The server's settings (defaults if it never changed any)."""
        row = await self._db.fetchone("SELECT * FROM guild_settings WHERE guild_id = ?",
                                      (guild_id,))
        if row is None:
            return GuildSettings(guild_id=guild_id)
        return GuildSettings(guild_id=guild_id, turn_seconds=row["turn_seconds"],
                             warn_seconds=row["warn_seconds"],
                             organiser_role_id=row["organiser_role_id"], locale=row["locale"],
                             ante=bool(row["ante"]))

    async def update(self, guild_id: int, **changes: object) -> GuildSettings:
        """Change some settings; unknown names raise ``KeyError``."""
        unknown = set(changes) - set(_SETTING_COLUMNS)
        if unknown:
            raise KeyError(f"unknown settings: {', '.join(sorted(unknown))}")
        current = await self.get(guild_id)
        values = {name: getattr(current, name) for name in _SETTING_COLUMNS} | changes
        values["ante"] = int(bool(values["ante"]))
        await self._db.execute(
            "INSERT INTO guild_settings (guild_id, turn_seconds, warn_seconds, organiser_role_id,"
            " locale, ante, updated_at) VALUES (:guild_id, :turn_seconds, :warn_seconds,"
            " :organiser_role_id, :locale, :ante, :updated_at)"
            " ON CONFLICT (guild_id) DO UPDATE SET turn_seconds = excluded.turn_seconds,"
            " warn_seconds = excluded.warn_seconds, organiser_role_id = excluded.organiser_role_id,"
            " locale = excluded.locale, ante = excluded.ante, updated_at = excluded.updated_at",
            values | {"guild_id": guild_id,
                      "updated_at": datetime.now(UTC).isoformat(timespec="seconds")},
        )
        return await self.get(guild_id)


class ClosedDmRepository:
    """Users whose DMs refused the bot, and when that was last seen."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def mark_closed(self, user_id: int, when: float | None = None) -> None:
        """Remember that a DM to ``user_id`` failed."""
        await self._db.execute(
            "INSERT INTO closed_dms (user_id, noted_at) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET noted_at = excluded.noted_at",
            (user_id, time.time() if when is None else when),
        )

    async def mark_open(self, user_id: int) -> None:
        """Forget a failure once a DM went through."""
        await self._db.execute("DELETE FROM closed_dms WHERE user_id = ?", (user_id,))

    async def closed_since(self, user_id: int) -> float | None:
        """When the user's DMs were last seen closed, or ``None``."""
        row = await self._db.fetchone("SELECT noted_at FROM closed_dms WHERE user_id = ?",
                                      (user_id,))
        return None if row is None else float(row[0])
