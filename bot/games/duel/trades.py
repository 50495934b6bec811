"""Trades in Discord: the one offer message both people see, kept true to the stored
trade. The service (:mod:`bot.duel.collections`) decides everything; this posts the
offer, answers its buttons (:class:`TradeButton`, here beside the desk they call) by
editing it, and sweeps expired trades.

Why a desk and not just the buttons:

* **One message per trade, remembered in storage** (``trade_messages``): the desk
  records where each offer message is and what it last showed (its *face*), after every
  edit. A trade that changes with no click (it expires, or the bot stopped between a
  change and its edit) has a message behind its trade; :meth:`TradeDesk.sweep`, run
  every :data:`SWEEP_SECONDS` and at start, finds those and edits them. Nothing about a
  trade lives only in memory.
* **Edits in order.** Two clicks on one trade at once (both people confirming) must not
  leave the message showing the older state: the desk's per-trade locks make a click's
  write, edit and record one step. (They order edits within this process; the stored
  trade is the truth either way.)
* **Repeats do nothing twice.** The same interaction delivered again is dropped
  (:func:`bot.discord_parts.replies.guarded`); a second click on Accept or Confirm is answered by
  storage as before, and the message is edited to what it already shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.discord_parts.answer_first import add_pictures
from bot.discord_parts.replies import channel_locale, for_send, guarded, ping, release, send
from bot.discord_parts.views import ID, Claimed, croupier
from bot.duel.collections import CollectionError, TradeProblem, TradeView
from bot.games.duel.collection_messages import trade_embed, trade_picture
from bot.games.duel.interactions import guild_of
from bot.i18n import DEFAULT, Text, speaking, tr

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot
    from bot.duel.collections import CollectionService

log = logging.getLogger(__name__)

SWEEP_SECONDS = 30.0
"""How often expired trades are closed and their messages edited."""
LOCKS = 64
"""Per-trade locks, by trade id modulo this: enough that unrelated trades rarely wait."""


def desk_of(interaction: discord.Interaction) -> TradeDesk:
    """The trade desk (offer messages, their edits) of the bot behind an interaction."""
    return croupier(interaction).trade_desk  # type: ignore[attr-defined, no-any-return]


class TradeDesk:
    """The offer messages of one bot's trades."""

    def __init__(self, bot: CroupierBot, service: CollectionService) -> None:
        self.bot = bot
        self.service = service
        self._locks = [asyncio.Lock() for _ in range(LOCKS)]

    def lock(self, trade_id: int) -> asyncio.Lock:
        """The lock that orders the edits of ``trade_id``'s message."""
        return self._locks[trade_id % LOCKS]

    async def offer(self, interaction: discord.Interaction, receiver: discord.abc.User,
                    give: str, get: str) -> TradeView:
        """``/trade offer``: make the offer (its copies locked) and post its message in
        the channel, pinging the receiver. If the message can't be posted, the offer is
        cancelled at once: a trade nobody can see must not hold cards."""
        guild = guild_of(interaction)
        if receiver.bot:
            raise CollectionError(Text("collections.error.bot_trades"))
        offerer = interaction.user
        view = await self.service.offer(guild, offerer.id, receiver.id, give, get)
        # The offer message is the channel's: in the server's language, whoever offers.
        locale = await channel_locale(interaction)
        with speaking(locale):
            parts = {"content": tr("collections.trade.offer", receiver=receiver.mention,
                                   offerer=offerer.mention),
                     "embed": trade_embed(view), "view": trade_buttons(view)}
        try:
            # The offer at once (its ping with it: an edit pings nobody); its picture
            # after, added alone, so that it never undoes a click's edit.
            ready = for_send(parts)
            answer = await interaction.response.send_message(
                ephemeral=False, allowed_mentions=ping([receiver.id]),
                **ready)
            release(ready.get("view"))
            message = answer.resource
            if not isinstance(message, discord.InteractionMessage):
                message = await interaction.original_response()
        except BaseException:
            with contextlib.suppress(Exception):
                await self.service.cancel(view.id, offerer.id, guild=guild)
            raise
        await self.service.offer_shown(view, message.channel.id, message.id)
        with speaking(locale):
            await add_pictures(interaction, {"attachments": [
                trade_picture(view, offerer.display_name, receiver.display_name)]})
        return view

    async def act(self, interaction: discord.Interaction, trade_id: int, action: str) -> None:
        """A trade button: do ``action`` as the clicker, then show the trade as it is now
        on its offer message (edited in place when that is the message clicked)."""
        guild = guild_of(interaction)
        do = {"accept": self.service.accept, "decline": self.service.decline,
              "cancel": self.service.cancel, "confirm": self.service.confirm}[action]
        async with self.lock(trade_id):
            try:
                view = await do(trade_id, interaction.user.id, guild=guild)
            except TradeProblem:
                await self._catch_up(trade_id, guild)
                raise
            where = await self.service.offer_message(trade_id)
            clicked = interaction.message
            if where is not None:
                target = (where.channel_id, where.message_id)
            elif clicked is not None:  # posted, but the bot stopped before recording it
                target = (clicked.channel.id, clicked.id)
            else:
                target = None
            if target is not None and clicked is not None and clicked.id == target[1]:
                with speaking(await channel_locale(interaction)):
                    parts = _edit_parts(view)
                await interaction.response.edit_message(**parts)
            else:
                await send(interaction, tr("collections.trade.now", trade=trade_id,
                                           summary=view.summary), ephemeral=True)
                if target is None or not await self._edit(*target, view):
                    return
            await self.service.offer_shown(view, *target)

    async def _catch_up(self, trade_id: int, guild: int) -> None:
        """After a refused click (under the trade's lock): if the trade has lapsed or
        changed since its message was edited, close what is due and edit the message
        now rather than at the next sweep. Best effort: the sweep stays the guarantee."""
        with contextlib.suppress(CollectionError):
            await self.service.expire_due()
            view = await self.service.trade(trade_id, guild)
            where = await self.service.offer_message(trade_id)
            if where is not None and where.shown != view.face and await self._edit(
                    where.channel_id, where.message_id, view):
                await self.service.offer_shown(view, where.channel_id, where.message_id)

    async def sweep(self) -> int:
        """Close the trades past their expiry, then edit every offer message that shows
        its trade as it no longer is; how many were edited."""
        await self.service.expire_due()
        edited = 0
        for message, seen in await self.service.offers_behind():
            async with self.lock(message.trade_id):
                # Read again under the lock: a click may have edited it meanwhile.
                view = await self.service.trade(message.trade_id, seen.guild)
                now = await self.service.offer_message(message.trade_id)
                if now is None or now.shown == view.face:
                    continue
                if await self._edit(now.channel_id, now.message_id, view):
                    await self.service.offer_shown(view, now.channel_id, now.message_id)
                    edited += 1
        return edited

    async def run_sweeps(self) -> None:
        """Sweep at start (what changed while the bot was down) and then every
        :data:`SWEEP_SECONDS`, until cancelled. A failed sweep is logged and retried."""
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("trade sweep failed; trying again in %.0f s", SWEEP_SECONDS,
                            exc_info=True)
            await asyncio.sleep(SWEEP_SECONDS)

    async def _edit(self, channel_id: int, message_id: int, view: TradeView) -> bool:
        """Edit an offer message to show ``view``; ``False`` if Discord failed (it is
        tried again at the next sweep). A message deleted or out of reach counts as
        done: there is nothing left to keep true."""
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        languages = getattr(self.bot, "languages", None)
        locale = await languages.channel(view.guild or None) if languages else DEFAULT
        with speaking(locale):
            parts = _edit_parts(view)
        try:
            await message.edit(**parts)
        except (discord.NotFound, discord.Forbidden):
            log.info("trade %s: its offer message is gone", view.id)
        except discord.HTTPException as error:
            log.warning("trade %s: could not edit its offer message (%s)", view.id, error)
            return False
        return True


def _edit_parts(view: TradeView) -> dict[str, Any]:
    """What changes on an offer message: the embed and the buttons (the picture and
    the ping stay as posted)."""
    buttons = trade_buttons(view)
    release(buttons)  # DynamicItems only: answered from their ids, the view is not kept
    return {"embed": trade_embed(view), "view": buttons}


class TradeButton(Claimed, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=re.compile(
                      rf"cr:tr:(?P<trade>{ID}):(?P<action>accept|decline|cancel|confirm)")):
    """One of a trade's actions on its offer message. Who may do it is checked by the
    service against the stored trade; a stranger's click is refused privately."""

    LOOKS: ClassVar[dict[str, tuple[Text, discord.ButtonStyle]]] = {
        "accept": (Text("collections.trade.button.accept"), discord.ButtonStyle.success),
        "decline": (Text("collections.trade.button.decline"), discord.ButtonStyle.danger),
        "cancel": (Text("collections.trade.button.cancel"), discord.ButtonStyle.secondary),
        "confirm": (Text("collections.trade.button.confirm"), discord.ButtonStyle.primary),
    }
    """Each action's label (in the locale spoken when the button is made) and style."""

    def __init__(self, trade_id: int, action: str) -> None:
        words, style = self.LOOKS[action]
        label = words.in_locale(None)
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"cr:tr:{trade_id}:{action}"))
        self.trade_id, self.action = trade_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TradeButton:
        return cls(int(match["trade"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            await desk_of(interaction).act(interaction, self.trade_id, self.action)

        await guarded(interaction, act)


def trade_buttons(view: TradeView) -> discord.ui.View | None:
    """The buttons a trade's offer message has now (none once it is closed)."""
    actions = {"open": ("accept", "decline", "cancel"),
               "accepted": ("confirm", "cancel")}.get(view.status, ())
    if not actions:
        return None
    buttons = discord.ui.View(timeout=None)
    for action in actions:
        buttons.add_item(TradeButton(view.id, action))
    return buttons
