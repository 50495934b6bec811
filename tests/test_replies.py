"""The reply helpers: sent views of persistent items are let go at once."""

from __future__ import annotations

import discord

from bot.replies import release
from bot.views import ChoiceSelect, HandButton


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
