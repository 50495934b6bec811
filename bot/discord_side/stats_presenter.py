"""How figures look in Discord: /stats, /leaderboard, /history and /match.

Embeds keep to short lines and inline fields so they read on a phone. A
rating chart is attached to /stats for a game with at least five rated matches.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.games.presenter import COLOUR, MEDALS, shown
from bot.i18n import number, say, tr, trn
from bot.matches.results import ordinal, read_reason, reason_said
from bot.pictures.chart import render_rating_chart
from bot.stats.service import GameReport, HeadToHead, LeaderboardPage
from bot.stats.terms import NOBODY_RATED, RATING_MEANS, RATING_NOTE
from rules.registry import games
from storage.models import MatchSummary, PlayerResult

CHART_AFTER = 5
"""Rated matches needed before /stats draws the rating chart."""


def _title(game: str) -> str:
    info = games().get(game)
    return info.title if info else game


def _date(stamp: str | None) -> str:
    return (stamp or "—")[:10]


def _place(place: int, result: PlayerResult | None = None) -> str:
    if result is not None and result.drawn:
        return tr("stats.place.draw")
    return f"{MEDALS.get(place, '')} #{place}".strip()


@dataclass(frozen=True)
class TournamentEntry:
    """One tournament someone entered, as /stats shows it."""

    id: int
    name: str
    game: str
    status: str
    final_rank: int | None


def tournament_badge(entries: Sequence[TournamentEntry]) -> str | None:
    """The tournaments line of /stats: how many entered and won, and the latest three
    (in the locale spoken).

    >>> print(tournament_badge([TournamentEntry(3, "Friday", "chess", "finished", 1),
    ...                         TournamentEntry(2, "Open", "chess", "running", None)]))
    🏆 2 entered · 1 won
    #3 Friday (chess): 1st
    #2 Open (chess): under way
    """
    if not entries:
        return None
    won = sum(entry.final_rank == 1 for entry in entries)
    lines = [tr("stats.tournaments.badge", entered=len(entries), won=won)]
    for entry in entries[:3]:
        if entry.final_rank is not None:
            how = ordinal(entry.final_rank)
        elif entry.status == "cancelled":
            how = tr("stats.tournaments.cancelled")
        elif entry.status == "finished":
            how = tr("stats.tournaments.finished")
        else:
            how = tr("stats.tournaments.under_way")
        lines.append(tr("stats.tournaments.line", id=entry.id, name=shown(entry.name),
                        game=_title(entry.game), how=how))
    return "\n".join(lines)


def stats_parts(name: str, reports: Sequence[GameReport], *,
                versus: tuple[str, HeadToHead] | None = None,
                tournaments: Sequence[TournamentEntry] = ()) -> dict[str, Any]:
    """The /stats reply in the locale spoken: one field per game, the tournaments
    entered, a head-to-head line, a chart."""
    pictured, name = name, shown(name)
    badge = tournament_badge(tournaments)
    if not reports and badge is None:
        return {"content": tr("stats.nothing", name=name), "embed": None}
    embed = discord.Embed(title=f"📊 {name}", colour=COLOUR)
    if badge is not None:
        embed.add_field(name=tr("stats.tournaments"), value=badge, inline=False)
    files = []
    for report in reports[:10]:
        record = report.record
        lines = [tr("stats.record", played=record.played, won=record.won, lost=record.lost,
                    drawn=record.drawn),
                 tr("stats.win_rate", rate=number(record.win_rate * 100, None, digits=0),
                    streak=record.streak, best=record.best_streak)]
        if report.rating is not None:
            rating = number(report.rating.ordinal, None, digits=1)
            lines.append(tr("stats.rating_rank", rating=rating, rank=report.rank,
                            of=report.rated_players) if report.rank
                         else tr("stats.rating", rating=rating))
        else:
            lines.append(tr("stats.not_rated"))
        if record.vs_computer:
            lines.append(tr("stats.vs_computer", matches=record.vs_computer))
        lines.append(tr("stats.last_played", date=_date(record.last_played)))
        embed.add_field(name=_title(record.game), value="\n".join(lines), inline=True)
    if versus is not None:
        other, h2h = versus
        embed.add_field(name=tr("stats.against", name=shown(other)), value=(
            trn("stats.h2h", h2h.matches, ahead=h2h.ahead, behind=h2h.behind, level=h2h.level)
            if h2h.matches else tr("stats.h2h_none")), inline=False)
    charted = next((r for r in reports if len(r.ordinals) >= CHART_AFTER), None)
    if charted is not None:
        filename = f"rating-{charted.record.game}.png"
        title = f"{pictured} — {_title(charted.record.game)}"
        chart = render_rating_chart(charted.ordinals, title=title,
                                    subtitle=tr("stats.chart_subtitle"))
        files.append(discord.File(io.BytesIO(chart), filename=filename))
        embed.set_image(url=f"attachment://{filename}")
    embed.set_footer(text=say(RATING_NOTE))
    return {"content": None, "embed": embed, "attachments": files}


def leaderboard_parts(page: LeaderboardPage, buttons: Sequence[discord.ui.Item[Any]] = ()
                      ) -> dict[str, Any]:
    """A page of the leaderboard, with paging buttons, in the locale spoken."""
    embed = discord.Embed(title=tr("stats.board.title", game=_title(page.game)), colour=COLOUR)
    if not page.rows:
        embed.description = say(NOBODY_RATED)
    else:
        lines = []
        for rank, row in enumerate(page.rows, start=page.first_rank):
            medal = MEDALS.get(rank, f"`#{rank:>3}`")
            lines.append(tr("stats.board.line", medal=medal, name=shown(row.name),
                            rating=number(row.ordinal, None, digits=1), games=row.games))
        embed.description = "\n".join(lines)
    embed.set_footer(text=tr("stats.board.footer", page=page.page, pages=page.pages,
                             total=page.total, means=say(RATING_MEANS)))
    view = discord.ui.View(timeout=None)
    for item in buttons:
        view.add_item(item)
    return {"embed": embed, "view": view if buttons else None}


def history_parts(name: str, results: Sequence[PlayerResult]) -> dict[str, Any]:
    """A player's latest matches, in the locale spoken."""
    name = shown(name)
    if not results:
        return {"content": tr("stats.history.none", name=name), "embed": None}
    lines = []
    for result in results:
        others = ", ".join(shown(n) for _, n, _ in result.opponents) or "—"
        change = ("" if result.change is None else
                  f" · {'+' if result.change >= 0 else ''}"
                  f"{number(result.change, None, digits=1)}")
        lines.append(tr("stats.history.line", id=result.match_id,
                        date=_date(result.finished_at), game=_title(result.game),
                        place=_place(result.place, result), change=change, others=others))
    embed = discord.Embed(title=tr("stats.history.title", name=name), colour=COLOUR,
                          description="\n".join(lines))
    embed.set_footer(text=tr("stats.history.footer", note=say(RATING_NOTE)))
    return {"content": None, "embed": embed}


def match_parts(summary: MatchSummary) -> dict[str, Any]:
    """One match: seats, result, length and, for games without hidden hands, its log."""
    info = games().get(summary.game)
    embed = discord.Embed(title=tr("stats.match.title", id=summary.id,
                                   game=_title(summary.game)), colour=COLOUR)
    seats = []
    for _seat, _, name, computer, place, score in sorted(
            summary.seats, key=lambda s: (s[4] is None, s[4] or 0, s[0])):
        robot = " 🤖" if computer else ""
        placed = "" if place is None else f"{_place(place)} "
        points = "" if score is None else f" — {score}"
        seats.append(f"{placed}{shown(name)}{robot}{points}")
    embed.add_field(name=tr("table.players"), value="\n".join(seats) or "—", inline=False)
    # A stored reason is a phrase, or text naming seats as {s1} (older ones said
    # "player 2"): named here.
    names = [shown(seat[2]) for seat in sorted(summary.seats)]
    outcome = (reason_said(read_reason(summary.reason), names) if summary.reason
               else _status(summary.status))
    embed.add_field(name=tr("table.result"), value=outcome, inline=True)
    embed.add_field(name=tr("stats.match.played"),
                    value=trn("stats.match.when", len(summary.choices),
                              date=_date(summary.started_at)), inline=True)
    if info is not None and not info.has_secrets and summary.choices:
        names = {s[0]: s[2] for s in summary.seats}
        log = " ".join(f"{names.get(c.seat, c.seat)[:1]}:{c.choice}" for c in summary.choices)
        embed.add_field(name=tr("stats.match.moves"), value=log, inline=False)
    elif summary.choices:
        embed.add_field(name=tr("stats.match.moves"), value=tr("stats.match.hidden"),
                        inline=False)
    return {"embed": embed}


def _status(status: str) -> str:
    """A match's state, for one without a result."""
    if status == "cancelled":
        return tr("stats.status.cancelled")
    if status == "abandoned":
        return tr("stats.status.abandoned")
    return status
