"""The one place where refusals become friendly ephemeral replies, and where
every message is fitted into Discord's limits whatever it repeats."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import discord
from discord import app_commands

from bot.discord_parts.bounds import STALE, OutOfBounds
from bot.discord_parts.limits import (
    CONTENT,
    EMBED_DESCRIPTION,
    EMBED_TITLE,
    EMBED_TOTAL,
    FIELD_NAME,
    FIELD_VALUE,
    FIELDS,
    FOOTER,
    INPUT_LABEL,
    MODAL_TITLE,
    OPTION_TEXT,
    PLACEHOLDER,
)
from bot.errors import CroupierError, said
from bot.i18n import DEFAULT, Text, locale_of, number, speak, translate
from bot.recent import RecentIds
from rules.errors import RulesError
from rules.words import clip

log = logging.getLogger(__name__)

UNEXPECTED = Text("reply.unexpected")
DISCORD_FAILED = Text("reply.discord_failed")
"""Said when answering failed: the choice may well be committed by then, so
neither says that nothing was changed."""
ALREADY_ACKNOWLEDGED = 40060
"""Discord's error code when an interaction is answered a second time."""

LATE_AFTER = 2.5
"""An interaction older than this when it reaches the bot is not acted on: what
is left of the 3 s Discord gives to acknowledge it would not cover committing a choice and
answering it, and a choice committed but not answered shows the player "This
interaction failed" while it counted."""
CLOCK_SKEW = 60.0
"""An interaction older than this says the clock is wrong, not the delivery late."""

RECENT_INTERACTIONS = 4096
"""Interaction ids a bot remembers having begun to handle: Discord may deliver one
twice (after a gateway resume); the repeat must not be handled again, and cannot be
answered anyway."""

NOBODY = discord.AllowedMentions.none()
"""What a message pings unless it says otherwise: nobody. Names people choose (a
nickname ``<@someone>`` or "@everyone", a tournament's name) are echoed in public
replies, and echoing a name must never ping anyone. The client's default, and what
:func:`send` gives a follow-up (discord.py does not apply the client's default to
interaction follow-ups); a message that means to ping names its people with
:func:`ping`."""


def ping(users: Sequence[int]) -> discord.AllowedMentions:
    """Mentions that ping exactly ``users``: nobody else, no role, never @everyone
    or @here, whatever else the message's text contains.

    >>> ping([12, 34, 12]).to_dict()
    {'users': [12, 34], 'parse': []}
    """
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(u) for u in dict.fromkeys(users)])


def _clip(text: str | None, limit: int) -> str | None:
    return None if text is None else clip(text, limit)


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """``embed`` cut to Discord's limits: each part to its own, then the fields
    that would pass the total are dropped (the last kept one says so).

    >>> e = discord.Embed(title="t" * 300, description="d" * 5000)
    >>> for _ in range(30):
    ...     _ = e.add_field(name="n" * 300, value="v" * 2000)
    >>> fitted = fit_embed(e)
    >>> len(fitted.title), len(fitted.description), len(fitted) <= EMBED_TOTAL
    (256, 4096, True)
    """
    embed.title = _clip(embed.title, EMBED_TITLE)
    embed.description = _clip(embed.description, EMBED_DESCRIPTION)
    if embed.footer.text:
        embed.set_footer(text=_clip(embed.footer.text, FOOTER), icon_url=embed.footer.icon_url)
    if embed.author.name:
        embed.set_author(name=_clip(embed.author.name, EMBED_TITLE), url=embed.author.url,
                         icon_url=embed.author.icon_url)
    fields = [(_clip(f.name, FIELD_NAME) or "\u200b", _clip(f.value, FIELD_VALUE) or "\u200b",
               bool(f.inline)) for f in embed.fields[:FIELDS]]
    embed.clear_fields()
    for name, value, inline in fields:
        embed.add_field(name=name, value=value, inline=inline)
    while len(embed) > EMBED_TOTAL and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    if len(embed) > EMBED_TOTAL:
        embed.description = _clip(embed.description,
                                 max(1, len(embed.description or "") - (len(embed) - EMBED_TOTAL)))
    return embed


def menu_options(entries: Iterable[tuple[str, str]]) -> list[discord.SelectOption]:
    """Select options for ``(label, value)`` pairs, fitted to Discord's limits: a label
    clipped to 100 characters, a blank one showing its value instead (Discord refuses
    a blank label). A value is the bot's own key and is never cut, since a cut value
    would choose something else: one Discord would refuse is a bug, raised here.

    >>> blank, long = menu_options([("", "a"), ("b" * 150, "b")])
    >>> blank.label, len(long.label), long.label[-1]
    ('a', 100, '…')
    """
    options = []
    for label, value in entries:
        if not 0 < len(value) <= OPTION_TEXT:
            raise ValueError(f"a menu option's value must be 1-{OPTION_TEXT} characters: "
                             f"{value!r}")
        options.append(discord.SelectOption(label=clip(label.strip() or value, OPTION_TEXT),
                                            value=value))
    return options


def placeholder(text: str, suffix: str = "") -> str:
    """A select menu's placeholder within Discord's 150 characters, ``suffix`` (a page
    count, say) kept whole.

    >>> len(placeholder("p" * 200, " (1/2)")), placeholder("Pick", " (1/2)")
    (150, 'Pick (1/2)')
    """
    return clip(text, PLACEHOLDER - len(suffix)) + suffix


def modal_title(text: str, fallback: str) -> str:
    """A modal's title: ``text`` within Discord's 1-45 characters, ``fallback`` if blank."""
    return clip(text.strip() or fallback, MODAL_TITLE)


def input_label(text: str, fallback: str) -> str:
    """A text input's label: ``text`` within Discord's 1-45 characters, ``fallback`` (the
    input's own key, say) if blank."""
    return clip(text.strip() or fallback, INPUT_LABEL)


def fit(parts: dict[str, Any]) -> dict[str, Any]:
    """Message parts (content, embed, embeds …) cut to Discord's limits."""
    out = dict(parts)
    if isinstance(out.get("content"), str):
        out["content"] = clip(out["content"], CONTENT)
    if isinstance(out.get("embed"), discord.Embed):
        out["embed"] = fit_embed(out["embed"])
    if out.get("embeds"):
        out["embeds"] = [fit_embed(e) for e in out["embeds"]]
    return out


def _cause(error: BaseException) -> BaseException:
    """What failed inside a command (discord.py wraps it in ``CommandInvokeError``)."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        return error.__cause__ or error
    return error


def already_acknowledged(error: BaseException) -> bool:
    """Whether ``error`` is Discord refusing a second answer to one interaction
    (a duplicate delivery, or a retried request Discord had already performed):
    expected, not a fault."""
    error = _cause(error)
    return isinstance(error, discord.HTTPException) and error.code == ALREADY_ACKNOWLEDGED


def answering_failed(error: BaseException) -> bool:
    """Whether ``error`` is Discord failing or refusing a request (an answer, an
    edit): Discord's trouble or a late answer, not a fault of ours.

    >>> answering_failed(ValueError("x"))
    False
    """
    return isinstance(_cause(error),
                      discord.HTTPException | discord.RateLimited | TimeoutError)


def message_for(error: BaseException, locale: str | None = DEFAULT) -> str | None:
    """The text to show a reader of ``locale`` for an expected refusal, or ``None`` for
    a real fault.

    >>> from bot.errors import AlreadySeated
    >>> message_for(AlreadySeated(), "pt_BR")
    'Você já tem um lugar nesta mesa.'
    >>> message_for(ValueError("boom")) is None
    True
    """
    error = _cause(error)
    if isinstance(error, CroupierError | RulesError | OutOfBounds):
        return said(error, locale)
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return STALE.in_locale(locale)
    if isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
        return str(error) or translate("reply.not_allowed", locale)
    if isinstance(error, app_commands.CommandOnCooldown):
        return translate("reply.cooldown", locale,
                         seconds=number(error.retry_after, locale, digits=0))
    return None


def reader_locale(interaction: discord.Interaction) -> str:
    """The locale of the person who clicked or typed (``Interaction.locale``): what a
    reply only they see is written in."""
    return locale_of(getattr(interaction, "locale", None))


async def hear(interaction: discord.Interaction) -> str:
    """Speak the reader's locale for the rest of this interaction's handling (its task:
    :func:`bot.i18n.speak`), and remember it for what is later sent to them unasked
    (:class:`bot.settings.languages.Languages`); the locale."""
    locale = speak(reader_locale(interaction))
    languages = getattr(interaction.client, "languages", None)
    if languages is not None and interaction.user is not None:
        await languages.heard(interaction.user.id, locale)
    return locale


async def channel_locale(interaction: discord.Interaction) -> str:
    """The language of what the interaction's channel sees (the server's: a lobby, a
    table, a public reply), for ``with speaking(...)`` around what is made for it."""
    languages = getattr(interaction.client, "languages", None)
    if languages is None:
        return reader_locale(interaction)
    return await languages.channel(interaction.guild_id)


async def send(interaction: discord.Interaction, content: str | None = None, *,
               ephemeral: bool = True, **kwargs: Any) -> None:
    """Answer an interaction, as a follow-up if it was already answered; the
    message is fitted into Discord's limits first."""
    parts = fit({"content": content, **kwargs})
    content = parts.pop("content")
    kwargs = parts
    kwargs.setdefault("allowed_mentions", NOBODY)
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
    release(kwargs.get("view"))


def release(view: discord.ui.View | None) -> None:
    """Stop listening on a sent view if every interactive item on it is a ``DynamicItem``.

    Such items are answered from their custom ids alone (discord.py registers their classes),
    so the view object has no further use. Left alone, discord.py gives every *ephemeral*
    reply's view a 15-minute timeout and keeps it, its items and a task sleeping on that
    timeout alive until then: under load (``/hand``, "My hand") that is tens of thousands
    of live objects whose garbage collection pauses stall the event loop for hundreds of ms.
    Views with ordinary (non-dynamic) buttons or menus are left listening.
    """
    if not isinstance(view, discord.ui.View) or view.is_finished():
        return
    if all(isinstance(item, discord.ui.DynamicItem) or not item.is_dispatchable()
           for item in view.walk_children()):
        view.stop()


@dataclass(frozen=True)
class Drawing:
    """A picture a presenter has not drawn yet: its file name and how to draw it
    from a snapshot taken when the message was made, so that the drawing can be
    done off the event loop (:func:`drawn`) while other matches go on."""

    filename: str
    draw: Callable[[], bytes]

    def file(self) -> discord.File:
        """The picture drawn, as an attachment."""
        return discord.File(io.BytesIO(self.draw()), filename=self.filename)


async def drawn(parts: dict[str, Any]) -> dict[str, Any]:
    """Message parts with every :class:`Drawing` among the attachments drawn in a
    worker thread (Pillow lets go of the GIL while it encodes)."""
    attachments = parts.get("attachments") or []
    if not any(isinstance(a, Drawing) for a in attachments):
        return parts
    files = [await asyncio.to_thread(a.file) if isinstance(a, Drawing) else a
             for a in attachments]
    return {**parts, "attachments": files}


def for_send(parts: dict[str, Any]) -> dict[str, Any]:
    """Presenter message parts as arguments for sending a new message."""
    out = {k: v for k, v in fit(parts).items() if k != "attachments" and v is not None}
    if parts.get("attachments"):
        out["files"] = parts["attachments"]
    return out


def for_edit(parts: dict[str, Any]) -> dict[str, Any]:
    """Presenter message parts as arguments for editing a message in place."""
    return {**fit(parts), "attachments": parts.get("attachments") or []}


def stopping(interaction: discord.Interaction) -> bool:
    """Whether the bot that got ``interaction`` has begun to stop: what it was doing
    is cut short (its store closes, its session with Discord too), as expected."""
    return bool(getattr(interaction.client, "stopping", False))


async def reply_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user, privately, why nothing happened. A command cut short by the bot
    stopping is no fault: it is logged as such and answered no more (Discord tells the
    person it did not respond; the restarted bot carries on from what is stored)."""
    if already_acknowledged(error):
        log.info("interaction %s was already answered", interaction.id)
        return
    if stopping(interaction):
        log.info("interaction %s was cut short by the bot stopping (%s)", interaction.id,
                 type(_cause(error)).__name__)
        return
    locale = reader_locale(interaction)
    text = message_for(error, locale)
    if text is None and answering_failed(error):
        log.warning("interaction %s: Discord failed a request (%s)", interaction.id, error)
        text = DISCORD_FAILED.in_locale(locale)
    elif text is None:
        log.error("interaction %s failed", interaction.id, exc_info=error)
        text = UNEXPECTED.in_locale(locale)
    try:
        await send(interaction, translate("reply.refused", locale, text=text), ephemeral=True)
    except discord.HTTPException as failure:
        if not already_acknowledged(failure):
            log.warning("could not tell user %s about: %s", interaction.user.id, text)


async def refuse(interaction: discord.Interaction, text: Text) -> None:
    """Tell the person, privately and in their own language, that nothing was done
    and why (a refusal that is no exception: an unknown button, say)."""
    locale = reader_locale(interaction)
    await send(interaction, translate("reply.refused", locale, text=text.in_locale(locale)),
               ephemeral=True)


def too_late(interaction: discord.Interaction, now: datetime | None = None) -> bool:
    """Whether ``interaction`` is too old to be answered in time (Discord's 3 s,
    counted from the time in its id, less a margin: :data:`LATE_AFTER`). Such an
    interaction is not acted on: the player sees "This interaction failed" and
    tries again, and the second try must work. An age past :data:`CLOCK_SKEW`
    says this machine's clock is off, not that the interaction is late, so it
    is acted on.

    >>> from datetime import timedelta
    >>> made = discord.utils.snowflake_time(1_100_000_000_000_000_000)
    >>> class Clicked:
    ...     id = 1_100_000_000_000_000_000
    >>> too_late(Clicked(), made + timedelta(seconds=1))
    False
    >>> too_late(Clicked(), made + timedelta(seconds=2.9))
    True
    """
    made = discord.utils.snowflake_time(interaction.id)
    age = ((now or discord.utils.utcnow()) - made).total_seconds()
    if age > CLOCK_SKEW:
        log.warning("interaction %s is %.0f s old: is this machine's clock right?",
                    interaction.id, age)
        return False
    return age > LATE_AFTER


def first_in_time(interaction: discord.Interaction) -> bool:
    """Whether to handle ``interaction``: the first delivery of it (a repeat
    was answered already), and young enough to be answered (:func:`too_late`)."""
    recent = getattr(interaction.client, "recent_interactions", None)
    if isinstance(recent, RecentIds) and not recent.first(interaction.id):
        return False
    if too_late(interaction):
        log.warning("interaction %s came too late to be answered; not acted on",
                    interaction.id)
        return False
    return True


async def guarded(interaction: discord.Interaction,
                  action: Callable[[], Awaitable[None]]) -> None:
    """Run a component callback once per interaction, turning refusals into
    replies (component errors would otherwise only be logged by discord.py).
    A second delivery of the same interaction is dropped: it was answered; one
    too old to answer changes nothing (:func:`first_in_time`)."""
    if not first_in_time(interaction):
        return
    try:
        await hear(interaction)
        await action()
    except Exception as error:
        await reply_error(interaction, error)
