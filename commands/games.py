"""Each game's own slash commands (a ``place`` command for typed moves, say, or
``/card``), as its presenter declares them: this cog only adds them to the bot."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from discord import app_commands
from discord.ext import commands

from bot.games import presenters

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot


class GameCommandsCog(commands.Cog):
    """The game-specific command groups."""

    def __init__(self, bot: CroupierBot) -> None:
        self.bot = bot
        self.groups: list[app_commands.Group | app_commands.Command[Any, ..., Any]] = [
            entry if isinstance(entry, app_commands.Command) else entry()
            for presenter in presenters().values() for entry in presenter.commands]
        """Each game's command groups, and its top-level commands (``/card``)."""

    async def cog_load(self) -> None:
        """Add every game's groups to the command tree."""
        for group in self.groups:
            self.bot.tree.add_command(group)

    async def cog_unload(self) -> None:
        """Take them away again."""
        for group in self.groups:
            self.bot.tree.remove_command(group.name)


async def setup(bot: CroupierBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(GameCommandsCog(bot))
