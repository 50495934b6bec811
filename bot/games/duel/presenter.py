"""Arcane Duel in Discord: the battlefield picture and a running log on the table;
the hand as a picture and every decision by DM; ``/card`` to look a card up."""

from bot.duel.hooks import DuelHooks
from bot.games.duel.commands import show_card
from bot.games.duel.table import DuelPresenter

PRESENTER = DuelPresenter(commands=(show_card,), hooks=DuelHooks,
                          local_commands=("bot.games.duel.local",), extensions=("commands.duel",))

__all__ = ["PRESENTER", "DuelPresenter", "show_card"]
