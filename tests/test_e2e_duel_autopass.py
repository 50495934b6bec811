"""Arcane Duel's automatic passing turned off and on mid-duel from a player's DM,
through the real discord.py client and the fake Discord: the button on the DM (a
``DynamicItem`` that works after a restart), the setting kept with the seat over a
restart, and nothing of it shown to anyone else."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.discord_side.client import CroupierBot
from bot.errors import NotSeated
from bot.games.duel.autopass import set_auto_pass
from bot.matches.live import LiveMatch
from tests.e2e import deal_the_same, make_bot, table_message
from tests.fakediscord import FakeDiscord
from tests.fakediscord.model import FakeMessage, FakeUser

SWITCH = "cr:autopass:"


def switch(message: FakeMessage) -> tuple[str, str] | None:
    """The automatic-passing button on a message: (custom id, label), if it has one."""
    for row in message.components:
        for component in row.get("components", []):
            if str(component.get("custom_id", "")).startswith(SWITCH):
                return component["custom_id"], component.get("label", "")
    return None


def last_dm(fake: FakeDiscord, user: FakeUser) -> FakeMessage:
    return fake.dm_messages(user)[-1]


def stored_setups(database: Path) -> list[str | None]:
    with sqlite3.connect(database) as conn:
        return [row[0] for row in conn.execute(
            "SELECT setup FROM match_seats ORDER BY match_id DESC, seat LIMIT 2")]


async def until_asked(bot: CroupierBot, match: LiveMatch, seat: int) -> None:
    """People's moves until ``seat`` is asked something: the others end their main
    phase and discard their first card; the bot passes their empty windows itself."""
    for _ in range(30):
        await bot.service.settle()
        decision = match.state.pending()[0]
        if decision.seat == seat:
            return
        user = match.seats[decision.seat].user_id
        choice = "end" if decision.kind == "main" else decision.options[0]
        await bot.service.submit(user, match.id, choice)
    raise AssertionError("the seat was never asked")


async def test_a_player_turns_automatic_passing_off_and_on_from_their_dm(
        fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deal_the_same(monkeypatch, 11)
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("duels")
    ada, bo = guild.add_user("Ada"), guild.add_user("Bo")
    database = tmp_path / "autopass.sqlite3"
    bot = make_bot(database)
    async with fake_discord.running(bot):
        await fake_discord.slash(ada, channel, "play duel")
        await fake_discord.slash(bo, channel, "join")
        await fake_discord.slash(ada, channel, "start")
        await bot.service.settle()
        match = bot.service.match_in(channel.id)
        people = {0: ada, 1: bo}
        waiting = 1 - match.state.active  # the one not playing the first turn
        other = people[1 - waiting]
        person = people[waiting]
        custom_id, label = switch(last_dm(fake_discord, person))
        assert custom_id == f"{SWITCH}{match.id}:off" and label == "Stop auto-passing"
        assert "Automatic passing is on" in last_dm(fake_discord, person).text

        turned = await fake_discord.click(person, last_dm(fake_discord, person),
                                          label="Stop auto-passing")
        assert turned.acked
        shown = last_dm(fake_discord, person)
        assert "Automatic passing is off" in shown.text
        assert switch(shown) == (f"{SWITCH}{match.id}:on", "Auto-pass when I can't play")
        assert match.state.auto_passing(waiting) is False
        assert match.state.auto_passing(1 - waiting) is True
        assert '"auto_pass": false' in stored_setups(database)[waiting]

        # Asked where they can play nothing: once passed by itself, now theirs to pass.
        await until_asked(bot, match, waiting)
        asked = match.state.pending()[0]
        assert asked.kind == "priority" and asked.options == ("pass",)
        assert asked.forced is None
        assert "Pass" in [b.get("label") for row in last_dm(fake_discord, person).components
                          for b in row.get("components", [])]
        position = match.state.notation()

        # Nothing of it shown to anyone else: the table, the channel, the other's DMs.
        everything = " ".join(m.text for m in channel.messages)
        assert "auto" not in everything.lower() and switch(table_message(channel)) is None
        for message in fake_discord.dm_messages(other):
            for version in message.history:
                assert "Automatic passing is off" not in f"{version.content}{version.embeds}"
            assert "Automatic passing is off" not in message.text
        assert "Automatic passing is on" in last_dm(fake_discord, other).text

    # A restart: the setting is kept with the seat, and the window still waits.
    again = make_bot(database)
    async with fake_discord.running(again):
        await again.service.settle()
        restored = again.service.match_in(channel.id)
        assert restored.state.notation() == position
        assert restored.state.auto_passing(waiting) is False
        assert restored.state.pending()[0].seat == waiting
        dm = next(m for m in reversed(fake_discord.dm_messages(person)) if switch(m))
        assert switch(dm)[0] == f"{SWITCH}{match.id}:on"
        on = await fake_discord.click(person, dm, label="Auto-pass when I can't play")
        assert on.acked
        await again.service.settle()
        assert restored.state.auto_passing(waiting) is True
        assert restored.state.notation() != position  # the window passed at once
        assert '"auto_pass": true' in stored_setups(database)[waiting]


async def test_the_switch_is_refused_on_the_table_and_to_someone_not_playing(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    guild = fake_discord.add_guild("Arcana")
    channel = guild.add_text_channel("duels")
    ada, cy = guild.add_user("Ada"), guild.add_user("Cy")
    bot = make_bot(tmp_path / "refused.sqlite3")
    async with fake_discord.running(bot):
        await fake_discord.slash(ada, channel, "play duel", vs_bot=True)
        await bot.service.settle()
        match = bot.service.match_in(channel.id)
        table = table_message(channel)
        public = await fake_discord.click_custom(ada, table, f"{SWITCH}{match.id}:off")
        assert public.ephemeral and "nothing was changed" in public.content
        assert match.state.auto_passing(0) is True
        hand = await fake_discord.slash(cy, channel, "hand")
        assert hand.ephemeral and "not playing" in hand.content
        mine = await fake_discord.slash(ada, channel, "hand")
        assert switch(mine.message) is not None  # /hand, a private view, has it too
        with pytest.raises(NotSeated):  # whoever clicks, only their own seat changes
            await set_auto_pass(bot.service, match, cy.id, False)
        assert match.state.auto_passing(0) is True
        turned = await fake_discord.click(ada, mine.message, label="Stop auto-passing")
        assert turned.ephemeral and "Automatic passing is off" in turned.message.text
        assert match.state.auto_passing(0) is False
        await fake_discord.slash(ada, channel, "cancel")
