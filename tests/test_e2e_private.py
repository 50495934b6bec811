"""End to end: secret simultaneous choices by DM, and the "My hand" fallback when a
player's DMs are closed — with the small secret-choice game that lives in tests/."""

from __future__ import annotations

import json
import re

import tests.simgame  # noqa: F401  (registers the secret-choice test game)
from tests.e2e import make_bot, select_ids, table_message


def channel_text(channel) -> str:
    """Everything ever shown in the channel: every message, and every earlier version
    of an edited one (content and embeds as JSON)."""
    parts = []
    for message in channel.messages:
        parts.append(message.text)
        parts += [f"{old.content} {json.dumps(old.embeds)}" for old in message.history]
    return "\n".join(parts)


async def test_secret_choices_by_dm_and_the_hand_fallback(fake_discord, tmp_path):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("secret-table")
    ada, bo = fake_discord.add_user("Ada"), fake_discord.add_user("Bo")
    fake_discord.set_dms_closed(bo)
    bot = make_bot(tmp_path / "secret.sqlite3")
    async with fake_discord.running(bot):
        await fake_discord.slash(ada, channel, "play secret")
        await fake_discord.slash(bo, channel, "join")
        await fake_discord.slash(ada, channel, "start")
        await bot.service.settle()
        match = bot.service.match_in(channel.id)

        # Ada's hand arrives by DM with a menu; Bo's DM fails and the channel says so
        # without a word about his hand.
        dm = await fake_discord.wait_for_message(ada, contains="Pick a card")
        assert "hand" in dm.text and "(1, 2, 3)" in dm.text
        notice = await fake_discord.wait_for_message(channel, contains="can't send Bo")
        assert "My hand" in notice.text and f"<@{bo.id}>" in notice.content
        assert not fake_discord.dm_messages(bo)
        assert await bot.store.closed_dms.closed_since(bo.id) is not None

        # Bo uses the table's "My hand" button: an ephemeral view with the same menu.
        table = table_message(channel)
        mine = await fake_discord.click(bo, table, label="My hand")
        assert mine.ephemeral and "(1, 2, 3)" in mine.message.text
        spare = await fake_discord.click(bo, table, label="My hand")
        menu = select_ids(mine.message)[0]
        picked = await fake_discord.select(bo, mine.message, menu, ["3"])
        assert picked.type == 7 and "stays secret" in picked.message.text
        await bot.service.settle()
        assert match.state.has_chosen(1)
        # Nothing of Bo's pick is public yet; the table only says he has chosen.
        assert "shows" not in channel_text(channel)
        assert "Chosen (secret): Bo" in table_message(channel).text
        again = await fake_discord.click(bo, table_message(channel), label="My hand")
        assert "waiting for the others" in again.message.text.lower()
        twice = await fake_discord.select(bo, spare.message, menu, ["2"])
        assert twice.ephemeral and "already made your choice" in twice.content

        # Ada picks in her DM; both are revealed together in the channel.
        await fake_discord.select(ada, dm, select_ids(dm)[0], ["1"])
        await bot.service.settle()
        assert "Ada shows 1, Bo shows 3: Bo scores." in table_message(channel).text
        # Ada's DM never showed Bo's hand, and no message anywhere showed a hand early.
        for message in fake_discord.dm_messages(ada):
            assert not re.search(r"hand\W+\(1, 2\)", message.text)

        # A stale menu (the step moved on) is refused politely and changes nothing.
        step = match.state.step
        stale = await fake_discord.select(bo, spare.message, select_ids(spare.message)[0], ["2"])
        assert stale.ephemeral and "earlier turn" in stale.content
        assert match.state.step == step
