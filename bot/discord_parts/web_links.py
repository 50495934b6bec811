"""Links from Discord to the web companion's pages (issue 32): a link button, where the
server has its pages on, the bot knows their public address (``CROUPIER_WEB_URL``) and
the address fits a link button. One piece for every message that links to a page."""

from __future__ import annotations

import discord

from bot.discord_parts.limits import LINK_URL
from bot.settings.web import WebSites
from storage import Store


async def web_page(store: Store, base_url: str | None, guild_id: int | None,
                   *parts: str | int) -> str | None:
    """The address of the server's page ``parts``, or ``None`` where there is none to
    give: outside a server, pages off, no public address, or one longer than a link
    button takes."""
    if guild_id is None or not base_url:
        return None
    link = await WebSites(store).link(guild_id, base_url, *parts)
    return link if link is not None and len(link) <= LINK_URL else None


def link_view(label: str, url: str | None) -> discord.ui.View | None:
    """A view of one link button (none without an address). Link buttons send no
    interaction, so the view needs no timeout and survives restarts as it is."""
    if url is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=label, url=url))
    return view
