"""Persistent buttons and menus. Their custom ids carry the match id (and the
step they were made for), so they keep working after a restart: discord.py's
``DynamicItem`` rebuilds them from the id alone."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

import discord

from bot.errors import NotSeated, StaleChoice
from bot.live import Player
from bot.replies import for_send, guarded, send

if TYPE_CHECKING:
    from bot.client import CroupierBot


def player_of(interaction: discord.Interaction) -> Player:
    """Who clicked, with moderator rights when they manage the server or messages."""
    user = interaction.user
    perms = getattr(user, "guild_permissions", None)
    moderator = bool(perms and (perms.manage_guild or perms.manage_messages))
    return Player(user.id, user.display_name, is_moderator=moderator)


def croupier(interaction: discord.Interaction) -> CroupierBot:
    """The bot behind an interaction."""
    return cast("CroupierBot", interaction.client)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"cr:lobby:(?P<action>join|leave|start):(?P<match>\d+)"):
    """Join, Leave and Start on a lobby table."""

    LABELS: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "join": ("Join", discord.ButtonStyle.success),
        "leave": ("Leave", discord.ButtonStyle.secondary),
        "start": ("Start", discord.ButtonStyle.primary),
    }

    def __init__(self, action: str, match_id: int) -> None:
        label, style = self.LABELS[action]
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=f"cr:lobby:{action}:{match_id}"))
        self.action = action
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LobbyButton:
        return cls(match["action"], int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            service = croupier(interaction).service
            channel_id = service.get(self.match_id).row.channel_id
            player = player_of(interaction)
            if self.action == "join":
                await service.join(player, channel_id)
            elif self.action == "leave":
                await service.leave(player, channel_id)
            else:
                await service.start(player, channel_id)
            await interaction.response.defer()

        await guarded(interaction, act)


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"cr:hand:(?P<match>\d+)"):
    """"My hand": the caller's private view as an ephemeral message."""

    def __init__(self, match_id: int) -> None:
        super().__init__(discord.ui.Button(label="My hand", emoji="🂠",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"cr:hand:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> HandButton:
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            bot = croupier(interaction)
            match = bot.service.get(self.match_id)
            view = bot.service.private_view(player_of(interaction), match.row.channel_id)
            await send(interaction, ephemeral=True, **for_send(bot.presenters.private(match, view)))

        await guarded(interaction, act)


class ChoiceSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"cr:pick:(?P<match>\d+):(?P<step>\d+):(?P<n>\d+)"):
    """A menu of legal choices for one step. The option values are the choices
    in the game's notation; ``n`` tells several menus of one step apart."""

    def __init__(self, match_id: int, step: int, n: int = 0,
                 options: Sequence[discord.SelectOption] = (),
                 placeholder: str | None = None, secret: bool = False) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"cr:pick:{match_id}:{step}:{n}", options=list(options),
            placeholder=placeholder, min_values=1, max_values=1))
        self.match_id = match_id
        self.step = step
        self.secret = secret

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChoiceSelect:
        options = getattr(item, "options", ())
        secret = interaction.guild_id is None or (
            interaction.message is not None and interaction.message.flags.ephemeral)
        return cls(int(match["match"]), int(match["step"]), int(match["n"]), options,
                   secret=secret)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            choice = self.item.values[0]
            bot = croupier(interaction)
            ack = await bot.service.submit(interaction.user.id, self.match_id, choice,
                                           interaction_id=str(interaction.id), step=self.step)
            if self.secret:
                # A DM or ephemeral menu: replace it with the confirmation.
                await interaction.response.edit_message(
                    content=bot.presenters.acknowledge(ack), view=None)
            elif ack.duplicate:
                await send(interaction, "That choice was already recorded.")
            else:
                # The table message itself: its edit (by the match's publisher) is the answer.
                await interaction.response.defer()

        await guarded(interaction, act)


def _pending_view(interaction: discord.Interaction, match_id: int, step: int) -> Any:
    """The clicker's private view, refusing a picker made for an earlier step."""
    bot = croupier(interaction)
    match = bot.service.get(match_id)
    seat = match.seat_of(interaction.user.id)
    if seat is None:
        raise NotSeated()
    if match.state is None or match.state.step != step:
        raise StaleChoice()
    return match, match.private_view(seat.seat)


class OptionPicker(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"cr:keys:(?P<match>\d+):(?P<step>\d+)"):
    """First half of a choice among many options: pick a group (a tile, say);
    the reply lists that group's options, a page of menus at a time."""

    def __init__(self, match_id: int, step: int,
                 options: Sequence[discord.SelectOption] = (),
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"cr:keys:{match_id}:{step}",
                                           options=list(options), placeholder=placeholder))
        self.match_id = match_id
        self.step = step

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> OptionPicker:
        return cls(int(match["match"]), int(match["step"]), getattr(item, "options", ()))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            match, view = _pending_view(interaction, self.match_id, self.step)
            parts = croupier(interaction).presenters.option_page(match, view,
                                                                 self.item.values[0], 0)
            await send(interaction, ephemeral=True, **parts)

        await guarded(interaction, act)


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"cr:page:(?P<match>\d+):(?P<step>\d+):(?P<key>[\w-]+):(?P<page>\d+)"):
    """Turns the page of a group's options."""

    def __init__(self, match_id: int, step: int, key: str, page: int, label: str) -> None:
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary,
            custom_id=f"cr:page:{match_id}:{step}:{key}:{page}"))
        self.match_id, self.step, self.key, self.page = match_id, step, key, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PageButton:
        return cls(int(match["match"]), int(match["step"]), match["key"], int(match["page"]),
                   getattr(item, "label", None) or "Page")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            match, view = _pending_view(interaction, self.match_id, self.step)
            parts = croupier(interaction).presenters.option_page(match, view, self.key,
                                                                 self.page)
            await interaction.response.edit_message(**parts)

        await guarded(interaction, act)


DYNAMIC_ITEMS = (LobbyButton, HandButton, ChoiceSelect, OptionPicker, PageButton)


def choice_menus(match_id: int, step: int, groups: Sequence[tuple[str, Sequence[tuple[str, str]]]],
                 *, secret: bool = False) -> list[ChoiceSelect]:
    """Select menus for a step: one per ``(placeholder, [(label, choice), …])``
    group with 1–25 options (Discord's limit); larger groups are left to
    slash commands."""
    menus = []
    for n, (placeholder, entries) in enumerate(groups):
        if not 0 < len(entries) <= 25:
            continue
        options = [discord.SelectOption(label=label, value=value) for label, value in entries]
        menus.append(ChoiceSelect(match_id, step, n, options, placeholder, secret))
    return menus
