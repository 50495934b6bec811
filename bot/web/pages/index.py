"""A server's index page, ``/s/{slug}/``: its tournaments, leaderboards, the matches
finished last, and the card gallery's link."""

from __future__ import annotations

from aiohttp import web

from bot.tournaments.terms import FORMAT_WORDS, STATUS_WORDS
from bot.web.render import page
from bot.web.site import guild_of, services
from bot.web.words import game_titles, places

ROUTES = web.RouteTableDef()

TOURNAMENTS_SHOWN = 50
"""The newest tournaments listed (older ones stay reachable by their address)."""
MATCHES_SHOWN = 20
"""The matches finished last that are listed."""


@ROUTES.get("/s/{slug}")
async def bare(request: web.Request) -> web.StreamResponse:
    """The index without its closing slash: sent to the index (a known server only)."""
    await guild_of(request)
    raise web.HTTPFound(f"/s/{request.match_info['slug']}/")


@ROUTES.get("/s/{slug}/")
async def index(request: web.Request) -> web.StreamResponse:
    """The server's index page."""
    guild_id = await guild_of(request)
    store = services(request).store
    tournaments = await store.web.tournaments(guild_id, TOURNAMENTS_SHOWN)
    boards = await store.web.rated_games(guild_id)
    finished = await store.web.finished_matches(guild_id, MATCHES_SHOWN)
    titles = game_titles()
    return page(request, "index.html", titles=titles, tournaments=tournaments,
                formats=FORMAT_WORDS, statuses=STATUS_WORDS,
                boards=boards, leaderboard_games=list(titles), matches=finished,
                places={m.id: places(m.seats) for m in finished})
