"""Persistent buttons and menus. Their custom ids carry the match id (and the
step they were made for), so they keep working after a restart: discord.py's
``DynamicItem`` rebuilds them from the id alone.

Every id is checked before anything happens: numbers are ASCII digits of a
bounded length (the templates), the table's own buttons only work in the
table's channel, and the items of a private menu only in a DM or an ephemeral
reply. A forged, stale or malformed one gets a refusal, privately, and changes
nothing; see also :func:`known_custom_id` for ids no item claims."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

import discord

from bot.discord_parts import bounds
from bot.discord_parts.limits import MENU_OPTIONS
from bot.discord_parts.replies import (
    for_send,
    guarded,
    input_label,
    menu_options,
    modal_title,
    placeholder,
    send,
)
from bot.errors import NotAllowed, NotSeated, StaleChoice
from bot.i18n import Text, say, tr
from bot.matches.live import LiveMatch, Player
from rules.core import AMOUNT_SEP, LIST_SEP, MAX_CHOICE
from rules.errors import MalformedChoice, shown

if TYPE_CHECKING:
    from bot.discord_side.client import CroupierBot


def player_of(interaction: discord.Interaction) -> Player:
    """Who clicked, with moderator rights when they manage the server or messages."""
    user = interaction.user
    perms = getattr(user, "guild_permissions", None)
    moderator = bool(perms and (perms.manage_guild or perms.manage_messages))
    return Player(user.id, user.display_name, is_moderator=moderator)


def croupier(interaction: discord.Interaction) -> CroupierBot:
    """The bot behind an interaction."""
    return cast("CroupierBot", interaction.client)


ID = bounds.ID
"""A Discord id or a match id in a custom id: ASCII digits, no larger than a stored id."""
SMALL = "[0-9]{1,6}"
"""A step, a menu number or a page in a custom id."""
WORD = "[a-z]{1,12}"
"""A short choice carried by a button's id (``pass``, ``end``, ``none``)."""


class Claimed:
    """Mixed into our ``DynamicItem`` classes: keeps the class's template, so
    that :func:`known_custom_id` can tell which custom ids are ours."""

    pattern: ClassVar[re.Pattern[str]]

    def __init_subclass__(cls, *, template: re.Pattern[str], **kwargs: Any) -> None:
        super().__init_subclass__(template=template, **kwargs)  # type: ignore[call-arg]
        cls.pattern = template


def private_message(interaction: discord.Interaction) -> bool:
    """Whether the clicked message is private: a DM, or an ephemeral reply."""
    message = interaction.message
    return interaction.guild_id is None or (message is not None and message.flags.ephemeral)


async def table_match(interaction: discord.Interaction, match_id: int,
                      step: int | None = None) -> LiveMatch:
    """The match of a table's button, refusing one clicked outside its channel
    (``step``: the step the button was made for; see ``MatchService.current``)."""
    match = await croupier(interaction).service.current(match_id, step=step)
    if interaction.channel_id != match.row.channel_id:
        raise NotAllowed(Text("error.other_channel"))
    return match


def require_private(interaction: discord.Interaction) -> None:
    """Refuse an item of a private menu that turns up on a public message."""
    if not private_message(interaction):
        raise NotAllowed(Text("error.private_menu"))


class LobbyButton(Claimed, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=re.compile(rf"cr:lobby:(?P<action>join|leave|start):(?P<match>{ID})")):
    """Join, Leave and Start on a lobby table."""

    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
    }

    def __init__(self, action: str, match_id: int) -> None:
        style = self.STYLES[action]
        label = (tr("lobby.button.join") if action == "join"
                 else tr("lobby.button.leave") if action == "leave"
                 else tr("lobby.button.start"))
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
            channel_id = (await table_match(interaction, self.match_id)).row.channel_id
            player = player_of(interaction)
            if self.action == "join":
                await service.join(player, channel_id)
            elif self.action == "leave":
                await service.leave(player, channel_id)
            else:
                await service.start(player, channel_id)
            await interaction.response.defer()

        await guarded(interaction, act)


class HandButton(Claimed, discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=re.compile(rf"cr:hand:(?P<match>{ID})")):
    """"My hand": the caller's private view as an ephemeral message."""

    def __init__(self, match_id: int) -> None:
        super().__init__(discord.ui.Button(label=tr("table.my_hand"), emoji="🂠",
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
            match = await table_match(interaction, self.match_id)
            view = bot.service.private_view_of(player_of(interaction), match)
            await send(interaction, ephemeral=True, **for_send(bot.presenters.private(match, view)))

        await guarded(interaction, act)


class ChoiceSelect(Claimed, discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=re.compile(
                       rf"cr:pick:(?P<match>{ID}):(?P<step>{SMALL}):(?P<n>{SMALL})")):
    """A menu of legal choices for one step. The option values are the choices
    in the game's notation (several picked at once are one choice, joined by
    commas); ``n`` tells several menus of one step apart."""

    def __init__(self, match_id: int, step: int, n: int = 0,
                 options: Sequence[discord.SelectOption] = (),
                 placeholder: str | None = None, secret: bool = False,
                 least: int = 1, most: int = 1) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"cr:pick:{match_id}:{step}:{n}", options=list(options),
            placeholder=placeholder, min_values=least, max_values=most))
        self.match_id = match_id
        self.step = step
        self.secret = secret

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChoiceSelect:
        options = getattr(item, "options", ())
        return cls(int(match["match"]), int(match["step"]), int(match["n"]), options,
                   secret=private_message(interaction),
                   least=getattr(item, "min_values", 1), most=getattr(item, "max_values", 1))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            choice = LIST_SEP.join(self.item.values)
            bot = croupier(interaction)
            if not self.secret:
                await table_match(interaction, self.match_id, self.step)
            ack = await bot.service.submit(interaction.user.id, self.match_id, choice,
                                           interaction_id=str(interaction.id), step=self.step)
            if self.secret:
                # A DM or ephemeral menu: replace it with the confirmation.
                await interaction.response.edit_message(
                    content=bot.presenters.acknowledge(ack), view=None)
            elif ack.duplicate:
                await send(interaction, tr("table.ack.duplicate"))
            else:
                # The table message itself: its edit (by the match's publisher) is the answer.
                await interaction.response.defer()

        await guarded(interaction, act)


async def _pending_view(interaction: discord.Interaction, match_id: int, step: int) -> Any:
    """The clicker's private view, refusing a picker made for an earlier step or
    one that is not on a private message."""
    require_private(interaction)
    bot = croupier(interaction)
    match = await bot.service.current(match_id, step=step)
    seat = match.seat_of(interaction.user.id)
    if seat is None:
        raise NotSeated()
    if match.state is None or match.state.step != step:
        raise StaleChoice()
    return match, match.private_view(seat.seat)


class OptionPicker(Claimed, discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=re.compile(rf"cr:keys:(?P<match>{ID}):(?P<step>{SMALL})")):
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
            match, view = await _pending_view(interaction, self.match_id, self.step)
            parts = croupier(interaction).presenters.option_page(match, view,
                                                                 self.item.values[0], 0)
            await send(interaction, ephemeral=True, **parts)

        await guarded(interaction, act)


class PageButton(Claimed, discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=re.compile(rf"cr:page:(?P<match>{ID}):(?P<step>{SMALL}):"
                                     rf"(?P<key>[A-Za-z0-9_-]{{1,40}}):(?P<page>{SMALL})")):
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
                   getattr(item, "label", None) or tr("table.page_button"))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            match, view = await _pending_view(interaction, self.match_id, self.step)
            parts = croupier(interaction).presenters.option_page(match, view, self.key,
                                                                 self.page)
            await interaction.response.edit_message(**parts)

        await guarded(interaction, act)


class ChoiceButton(Claimed, discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=re.compile(rf"cr:do:(?P<match>{ID}):(?P<step>{SMALL}):"
                                       rf"(?P<choice>{WORD})")):
    """One choice of a private decision as a button ("Pass", "End turn", "No
    blockers"): the choice itself, a short word of the game's notation, is in
    the id."""

    def __init__(self, match_id: int, step: int, choice: str, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label or choice, style=style,
                                           custom_id=f"cr:do:{match_id}:{step}:{choice}"))
        self.match_id, self.step, self.choice = match_id, step, choice

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChoiceButton:
        return cls(int(match["match"]), int(match["step"]), match["choice"],
                   getattr(item, "label", None) or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            require_private(interaction)
            bot = croupier(interaction)
            ack = await bot.service.submit(interaction.user.id, self.match_id, self.choice,
                                           interaction_id=str(interaction.id), step=self.step)
            await interaction.response.edit_message(content=bot.presenters.acknowledge(ack),
                                                    view=None)

        await guarded(interaction, act)


SPLIT_FIELDS = 5
"""Text inputs a modal holds (Discord's limit): a split among more is typed."""


class SplitButton(Claimed, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=re.compile(rf"cr:split:(?P<match>{ID}):(?P<step>{SMALL})")):
    """Opens the form for a split (damage among blockers, say): one number per
    option. The form's answer is read by :func:`split_answer`."""

    def __init__(self, match_id: int, step: int, label: str = "") -> None:
        label = label or tr("table.split")
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                           custom_id=f"cr:split:{match_id}:{step}"))
        self.match_id, self.step = match_id, step

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> SplitButton:
        return cls(int(match["match"]), int(match["step"]),
                   getattr(item, "label", None) or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            match, view = await _pending_view(interaction, self.match_id, self.step)
            decision = view.decision
            if decision is None or decision.pick != "split" or \
                    len(decision.options) > SPLIT_FIELDS:
                raise StaleChoice()
            labels = croupier(interaction).presenters.option_labels(match, view)
            await interaction.response.send_modal(
                SplitForm(self.match_id, self.step, say(decision.prompt, names=match.names),
                          decision.options, labels))

        await guarded(interaction, act)


class SplitForm(discord.ui.Modal):
    """The split's form. Nothing is kept here: its answer is handled by
    :func:`split_answer` from the form's custom id, so that it counts after a
    restart too."""

    def __init__(self, match_id: int, step: int, title: str, options: Sequence[str],
                 labels: Sequence[str]) -> None:
        super().__init__(title=modal_title(title, tr("table.divide_title")),
                         custom_id=f"cr:splitform:{match_id}:{step}", timeout=900)
        for option, label in zip(options, labels, strict=True):
            self.add_item(discord.ui.TextInput(label=input_label(label, option), custom_id=option,
                                               required=False, max_length=4,
                                               placeholder="0"))


SPLIT_FORM = re.compile(rf"cr:splitform:(?P<match>{ID}):(?P<step>{SMALL})")


def _inputs(components: Any) -> list[tuple[str, str]]:
    """Every ``(custom_id, value)`` text input of a submitted form, however nested."""
    found: list[tuple[str, str]] = []
    if isinstance(components, list):
        for part in components:
            found += _inputs(part)
    elif isinstance(components, dict):
        if isinstance(components.get("value"), str) and isinstance(components.get("custom_id"),
                                                                   str):
            found.append((components["custom_id"], components["value"]))
        for key in ("components", "component"):
            found += _inputs(components.get(key))
    return found


async def split_answer(interaction: discord.Interaction) -> bool:
    """Answer a submitted split form, if it is one of ours: its numbers become a
    split choice (``7=2,p2=1``) that the rules check like a typed one.
    ``False`` for a form that is not ours."""
    data = interaction.data or {}
    found = SPLIT_FORM.fullmatch(str(data.get("custom_id", "")))
    if found is None:
        return False

    async def act() -> None:
        parts = []
        for option, value in _inputs(data.get("components")):
            value = value.strip()
            if value and not (value.isascii() and value.isdigit()):
                # Only a number: a field must not add options of its own ("1,y=2").
                raise MalformedChoice(Text("table.error.not_number", value=shown(value[:20])))
            if value.strip("0"):
                parts.append(f"{option}{AMOUNT_SEP}{int(value)}")
        bot = croupier(interaction)
        ack = await bot.service.submit(interaction.user.id, int(found["match"]),
                                       LIST_SEP.join(parts)[:MAX_CHOICE],
                                       interaction_id=str(interaction.id),
                                       step=int(found["step"]))
        await send(interaction, bot.presenters.acknowledge(ack), ephemeral=True)

    await guarded(interaction, act)
    return True


DYNAMIC_ITEMS = (LobbyButton, HandButton, ChoiceSelect, OptionPicker, PageButton, ChoiceButton,
                 SplitButton)


def known_custom_id(custom_id: str, items: Sequence[type[Claimed]]) -> bool:
    """Whether one of ``items`` claims ``custom_id``.

    >>> known_custom_id("cr:hand:12", DYNAMIC_ITEMS), known_custom_id("cr:hand:٣", DYNAMIC_ITEMS)
    (True, False)
    """
    return any(item.pattern.fullmatch(custom_id) for item in items)


def on_message(interaction: discord.Interaction) -> bool:
    """Whether the clicked component is really on the clicked message (discord.py
    answers only those; a forged one would go unanswered)."""
    data = interaction.data or {}
    custom_id = data.get("custom_id")
    message = interaction.message
    if message is None:
        return False
    view = discord.ui.View.from_message(message, timeout=None)
    found = any(getattr(item, "custom_id", None) == custom_id for item in view.walk_children())
    view.stop()
    return found


def choice_menus(match_id: int, step: int, groups: Sequence[tuple[str, Sequence[tuple[str, str]]]],
                 *, secret: bool = False, least: int = 1, most: int = 1) -> list[ChoiceSelect]:
    """Select menus for a step: one per ``(placeholder, [(label, choice), …])``
    group with 1–25 options (Discord's limit); larger groups are left to
    slash commands. ``least``/``most`` let several options be picked at once.
    Labels and placeholders are fitted to Discord's limits here, whatever the
    game's words (:func:`~bot.discord_parts.replies.menu_options`)."""
    menus = []
    for n, (prompt, entries) in enumerate(groups):
        if not 0 < len(entries) <= MENU_OPTIONS:
            continue
        options = menu_options(entries)
        menus.append(ChoiceSelect(match_id, step, n, options, placeholder(prompt), secret,
                                  least=min(least, len(options)),
                                  most=min(most, len(options))))
    return menus
