"""The card gallery: every Arcane Duel card with its picture, a search over them
(:mod:`rules.duel.query`), each card's own page, and each server's supply of it.

``/s/{slug}/cards`` takes the query parameters ``q`` (the search), ``page`` and
``part=results``; anything else, or one given twice, is a 400. A search that does not
read is the gallery again with what was wrong said above the results, status 400.
Results come :data:`PER_PAGE` at a time, so a search that matches everything shows one
page of it. ``part=results`` answers with the results alone (``cards_results.html``), for
``cards.js`` to swap in as a person types: there a search that does not read yet is a
result like any other (200, saying why), since a half-typed term is no failed request.
"""

from __future__ import annotations

from aiohttp import web

from bot.duel.collections import CollectionService
from bot.web.duel.gallery import PICTURE_H, PICTURE_W, entry, picture
from bot.web.render import page
from bot.web.site import guild_of, services
from bot.web.words import game_titles
from rules.duel import query as card_query
from rules.duel.card_ids import card_by_id
from rules.duel.cards import CardDef

ROUTES = web.RouteTableDef()

GAME = "duel"
"""The game whose cards these are (its title is the registry's)."""
PER_PAGE = 48
"""Cards on one page of results."""
PARAMETERS = frozenset({"q", "page", "part"})
"""The gallery's query parameters."""
MAX_PAGE_DIGITS = 4
PICTURE_CACHE = "public, max-age=86400"
"""A card's picture changes only with the set: browsers keep it a day, then revalidate."""

def collections(request: web.Request) -> CollectionService:
    """The collection service over the application's store (a few attributes: made
    for each request rather than kept on an application already running)."""
    found = services(request)
    return CollectionService(found.store, found.clock)


def _one(request: web.Request, name: str, default: str) -> str:
    values = request.query.getall(name, [])
    if len(values) > 1:
        raise web.HTTPBadRequest()
    return values[0] if values else default


def _page_number(text: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > MAX_PAGE_DIGITS \
            or int(text) < 1:
        raise web.HTTPBadRequest()
    return int(text)


def _card(request: web.Request) -> CardDef:
    found = card_by_id(request.match_info.get("card_id", ""))
    if found is None:
        raise web.HTTPNotFound()
    return found


def _tags(request: web.Request) -> set[str]:
    """The tags of the copies a browser holds (``If-None-Match``, a comma list)."""
    return {tag.strip().removeprefix("W/") for header in request.headers.getall(
        "If-None-Match", []) for tag in header.split(",")}


@ROUTES.get("/s/{slug}/cards")
async def gallery(request: web.Request) -> web.Response:
    """The gallery: a page of the cards the search ``q`` finds."""
    guild = await guild_of(request)
    if not set(request.query) <= PARAMETERS:
        raise web.HTTPBadRequest()
    text = _one(request, "q", "")
    number = _page_number(_one(request, "page", "1"))
    part = _one(request, "part", "")
    if part not in ("", "results"):
        raise web.HTTPBadRequest()
    template = "cards_results.html" if part else "cards.html"
    context = {"q": text, "game": game_titles()[GAME], "max_length": card_query.MAX_LENGTH,
               "max_terms": card_query.MAX_TERMS, "width": PICTURE_W, "height": PICTURE_H}
    try:
        found = card_query.search(text)
    except card_query.QueryError as error:
        return page(request, template, status=200 if part else 400, error=error, entries=[],
                    total=0, number=1, pages=1, **context)
    pages = max(1, -(-len(found) // PER_PAGE))
    if number > pages:
        raise web.HTTPNotFound()
    shown = found[(number - 1) * PER_PAGE:number * PER_PAGE]
    supply = await collections(request).supply(guild, [data.name for data in shown])
    entries = [entry(data, supply[data.name]) for data in shown]
    return page(request, template, error=None, entries=entries, total=len(found),
                number=number, pages=pages, **context)


@ROUTES.get("/s/{slug}/cards/{card_id:[a-z0-9-]+}")
async def card_page(request: web.Request) -> web.Response:
    """One card's page: its picture, its text and the server's supply of it."""
    guild = await guild_of(request)
    data = _card(request)
    if request.query:
        raise web.HTTPBadRequest()
    supply = (await collections(request).supply(guild, [data.name]))[data.name]
    return page(request, "cards_card.html", card=entry(data, supply), game=game_titles()[GAME],
                width=PICTURE_W, height=PICTURE_H)


@ROUTES.get("/s/{slug}/cards/{card_id:[a-z0-9-]+}.png")
async def card_picture(request: web.Request) -> web.Response:
    """A card's picture, with a tag so that a browser's copy is checked, not sent again."""
    await guild_of(request)
    data = _card(request)
    if request.query:
        raise web.HTTPBadRequest()
    drawn = await picture(data)
    headers = {"Cache-Control": PICTURE_CACHE, "ETag": drawn.etag}
    if drawn.etag in _tags(request):
        return web.Response(status=304, headers=headers)
    return web.Response(body=drawn.png, content_type="image/png", headers=headers)
