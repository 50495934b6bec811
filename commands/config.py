"""/config: the server's settings for Croupier (Manage Server, checked in code)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_parts.limits import choices
from bot.discord_parts.replies import reader_locale, send
from bot.i18n import LOCALES, name_of, tr, translate
from bot.settings.service import MAX_TURN, MAX_WARN, MIN_TURN, Manager, ServerConfig
from bot.settings.web import web_link
from rules.registry import games
from storage.models import EVERY_GAME, GuildSettings
from storage.web import WebSite

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot

PREFERRED = "preferred"
"""The ``/config language`` choice that goes back to the server's preferred language."""
LANGUAGE_CHOICES = [*(app_commands.Choice(name=name_of(locale), value=locale)
                      for locale in LOCALES),
                    app_commands.Choice(name="the server's preferred language",
                                        value=PREFERRED)]
"""Each language Croupier speaks, named in its own words, and the server's own."""


def manager_of(interaction: discord.Interaction) -> Manager:
    """Who acts, and whether they may manage the server."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return Manager(interaction.user.id, interaction.user.display_name,
                   manages_server=bool(perms and perms.manage_guild))


async def game_or_every(interaction: discord.Interaction,
                        current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: "every game" and the registered games."""
    typed = current.lower()
    found = [(tr("config.every_game"), EVERY_GAME)] + [(info.title, name)
                                                       for name, info in games().items()]
    return choices((title, value) for title, value in found
                   if typed in title.lower() or typed in value)


def settings_text(settings: GuildSettings) -> str:
    """The settings in words, in the locale spoken."""
    role = f"<@&{settings.organiser_role_id}>" if settings.organiser_role_id else tr(
        "config.none")
    lines = [tr("config.show.organiser", role=role),
             tr("config.show.ante", state=_ante(settings.ante)),
             collections_text(settings), tr("config.show.deadlines")]
    titles = {name: info.title for name, info in games().items()}
    for timing in settings.timings:
        name = (tr("config.every_game") if timing.game == EVERY_GAME
                else titles.get(timing.game, timing.game))
        turn = (tr("config.seconds", seconds=timing.turn_seconds) if timing.turn_seconds
                else tr("config.default"))
        warn = (tr("config.seconds_before", seconds=timing.warn_seconds)
                if timing.warn_seconds is not None else tr("config.default"))
        lines.append(tr("config.show.timing", game=name, turn=turn, warning=warn))
    if not settings.timings:
        lines.append(tr("config.show.usual_timings", games=", ".join(
            tr("config.show.game_seconds", game=info.title, seconds=info.default_turn_seconds)
            for info in games().values())))
    return "\n".join(lines)


def _ante(allowed: bool) -> str:
    return tr("config.ante.allowed") if allowed else tr("config.ante.off")


def collections_text(settings: GuildSettings) -> str:
    """Who sees collections and how packs come, in one line, in the locale spoken."""
    ways = [tr("config.packs.daily")] if settings.daily_pack else []
    ways += [tr("config.packs.wins")] if settings.win_packs else []
    return tr("config.show.collections",
              seen=(tr("config.collections.public") if settings.collections_public
                    else tr("config.collections.private")),
              ways=", ".join([*ways, tr("config.packs.prizes")]))


@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class ConfigCog(commands.GroupCog, group_name="config",
                group_description="Croupier's settings on this server (Manage Server)."):
    """The server's settings."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot
        self.config = ServerConfig(bot.store)
        super().__init__()

    @app_commands.command(name="show", description="This server's settings.")
    async def show(self, interaction: discord.Interaction) -> None:
        """Show the settings (anyone may look)."""
        settings = await self.config.show(interaction.guild_id or 0)
        await send(interaction, settings_text(settings))

    @app_commands.command(name="deadline",
                          description="Seconds per decision and the warning, for a game.")
    @app_commands.describe(game="Which game (or every game)",
                           seconds=f"Seconds per decision ({MIN_TURN}–{MAX_TURN}); "
                                   "leave out with warning out to go back to the default",
                           warning=f"Seconds before the deadline to ping the player "
                                   f"(0–{MAX_WARN})")
    @app_commands.autocomplete(game=game_or_every)
    async def deadline(self, interaction: discord.Interaction,
                       game: app_commands.Range[str, 1, 40],
                       seconds: app_commands.Range[int, MIN_TURN, MAX_TURN] | None = None,
                       warning: app_commands.Range[int, 0, MAX_WARN] | None = None) -> None:
        """Set (or clear) a game's deadline settings."""
        timing = await self.config.set_deadline(manager_of(interaction),
                                                interaction.guild_id or 0, game, seconds,
                                                warning)
        scope = (tr("config.every_game") if timing.game == EVERY_GAME
                 else games()[timing.game].title)
        if seconds is None and warning is None:
            text = tr("config.deadline.cleared", game=scope)
        else:
            text = tr("config.deadline.set", game=scope,
                      turn=seconds if seconds else tr("config.default"),
                      warning=(tr("config.default") if warning is None
                               else tr("config.deadline.before", seconds=warning)))
        await send(interaction, text)

    @app_commands.command(name="organiser", description="The role that runs tournaments.")
    @app_commands.describe(role="The organiser role (leave out to have none)")
    async def organiser(self, interaction: discord.Interaction,
                        role: discord.Role | None = None) -> None:
        """Set or clear the organiser role."""
        await self.config.set_organiser_role(manager_of(interaction), interaction.guild_id or 0,
                                             role.id if role else None)
        await send(interaction, tr("config.organiser.set",
                                   role=role.mention if role else tr("config.none")))

    @app_commands.command(name="ante", description="Whether matches here may be played "
                                                   "for ante.")
    @app_commands.describe(allowed="true to allow ante, false to turn it off")
    async def ante(self, interaction: discord.Interaction, allowed: bool) -> None:
        """Allow or forbid ante."""
        await self.config.set_ante(manager_of(interaction), interaction.guild_id or 0, allowed)
        await send(interaction, tr("config.ante.set", state=_ante(allowed)))


    @app_commands.command(name="collections",
                          description="Who sees collections, and how packs are given.")
    @app_commands.describe(public="Anyone may see anyone's collection (false: only their own)",
                           daily_pack="Each person may claim a pack a day",
                           win_packs="A rated win in a game of owned cards brings a pack")
    async def collections(self, interaction: discord.Interaction, public: bool | None = None,
                          daily_pack: bool | None = None,
                          win_packs: bool | None = None) -> None:
        """Change (or, with nothing given, show) the collection settings."""
        settings = await self.config.set_collections(
            manager_of(interaction), interaction.guild_id or 0, public=public,
            daily_pack=daily_pack, win_packs=win_packs)
        await send(interaction, collections_text(settings))

    @app_commands.command(name="language",
                          description="The language this server's channels see Croupier in.")
    @app_commands.describe(language="Which language (leave out to see the current one)")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction,
                       language: app_commands.Choice[str] | None = None) -> None:
        """Choose the server's language, go back to its preferred one, or show it; the
        answer, private, is in the asker's own language."""
        guild_id, locale = interaction.guild_id or 0, reader_locale(interaction)
        preferred = getattr(interaction.guild_locale, "value", None)
        chosen = None if language is None or language.value == PREFERRED else language.value
        if language is not None:
            await self.config.set_language(manager_of(interaction), guild_id, chosen)
        now = name_of(await self.config.language(guild_id, preferred))
        if language is None:
            text = translate("config.language.current", locale, language=now)
        elif chosen is None:
            text = translate("config.language.preferred", locale, language=now)
        else:
            text = translate("config.language.chosen", locale, language=now)
        await send(interaction, text)

    @app_commands.command(name="web", description="This server's web pages: turn them on "
                                                  "or off, or give them a new address.")
    @app_commands.describe(action="on: publish the pages; off: take them down; rotate: a new "
                                  "address; leave out to see")
    @app_commands.choices(action=[app_commands.Choice(name=name, value=name)
                                  for name in ("on", "off", "rotate")])
    async def web(self, interaction: discord.Interaction,
                  action: app_commands.Choice[str] | None = None) -> None:
        """Turn the server's web pages on or off, rotate their slug, or show them."""
        who, guild_id = manager_of(interaction), interaction.guild_id or 0
        if action is None:
            site = await self.config.web(who, guild_id)
        elif action.value == "rotate":
            site = await self.config.rotate_web(who, guild_id)
        else:
            site = await self.config.set_web(who, guild_id, action.value == "on")
        await send(interaction, web_text(site, self.bot.settings.web_url))


def web_text(site: WebSite | None, base_url: str | None) -> str:
    """The server's web pages in words: on or off, and their address."""
    if site is None or not site.enabled:
        return tr("config.web.off")
    link = web_link(base_url, site.slug)
    where = (f"<{link}>" if link else
             tr("config.web.no_address", path=f"`/s/{site.slug}/`"))
    return tr("config.web.on", where=where)


async def setup(bot: CroupierBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(ConfigCog(bot))
