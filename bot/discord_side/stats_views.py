"""Persistent buttons for the figures: leaderboard pages and the reset confirmation."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord_parts.replies import channel_locale, guarded
from bot.discord_parts.views import ID, SMALL, Claimed, croupier, player_of
from bot.discord_side.stats_presenter import leaderboard_parts
from bot.i18n import speaking, tr, trn


def leaderboard_buttons(game: str, page: int, pages: int) -> list[discord.ui.Item[Any]]:
    """◀ and ▶ for a leaderboard page, where there is a page to go to."""
    buttons: list[discord.ui.Item[Any]] = []
    if page > 1:
        buttons.append(LeaderboardButton(game, page - 1, tr("table.page_back")))
    if page < pages:
        buttons.append(LeaderboardButton(game, page + 1, tr("table.page_more")))
    return buttons


class LeaderboardButton(Claimed, discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=re.compile(rf"cr:lb:(?P<game>[a-z0-9]{{1,32}}):(?P<page>{SMALL})")):
    """Turns a leaderboard to another page (the server is the clicker's)."""

    def __init__(self, game: str, page: int, label: str = "") -> None:
        label = label or tr("table.page_button")
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"cr:lb:{game}:{page}"))
        self.game, self.page = game, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LeaderboardButton:
        return cls(match["game"], int(match["page"]), getattr(item, "label", None) or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            stats = croupier(interaction).stats
            page = await stats.leaderboard(interaction.guild_id or 0, self.game, self.page)
            # The leaderboard is the channel's: it stays in the server's language.
            with speaking(await channel_locale(interaction)):
                parts = leaderboard_parts(page, leaderboard_buttons(page.game, page.page,
                                                                    page.pages))
            await interaction.response.edit_message(**parts)

        await guarded(interaction, act)


class ResetButton(Claimed, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=re.compile(
                      rf"cr:reset:(?P<game>[a-z0-9]{{1,32}}):(?P<user>{ID}):(?P<answer>yes|no)")):
    """The second step of a leaderboard reset: only the moderator who asked may answer."""

    def __init__(self, game: str, user_id: int, answer: str) -> None:
        label, style = ((tr("stats.reset.yes"), discord.ButtonStyle.danger) if answer == "yes"
                        else (tr("stats.reset.no"), discord.ButtonStyle.secondary))
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
                    tr("stats.reset.not_yours"), ephemeral=True)
                return
            if self.answer == "no":
                await interaction.response.edit_message(
                    content=tr("stats.reset.kept"), view=None)
                return
            cleared = await croupier(interaction).stats.reset(
                player_of(interaction), interaction.guild_id or 0, self.game)
            await interaction.response.edit_message(
                content=trn("stats.reset.done", cleared, game=self.game), view=None)

        await guarded(interaction, act)


STATS_ITEMS = (LeaderboardButton, ResetButton)
