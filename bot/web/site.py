"""What every page handler shares: the store on the application, the services built
over it, and the server (guild) a ``{slug}`` path part names."""

from __future__ import annotations

import re
from dataclasses import dataclass

from aiohttp import web

from bot.clock import Clock, SystemClock
from bot.i18n import speak
from bot.stats.service import StatsService
from storage import Store

STORE: web.AppKey[Store] = web.AppKey("store", Store)
"""The store the pages read (opened read-only by ``croupier web``)."""
CLOCK: web.AppKey[Clock] = web.AppKey("clock", Clock)
"""The clock the pages read the time from (a fake one in tests)."""

SLUG = re.compile(r"[A-Za-z0-9_-]{8,64}")
"""What a slug may look like (``secrets.token_urlsafe``'s alphabet); anything else is
refused before the store is asked."""


@dataclass(frozen=True)
class Services:
    """The read-side services a page may use, all over the application's store."""

    store: Store
    stats: StatsService
    clock: Clock


SERVICES: web.AppKey[Services] = web.AppKey("services", Services)


def make_services(store: Store, clock: Clock | None = None) -> Services:
    """The services over ``store`` (built once, as the application is)."""
    return Services(store=store, stats=StatsService(store), clock=clock or SystemClock())


def services(request: web.Request) -> Services:
    """The services over the application's store."""
    return request.app[SERVICES]


async def guild_of(request: web.Request) -> int:
    """The guild id of the server whose pages the ``{slug}`` path part names; raises
    ``HTTPNotFound`` for a malformed or unknown slug, or a server whose web is off.
    From here on the request speaks the server's language (its ``/config language``;
    English when it chose none), its error pages too."""
    slug = request.match_info.get("slug", "")
    if not SLUG.fullmatch(slug):
        raise web.HTTPNotFound()
    store = request.app[STORE]
    guild_id = await store.web.guild_of_slug(slug)
    if guild_id is None:
        raise web.HTTPNotFound()
    speak((await store.settings.get(guild_id)).language)
    return guild_id


def int_part(request: web.Request, name: str, *, lowest: int = 0,
             highest: int = 2**63 - 1) -> int:
    """A path part that must be a whole number in ``[lowest, highest]`` (ids fit
    SQLite's and PostgreSQL's 64 bits); anything else is ``HTTPNotFound``."""
    text = request.match_info.get(name, "")
    if not text.isascii() or not text.isdigit() or len(text) > 19:
        raise web.HTTPNotFound()
    value = int(text)
    if not lowest <= value <= highest:
        raise web.HTTPNotFound()
    return value


def query_int(request: web.Request, name: str, *, default: int, lowest: int,
              highest: int) -> int:
    """A query parameter that must be a whole number in ``[lowest, highest]``
    (``default`` when absent); anything else, or the parameter given twice, is
    ``HTTPBadRequest``."""
    given = request.query.getall(name, [])
    if not given:
        return default
    text = given[0]
    if len(given) > 1 or not text.isascii() or not text.isdigit() or len(text) > 9:
        raise web.HTTPBadRequest()
    value = int(text)
    if not lowest <= value <= highest:
        raise web.HTTPBadRequest()
    return value
