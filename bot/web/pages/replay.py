"""The replay page: a finished match of the server, step by step, as its channel saw
it (``/s/{slug}/matches/{id}?step=n``), and each step's table picture
(``/s/{slug}/matches/{id}/steps/{n}.png``)."""

from __future__ import annotations

import weakref

from aiohttp import web

from bot.web.render import page
from bot.web.replays.cache import Replays, draws_tables
from bot.web.replays.steps import Replay, described
from bot.web.site import STORE, guild_of, int_part
from storage import Store

ROUTES = web.RouteTableDef()

NEARBY = 5
"""Steps linked on either side of the one shown (besides the first and the last)."""
MAX_STEP_DIGITS = 7
"""The longest ``step`` a query may give; a longer one is refused unread."""
PICTURE_CACHE = "private, max-age=86400"
"""A step's picture never changes; it is the server's own (its address holds the slug)."""

_REPLAYS: weakref.WeakKeyDictionary[Store, Replays] = weakref.WeakKeyDictionary()
"""The replays of each store the pages read (one application a store, in practice)."""


def replays(request: web.Request) -> Replays:
    """The replays of the application's store, kept between requests."""
    store = request.app[STORE]
    kept = _REPLAYS.get(store)
    if kept is None:
        kept = _REPLAYS[store] = Replays(store)
    return kept


async def server_replay(request: web.Request) -> Replay:
    """The replay of the finished match ``{id}`` of the server ``{slug}`` names;
    ``HTTPNotFound`` for anything else (unknown, unfinished, another server's)."""
    guild_id = await guild_of(request)
    replay = await replays(request).replay(int_part(request, "id"))
    if replay is None or replay.guild_id != guild_id:
        raise web.HTTPNotFound()
    return replay


def asked_step(request: web.Request, replay: Replay) -> int:
    """The ``step`` of the query (the first step if none): a bad one is a 400, a step
    the match does not have a 404."""
    text = request.query.get("step")
    if text is None:
        return 0
    if not text.isascii() or not text.isdigit() or len(text) > MAX_STEP_DIGITS:
        raise web.HTTPBadRequest()
    number = int(text)
    if number > replay.last:
        raise web.HTTPNotFound()
    return number


def nearby(number: int, last: int) -> list[int]:
    """The steps the page links to by number: the first, the last and those near
    ``number``, in order.

    >>> nearby(0, 3)
    [0, 1, 2, 3]
    >>> nearby(50, 100)
    [0, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 100]
    """
    return sorted({0, last, *range(max(0, number - NEARBY), min(last, number + NEARBY) + 1)})


@ROUTES.get("/s/{slug}/matches/{id}")
async def replay_page(request: web.Request) -> web.Response:
    """One step of a finished match: its table, the narration and the way to the others."""
    replay = await server_replay(request)
    number = asked_step(request, replay)
    slug = request.match_info["slug"]
    return page(request, "replay.html", replay=replay, number=number,
                step=replay.steps[number], narration=replay.narration(number),
                description=described(replay, number), has_picture=draws_tables(replay.game),
                nearby=nearby(number, replay.last),
                base=f"/s/{slug}/matches/{replay.match_id}")


@ROUTES.get("/s/{slug}/matches/{id}/steps/{n}.png")
async def step_picture(request: web.Request) -> web.Response:
    """Step ``{n}``'s public table picture, as the Discord table showed it."""
    replay = await server_replay(request)
    number = int_part(request, "n", highest=replay.last)
    picture = await replays(request).picture(replay, number)
    if picture is None:
        raise web.HTTPNotFound()
    return web.Response(body=picture, content_type="image/png",
                        headers={"Cache-Control": PICTURE_CACHE})
