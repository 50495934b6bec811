"""A player's page on a server, ``/s/{slug}/players/{user_id}``: their figures and
rating chart per game, their latest matches (each linking to its replay) and their
tournaments; or, if they hid their history, only that they did."""

from __future__ import annotations

from aiohttp import web

from bot.matches.results import ordinal, place_label
from bot.tournaments.terms import FORMAT_WORDS, STATUS_WORDS
from bot.web.charts import line_chart
from bot.web.render import page
from bot.web.site import guild_of, int_part, services
from bot.web.words import game_titles

ROUTES = web.RouteTableDef()

HISTORY_SHOWN = 25
"""The player's latest matches listed."""
CHART_FROM = 2
"""Rated matches a game needs before its rating chart is drawn (one is a dot)."""


@ROUTES.get("/s/{slug}/players/{user_id}")
async def player(request: web.Request) -> web.StreamResponse:
    """The player's page (404 for someone who never played on the server)."""
    guild_id = await guild_of(request)
    user_id = int_part(request, "user_id", lowest=1)
    found = services(request)
    name = await found.store.web.player_name(guild_id, user_id)
    if name is None:
        raise web.HTTPNotFound()
    if await found.stats.history_hidden(user_id):
        return page(request, "player.html", name=name, hidden=True)
    reports = await found.stats.reports(guild_id, user_id)
    history = await found.stats.history(guild_id, user_id, limit=HISTORY_SHOWN)
    entered = await found.store.tournaments.of_player(guild_id, user_id)
    return page(
        request, "player.html", name=name, hidden=False, titles=game_titles(),
        reports=[(report, line_chart(report.ordinals) if len(report.ordinals) >= CHART_FROM
                  else None) for report in reports],
        history=history,
        places={r.match_id: place_label(r.place, [r.place, *(p for *_, p in r.opponents)])
                for r in history},
        tournaments=entered, formats=FORMAT_WORDS, statuses=STATUS_WORDS, ordinal=ordinal)
