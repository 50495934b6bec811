"""A finished match's last showing — the final table, the result post and each player's
final view by DM — comes out as in one process, whatever Discord failed and whenever the
bot stopped: after a restart the table shown again narrates the game's last events, the
result is posted once, and each player gets their final view exactly once.

Played through the real client against the fake Discord, with Secret Numbers (the tests'
game of hidden hands, tests/simgame.py) over more rounds than a table narrates."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

import tests.simgame  # noqa: F401  (registers the secret-choice test game)
from bot.discord_side.client import CroupierBot
from bot.i18n import narrate
from bot.matches import delivery
from bot.matches.live import NARRATED, LiveMatch, Player
from bot.matches.service import MatchService
from bot.matches.transport import NullTransport, ShowLater
from rules.core import Event
from storage import Store
from tests.e2e import make_bot, select_ids, table_message
from tests.fakediscord import FakeDiscord, Fault
from tests.fakediscord.model import FakeChannel, FakeUser

pytestmark = pytest.mark.engines  # the tests that take a `store` run on both engines

ROUNDS = 8
"""More reveals than the six lines a table narrates: which ones it shows matters."""
FINAL_HAND = "**hand**: ()"
"""What a player's final view says of their hand (every card played)."""


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Showing again after a failure waits a moment, not seconds."""
    monkeypatch.setattr(delivery, "SHOW_AGAIN_AFTER", (0.05, 0.1, 0.2), raising=False)


async def pick(fake: FakeDiscord, bot: CroupierBot, user: FakeUser, card: str, *,
               settle: bool = True) -> None:
    """``user`` picks ``card`` from the menu of their latest DM."""
    dm = fake.dm_messages(user)[-1]
    assert select_ids(dm), [m.text for m in fake.dm_messages(user)]
    await fake.select(user, dm, select_ids(dm)[0], [card])
    if settle:
        await bot.service.settle()


async def play(fake: FakeDiscord, bot: CroupierBot, channel: FakeChannel, ada: FakeUser,
               bo: FakeUser, *, before_last: Callable[[], object] = lambda: None,
               last_settles: bool = True) -> LiveMatch:
    """A whole game of Secret Numbers: Ada plays her cards upwards, Bo downwards (the
    last round is forced, so Bo's last pick ends the game). ``before_last`` runs just
    before that pick; without ``last_settles``, the pick is waited for only until the
    result is committed (its showing may never succeed)."""
    await fake.slash(ada, channel, "play secret", rounds=ROUNDS)
    await fake.slash(bo, channel, "join")
    await fake.slash(ada, channel, "start")
    await bot.service.settle()
    match = bot.service.match_in(channel.id)
    for n in range(ROUNDS - 1):
        last = n == ROUNDS - 2
        await pick(fake, bot, ada, str(n + 1))
        if last:
            before_last()
        await pick(fake, bot, bo, str(ROUNDS - n), settle=last_settles or not last)
    await fake.wait_for(lambda: match.finished)
    return match


def narration(channel: FakeChannel) -> str:
    """The table's narration: its last events, as the table shows them."""
    return str(table_message(channel).embeds[0].get("description"))


def final_views(fake: FakeDiscord, user: FakeUser) -> int:
    """How many times ``user`` was shown a final view of a match by DM: every version
    of every DM (a view may be an edit of an earlier DM, or a new one)."""
    shown = 0
    for message in fake.dm_messages(user):
        for version in [*message.history, message]:
            embed: dict[str, Any] = version.embeds[0] if version.embeds else {}
            shown += FINAL_HAND in embed.get("description", "")
    return shown


def results_posted(channel: FakeChannel) -> int:
    """How many result posts the channel has."""
    return len([m for m in channel.messages if "is over" in m.text])


@pytest.fixture
def world(fake_discord: FakeDiscord) -> tuple[FakeChannel, FakeChannel, FakeUser, FakeUser]:
    """A quiet channel for the one-process game, the channel under test, Ada and Bo."""
    calm = fake_discord.add_guild("Calm").add_text_channel("calm-table")
    channel = fake_discord.add_guild("Casino").add_text_channel("secret-table")
    return calm, channel, fake_discord.add_user("Ada"), fake_discord.add_user("Bo")


async def one_process(fake: FakeDiscord, tmp_path: Any, channel: FakeChannel, ada: FakeUser,
                      bo: FakeUser) -> str:
    """The same game with nothing failing and no restart: its final narration."""
    calm = make_bot(tmp_path / "calm.sqlite3")
    async with fake.running(calm):
        await play(fake, calm, channel, ada, bo)
        await calm.service.settle()
        assert final_views(fake, ada) == final_views(fake, bo) == 1
        assert results_posted(channel) == 1
        shown = narration(channel)
    assert "Ada shows 8, Bo shows 1" in shown and "Ada shows 1," not in shown
    return shown


def down(fake: FakeDiscord, channel: FakeChannel, what: str) -> list[Fault]:
    """Discord failing for now (503) from here on: the table channel's messages
    (``table``), DMs (``dms``) or both (``all``)."""
    faults = []
    if what in ("table", "all"):
        faults.append(fake.faults.add(Fault("status", status=503,
                                            route=rf"/channels/{channel.id}/messages",
                                            times=None)))
    if what in ("dms", "all"):
        faults.append(fake.faults.add(Fault("status", status=503, route=r"/channels/",
                                            dm=True, times=None)))
    return faults


@pytest.mark.parametrize("failing", ["table", "dms", "all"])
async def test_a_result_shown_after_a_restart_looks_as_in_one_process(
        fake_discord: FakeDiscord, tmp_path: Any, world: Any, failing: str) -> None:
    """Discord fails the last move's table, DMs or both until the bot stops; the next
    bot shows what was left, and only that."""
    calm, channel, ada, bo = world
    expected = await one_process(fake_discord, tmp_path, calm, ada, bo)
    database = tmp_path / "restart.sqlite3"
    first = make_bot(database)
    faults: list[Fault] = []
    async with fake_discord.running(first):
        await play(fake_discord, first, channel, ada, bo, last_settles=False,
                   before_last=lambda: faults.extend(down(fake_discord, channel, failing)))
        # The result is stored; its showing failed at least once and waits to try again.
        await fake_discord.wait_for(lambda: all(f.hits >= 1 for f in faults), timeout=10)
    fake_discord.faults.clear()
    table = table_message(channel)

    again = make_bot(database)
    async with fake_discord.running(again):
        await fake_discord.wait_for(lambda: not again.service.live_matches(), timeout=10)
        await again.service.settle()
        assert not await again.store.matches.results_to_show()
    # One final view each in the one-process game, and one in this one.
    assert final_views(fake_discord, ada) == final_views(fake_discord, bo) == 2
    assert results_posted(channel) == 1
    assert table_message(channel).id == table.id
    assert narration(channel) == expected
    assert "Result" in table_message(channel).text


async def test_a_final_dm_shown_again_in_one_process_keeps_the_table_s_narration(
        fake_discord: FakeDiscord, tmp_path: Any, world: Any) -> None:
    """The final table and result go out, a DM fails once and is sent again: the
    table, edited again with it, still narrates the last events."""
    calm, channel, ada, bo = world
    expected = await one_process(fake_discord, tmp_path, calm, ada, bo)
    live = make_bot(tmp_path / "one.sqlite3")
    failed = Fault("status", status=503, route=r"/channels/", dm=True, times=1)
    async with fake_discord.running(live):
        match = await play(fake_discord, live, channel, ada, bo,
                           before_last=lambda: fake_discord.faults.add(failed))
        await live.service.settle()
        assert match.finished and failed.hits == 1
        assert narration(channel) == expected
        assert results_posted(channel) == 1
        assert final_views(fake_discord, ada) == final_views(fake_discord, bo) == 2
        assert not await live.store.matches.results_to_show()


async def test_closed_dms_are_not_told_again_after_a_restart(
        fake_discord: FakeDiscord, tmp_path: Any, world: Any) -> None:
    """Bo's DMs are closed (told once, when the game began); the final table fails
    until the bot stops: the next bot shows it without telling the channel again."""
    _calm, channel, ada, bo = world
    fake_discord.set_dms_closed(bo)
    database = tmp_path / "closed.sqlite3"
    first = make_bot(database)
    faults: list[Fault] = []
    async with fake_discord.running(first):
        await fake_discord.slash(ada, channel, "play secret", rounds=2)
        await fake_discord.slash(bo, channel, "join")
        await fake_discord.slash(ada, channel, "start")
        await first.service.settle()
        match = first.service.match_in(channel.id)
        await pick(fake_discord, first, ada, "1")
        faults.extend(down(fake_discord, channel, "table"))
        chosen = await fake_discord.slash(bo, channel, "choose", choice="2")  # no DM menu
        assert chosen.acked
        await fake_discord.wait_for(lambda: match.finished and faults[0].hits >= 1)
    fake_discord.faults.clear()
    again = make_bot(database)
    async with fake_discord.running(again):
        await fake_discord.wait_for(lambda: not again.service.live_matches(), timeout=10)
    assert results_posted(channel) == 1
    assert len([m for m in channel.messages if "can't send Bo" in m.text]) == 1
    assert final_views(fake_discord, ada) == 1


class FinalTableDown(NullTransport):
    """Every final table fails to show for now (its result stays queued)."""

    async def publish(self, match: LiveMatch, events: Sequence[Event]) -> int | None:
        if match.finished:
            raise ShowLater("the table is down")
        return await super().publish(match, events)


async def test_a_restored_match_narrates_the_events_it_had_before(store: Store) -> None:
    """Through the service alone: a match in play and a finished one still queued are
    restored with the narration they had (the opening and the latest public events)."""
    ada, bo = Player(1, "Ada"), Player(2, "Bo")
    before = MatchService(store, FinalTableDown())
    narrations = {}
    for channel, rounds in ((10, 1), (11, 4), (12, ROUNDS - 1)):
        await before.open_lobby(ada, guild_id=1, channel_id=channel, game="secret",
                                options={"rounds": ROUNDS})
        await before.join(bo, channel)
        match = await before.start(ada, channel)
        for n in range(rounds):
            await before.submit(ada.user_id, match.id, str(n + 1))
            await before.submit(bo.user_id, match.id, str(ROUNDS - n))
        assert match.finished == (rounds == ROUNDS - 1)
        narrations[match.id] = [narrate(event, match.names, "en") for event in match.narration]
    await before.wind_down()
    assert narrations[1][0] == "Secret Numbers begins." and len(narrations[1]) == 4
    assert len(narrations[3]) == NARRATED and "begins" not in narrations[3][0]

    again = MatchService(store, NullTransport())
    await again.restore()
    # Not yet shown: the finished match waits in memory for its driver.
    assert {m.id: [narrate(event, m.names, "en") for event in m.narration]
            for m in again.live_matches()} == narrations
    await again.settle()
    assert not await store.matches.results_to_show()
