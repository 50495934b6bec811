"""/stats /leaderboard /history /match /resetleaderboard: the figures of finished matches;
/privacy: whether one's own history shows on the web pages."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_parts.replies import channel_locale, for_send, send
from bot.discord_parts.views import player_of
from bot.discord_side.stats_presenter import (
    TournamentEntry,
    history_parts,
    leaderboard_parts,
    match_parts,
    stats_parts,
)
from bot.discord_side.stats_views import ResetButton, leaderboard_buttons
from bot.discord_side.tournament_terms import member_of
from bot.errors import NoSuchPage, NotAllowed, UnknownMatch
from bot.i18n import Text, speaking, tr
from commands.lobby import game_names
from rules.registry import get_game

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot

GameName = app_commands.Range[str, 1, 40]
"""A game as typed (its name is offered as one types)."""


class StatsCog(commands.Cog):
    """Records, ratings, history and leaderboards."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot

    @app_commands.command(name="stats", description="Someone's record and rating here.")
    @app_commands.describe(user="Whose figures (default: yours)", game="Just this game",
                           against="Also show head-to-head against this player")
    @app_commands.autocomplete(game=game_names)
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None,
                    game: GameName | None = None, against: discord.User | None = None) -> None:
        who = user or interaction.user
        guild = interaction.guild_id
        reports = await self.bot.stats.reports(guild, who.id, game)
        versus = None
        if against is not None:
            versus = (against.display_name,
                      await self.bot.stats.head_to_head(guild, who.id, against.id, game))
        entered = [TournamentEntry(t.id, t.name, t.game, t.status, e.final_rank)
                   for t, e in await self.bot.tournaments.history(member_of(interaction),
                                                                  who.id)
                   if game is None or t.game == get_game(game).name]
        with speaking(await channel_locale(interaction)):
            parts = stats_parts(who.display_name, reports, versus=versus, tournaments=entered)
        await send(interaction, ephemeral=False, **for_send(parts))

    @app_commands.command(name="leaderboard", description="A game's leaderboard here.")
    @app_commands.describe(game="Which game", page="Which page (10 players a page)")
    @app_commands.autocomplete(game=game_names)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: GameName,
                          page: app_commands.Range[int, 1, 10000] = 1) -> None:
        board = await self.bot.stats.leaderboard(interaction.guild_id or 0, game, page)
        if page > board.pages:
            raise NoSuchPage(Text("page.what.leaderboard", game=get_game(game).title), page,
                             board.pages)
        with speaking(await channel_locale(interaction)):
            parts = leaderboard_parts(board, leaderboard_buttons(board.game, board.page,
                                                                 board.pages))
        await send(interaction, ephemeral=False, **for_send(parts))

    @app_commands.command(name="history", description="Someone's latest matches here.")
    @app_commands.describe(user="Whose matches (default: yours)", game="Just this game")
    @app_commands.autocomplete(game=game_names)
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, user: discord.User | None = None,
                      game: GameName | None = None) -> None:
        who = user or interaction.user
        results = await self.bot.stats.history(interaction.guild_id, who.id, game)
        with speaking(await channel_locale(interaction)):
            parts = history_parts(who.display_name, results)
        await send(interaction, ephemeral=False, **for_send(parts))

    @app_commands.command(name="match", description="One match: players, result, moves.")
    @app_commands.describe(id="The match number (see /history or a table's footer)")
    @app_commands.guild_only()
    async def match(self, interaction: discord.Interaction,
                    id: app_commands.Range[int, 1, 10**12]) -> None:
        summary = await self.bot.stats.match(id)
        if summary is None or summary.guild_id != interaction.guild_id:
            raise UnknownMatch(id)
        with speaking(await channel_locale(interaction)):
            parts = match_parts(summary)
        await send(interaction, ephemeral=False, **for_send(parts))

    @app_commands.command(name="resetleaderboard",
                          description="Moderators: clear a game's leaderboard on this server.")
    @app_commands.describe(game="Which game's leaderboard")
    @app_commands.autocomplete(game=game_names)
    @app_commands.guild_only()
    async def reset(self, interaction: discord.Interaction, game: GameName) -> None:
        player = player_of(interaction)
        if not player.is_moderator:
            raise NotAllowed(Text("error.reset_moderators_only"))
        name = get_game(game).name
        view = discord.ui.View(timeout=None)
        view.add_item(ResetButton(name, player.user_id, "yes"))
        view.add_item(ResetButton(name, player.user_id, "no"))
        await send(interaction, tr("stats.reset.ask", game=get_game(game).title), view=view)

    @app_commands.command(name="privacy",
                          description="Hide your match history from the web pages, or show it.")
    @app_commands.describe(history="hide: your player page shows nothing of you; show: it "
                                   "shows your history again; leave out to see")
    @app_commands.choices(history=[app_commands.Choice(name=name, value=name)
                                   for name in ("hide", "show")])
    async def privacy(self, interaction: discord.Interaction,
                      history: app_commands.Choice[str] | None = None) -> None:
        """Hide or show one's own history on every server's web pages."""
        user_id = interaction.user.id
        if history is not None:
            await self.bot.stats.hide_history(user_id, history.value == "hide")
        hidden = await self.bot.stats.history_hidden(user_id)
        await send(interaction, tr("stats.privacy.hidden") if hidden
                   else tr("stats.privacy.shown"))


async def setup(bot: CroupierBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(StatsCog(bot))
