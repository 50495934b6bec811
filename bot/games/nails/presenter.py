"""Hammer & Nails in Discord: the build stack on the table, tiles by DM, placements
by menus or by ``/nails place``."""

from bot.games.nails.commands import NailsCommands
from bot.games.nails.table import NailsPresenter

PRESENTER = NailsPresenter(commands=(NailsCommands,))

__all__ = ["PRESENTER", "NailsCommands", "NailsPresenter"]
