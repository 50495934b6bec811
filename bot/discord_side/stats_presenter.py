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
from bot.pictures.chart import render_rating_chart
from bot.stats.service import GameReport, HeadToHead, LeaderboardPage
from bot.stats.terms import NOBODY_RATED, RATING_MEANS, RATING_NOTE
from rules.core import fill_names
from rules.registry import games
from rules.words import ordinal
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
        return "draw"
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
    """The tournaments line of /stats: how many entered and won, and the latest three.

    >>> print(tournament_badge([TournamentEntry(3, "Friday", "chess", "finished", 1),
    ...                         TournamentEntry(2, "Open", "chess", "running", None)]))
    🏆 2 entered · 1 won
    #3 Friday (chess): 1st
    #2 Open (chess): under way
    """
    if not entries:
        return None
    won = sum(entry.final_rank == 1 for entry in entries)
    lines = [f"🏆 {len(entries)} entered · {won} won"]
    for entry in entries[:3]:
        if entry.final_rank is not None:
            how = ordinal(entry.final_rank)
        else:
            how = {"cancelled": "cancelled", "finished": "finished"}.get(entry.status,
                                                                         "under way")
        lines.append(f"#{entry.id} {shown(entry.name)} ({_title(entry.game)}): {how}")
    return "\n".join(lines)


def stats_parts(name: str, reports: Sequence[GameReport], *,
                versus: tuple[str, HeadToHead] | None = None,
                tournaments: Sequence[TournamentEntry] = ()) -> dict[str, Any]:
    """The /stats reply: one field per game, the tournaments entered, a head-to-head
    line, a chart."""
    pictured, name = name, shown(name)
    badge = tournament_badge(tournaments)
    if not reports and badge is None:
        return {"content": f"**{name}** has not finished a match here yet"
                           " — nothing to show.", "embed": None}
    embed = discord.Embed(title=f"📊 {name}", colour=COLOUR)
    if badge is not None:
        embed.add_field(name="Tournaments", value=badge, inline=False)
    files = []
    for report in reports[:10]:
        record = report.record
        lines = [f"**{record.played}** played · {record.won} W · {record.lost} L · "
                 f"{record.drawn} D",
                 f"Win rate {record.win_rate:.0%} · streak {record.streak} "
                 f"(best {record.best_streak})"]
        if report.rating is not None:
            rank = f" · rank **{report.rank}** of {report.rated_players}" if report.rank else ""
            lines.append(f"Rating **{report.rating.ordinal:.1f}**{rank}")
        else:
            lines.append("Not rated yet")
        if record.vs_computer:
            lines.append(f"{record.vs_computer} vs the computer (unrated)")
        lines.append(f"Last played {_date(record.last_played)}")
        embed.add_field(name=_title(record.game), value="\n".join(lines), inline=True)
    if versus is not None:
        other, h2h = versus
        embed.add_field(name=f"Against {shown(other)}", value=(
            f"{h2h.matches} matches together: ahead {h2h.ahead}, behind {h2h.behind}, "
            f"level {h2h.level}" if h2h.matches else "They have not played together here."),
            inline=False)
    charted = next((r for r in reports if len(r.ordinals) >= CHART_AFTER), None)
    if charted is not None:
        filename = f"rating-{charted.record.game}.png"
        title = f"{pictured} — {_title(charted.record.game)}"
        chart = render_rating_chart(charted.ordinals, title=title,
                                    subtitle="rating after each rated match")
        files.append(discord.File(io.BytesIO(chart), filename=filename))
        embed.set_image(url=f"attachment://{filename}")
    embed.set_footer(text=RATING_NOTE)
    return {"content": None, "embed": embed, "attachments": files}


def leaderboard_parts(page: LeaderboardPage, buttons: Sequence[discord.ui.Item[Any]] = ()
                      ) -> dict[str, Any]:
    """A page of the leaderboard, with paging buttons."""
    embed = discord.Embed(title=f"🏆 {_title(page.game)} leaderboard", colour=COLOUR)
    if not page.rows:
        embed.description = NOBODY_RATED
    else:
        lines = []
        for rank, row in enumerate(page.rows, start=page.first_rank):
            medal = MEDALS.get(rank, f"`#{rank:>3}`")
            lines.append(f"{medal} **{shown(row.name)}** — "
                         f"{row.ordinal:.1f} ({row.games} rated)")
        embed.description = "\n".join(lines)
    embed.set_footer(text=f"Page {page.page} of {page.pages} · {page.total} rated players · "
                          f"rating = {RATING_MEANS}")
    view = discord.ui.View(timeout=None)
    for item in buttons:
        view.add_item(item)
    return {"embed": embed, "view": view if buttons else None}


def history_parts(name: str, results: Sequence[PlayerResult]) -> dict[str, Any]:
    """A player's latest matches."""
    name = shown(name)
    if not results:
        return {"content": f"**{name}** has no finished matches here yet.", "embed": None}
    lines = []
    for result in results:
        others = ", ".join(shown(n) for _, n, _ in result.opponents) or "—"
        change = ("" if result.change is None
                  else f" · {'+' if result.change >= 0 else ''}{result.change:.1f}")
        lines.append(f"`#{result.match_id}` {_date(result.finished_at)} **{_title(result.game)}**"
                     f" · {_place(result.place, result)}{change}\n vs {others}")
    embed = discord.Embed(title=f"🕘 {name} — latest matches", colour=COLOUR,
                          description="\n".join(lines))
    embed.set_footer(text="/match id shows one match. " + RATING_NOTE)
    return {"content": None, "embed": embed}


def match_parts(summary: MatchSummary) -> dict[str, Any]:
    """One match: seats, result, length and, for games without hidden hands, its log."""
    info = games().get(summary.game)
    embed = discord.Embed(title=f"Match #{summary.id} — {_title(summary.game)}", colour=COLOUR)
    seats = []
    for _seat, _, name, computer, place, score in sorted(
            summary.seats, key=lambda s: (s[4] is None, s[4] or 0, s[0])):
        robot = " 🤖" if computer else ""
        placed = "" if place is None else f"{_place(place)} "
        points = "" if score is None else f" — {score}"
        seats.append(f"{placed}{shown(name)}{robot}{points}")
    embed.add_field(name="Players", value="\n".join(seats) or "—", inline=False)
    # A stored reason names seats as {s1} (older ones said "player 2"): named here.
    names = [shown(seat[2]) for seat in sorted(summary.seats)]
    outcome = fill_names(summary.reason, names) if summary.reason else summary.status
    embed.add_field(name="Result", value=outcome, inline=True)
    embed.add_field(name="Played", value=f"{_date(summary.started_at)} · "
                                         f"{len(summary.choices)} choices", inline=True)
    if info is not None and not info.has_secrets and summary.choices:
        names = {s[0]: s[2] for s in summary.seats}
        log = " ".join(f"{names.get(c.seat, c.seat)[:1]}:{c.choice}" for c in summary.choices)
        embed.add_field(name="Moves", value=log, inline=False)
    elif summary.choices:
        embed.add_field(name="Moves", value="Not shown: this game has hidden hands.",
                        inline=False)
    return {"embed": embed}
