"""Players' figures: records, streaks, ratings and ranks, head-to-head, history,
leaderboards — worked out from the results every finished match records.

:func:`record_of` and :func:`head_to_head` are plain arithmetic over a
player's results; :class:`StatsService` fetches them and answers the commands.

A match counts as **won** for a first place not shared by every seat, **drawn**
when every seat shares first place, and **lost** otherwise (an eliminated or
lower-placed player). Streaks count consecutive wins; a draw or a loss ends one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.errors import NotAllowed
from bot.i18n import Text
from bot.matches.live import Player
from rules.registry import get_game
from storage import Store
from storage.models import MatchSummary, PlayerResult, RatingRow

LEADERBOARD_PAGE = 10


@dataclass(frozen=True)
class Record:
    """One player's record in one game.

    >>> Record("chess", 4, 3, 1, 0, 2, 2, "2026-11-21").win_rate
    0.75
    """

    game: str
    played: int
    won: int
    lost: int
    drawn: int
    streak: int
    """Wins in a row up to the latest match (0 if the latest was not a win)."""
    best_streak: int
    last_played: str | None
    rated: int = 0
    vs_computer: int = 0

    @property
    def win_rate(self) -> float:
        """Wins per match played (0 with no matches)."""
        return self.won / self.played if self.played else 0.0


def record_of(game: str, results: Sequence[PlayerResult]) -> Record:
    """A record from a player's results in one game, oldest first.

    >>> from storage.models import PlayerResult
    >>> def r(place): return PlayerResult(1, "chess", "t", 0, place, 2, 1, True, False,
    ...                                   (), None, None)
    >>> rec = record_of("chess", [r(1), r(1), r(2), r(1)])
    >>> (rec.won, rec.lost, rec.streak, rec.best_streak)
    (3, 1, 1, 2)
    """
    streak = best = 0
    for result in results:
        streak = streak + 1 if result.won else 0
        best = max(best, streak)
    return Record(
        game=game, played=len(results), won=sum(r.won for r in results),
        lost=sum(r.lost for r in results), drawn=sum(r.drawn for r in results),
        streak=streak, best_streak=best,
        last_played=results[-1].finished_at if results else None,
        rated=sum(r.rated for r in results), vs_computer=sum(r.vs_computer for r in results))


@dataclass(frozen=True)
class HeadToHead:
    """Two players' matches together: who finished ahead."""

    matches: int
    ahead: int
    behind: int
    level: int


def head_to_head(results: Sequence[PlayerResult], other: int) -> HeadToHead:
    """From one player's results, the matches shared with ``other``."""
    ahead = behind = level = 0
    for result in results:
        theirs = [place for user, _, place in result.opponents if user == other]
        if not theirs:
            continue
        if result.place < theirs[0]:
            ahead += 1
        elif result.place > theirs[0]:
            behind += 1
        else:
            level += 1
    return HeadToHead(ahead + behind + level, ahead, behind, level)


@dataclass(frozen=True)
class GameReport:
    """A player's figures in one game."""

    record: Record
    rating: RatingRow | None
    rank: int | None
    rated_players: int
    ordinals: tuple[float, ...]
    """The player's rating after each rated match, oldest first (for the chart)."""


@dataclass(frozen=True)
class LeaderboardPage:
    """One page of a game's leaderboard."""

    game: str
    rows: tuple[RatingRow, ...]
    page: int
    pages: int
    total: int

    @property
    def first_rank(self) -> int:
        """The rank of the page's first row."""
        return (self.page - 1) * LEADERBOARD_PAGE + 1


class StatsService:
    """Answers /stats, /leaderboard, /history and /match (and the local table)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def reports(self, guild_id: int | None, user_id: int,
                      game: str | None = None) -> list[GameReport]:
        """The player's figures per game (one game if named), most played first."""
        games = [get_game(game).name] if game else await self.store.stats.games_played(
            guild_id, user_id)
        reports = []
        for name in games:
            results = await self.store.stats.player_results(guild_id, user_id, name)
            if not results:
                continue
            rating = rank = None
            rated = 0
            if guild_id is not None:
                rating = await self.store.stats.rating(guild_id, name, user_id)
                rated = await self.store.stats.rated_players(guild_id, name)
                if rating is not None:
                    rank = await self.store.stats.rank(guild_id, name, rating.ordinal)
            reports.append(GameReport(
                record=record_of(name, results), rating=rating, rank=rank,
                rated_players=rated,
                ordinals=tuple(r.ordinal_after for r in results if r.ordinal_after is not None)))
        return sorted(reports, key=lambda r: -r.record.played)

    async def head_to_head(self, guild_id: int | None, user_id: int, other: int,
                           game: str | None = None) -> HeadToHead:
        """``user_id`` against ``other``."""
        name = get_game(game).name if game else None
        results = await self.store.stats.player_results(guild_id, user_id, name)
        return head_to_head(results, other)

    async def leaderboard(self, guild_id: int, game: str, page: int = 1) -> LeaderboardPage:
        """Page ``page`` (from 1) of a game's leaderboard on a server."""
        name = get_game(game).name
        total = await self.store.stats.rated_players(guild_id, name)
        pages = max(1, -(-total // LEADERBOARD_PAGE))
        page = min(max(page, 1), pages)
        rows = await self.store.stats.leaderboard(
            guild_id, name, offset=(page - 1) * LEADERBOARD_PAGE, limit=LEADERBOARD_PAGE)
        return LeaderboardPage(name, tuple(rows), page, pages, total)

    async def history(self, guild_id: int | None, user_id: int, game: str | None = None,
                      limit: int = 10) -> list[PlayerResult]:
        """The player's latest matches, newest first."""
        name = get_game(game).name if game else None
        return await self.store.stats.player_results(guild_id, user_id, name, limit=limit,
                                                     newest_first=True)

    async def match(self, match_id: int) -> MatchSummary | None:
        """A match's summary."""
        return await self.store.stats.summary(match_id)

    async def rating_histories(self, guild_id: int, game: str, user_ids: Sequence[int]
                               ) -> dict[int, tuple[float, ...]]:
        """Each player's rating after each of their rated matches of ``game`` on the
        server, oldest first (for a leaderboard's chart); those who hid their history
        are left out."""
        name = get_game(game).name
        hidden = await self.store.web.hidden_among(user_ids)
        found = {}
        for user_id in user_ids:
            if user_id in hidden:
                continue
            results = await self.store.stats.player_results(guild_id, user_id, name)
            found[user_id] = tuple(r.ordinal_after for r in results
                                   if r.ordinal_after is not None)
        return found

    async def hide_history(self, user_id: int, hidden: bool) -> None:
        """A player hides (or shows again) their own history on every server's web
        pages; their name stays wherever it is public on Discord too (leaderboards,
        brackets, tables)."""
        await self.store.web.set_hidden(user_id, hidden)

    async def history_hidden(self, user_id: int) -> bool:
        """Whether the player hid their history from the web pages."""
        return await self.store.web.is_hidden(user_id)

    async def reset(self, player: Player, guild_id: int, game: str) -> int:
        """Clear a game's leaderboard on a server (moderators only)."""
        if not player.is_moderator:
            raise NotAllowed(Text("error.reset_moderators_only"))
        return await self.store.stats.reset(guild_id, get_game(game).name, player.user_id)
