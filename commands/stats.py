"""/stats /leaderboard /history /match /resetleaderboard: the figures of finished matches;
/privacy: whether one's own history shows on the web pages."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_parts.replies import for_send, send
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
            raise NoSuchPage(f"the {get_game(game).title} leaderboard", page, board.pages)
        parts = leaderboard_parts(board, leaderboard_buttons(board.game, board.page, board.pages))
        await send(interaction, ephemeral=False, **for_send(parts))

    @app_commands.command(name="history", description="Someone's latest matches here.")
    @app_commands.describe(user="Whose matches (default: yours)", game="Just this game")
    @app_commands.autocomplete(game=game_names)
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, user: discord.User | None = None,
                      game: GameName | None = None) -> None:
        who = user or interaction.user
        results = await self.bot.stats.history(interaction.guild_id, who.id, game)
        await send(interaction, ephemeral=False,
                   **for_send(history_parts(who.display_name, results)))

    @app_commands.command(name="match", description="One match: players, result, moves.")
    @app_commands.describe(id="The match number (see /history or a table's footer)")
    @app_commands.guild_only()
    async def match(self, interaction: discord.Interaction,
                    id: app_commands.Range[int, 1, 10**12]) -> None:
        summary = await self.bot.stats.match(id)
        if summary is None or summary.guild_id != interaction.guild_id:
            raise UnknownMatch(id)
        await send(interaction, ephemeral=False, **for_send(match_parts(summary)))

    @app_commands.command(name="resetleaderboard",
                          description="Moderators: clear a game's leaderboard on this server.")
    @app_commands.describe(game="Which game's leaderboard")
    @app_commands.autocomplete(game=game_names)
    @app_commands.guild_only()
    async def reset(self, interaction: discord.Interaction, game: GameName) -> None:
        player = player_of(interaction)
        if not player.is_moderator:
            raise NotAllowed("Only a moderator can reset a leaderboard.")
        name = get_game(game).name
        view = discord.ui.View(timeout=None)
        view.add_item(ResetButton(name, player.user_id, "yes"))
        view.add_item(ResetButton(name, player.user_id, "no"))
        await send(interaction, f"Reset the **{get_game(game).title}** leaderboard here? "
                                "Every rating in it is cleared and earlier matches stop "
                                "counting. This cannot be undone.", view=view)

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
        await send(interaction, PRIVACY_HIDDEN if hidden else PRIVACY_SHOWN)


PRIVACY_HIDDEN = ("Your history is **hidden** from the web pages of every server: your player "
                  "page says only that you hid it. Your name still shows where the server sees "
                  "it in Discord too (leaderboards, tournament standings, match tables). "
                  "`/privacy history:show` shows it again.")
PRIVACY_SHOWN = ("Your history **shows** on the web pages of servers that publish them: your "
                 "matches, ratings and tournaments there. `/privacy history:hide` hides it.")


async def setup(bot: CroupierBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(StatsCog(bot))
