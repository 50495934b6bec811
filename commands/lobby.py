"""Lobby and table commands: /play <game> /join /leave /start /cancel /kick /forfeit
/table /hand."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Optional

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_parts import slash_options
from bot.discord_parts.limits import choices
from bot.discord_parts.replies import channel_locale, for_send, send
from bot.discord_parts.views import player_of
from bot.errors import CroupierError
from bot.i18n import speaking, tr
from bot.matches.levels import level_word, levels_said, seat_named
from rules.core import DEFAULT_LEVEL, GameInfo, Level
from rules.registry import games

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot
    from bot.matches.service import MatchService



async def game_names(interaction: discord.Interaction,
                     current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a ``game`` option: the registered games matching what is typed.
    (Autocomplete rather than fixed choices, so every registered game is offered.)"""
    typed = current.lower()
    return choices((info.title, name) for name, info in games().items()
                   if typed in name or typed in info.title.lower())


async def lobby_decks(interaction: discord.Interaction,
                      current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for ``/join deck``: the decks of the channel's game, then the
    person's own."""
    bot: Any = interaction.client
    try:
        info = bot.service.match_in(interaction.channel_id).info
    except CroupierError:
        return []
    return await deck_choices(interaction, info, current)


async def deck_choices(interaction: discord.Interaction, info: GameInfo,
                       current: str) -> list[app_commands.Choice[str]]:
    """The decks a seat may bring that hold what is typed: the person's own first."""
    bot: Any = interaction.client
    typed = current.casefold()
    own = await bot.service.hooks_for(info.name).deck_names(interaction.guild_id,
                                                             interaction.user.id)
    return choices((deck, deck) for deck in [*own, *info.decks] if typed in deck.casefold())


def decks_of(info: GameInfo) -> Callable[[discord.Interaction, str],
                                          Awaitable[list[app_commands.Choice[str]]]]:
    """Autocomplete for ``/play <game> deck``: that game's decks and the person's own.
    (A closure: discord.py wants a callback of exactly two parameters.)"""
    async def decks(interaction: discord.Interaction,
                    current: str) -> list[app_commands.Choice[str]]:
        return await deck_choices(interaction, info, current)
    return decks


def play_group(run: Callable[[discord.Interaction, GameInfo, dict[str, Any]], Awaitable[None]],
               ) -> app_commands.Group:
    """``/play <game>``: one subcommand per registered game, its parameters the
    game's declared options (so Discord checks types, bounds and choices)."""
    group = app_commands.Group(name="play", description="Open a game in this channel.",
                               guild_only=True)
    for info in games().values():
        extra = [(inspect.Parameter("vs_bot", inspect.Parameter.KEYWORD_ONLY, default=False,
                                    annotation=bool),
                  "Fill the other seats with computer players and start now"),
                 (inspect.Parameter("computer_level", inspect.Parameter.KEYWORD_ONLY,
                                    default=None,
                                    annotation=Optional[Level]),  # noqa: UP045
                  "The computer players' level, now or at /start bots:true "
                  f"({levels_said()}; default {DEFAULT_LEVEL})")]
        if info.min_seats != info.max_seats:
            extra.append((inspect.Parameter(
                "seats", inspect.Parameter.KEYWORD_ONLY, default=None,
                annotation=Optional[app_commands.Range[int, info.min_seats, info.max_seats]]),  # noqa: UP045
                f"How many players ({info.seat_range()}; default {info.default_seats})"))

        completions = {}
        if info.decks:
            extra.append((inspect.Parameter(
                "deck", inspect.Parameter.KEYWORD_ONLY, default=None,
                annotation=Optional[app_commands.Range[str, 1, 40]]),  # noqa: UP045
                "Your deck: one of yours or a starter (default: a starter at random)"))
            completions["deck"] = decks_of(info)
        taken = {param.name for param, _ in extra} & {spec.name for spec in info.options.specs()}
        if taken:
            raise ValueError(f"{info.name}: an option may not be called {', '.join(taken)}: "
                             "/play has a parameter of that name")

        async def open_game(interaction: discord.Interaction, values: dict[str, Any],
                            info: GameInfo = info) -> None:
            await run(interaction, info, values)

        group.add_command(slash_options.command(
            info.name, f"Open a game of {info.title} ({info.seat_range()})",
            info.options.specs(), open_game, extra=extra, extra_autocomplete=completions))
    return group


class LobbyCog(commands.Cog):
    """Open, fill, start and close games."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot
        self.play = play_group(self.open_game)

    async def cog_load(self) -> None:
        """Add ``/play`` (built from the registry, so not a class attribute)."""
        self.bot.tree.add_command(self.play)

    async def cog_unload(self) -> None:
        """Take ``/play`` away again."""
        self.bot.tree.remove_command(self.play.name)

    @property
    def service(self) -> MatchService:
        """The bot's match service."""
        return self.bot.service

    async def open_game(self, interaction: discord.Interaction, info: GameInfo,
                        values: dict[str, Any]) -> None:
        """``/play <game> …``: open a lobby (or start against the computer)."""
        vs_bot = bool(values.pop("vs_bot", False))
        level = values.pop("computer_level", None) or DEFAULT_LEVEL
        seats = values.pop("seats", None)
        # Only a game with decks has a deck parameter; another's "deck" is an option.
        setup = (await self.service.seat_deck(info, interaction.guild_id, interaction.user.id,
                                              values.pop("deck", None))
                 if info.decks else None)
        match = await self.service.open_lobby(
            player_of(interaction), guild_id=interaction.guild_id,
            channel_id=interaction.channel_id, game=info.name,
            options={key: value for key, value in values.items() if value is not None},
            seats=seats, vs_bot=vs_bot, setup=setup, computer_level=level)
        with speaking(await channel_locale(interaction)):
            said = (tr("lobby.reply.started_vs", game=match.info.title, level=level_word(level))
                    if vs_bot else tr("lobby.reply.opened", game=match.info.title))
        await send(interaction, said, ephemeral=False)

    @app_commands.command(name="join", description="Take a seat in this channel's lobby.")
    @app_commands.describe(deck="Your deck, in games where you bring one: yours or a "
                                "starter (default: a starter at random)")
    @app_commands.autocomplete(deck=lobby_decks)
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction,
                   deck: app_commands.Range[str, 1, 40] | None = None) -> None:
        setup = await self.service.seat_deck(self.service.match_in(interaction.channel_id).info,
                                             interaction.guild_id, interaction.user.id, deck)
        match = await self.service.join(player_of(interaction), interaction.channel_id,
                                        setup=setup)
        with speaking(await channel_locale(interaction)):
            said = tr("lobby.reply.joins", name=interaction.user.display_name,
                      taken=len(match.seats), most=match.row.max_seats)
        await send(interaction, said, ephemeral=False)

    @app_commands.command(name="leave", description="Leave this channel's lobby.")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.service.leave(player_of(interaction), interaction.channel_id)
        await send(interaction, tr("lobby.reply.left"))

    @app_commands.command(name="start", description="Start the game (host or moderator).")
    @app_commands.describe(bots="Fill empty seats with computer players",
                           computer_level=f"Their level ({levels_said()}; default: the one "
                                          "/play chose, else normal)")
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction, bots: bool = False,
                    computer_level: Level | None = None) -> None:
        match = await self.service.start(player_of(interaction), interaction.channel_id,
                                         fill_with_bots=bots, computer_level=computer_level)
        with speaking(await channel_locale(interaction)):
            said = tr("lobby.reply.begins", game=match.info.title,
                      seats=", ".join(seat_named(s) for s in match.seats))
        await send(interaction, said, ephemeral=False)

    @app_commands.command(name="cancel", description="Cancel this channel's game "
                                                     "(host or moderator).")
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction) -> None:
        match = await self.service.cancel(player_of(interaction), interaction.channel_id)
        with speaking(await channel_locale(interaction)):
            said = tr("lobby.reply.cancelled", game=match.info.title)
        await send(interaction, said, ephemeral=False)

    @app_commands.command(name="kick", description="Remove a player (host or moderator); "
                                                   "the computer takes their seat.")
    @app_commands.describe(user="Who to remove")
    @app_commands.guild_only()
    async def kick(self, interaction: discord.Interaction, user: discord.User) -> None:
        await self.service.kick(player_of(interaction), interaction.channel_id, user.id)
        with speaking(await channel_locale(interaction)):
            said = tr("lobby.reply.removed", name=user.display_name)
        await send(interaction, said, ephemeral=False)

    @app_commands.command(name="forfeit", description="Concede your seat in this game.")
    @app_commands.guild_only()
    async def forfeit(self, interaction: discord.Interaction) -> None:
        await self.service.forfeit(player_of(interaction), interaction.channel_id)
        with speaking(await channel_locale(interaction)):
            said = tr("lobby.reply.forfeits", name=interaction.user.display_name)
        await send(interaction, said, ephemeral=False)

    @app_commands.command(name="table", description="Post this channel's table again.")
    @app_commands.guild_only()
    async def table(self, interaction: discord.Interaction) -> None:
        await self.service.repost(interaction.channel_id)
        await send(interaction, tr("lobby.reply.table_again"))

    @app_commands.command(name="hand", description="See your hand and pending choice "
                                                   "(only you see it).")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        match = await self.service.current(self.service.match_in(interaction.channel_id).id)
        view = self.service.private_view_of(player_of(interaction), match)
        parts = self.bot.presenters.private(match, view)
        await send(interaction, ephemeral=True, **for_send(parts))


async def setup(bot: CroupierBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(LobbyCog(bot))
