"""A game's leaderboard on a server, ``/s/{slug}/leaderboard/{game}?page=N``: ranks,
names, ratings, and the page's ratings as a bar chart."""

from __future__ import annotations

from aiohttp import web

from bot.i18n import tr
from bot.web.charts import MAX_SERIES, bar_chart, lines_chart
from bot.web.render import page
from bot.web.site import guild_of, query_int, services
from bot.web.words import game_titles

ROUTES = web.RouteTableDef()

MAX_PAGE = 100_000
"""The highest page number read (a higher one is a bad request, not a long count)."""


@ROUTES.get("/s/{slug}/leaderboard/{game}")
async def leaderboard(request: web.Request) -> web.StreamResponse:
    """One page of the game's leaderboard."""
    guild_id = await guild_of(request)
    titles = game_titles()
    game = request.match_info["game"]
    if game not in titles:
        raise web.HTTPNotFound()
    number = query_int(request, "page", default=1, lowest=1, highest=MAX_PAGE)
    board = await services(request).stats.leaderboard(guild_id, game, number)
    chart = bar_chart([(row.name, row.ordinal) for row in board.rows])
    top = [row for row in board.rows][:MAX_SERIES]
    histories = await services(request).stats.rating_histories(
        guild_id, game, [row.user_id for row in top])
    shown = [row for row in top if len(histories.get(row.user_id, ())) >= 2]
    over_time = lines_chart([(row.name, histories[row.user_id]) for row in shown])
    return page(request, "leaderboard.html", game=game, title=titles[game], board=board,
                chart=chart, over_time=over_time, over_time_players=shown,
                rating_means=tr("web.board.means"), rating_note=tr("web.board.note"),
                nobody_rated=tr("web.board.nobody"))
