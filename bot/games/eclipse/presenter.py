"""Eclipse in Discord: the table picture, each hand by DM, the menus of each decision."""

from bot.games.eclipse.table import EclipsePresenter

PRESENTER = EclipsePresenter()

__all__ = ["PRESENTER", "EclipsePresenter"]
