"""Which language a person or a channel is spoken to in (docs/i18n.md).

- What a channel sees (tables, lobbies, results, tournament posts): the server's
  language, ``/config language``, else the server's preferred locale when Croupier
  speaks it, else English (:meth:`Languages.channel`).
- What is sent to one person unasked (a DM with their hand, a warning): the locale their
  Discord client sent with their latest interaction (:meth:`Languages.reader`), else the
  server's language.
- A reply to a click or a command: the locale that interaction carries (set for the
  interaction's whole task by :func:`bot.discord_parts.replies.hear`).

Both are read from the store, so every process speaks alike; a process only remembers
what it last wrote, to write a person's locale only when it changes.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import DEFAULT, locale_of, supported
from storage import Store

Preferred = Callable[[int], str | None]
"""A server's preferred locale as Discord reports it (``None`` when unknown)."""


def channel_language(chosen: str | None, preferred: str | None) -> str:
    """The locale of what a server's channels see: the server's chosen language when
    Croupier speaks it, else its preferred locale as Discord reports it (likewise), else
    English.

    >>> [channel_language(*known) for known in (("pt_BR", "en-US"), (None, "pt-BR"), (None, "ja"))]
    ['pt_BR', 'pt_BR', 'en']
    """
    return supported(chosen) or locale_of(preferred)


class Languages:
    """The language of a channel and of a person, read from the store."""

    def __init__(self, store: Store, preferred: Preferred | None = None) -> None:
        self.store = store
        self.preferred = preferred or (lambda _guild_id: None)
        self._noted: dict[int, str] = {}

    async def channel(self, guild_id: int | None) -> str:
        """The locale of what a channel on ``guild_id`` sees (English outside a server
        Croupier knows nothing of)."""
        if guild_id:
            return channel_language(await self.store.settings.language(guild_id),
                                    self.preferred(guild_id))
        return DEFAULT

    async def reader(self, user_id: int | None, guild_id: int | None = None) -> str:
        """The locale to write to ``user_id`` in unasked: theirs, else the channel's."""
        if user_id is not None:
            known = self._noted.get(user_id) or await self.store.reader_locales.of(user_id)
            if known is not None and supported(known):
                return locale_of(known)
        return await self.channel(guild_id)

    async def heard(self, user_id: int, locale: str) -> None:
        """Remember the locale ``user_id``'s latest interaction carried (written only
        when it changes)."""
        if self._noted.get(user_id) == locale:
            return
        await self.store.reader_locales.note(user_id, locale)
        self._noted[user_id] = locale
