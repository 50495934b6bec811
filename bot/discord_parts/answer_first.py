"""Answering in time: Discord gives an interaction 3 s to be acknowledged, every request
to Discord takes a quarter of a second or so, and a picture is drawn in a worker thread
that may be busy with other pictures (every table's, every pack's). So an answer with a
picture is sent at once with its words, and the picture is added to it afterwards, by
editing the answer (the interaction's own webhook: no channel's edit bucket is spent).
What the person sees comes at once; the picture follows a moment later.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord_parts.replies import drawn, for_edit, for_send, send

log = logging.getLogger(__name__)

ATTACHED = "attachment://"


def without_pictures(parts: dict[str, Any]) -> dict[str, Any]:
    """Message parts without their attachments, and without the embeds' images that
    show them (an image of a file not sent yet would show nothing).

    >>> embed = discord.Embed(title="Pack").set_image(url="attachment://pack.png")
    >>> words = without_pictures({"embed": embed, "attachments": ["pack.png"]})
    >>> words["embed"].image.url, "attachments" in words, embed.image.url
    (None, False, 'attachment://pack.png')
    """
    out = {key: value for key, value in parts.items() if key != "attachments"}
    if isinstance(out.get("embed"), discord.Embed):
        out["embed"] = _imageless(out["embed"])
    if out.get("embeds"):
        out["embeds"] = [_imageless(embed) for embed in out["embeds"]]
    return out


def _imageless(embed: discord.Embed) -> discord.Embed:
    if not (embed.image.url or "").startswith(ATTACHED):
        return embed
    return discord.Embed.from_dict(embed.to_dict()).set_image(url=None)


async def add_pictures(interaction: discord.Interaction, parts: dict[str, Any]) -> bool:
    """Draw ``parts``' pictures and edit the interaction's answer to show them; ``False``
    if Discord refused (the answer keeps its words: logged, not raised)."""
    try:
        await interaction.edit_original_response(**for_edit(await drawn(parts)))
    except discord.HTTPException as error:
        log.warning("interaction %s: its picture could not be added (%s)", interaction.id,
                    error)
        return False
    return True


async def send_then_draw(interaction: discord.Interaction, parts: dict[str, Any], *,
                         ephemeral: bool = True) -> None:
    """Answer with ``parts``: their words at once, their pictures once drawn."""
    if interaction.response.is_done() or not parts.get("attachments"):
        await send(interaction, ephemeral=ephemeral, **for_send(await drawn(parts)))
        return
    await send(interaction, ephemeral=ephemeral, **for_send(without_pictures(parts)))
    await add_pictures(interaction, parts)
