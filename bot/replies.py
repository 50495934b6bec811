"""The one place where refusals become friendly ephemeral replies."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.errors import CroupierError
from rules.errors import RulesError

log = logging.getLogger(__name__)

UNEXPECTED = "Something went wrong on my side; nothing was changed. Please try again."


def message_for(error: BaseException) -> str | None:
    """The text to show for an expected refusal, or ``None`` for a real fault."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        error = error.__cause__ or error
    if isinstance(error, CroupierError | RulesError):
        return str(error)
    if isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
        return str(error) or "You are not allowed to do that here."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} s."
    return None


async def send(interaction: discord.Interaction, content: str | None = None, *,
               ephemeral: bool = True, **kwargs: Any) -> None:
    """Answer an interaction, as a follow-up if it was already answered."""
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


def for_send(parts: dict[str, Any]) -> dict[str, Any]:
    """Presenter message parts as arguments for sending a new message."""
    out = {k: v for k, v in parts.items() if k != "attachments" and v is not None}
    if parts.get("attachments"):
        out["files"] = parts["attachments"]
    return out


def for_edit(parts: dict[str, Any]) -> dict[str, Any]:
    """Presenter message parts as arguments for editing a message in place."""
    return {**parts, "attachments": parts.get("attachments") or []}


async def reply_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user, privately, why nothing happened."""
    text = message_for(error)
    if text is None:
        log.error("interaction %s failed", interaction.id, exc_info=error)
        text = UNEXPECTED
    try:
        await send(interaction, f"⚠️ {text}", ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell user %s about: %s", interaction.user.id, text)


async def guarded(interaction: discord.Interaction,
                  action: Callable[[], Awaitable[None]]) -> None:
    """Run a component callback, turning refusals into replies (component
    errors would otherwise only be logged by discord.py)."""
    try:
        await action()
    except Exception as error:
        await reply_error(interaction, error)
