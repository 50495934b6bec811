"""The README's invite link grants what the bot uses: every permission it names, the
integer it states (in the text and in the URL) computed from them, and at least the
permissions the bot's Discord calls need (a thread per tournament match included)."""

from __future__ import annotations

import re
from pathlib import Path

import discord

README = Path(__file__).resolve().parent.parent / "README.md"
USED = ("view_channel", "send_messages", "create_public_threads", "send_messages_in_threads",
        "embed_links", "attach_files", "read_message_history")
"""What the bot needs everywhere: reading and posting in channels and threads, tables
as embeds and pictures, a public thread per tournament match."""
FOR_CHANNELS = "manage_channels"
"""Only for tournaments with ``use_threads:false`` (a channel per match)."""


def _step() -> str:
    text = README.read_text(encoding="utf-8")
    return text[text.index("**OAuth2 → URL Generator**"):text.index("5. `make run`")]


def _named(step: str) -> set[str]:
    """The permissions the step names, as discord.py calls them."""
    listed = step[step.index("bot permissions"):step.index("(permissions integer")]
    words = re.sub(r"\s+", " ", listed.removeprefix("bot permissions")).replace(" and ", ", ")
    return {w.strip().lower().replace(" ", "_").replace("view_channels", "view_channel")
            for w in words.split(",") if w.strip()}


def test_the_invite_names_what_the_bot_uses_and_its_integers_add_up() -> None:
    step = " ".join(_step().split())
    named = _named(step)
    assert named == set(USED)
    value = discord.Permissions(**dict.fromkeys(named, True)).value
    integers = [int(n) for n in re.findall(r"integer `(\d+)`", step)]
    assert integers == [value, value | discord.Permissions(**{FOR_CHANNELS: True}).value]
    assert f"permissions={value}" in step
    assert "Manage Channels" in step and "use_threads:false" in step
