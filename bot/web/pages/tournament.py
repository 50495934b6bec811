"""The tournament page, ``/s/{slug}/tournaments/{id}``, and the version it polls,
``/s/{slug}/tournaments/{id}/version``.

A running tournament's page keeps itself current with ``/static/tournament.js``: it
asks the version route every :data:`POLL_SECONDS` (while the tab is shown) and, when
the version moved, fetches the page again and swaps in the parts that changed. Polling
rather than server-sent events: the web is a process of its own beside the bots,
reading the store, so nothing would tell it of a change; an event stream would poll
the store itself, once per open page, and hold a connection (and a reverse proxy's
buffer) per viewer for hours. A poll is one cheap query (counts over indexes), answered
``304`` when nothing moved, through any proxy. A tournament that is over does not poll.
Without JavaScript the page is whole; a reload shows the news.
"""

from __future__ import annotations

import asyncio
import weakref

from aiohttp import web

from bot.i18n import current
from bot.tournaments.terms import HEAD_NAMES, TIEBREAKERS, head_words
from bot.web.render import render
from bot.web.site import STORE, guild_of, int_part
from bot.web.tournament import PageCache, build_view, collecting_after, read_parts

ROUTES = web.RouteTableDef()

POLL_SECONDS = 15
"""How often a running tournament's page asks whether it changed."""

_PAGES: weakref.WeakKeyDictionary[web.Application, PageCache] = weakref.WeakKeyDictionary()
"""Each application's kept pages (beside it, not in it: an application's own state is
fixed once it serves)."""


def page_cache(app: web.Application) -> PageCache:
    """The tournament pages ``app`` keeps rendered (made when first asked for)."""
    cache = _PAGES.get(app)
    if cache is None:
        cache = _PAGES[app] = PageCache()
    return cache


async def _located(request: web.Request) -> tuple[int, str, int]:
    """The guild, slug and tournament id the path names, the id checked for shape."""
    guild_id = await guild_of(request)
    return guild_id, request.match_info["slug"], int_part(request, "id", lowest=1)


def _etag(tournament_id: int, version: str) -> str:
    # The language too: a server that changes it must not be sent 304 for the old words.
    return f'"t{tournament_id}-{version}-{current()}"'


def _not_modified(request: web.Request, etag: str) -> bool:
    return etag in {tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")}


@ROUTES.get("/s/{slug}/tournaments/{id}")
async def tournament_page(request: web.Request) -> web.StreamResponse:
    """The tournament's page: 404 unless it is this server's."""
    guild_id, slug, tournament_id = await _located(request)
    store = request.app[STORE]
    version = await store.tournaments.version(tournament_id)
    if version is None:
        raise web.HTTPNotFound()
    etag = _etag(tournament_id, version)
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    key = (guild_id, slug, tournament_id, current())

    async def make() -> str:
        tournament = await store.tournaments.get(tournament_id)
        if tournament is None or tournament.guild_id != guild_id:
            raise web.HTTPNotFound()
        with collecting_after():
            progress, games = await read_parts(store, tournament)

            def rendered() -> str:
                # Ranking 500 players and rendering their page is CPU for a while: off
                # the event loop, which goes on answering the polls meanwhile.
                view = build_view(progress, games, version)
                return render(request, "tournament.html", view=view, heads=HEAD_NAMES,
                              head_words=head_words, tiebreakers=TIEBREAKERS,
                              poll_seconds=POLL_SECONDS)

            return await asyncio.to_thread(rendered)

    # A page is kept only once its tournament was found this server's (the key holds
    # the server), so a kept one answers without reading the tournament again.
    text = await page_cache(request.app).page(key, version, make)
    if _not_modified(request, etag):
        return web.Response(status=304, headers=headers)
    return web.Response(text=text, content_type="text/html", charset="utf-8",
                        headers=headers)


@ROUTES.get("/s/{slug}/tournaments/{id}/version")
async def tournament_version(request: web.Request) -> web.StreamResponse:
    """What the page polls: ``{"version": …, "live": …}`` (``304`` when the poll's
    ``If-None-Match`` is still current)."""
    guild_id, _, tournament_id = await _located(request)
    store = request.app[STORE]
    tournament = await store.tournaments.get(tournament_id)
    version = await store.tournaments.version(tournament_id)
    if tournament is None or tournament.guild_id != guild_id or version is None:
        raise web.HTTPNotFound()
    etag = _etag(tournament_id, version)
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if _not_modified(request, etag):
        return web.Response(status=304, headers=headers)
    return web.json_response({"version": version, "live": tournament.live}, headers=headers)
