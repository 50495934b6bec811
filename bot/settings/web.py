"""The web companion's addresses (issue 32): a server's pages, off until its moderators
turn them on (:meth:`bot.settings.service.ServerConfig.set_web`), live under an
unguessable slug they may rotate; the public link to one of them. Knows no transport."""

from __future__ import annotations

import secrets
from urllib.parse import quote

from storage import Store
from storage.web import WebSite

SLUG_BYTES = 16
"""Random bytes in a slug: 22 URL-safe characters, not to be guessed or enumerated."""


def new_slug() -> str:
    """A fresh unguessable slug."""
    return secrets.token_urlsafe(SLUG_BYTES)


def web_link(base_url: str | None, slug: str | None, *parts: str | int) -> str | None:
    """The public address of a server's page: ``base_url`` (``CROUPIER_WEB_URL``), the
    slug, then ``parts`` (each quoted as one path part); ``None`` without a base URL or
    a slug (then there is no link to give).

    >>> web_link("https://cards.example/", "AbC-12_xyzAbC-12_xyz12", "tournaments", 7)
    'https://cards.example/s/AbC-12_xyzAbC-12_xyz12/tournaments/7'
    >>> web_link("https://cards.example", "AbC-12_xyzAbC-12_xyz12")
    'https://cards.example/s/AbC-12_xyzAbC-12_xyz12/'
    >>> web_link(None, "AbC-12_xyzAbC-12_xyz12") is None, web_link("https://x", None) is None
    (True, True)
    """
    if not base_url or not slug:
        return None
    tail = "/".join(quote(str(part), safe="") for part in parts)
    return f"{base_url.rstrip('/')}/s/{quote(slug, safe='')}/{tail}"


class WebSites:
    """Reads a server's web pages: what the link buttons need. (Turning them on, off
    and rotating their slug are :class:`~bot.settings.service.ServerConfig`'s.)"""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def site(self, guild_id: int) -> WebSite | None:
        """The server's pages (``None`` if never turned on)."""
        return await self.store.web.site(guild_id)

    async def link(self, guild_id: int, base_url: str | None, *parts: str | int) -> str | None:
        """The address of the server's page ``parts`` if its pages are on and the
        public address is set, else ``None``: what a link button needs."""
        if not base_url:
            return None
        site = await self.site(guild_id)
        if site is None or not site.enabled:
            return None
        return web_link(base_url, site.slug, *parts)
