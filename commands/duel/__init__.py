"""Arcane Duel's collections in Discord, as a discord.py extension that the duel's
presenter brings (``GamePresenter.extensions``): ``/starter``, ``/collection``,
``/audit``, ``/pack``, ``/deck`` and ``/trade``. The cogs are thin: they read the
options, call :class:`~bot.duel.collections.CollectionService` and show what it
answers (:mod:`bot.games.duel.collection_messages`); refusals are the service's,
made friendly replies by the bot's one error handler."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.clock import SystemClock
from bot.duel.collections import CollectionService
from bot.duel.hooks import DuelHooks
from bot.games.duel.trades import TradeDesk
from bot.games.duel.views import DUEL_ITEMS
from commands.duel.collection import CollectionCog
from commands.duel.decks import DeckCog
from commands.duel.packs import PackCog
from commands.duel.trades import TradeCog
from rules.duel import GAME

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot


async def setup(bot: CroupierBot) -> None:
    """discord.py extension entry point: one collections service for the bot (also
    used as ``bot.collections`` by ``/card``), the trade desk, the buttons and cogs."""
    # The same service the duel's match hooks check decks and stakes with, so one
    # set of settings (print runs, windows) serves both.
    hooks = bot.service.hooks_for(GAME.name)
    service = (hooks.collections if isinstance(hooks, DuelHooks)
               else CollectionService(bot.store, bot.clock or SystemClock()))
    bot.collections = service  # type: ignore[attr-defined]
    bot.trade_desk = TradeDesk(bot, service)  # type: ignore[attr-defined]
    bot.add_items(*DUEL_ITEMS)
    for cog in (CollectionCog(bot), PackCog(bot), DeckCog(bot), TradeCog(bot)):
        await bot.add_cog(cog)
