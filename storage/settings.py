"""Per-guild settings and the known-closed DM list."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from storage.models import EVERY_GAME, GameTiming, GuildSettings

if TYPE_CHECKING:
    from storage.db import Database


class SettingsRepository:
    """Server settings (``/config``): one row per server, and deadline times per
    game; defaults when absent."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, guild_id: int) -> GuildSettings:
        """The server's settings (defaults if it never changed any)."""
        row = await self._db.fetchone("SELECT * FROM guild_settings WHERE guild_id = ?",
                                      (guild_id,))
        timings = await self._db.fetchall(
            "SELECT game, turn_seconds, warn_seconds FROM guild_game_settings"
            " WHERE guild_id = ? ORDER BY game", (guild_id,))
        found = tuple(GameTiming(t["game"], t["turn_seconds"], t["warn_seconds"])
                      for t in timings)
        if row is None:
            return GuildSettings(guild_id=guild_id, timings=found)
        return GuildSettings(guild_id=guild_id, organiser_role_id=row["organiser_role_id"],
                             ante=bool(row["ante"]),
                             collections_public=bool(row["collections_public"]),
                             daily_pack=bool(row["daily_pack"]), win_packs=bool(row["win_packs"]),
                             language=row["language"], timings=found)

    async def language(self, guild_id: int) -> str | None:
        """The server's chosen language (a locale code), or ``None``: one column, read
        for every table a channel is shown."""
        row = await self._db.fetchone("SELECT language FROM guild_settings WHERE guild_id = ?",
                                      (guild_id,))
        return None if row is None else row[0]

    async def timing(self, guild_id: int, game: str) -> GameTiming:
        """The deadline settings that apply to ``game`` on the server: the game's
        own, else the every-game ones, setting by setting."""
        rows = await self._db.fetchall(
            "SELECT game, turn_seconds, warn_seconds FROM guild_game_settings"
            " WHERE guild_id = ? AND game IN (?, ?)", (guild_id, game, EVERY_GAME))
        by_game = {row["game"]: row for row in rows}
        own, every = by_game.get(game), by_game.get(EVERY_GAME)

        def pick(column: str) -> int | None:
            for row in (own, every):
                if row is not None and row[column] is not None:
                    return int(row[column])
            return None

        return GameTiming(game, pick("turn_seconds"), pick("warn_seconds"))

    async def set_timing(self, guild_id: int, game: str, *, turn_seconds: int | None,
                         warn_seconds: int | None) -> GameTiming:
        """Set (or with ``None``, clear) a game's deadline settings on the server."""
        if turn_seconds is None and warn_seconds is None:
            await self._db.execute(
                "DELETE FROM guild_game_settings WHERE guild_id = ? AND game = ?",
                (guild_id, game))
        else:
            await self._db.execute(
                "INSERT INTO guild_game_settings (guild_id, game, turn_seconds, warn_seconds,"
                " updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, game) DO UPDATE"
                " SET turn_seconds = excluded.turn_seconds,"
                " warn_seconds = excluded.warn_seconds, updated_at = excluded.updated_at",
                (guild_id, game, turn_seconds, warn_seconds, _stamp()))
        return GameTiming(game, turn_seconds, warn_seconds)

    async def update(self, guild_id: int, **changes: object) -> GuildSettings:
        """Change the server-wide settings (the columns of :data:`_SERVER_COLUMNS`);
        unknown names raise ``KeyError``."""
        unknown = set(changes) - set(_SERVER_COLUMNS)
        if unknown:
            raise KeyError(f"unknown settings: {', '.join(sorted(unknown))}")
        current = await self.get(guild_id)
        values = {name: getattr(current, name) for name in _SERVER_COLUMNS} | changes
        values.update({flag: int(bool(values[flag])) for flag in _FLAGS})
        columns = ", ".join(_SERVER_COLUMNS)
        await self._db.execute(
            f"INSERT INTO guild_settings (guild_id, {columns}, updated_at)"
            f" VALUES (:guild_id, {', '.join(':' + c for c in _SERVER_COLUMNS)}, :updated_at)"
            " ON CONFLICT (guild_id) DO UPDATE SET "
            + ", ".join(f"{c} = excluded.{c}" for c in (*_SERVER_COLUMNS, "updated_at")),
            values | {"guild_id": guild_id, "updated_at": _stamp()},
        )
        return await self.get(guild_id)


def _stamp() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


_SERVER_COLUMNS = ("organiser_role_id", "ante", "collections_public", "daily_pack", "win_packs",
                   "language")
_FLAGS = ("ante", "collections_public", "daily_pack", "win_packs")


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


class ReaderLocaleRepository:
    """The locale each person reads Croupier in (their Discord client's, as their latest
    interaction carried it): a catalog locale code, never words."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def note(self, user_id: int, locale: str) -> None:
        """Remember ``user_id``'s locale."""
        await self._db.execute(
            "INSERT INTO reader_locales (user_id, locale, noted_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale,"
            " noted_at = excluded.noted_at", (user_id, locale, _stamp()))

    async def of(self, user_id: int) -> str | None:
        """``user_id``'s locale, or ``None`` if they never interacted with Croupier."""
        row = await self._db.fetchone("SELECT locale FROM reader_locales WHERE user_id = ?",
                                      (user_id,))
        return None if row is None else str(row[0])
