"""Arcane Duel in Discord, in words for now: the battlefield, the stack and
each player's counts on the table; the hand and the decision by DM. (Pictures of
cards and of the battlefield come with the duel's own table.)"""

from bot.presenters.duel.table import DuelPresenter

PRESENTER = DuelPresenter()

__all__ = ["PRESENTER", "DuelPresenter"]
