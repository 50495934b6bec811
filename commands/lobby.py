"""Lobby and table commands: /play /join /leave /start /cancel /kick /forfeit /table /hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.replies import for_send, send
from bot.views import player_of
from rules.core import games
from rules.errors import BadOptions

if TYPE_CHECKING:
    from bot.client import CroupierBot
    from bot.service import MatchService



async def game_names(interaction: discord.Interaction,
                     current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a ``game`` option: the registered games matching what is typed.
    (Autocomplete rather than fixed choices, so every registered game is offered.)"""
    typed = current.lower()
    return [app_commands.Choice(name=info.title, value=name)
            for name, info in sorted(games().items())
            if typed in name or typed in info.title.lower()][:25]


def parse_options(text: str | None) -> dict[str, str]:
    """``"board=8 stoppers=0"`` → ``{"board": "8", "stoppers": "0"}``.

    >>> parse_options("board=8, stoppers=0")
    {'board': '8', 'stoppers': '0'}
    """
    options: dict[str, str] = {}
    for part in (text or "").replace(",", " ").split():
        key, sep, value = part.partition("=")
        if not sep or not key or not value:
            raise BadOptions(f"options are written key=value, not {part!r}")
        options[key.strip().lower()] = value.strip()
    return options


class LobbyCog(commands.Cog):
    """Open, fill, start and close games."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot

    @property
    def service(self) -> MatchService:
        """The bot's match service."""
        return self.bot.service

    @app_commands.command(name="play", description="Open a game in this channel.")
    @app_commands.describe(
        game="Which game", vs_bot="Fill the other seats with computer players and start now",
        seats="How many players (default: the game's usual number)",
        board="Flank: side of a bounded N×N board (0 = the unbounded table)",
        stoppers="Flank: stoppers per player (0 = none)",
        deck="Eclipse, Hammer & Nails: which deck (see /rules)",
        objective="Hammer & Nails: do the fewest or the most of your nails win?",
        teams="Hammer & Nails with 4 players: two teams (true) or four colours (false)",
        options="More options as key=value pairs")
    @app_commands.autocomplete(game=game_names)
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction, game: str, vs_bot: bool = False,
                   seats: app_commands.Range[int, 2, 6] | None = None,
                   board: app_commands.Range[int, 0, 26] | None = None,
                   stoppers: app_commands.Range[int, 0, 10] | None = None,
                   deck: app_commands.Range[str, 1, 20] | None = None,
                   objective: Literal["fewest", "most"] | None = None,
                   teams: bool | None = None,
                   options: str | None = None) -> None:
        chosen: dict[str, object] = dict(parse_options(options))
        given = {"board": board, "stoppers": stoppers, "deck": deck, "objective": objective,
                 "teams": teams}
        chosen.update({key: value for key, value in given.items() if value is not None})
        match = await self.service.open_lobby(
            player_of(interaction), guild_id=interaction.guild_id,
            channel_id=interaction.channel_id, game=game, options=chosen, seats=seats,
            vs_bot=vs_bot)
        verb = "started against the computer" if vs_bot else "opened — /join to take a seat"
        await send(interaction, f"{match.info.title} {verb}.", ephemeral=False)

    @app_commands.command(name="join", description="Take a seat in this channel's lobby.")
    @app_commands.guild_only()
    async def join(self, interaction: discord.Interaction) -> None:
        match = await self.service.join(player_of(interaction), interaction.channel_id)
        await send(interaction, f"{interaction.user.display_name} joins "
                                f"({len(match.seats)}/{match.row.max_seats}).", ephemeral=False)

    @app_commands.command(name="leave", description="Leave this channel's lobby.")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.service.leave(player_of(interaction), interaction.channel_id)
        await send(interaction, "You left the lobby.")

    @app_commands.command(name="start", description="Start the game (host or moderator).")
    @app_commands.describe(bots="Fill empty seats with computer players")
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction, bots: bool = False) -> None:
        match = await self.service.start(player_of(interaction), interaction.channel_id,
                                         fill_with_bots=bots)
        await send(interaction, f"{match.info.title} begins: "
                                + ", ".join(s.name for s in match.seats) + ".", ephemeral=False)

    @app_commands.command(name="cancel", description="Cancel this channel's game "
                                                     "(host or moderator).")
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction) -> None:
        match = await self.service.cancel(player_of(interaction), interaction.channel_id)
        await send(interaction, f"{match.info.title} cancelled.", ephemeral=False)

    @app_commands.command(name="kick", description="Remove a player (host or moderator); "
                                                   "the computer takes their seat.")
    @app_commands.guild_only()
    async def kick(self, interaction: discord.Interaction, user: discord.User) -> None:
        await self.service.kick(player_of(interaction), interaction.channel_id, user.id)
        await send(interaction, f"{user.display_name} was removed.", ephemeral=False)

    @app_commands.command(name="forfeit", description="Concede your seat in this game.")
    @app_commands.guild_only()
    async def forfeit(self, interaction: discord.Interaction) -> None:
        await self.service.forfeit(player_of(interaction), interaction.channel_id)
        await send(interaction, f"{interaction.user.display_name} forfeits.", ephemeral=False)

    @app_commands.command(name="table", description="Post this channel's table again.")
    @app_commands.guild_only()
    async def table(self, interaction: discord.Interaction) -> None:
        await self.service.repost(interaction.channel_id)
        await send(interaction, "Here is the table again.")

    @app_commands.command(name="hand", description="See your hand and pending choice "
                                                   "(only you see it).")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        view = self.service.private_view(player_of(interaction), interaction.channel_id)
        match = self.service.get(view.match_id)
        parts = self.bot.presenters.private(match, view)
        await send(interaction, ephemeral=True, **for_send(parts))


async def setup(bot: CroupierBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(LobbyCog(bot))
