"""The reply helpers: sent views of persistent items are let go at once."""

from __future__ import annotations

import io
import threading

import discord

from bot.discord_parts.replies import Drawing, drawn, release
from bot.discord_parts.views import ChoiceSelect, HandButton


async def test_a_view_of_persistent_items_is_released_after_sending():
    view = discord.ui.View(timeout=900)
    view.add_item(HandButton(7))
    view.add_item(ChoiceSelect(7, 3, 0, [discord.SelectOption(label="a", value="a")]))
    release(view)
    assert view.is_finished()


async def test_a_view_with_an_ordinary_button_keeps_listening():
    view = discord.ui.View(timeout=900)
    view.add_item(HandButton(7))
    view.add_item(discord.ui.Button(label="plain", custom_id="plain"))
    release(view)
    assert not view.is_finished()
    release(None)                                 # nothing sent with a view: nothing to do


async def test_a_drawing_is_drawn_in_a_worker_thread_when_sent():
    drawn_in = []

    def draw() -> bytes:
        drawn_in.append(threading.current_thread())
        return b"\x89PNG picture"

    plain = discord.File(io.BytesIO(b"kept"), filename="kept.png")
    parts = await drawn({"content": None, "attachments": [Drawing("t.png", draw), plain]})
    assert drawn_in and drawn_in[0] is not threading.main_thread()
    made, kept = parts["attachments"]
    assert (made.filename, made.fp.read()) == ("t.png", b"\x89PNG picture")
    assert kept is plain
    nothing = {"content": "hi", "attachments": []}
    assert await drawn(nothing) is nothing
