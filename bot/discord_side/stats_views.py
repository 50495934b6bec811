"""Persistent buttons for the figures: leaderboard pages and the reset confirmation."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord_parts.replies import guarded
from bot.discord_parts.views import ID, SMALL, Claimed, croupier, player_of
from bot.discord_side.stats_presenter import leaderboard_parts


def leaderboard_buttons(game: str, page: int, pages: int) -> list[discord.ui.Item[Any]]:
    """◀ and ▶ for a leaderboard page, where there is a page to go to."""
    buttons: list[discord.ui.Item[Any]] = []
    if page > 1:
        buttons.append(LeaderboardButton(game, page - 1, "◀ Back"))
    if page < pages:
        buttons.append(LeaderboardButton(game, page + 1, "More ▶"))
    return buttons


class LeaderboardButton(Claimed, discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=re.compile(rf"cr:lb:(?P<game>[a-z0-9]{{1,32}}):(?P<page>{SMALL})")):
    """Turns a leaderboard to another page (the server is the clicker's)."""

    def __init__(self, game: str, page: int, label: str = "Page") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"cr:lb:{game}:{page}"))
        self.game, self.page = game, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LeaderboardButton:
        return cls(match["game"], int(match["page"]), getattr(item, "label", None) or "Page")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            stats = croupier(interaction).stats
            page = await stats.leaderboard(interaction.guild_id or 0, self.game, self.page)
            await interaction.response.edit_message(**leaderboard_parts(
                page, leaderboard_buttons(page.game, page.page, page.pages)))

        await guarded(interaction, act)


class ResetButton(Claimed, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=re.compile(
                      rf"cr:reset:(?P<game>[a-z0-9]{{1,32}}):(?P<user>{ID}):(?P<answer>yes|no)")):
    """The second step of a leaderboard reset: only the moderator who asked may answer."""

    def __init__(self, game: str, user_id: int, answer: str) -> None:
        label, style = (("Reset it", discord.ButtonStyle.danger) if answer == "yes"
                        else ("Keep it", discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"cr:reset:{game}:{user_id}:{answer}"))
        self.game, self.user_id, self.answer = game, user_id, answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ResetButton:
        return cls(match["game"], int(match["user"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            if interaction.user.id != self.user_id:
                await interaction.response.send_message(
                    "Only the moderator who asked can answer this.", ephemeral=True)
                return
            if self.answer == "no":
                await interaction.response.edit_message(
                    content="Nothing was reset.", view=None)
                return
            cleared = await croupier(interaction).stats.reset(
                player_of(interaction), interaction.guild_id or 0, self.game)
            await interaction.response.edit_message(
                content=f"The {self.game} leaderboard is reset ({cleared} ratings cleared; "
                        "earlier matches no longer count here).", view=None)

        await guarded(interaction, act)


STATS_ITEMS = (LeaderboardButton, ResetButton)
