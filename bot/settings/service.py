"""Server settings (``/config``): deadlines and warnings per game, the organiser
role, whether ante is allowed, who sees collections and how packs are given, the
server's language. Only
people who may manage the server change them, checked here, whatever Discord's own
command permissions say."""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import NotAllowed
from bot.i18n import LOCALES, Text, name_of, supported
from bot.matches.live import Player
from bot.settings.languages import channel_language
from bot.settings.web import new_slug
from rules.errors import shown
from rules.registry import get_game
from storage import Store
from storage.models import EVERY_GAME, GameTiming, GuildSettings
from storage.web import WebSite

MIN_TURN = 10
MAX_TURN = 7 * 24 * 3600
MAX_WARN = 3600


@dataclass(frozen=True)
class Manager(Player):
    """A person acting on the server's settings, with their right to."""

    manages_server: bool = False


class ServerConfig:
    """Reads and changes one server's settings."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def show(self, guild_id: int) -> GuildSettings:
        """The server's settings."""
        return await self.store.settings.get(guild_id)

    @staticmethod
    def _require(who: Manager) -> None:
        if not who.manages_server:
            raise NotAllowed(Text("error.settings_managers_only"))

    @staticmethod
    def game_key(game: str | None) -> str:
        """The stored key of a game (``*`` for every game)."""
        return EVERY_GAME if game in (None, "", EVERY_GAME) else get_game(game).name

    async def set_deadline(self, who: Manager, guild_id: int, game: str | None,
                           seconds: int | None, warning: int | None) -> GameTiming:
        """Seconds per decision and the warning lead for a game (or every game);
        ``None`` for both takes the setting away."""
        self._require(who)
        if seconds is not None and not MIN_TURN <= seconds <= MAX_TURN:
            raise NotAllowed(Text("error.deadline_range", least=MIN_TURN, most=MAX_TURN))
        if warning is not None and not 0 <= warning <= MAX_WARN:
            raise NotAllowed(Text("error.warning_range", most=MAX_WARN))
        return await self.store.settings.set_timing(
            guild_id, self.game_key(game), turn_seconds=seconds, warn_seconds=warning)

    async def set_organiser_role(self, who: Manager, guild_id: int,
                                 role_id: int | None) -> GuildSettings:
        """The role that may run tournaments (besides server managers)."""
        self._require(who)
        return await self.store.settings.update(guild_id, organiser_role_id=role_id)

    async def set_ante(self, who: Manager, guild_id: int, allowed: bool) -> GuildSettings:
        """Whether matches on this server may be played for ante."""
        self._require(who)
        return await self.store.settings.update(guild_id, ante=allowed)

    async def set_collections(self, who: Manager, guild_id: int, *,
                              public: bool | None = None, daily_pack: bool | None = None,
                              win_packs: bool | None = None) -> GuildSettings:
        """Whether collections are public, the daily pack is given, and a rated win
        brings a pack; each left ``None`` stays as it is."""
        self._require(who)
        changes = {name: value for name, value in (("collections_public", public),
                                                   ("daily_pack", daily_pack),
                                                   ("win_packs", win_packs))
                   if value is not None}
        if not changes:
            return await self.show(guild_id)
        return await self.store.settings.update(guild_id, **changes)

    async def set_language(self, who: Manager, guild_id: int,
                           locale: str | None) -> GuildSettings:
        """The language of what the server's channels see: a supported locale (``pt_BR``,
        or as Discord writes it, ``pt-BR``), or ``None`` to go back to the server's
        preferred locale."""
        self._require(who)
        chosen = None if locale is None else supported(locale)
        if locale is not None and chosen is None:
            raise NotAllowed(Text("error.unknown_language", given=shown(locale),
                                  languages=", ".join(name_of(known) for known in LOCALES)))
        return await self.store.settings.update(guild_id, language=chosen)

    async def language(self, guild_id: int | None, preferred: str | None = None) -> str:
        """The locale of what the channel sees on a server: its chosen language, else
        ``preferred`` (the server's preferred locale, as Discord reports it) when
        Croupier speaks it, else English. Outside a server, ``preferred`` decides."""
        chosen = None if guild_id is None else await self.store.settings.language(guild_id)
        return channel_language(chosen, preferred)

    async def web(self, who: Manager, guild_id: int) -> WebSite | None:
        """The server's web pages, for those who manage it (the slug is the pages'
        only key: it goes to whom they choose)."""
        self._require(who)
        return await self.store.web.site(guild_id)

    async def set_web(self, who: Manager, guild_id: int, on: bool) -> WebSite:
        """Turn the server's web pages on (under the slug they had, else a new one) or
        off (every address of theirs then shows nothing)."""
        self._require(who)
        site = await self.store.web.site(guild_id)
        return await self.store.web.save(guild_id, site.slug if site else new_slug(), on)

    async def rotate_web(self, who: Manager, guild_id: int) -> WebSite:
        """Give the server's pages a new slug: the old addresses show nothing from now
        on (the pages stay on or off as they were)."""
        self._require(who)
        site = await self.store.web.site(guild_id)
        return await self.store.web.save(guild_id, new_slug(), bool(site and site.enabled))
