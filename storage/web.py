"""The web companion's settings (issue 32): each server's pages (on or off, and the
slug they live under) and the players who hid their history."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from storage.engine import AnyDatabase


@dataclass(frozen=True)
class WebSite:
    """A server's web pages: whether they are on, and the slug of their address."""

    guild_id: int
    slug: str
    enabled: bool


class WebRepository:
    """Rows of ``web_sites`` and ``hidden_histories``."""

    def __init__(self, db: AnyDatabase) -> None:
        self._db = db

    async def site(self, guild_id: int) -> WebSite | None:
        """The server's pages, or ``None`` if it never turned them on."""
        row = await self._db.fetchone(
            "SELECT guild_id, slug, enabled FROM web_sites WHERE guild_id = ?", (guild_id,))
        return None if row is None else WebSite(int(row["guild_id"]), row["slug"],
                                                bool(row["enabled"]))

    async def guild_of_slug(self, slug: str) -> int | None:
        """The server whose pages are on under ``slug``, else ``None``."""
        row = await self._db.fetchone(
            "SELECT guild_id FROM web_sites WHERE slug = ? AND enabled = 1", (slug,))
        return None if row is None else int(row["guild_id"])

    async def save(self, guild_id: int, slug: str, enabled: bool) -> WebSite:
        """Set the server's slug and whether its pages are on."""
        await self._db.execute(
            "INSERT INTO web_sites (guild_id, slug, enabled, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET slug = excluded.slug,"
            " enabled = excluded.enabled, updated_at = excluded.updated_at",
            (guild_id, slug, int(enabled), _stamp()))
        return WebSite(guild_id, slug, enabled)

    async def set_hidden(self, user_id: int, hidden: bool) -> None:
        """Hide (or show again) the player's history on the web."""
        if hidden:
            await self._db.execute(
                "INSERT INTO hidden_histories (user_id, hidden_at) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO NOTHING", (user_id, _stamp()))
        else:
            await self._db.execute("DELETE FROM hidden_histories WHERE user_id = ?",
                                   (user_id,))

    async def is_hidden(self, user_id: int) -> bool:
        """Whether the player hid their history."""
        row = await self._db.fetchone(
            "SELECT 1 FROM hidden_histories WHERE user_id = ?", (user_id,))
        return row is not None

    async def hidden_among(self, user_ids: Iterable[int]) -> frozenset[int]:
        """Which of ``user_ids`` hid their history."""
        ids = sorted(set(user_ids))
        found: set[int] = set()
        for start in range(0, len(ids), 500):  # within every engine's parameter limit
            chunk = ids[start:start + 500]
            rows = await self._db.fetchall(
                "SELECT user_id FROM hidden_histories WHERE user_id IN"
                f" ({', '.join('?' * len(chunk))})", tuple(chunk))
            found.update(int(row["user_id"]) for row in rows)
        return frozenset(found)


def _stamp() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
