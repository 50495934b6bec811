"""Arcane Duel in Discord: the battlefield picture and a running log on the table;
the hand as a picture and every decision by DM; ``/card`` to look a card up."""

from bot.presenters.duel.commands import show_card
from bot.presenters.duel.table import DuelPresenter

PRESENTER = DuelPresenter(commands=(show_card,))

__all__ = ["PRESENTER", "DuelPresenter", "show_card"]
