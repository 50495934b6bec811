"""Flank in Discord: the table as a picture with menus of legal cells, and ``/flank place``."""

from bot.games.flank.commands import FlankCommands
from bot.games.flank.table import FlankPresenter

PRESENTER = FlankPresenter(commands=(FlankCommands,))

__all__ = ["PRESENTER", "FlankCommands", "FlankPresenter"]
