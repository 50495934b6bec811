"""The tournament message kept true without holding up answers
(``bot/discord_side/tournament_message.py``): asks for an edit coalesce, and updates of the message
that cross are followed by one more edit of the state as it is then. No Discord: the
edit itself is a stand-in that records what it showed."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import pytest

from bot.discord_side.tournament_message import TournamentMessages


class Rounds:
    """The tournament service's part the keeper uses: its background steps."""

    def __init__(self) -> None:
        self.closing = False
        self.tasks: list[asyncio.Task[None]] = []

    def in_background(self, work: Coroutine[Any, Any, None], name: str) -> None:
        if self.closing:
            work.close()
            return
        self.tasks.append(asyncio.get_running_loop().create_task(work, name=name))

    async def settle(self) -> None:
        while not all(task.done() for task in self.tasks):
            await asyncio.gather(*self.tasks)


class Bot:
    def __init__(self) -> None:
        self.tournaments = Rounds()
        self.version = 0
        """The tournament's state: bumped by every change."""
        self.shown: list[int] = []
        """The version each edit of the message showed, in order."""
        self.hold = asyncio.Event()
        self.hold.set()


@pytest.fixture
def bot(monkeypatch: pytest.MonkeyPatch) -> Bot:
    made = Bot()

    async def refresh(bot: Bot, tournament_id: int) -> None:
        seen = bot.version  # an edit reads the tournament, then takes its time
        await bot.hold.wait()
        await asyncio.sleep(0)
        bot.shown.append(seen)

    monkeypatch.setattr("bot.discord_side.tournament_message.refresh_message", refresh)
    return made


async def test_asks_while_an_edit_runs_make_one_more_edit_of_the_latest_state(bot):
    keeper = TournamentMessages(bot)  # type: ignore[arg-type]
    for _ in range(12):  # twelve joins at once: one edit
        bot.version += 1
        keeper.refresh(7)
    await bot.tournaments.settle()
    assert bot.shown == [12]
    bot.hold.clear()
    bot.version += 1
    keeper.refresh(7)
    await asyncio.sleep(0.01)  # the edit is under way, holding state 13
    for _ in range(5):
        bot.version += 1
        keeper.refresh(7)
    bot.hold.set()
    await bot.tournaments.settle()
    assert bot.shown == [12, 13, 18]  # one more edit, with the latest state


async def test_updates_that_cross_are_followed_by_one_edit(bot):
    """Two clicks answered by updating the message, each with the state it read: the
    one that lands last may be the older, so one edit follows. One alone needs none."""
    keeper = TournamentMessages(bot)  # type: ignore[arg-type]
    async with keeper.editing(7):
        bot.version += 1
    await bot.tournaments.settle()
    assert bot.shown == []
    first, second = asyncio.Event(), asyncio.Event()

    async def click(go: asyncio.Event) -> None:
        async with keeper.editing(7):
            bot.version += 1
            await go.wait()

    clicks = [asyncio.create_task(click(first)), asyncio.create_task(click(second))]
    await asyncio.sleep(0)
    second.set()
    await asyncio.sleep(0.01)
    first.set()
    await asyncio.gather(*clicks)
    await bot.tournaments.settle()
    assert bot.shown == [3]


async def test_nothing_is_edited_once_the_bot_is_closing(bot):
    keeper = TournamentMessages(bot)  # type: ignore[arg-type]
    bot.tournaments.closing = True
    keeper.refresh(7)
    await bot.tournaments.settle()
    assert bot.shown == [] and not bot.tournaments.tasks
