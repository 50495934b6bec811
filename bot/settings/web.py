"""The web companion's settings (issue 32): a server's pages, off until its moderators
turn them on, under an unguessable slug they may rotate; and each player's choice to
hide their history from the pages. Knows no transport."""

from __future__ import annotations

import secrets
from urllib.parse import quote

from bot.errors import NotAllowed
from bot.settings.service import Manager
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


class WebSettings:
    """Reads and changes a server's web pages and players' privacy."""

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

    @staticmethod
    def _require(who: Manager) -> None:
        if not who.manages_server:
            raise NotAllowed("Only people who may manage this server can change "
                             "Croupier's settings.")

    async def turn_on(self, who: Manager, guild_id: int) -> WebSite:
        """Turn the server's pages on (under the slug they had, else a new one)."""
        self._require(who)
        site = await self.site(guild_id)
        return await self.store.web.save(guild_id, site.slug if site else new_slug(), True)

    async def turn_off(self, who: Manager, guild_id: int) -> WebSite | None:
        """Turn the server's pages off: every address of theirs shows nothing."""
        self._require(who)
        site = await self.site(guild_id)
        if site is None:
            return None
        return await self.store.web.save(guild_id, site.slug, False)

    async def rotate(self, who: Manager, guild_id: int) -> WebSite:
        """Give the server's pages a new slug: the old addresses show nothing from now
        on (the pages stay on or off as they were)."""
        self._require(who)
        site = await self.site(guild_id)
        return await self.store.web.save(guild_id, new_slug(),
                                         site.enabled if site else False)

    async def hide_history(self, user_id: int, hidden: bool) -> None:
        """A player hides (or shows again) their own history on every server's pages."""
        await self.store.web.set_hidden(user_id, hidden)

    async def history_hidden(self, user_id: int) -> bool:
        """Whether the player hid their history."""
        return await self.store.web.is_hidden(user_id)
