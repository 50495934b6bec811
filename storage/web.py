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


@dataclass(frozen=True)
class TournamentLine:
    """A tournament as a server's index lists it."""

    id: int
    name: str
    game: str
    format: str
    status: str
    round: int
    created_at: str
    finished_at: str | None


@dataclass(frozen=True)
class SeatLine:
    """One seat of a finished match: who sat there and where they finished."""

    seat: int
    user_id: int | None
    name: str
    computer: bool
    place: int


@dataclass(frozen=True)
class FinishedMatch:
    """A finished match as a server's index lists it."""

    id: int
    game: str
    finished_at: str
    seats: tuple[SeatLine, ...]


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


    # -- what the pages list ------------------------------------------------------------
    async def tournaments(self, guild_id: int, limit: int) -> list[TournamentLine]:
        """A server's newest ``limit`` tournaments, newest first."""
        rows = await self._db.fetchall(
            "SELECT id, name, game, format, status, round, created_at, finished_at"
            " FROM tournaments WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
            (guild_id, limit))
        return [TournamentLine(int(r["id"]), r["name"], r["game"], r["format"], r["status"],
                               int(r["round"]), r["created_at"], r["finished_at"])
                for r in rows]

    async def finished_matches(self, guild_id: int, limit: int) -> list[FinishedMatch]:
        """A server's ``limit`` matches finished last, newest first, with their seats."""
        rows = await self._db.fetchall(
            "SELECT m.id, m.game, r.finished_at FROM results r"
            " JOIN matches m ON m.id = r.match_id"
            " WHERE m.guild_id = ? AND m.status = 'finished'"
            " ORDER BY r.match_id DESC LIMIT ?", (guild_id, limit))
        if not rows:
            return []
        ids = [int(row["id"]) for row in rows]
        seats = await self._db.fetchall(
            "SELECT rs.match_id, rs.seat, rs.user_id, rs.is_bot, rs.place, ms.name"
            " FROM result_seats rs JOIN match_seats ms ON ms.match_id = rs.match_id"
            " AND ms.seat = rs.seat"
            f" WHERE rs.match_id IN ({', '.join('?' * len(ids))})"
            " ORDER BY rs.match_id, rs.place, rs.seat", tuple(ids))
        by_match: dict[int, list[SeatLine]] = {}
        for seat in seats:
            by_match.setdefault(int(seat["match_id"]), []).append(SeatLine(
                int(seat["seat"]), seat["user_id"], seat["name"], bool(seat["is_bot"]),
                int(seat["place"])))
        return [FinishedMatch(int(row["id"]), row["game"], row["finished_at"],
                              tuple(by_match.get(int(row["id"]), ()))) for row in rows]

    async def rated_games(self, guild_id: int) -> dict[str, int]:
        """The games with a leaderboard on the server: how many players each rates."""
        rows = await self._db.fetchall(
            "SELECT game, COUNT(*) AS n FROM ratings WHERE guild_id = ? GROUP BY game"
            " ORDER BY game", (guild_id,))
        return {row["game"]: int(row["n"]) for row in rows}

    async def player_name(self, guild_id: int, user_id: int) -> str | None:
        """The name of someone who finished a match or has a rating on the server
        (the name they were last seen under), else ``None``: nobody there."""
        row = await self._db.fetchone(
            "SELECT p.name FROM players p WHERE p.user_id = ? AND (EXISTS ("
            "SELECT 1 FROM result_seats rs JOIN matches m ON m.id = rs.match_id"
            " WHERE rs.user_id = p.user_id AND m.guild_id = ?) OR EXISTS ("
            "SELECT 1 FROM ratings r WHERE r.user_id = p.user_id AND r.guild_id = ?))",
            (user_id, guild_id, guild_id))
        return None if row is None else row["name"]


def _stamp() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
