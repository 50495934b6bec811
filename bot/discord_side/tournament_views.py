"""The tournament message: its words, and its buttons Join, Leave and Check in, as persistent items
``cr:tn:<tournament>:<action>`` that work after restarts. Each click is checked in code
by the service (the tournament must be the clicking person's server's, the action must
fit its status); a forged or stale id gets a private refusal and changes nothing. A click
is answered by updating the clicked message, then confirmed privately."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.discord_parts.limits import CONTENT
from bot.discord_parts.replies import channel_locale, guarded, refuse, send
from bot.discord_parts.views import ID, Claimed, croupier
from bot.discord_parts.web_links import web_page
from bot.discord_side.tournament_terms import format_words, member_of, status_words
from bot.i18n import Text, speaking, tr
from bot.tournaments.model import Member, TournamentError
from bot.tournaments.terms import entrant_name
from rules.registry import get_game
from rules.words import clip

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot

log = logging.getLogger(__name__)


class TournamentButton(Claimed, discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=re.compile(
                           rf"cr:tn:(?P<tournament>{ID}):(?P<action>join|leave|checkin)")):
    """Join, Leave or Check in on a tournament message."""

    LABELS: ClassVar[dict[str, tuple[Text, discord.ButtonStyle]]] = {
        "join": (Text("tournaments.button.join"), discord.ButtonStyle.success),
        "leave": (Text("tournaments.button.leave"), discord.ButtonStyle.secondary),
        "checkin": (Text("tournaments.button.checkin"), discord.ButtonStyle.primary),
    }
    DONE: ClassVar[dict[str, Text]] = {"join": Text("tournaments.reply.joined"),
                                       "leave": Text("tournaments.reply.left"),
                                       "checkin": Text("tournaments.reply.checked_in")}

    def __init__(self, tournament_id: int, action: str) -> None:
        label, style = self.LABELS[action]
        super().__init__(discord.ui.Button(label=label.in_locale(None), style=style,
                                           custom_id=f"cr:tn:{tournament_id}:{action}"))
        self.tournament_id = tournament_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TournamentButton:
        return cls(int(match["tournament"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            bot = croupier(interaction)
            who = member_of(interaction)
            tournament = await bot.tournaments.get(who, self.tournament_id)
            if interaction.message is None or interaction.message.id != tournament.message_id:
                await refuse(interaction, Text("error.tournament_other_message"))
                return
            if self.action == "join":
                await bot.tournaments.join(who, self.tournament_id)
            elif self.action == "leave":
                await bot.tournaments.leave(who, self.tournament_id)
            else:
                await bot.tournaments.checkin(who, self.tournament_id)
            # The answer is the clicked message itself, updated: no channel edit (those
            # share a bucket, and the next clicks would wait on it).
            async with bot.tournament_messages.editing(self.tournament_id):
                with speaking(await channel_locale(interaction)):
                    parts = await message_parts(bot, self.tournament_id, tournament.guild_id)
                await interaction.response.edit_message(**parts)
            await send(interaction, self.DONE[self.action].in_locale(None))

        await guarded(interaction, act)


TOURNAMENT_ITEMS = (TournamentButton,)


PAGE_LABEL = Text("tournaments.button.page")
"""The link button to the tournament's web page."""


def tournament_buttons(tournament_id: int, status: str,
                       page: str | None = None) -> discord.ui.View | None:
    """The buttons a tournament message carries in ``status`` (Join, Leave and Check in
    none once it starts), and a link to its web ``page`` when there is one, in the
    language spoken. A view without buttons clears the old ones."""
    actions = {"created": (), "open": ("join", "leave"),
               "checkin": ("join", "leave", "checkin")}.get(status, ())
    view = discord.ui.View(timeout=None)
    for action in actions:
        view.add_item(TournamentButton(tournament_id, action))
    if page is not None:
        view.add_item(discord.ui.Button(label=PAGE_LABEL.in_locale(None),
                                        style=discord.ButtonStyle.link,
                                        url=page))
    return view


async def page_link(bot: CroupierBot, tournament_id: int, guild_id: int) -> str | None:
    """The tournament's web page, if its server's pages are on and the bot knows its
    public address (``CROUPIER_WEB_URL``); none for an address longer than a link
    button takes."""
    return await web_page(bot.store, bot.settings.web_url, guild_id, "tournaments",
                          tournament_id)


# -- the tournament message -----------------------------------------------------------
async def message_parts(bot: CroupierBot, tournament_id: int, guild_id: int
                        ) -> dict[str, Any]:
    """The tournament message, in the language spoken (the channel's): what it is,
    where it stands, who entered; the Join, Leave and Check in buttons while
    registration is open; a link to its web page where the server has one."""
    who = Member(0, "Croupier", guild_id=guild_id)
    tournament = await bot.tournaments.get(who, tournament_id)
    entrants = await bot.tournaments.entrants(who, tournament_id)
    status = status_words(tournament.status)
    if tournament.status == "running":
        status = tr("tournaments.message.status_round", status=status, round=tournament.round)
    names = ", ".join(entrant_name(e.user_id, e.name)
                      + (" ✓" if e.checked_in and tournament.status == "checkin" else "")
                      for e in entrants) or tr("tournaments.message.nobody")
    content = tr("tournaments.message.content", name=tournament.name, id=tournament.id,
                 format=format_words(tournament.format), game=get_game(tournament.game).title,
                 status=status, entrants=len(entrants), names=names)
    return {"content": clip(content, CONTENT),
            "view": tournament_buttons(tournament.id, tournament.status,
                                       await page_link(bot, tournament.id, guild_id))}


async def refresh_message(bot: CroupierBot, tournament_id: int) -> None:
    """Edit the tournament message to its current state (if it was posted; not while
    the bot is closing: the next change edits it)."""
    if bot.tournaments.closing:
        return
    try:
        tournament = await bot.store.tournaments.get(tournament_id)
        if tournament is None or tournament.message_id is None:
            return
        with speaking(await bot.languages.channel(tournament.guild_id)):
            parts = await message_parts(bot, tournament_id, tournament.guild_id)
        channel = bot.get_partial_messageable(tournament.channel_id,
                                              guild_id=tournament.guild_id)
        await channel.get_partial_message(tournament.message_id).edit(
            content=parts["content"], view=parts["view"])
    except (discord.HTTPException, TournamentError):
        # Cosmetic: the action itself is done, and its notice must not be posted twice.
        log.info("tournament %s: its message could not be edited", tournament_id)
