"""Reading results and ratings back: a player's matches, the leaderboard, one
match's summary, and leaderboard resets.

Every query that a command runs on a busy server reads an index: the
leaderboard and ranks come from ``ratings_leaderboard`` (guild, game, ordinal),
a player's matches from ``result_seats_by_user`` and ``rating_changes_by_player``.
Matches finished before a leaderboard reset of their game no longer count.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from storage.models import ChoiceRow, MatchSummary, PlayerResult, RatingRow

if TYPE_CHECKING:
    from storage.db import Database


class StatsRepository:
    """Queries over results and ratings."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def player_results(self, guild_id: int | None, user_id: int,
                             game: str | None = None, *, limit: int | None = None,
                             newest_first: bool = False) -> list[PlayerResult]:
        """A player's finished matches on a server (``None``: the local table), in
        the order they finished (or newest first), after any reset of the game."""
        where = ["rs.user_id = ?", "m.guild_id IS ?"]
        params: list[object] = [user_id, guild_id]
        if game is not None:
            where.append("m.game = ?")
            params.append(game)
        order = "DESC" if newest_first else "ASC"
        sql = (
            "SELECT r.match_id AS n, m.id, m.game, r.finished_at, rs.seat, rs.place,"
            " rc.ordinal_before, rc.ordinal_after"
            " FROM result_seats rs JOIN results r ON r.match_id = rs.match_id"
            " JOIN matches m ON m.id = rs.match_id"
            " LEFT JOIN rating_changes rc ON rc.match_id = rs.match_id AND rc.user_id = rs.user_id"
            " LEFT JOIN leaderboard_resets lr ON lr.guild_id = m.guild_id AND lr.game = m.game"
            f" WHERE {' AND '.join(where)} AND (lr.reset_at IS NULL OR r.finished_at > lr.reset_at)"
            f" ORDER BY r.match_id {order}" + (" LIMIT ?" if limit else ""))
        if limit:
            params.append(limit)
        rows = await self._db.fetchall(sql, tuple(params))
        if not rows:
            return []
        ids = [row["id"] for row in rows]
        tables = await self._db.fetchall(
            "SELECT rs.match_id, rs.seat, rs.user_id, rs.is_bot, rs.place, ms.name"
            " FROM result_seats rs JOIN match_seats ms ON ms.match_id = rs.match_id"
            " AND ms.seat = rs.seat"
            f" WHERE rs.match_id IN ({', '.join('?' * len(ids))})", tuple(ids))
        by_match: dict[int, list[tuple[int, int | None, bool, int, str]]] = {}
        for t in tables:
            by_match.setdefault(t["match_id"], []).append(
                (t["seat"], t["user_id"], bool(t["is_bot"]), t["place"], t["name"]))
        results = []
        for row in rows:
            table = sorted(by_match.get(row["id"], []))
            before, after = row["ordinal_before"], row["ordinal_after"]
            results.append(PlayerResult(
                match_id=row["id"], game=row["game"], finished_at=row["finished_at"],
                seat=row["seat"], place=row["place"], seats=len(table),
                firsts=sum(1 for t in table if t[3] == 1),
                rated=after is not None, vs_computer=any(t[2] for t in table),
                opponents=tuple((t[1], t[4], t[3]) for t in table if t[0] != row["seat"]),
                change=None if after is None else after - before, ordinal_after=after))
        return results

    async def rating(self, guild_id: int, game: str, user_id: int) -> RatingRow | None:
        """A player's current rating, if they have one."""
        row = await self._db.fetchone(
            "SELECT r.*, COALESCE(p.name, '?') AS name FROM ratings r"
            " LEFT JOIN players p ON p.user_id = r.user_id"
            " WHERE r.guild_id = ? AND r.game = ? AND r.user_id = ?", (guild_id, game, user_id))
        return None if row is None else _rating(row)

    async def rank(self, guild_id: int, game: str, ordinal: float) -> int:
        """1 + the number of players rated above ``ordinal``."""
        row = await self._db.fetchone(
            "SELECT COUNT(*) AS above FROM ratings WHERE guild_id = ? AND game = ?"
            " AND ordinal > ?", (guild_id, game, ordinal))
        return 1 + (row["above"] if row else 0)

    async def rated_players(self, guild_id: int, game: str) -> int:
        """How many players have a rating in this game on this server."""
        row = await self._db.fetchone(
            "SELECT COUNT(*) AS n FROM ratings WHERE guild_id = ? AND game = ?",
            (guild_id, game))
        return row["n"] if row else 0

    async def leaderboard(self, guild_id: int, game: str, *, offset: int = 0,
                          limit: int = 10) -> list[RatingRow]:
        """One page of the leaderboard, best first (ties: the lower user id first)."""
        rows = await self._db.fetchall(
            "SELECT r.*, COALESCE(p.name, '?') AS name FROM ratings r"
            " LEFT JOIN players p ON p.user_id = r.user_id"
            " WHERE r.guild_id = ? AND r.game = ?"
            " ORDER BY r.ordinal DESC, r.user_id LIMIT ? OFFSET ?",
            (guild_id, game, limit, offset))
        return [_rating(row) for row in rows]

    async def games_played(self, guild_id: int | None, user_id: int) -> list[str]:
        """The games a player has finished matches of on a server."""
        rows = await self._db.fetchall(
            "SELECT DISTINCT m.game FROM result_seats rs JOIN matches m ON m.id = rs.match_id"
            " WHERE rs.user_id = ? AND m.guild_id IS ? ORDER BY m.game", (user_id, guild_id))
        return [row["game"] for row in rows]

    async def summary(self, match_id: int) -> MatchSummary | None:
        """A match's seats, result, times and choice log."""
        match = await self._db.fetchone(
            "SELECT m.*, r.reason FROM matches m LEFT JOIN results r ON r.match_id = m.id"
            " WHERE m.id = ?", (match_id,))
        if match is None:
            return None
        seats = await self._db.fetchall(
            "SELECT ms.seat, ms.user_id, ms.name, ms.is_bot, rs.place, rs.score"
            " FROM match_seats ms LEFT JOIN result_seats rs ON rs.match_id = ms.match_id"
            " AND rs.seat = ms.seat WHERE ms.match_id = ? ORDER BY ms.seat", (match_id,))
        choices = await self._db.fetchall(
            "SELECT seq, seat, choice, source, step, interaction_id FROM match_choices"
            " WHERE match_id = ? ORDER BY seq", (match_id,))
        return MatchSummary(
            id=match["id"], game=match["game"], guild_id=match["guild_id"],
            status=match["status"], created_at=match["created_at"],
            started_at=match["started_at"], finished_at=match["finished_at"],
            reason=match["reason"],
            seats=tuple((s["seat"], s["user_id"], s["name"], bool(s["is_bot"]), s["place"],
                         s["score"]) for s in seats),
            choices=tuple(ChoiceRow(c["seq"], c["seat"], c["choice"], c["source"], c["step"],
                                    c["interaction_id"]) for c in choices))

    async def reset(self, guild_id: int, game: str, by_user: int) -> int:
        """Clear a game's leaderboard on a server: ratings go, and matches finished
        so far stop counting in stats. Returns how many ratings were cleared."""
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        return await self._db.write(_ResetLeaderboard(guild_id, game, by_user, stamp))


@dataclass(frozen=True, slots=True)
class _ResetLeaderboard:
    """Clear a game's ratings on a server and note when; returns how many went."""

    guild_id: int
    game: str
    by_user: int
    stamp: str

    def __call__(self, conn: sqlite3.Connection) -> int:
        cleared = conn.execute("DELETE FROM ratings WHERE guild_id = ? AND game = ?",
                               (self.guild_id, self.game)).rowcount
        conn.execute(
            "INSERT INTO leaderboard_resets (guild_id, game, reset_at, by_user)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, game) DO UPDATE SET"
            " reset_at = excluded.reset_at, by_user = excluded.by_user",
            (self.guild_id, self.game, self.stamp, self.by_user))
        return cleared


def _rating(row: sqlite3.Row) -> RatingRow:
    return RatingRow(user_id=row["user_id"], name=row["name"], mu=row["mu"],
                     sigma=row["sigma"], ordinal=row["ordinal"], games=row["games"])
