"""End to end at Discord's pace: every REST request takes a real quarter of a second
and edits in one channel share Discord's bucket (``tests/fakediscord/server/latency.py``),
with everything else in real time too. Over a representative set — a game of each kind,
the collections (a starter, a pack, a trade), a tournament whose rounds end by a drop,
a removal and a disqualification, and a burst of Join clicks — every interaction must be
acknowledged within Discord's 3 s and nothing may be refused.

Mostly waiting, so the tests run their flows side by side where they can.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.discord_parts.replies import Drawing
from bot.discord_side.client import CroupierBot
from bot.tournaments.model import Member
from rules.core import NOTHING
from tests.e2e import make_bot, select_ids, select_values, served, table_message
from tests.fakediscord import FakeDiscord, LogCapture
from tests.fakediscord.model import FakeChannel, FakeMessage, FakeUser
from tests.fakediscord.model.constants import MANAGE_GUILD
from tests.fakediscord.server.latency import REAL_LATENCY

ACK_SECONDS = 3.0
"""Discord's deadline to acknowledge an interaction."""


@pytest.fixture
async def real_discord(discord_errors: LogCapture) -> AsyncIterator[FakeDiscord]:
    """A fake Discord at Discord's pace: :data:`REAL_LATENCY` a request, the per-channel
    edit bucket, the 3 s deadline, and every wait of Discord's in real seconds."""
    async with served(FakeDiscord(latency=REAL_LATENCY, edit_bucket=True,
                                  ack_deadline=ACK_SECONDS)) as fake:
        yield fake
        all_in_time(fake)


def all_in_time(fake: FakeDiscord) -> None:
    """Every interaction acknowledged, once, within the deadline; nothing refused."""
    late = {f"/{i.command_name or i.payload.get('data', {}).get('custom_id')}":
            None if i.callback_at is None else round(i.callback_at - i.created_at, 2)
            for i in fake.interactions.values()
            if not i.acked or i.callback_attempts != 1
            or i.callback_at is None or i.callback_at - i.created_at > ACK_SECONDS}
    assert not late, f"answered late or never (seconds): {late}"
    assert not fake.rejections, fake.rejections


class Event:
    """A server with an organiser and players, and a tournament channel."""

    def __init__(self, fake: FakeDiscord, players: int) -> None:
        self.fake = fake
        self.guild = fake.add_guild("Casino")
        self.channel = self.guild.add_text_channel("tournaments")
        self.boss = self.guild.add_user("Boss", roles=(self.guild.add_role("Managers",
                                                                           MANAGE_GUILD),))
        self.players = [self.guild.add_user(f"P{n}") for n in range(1, players + 1)]
        self.users = {u.id: u for u in (self.boss, *self.players)}

    def message(self) -> FakeMessage:
        """The tournament message."""
        return next(m for m in self.channel.messages if m.content.startswith("🏆"))

    async def create(self, bot: CroupierBot, **options: Any) -> int:
        """Create and open it (once the bot knows its message, as a person would see
        the message before opening it)."""
        await self.fake.slash(self.boss, self.channel, "tournament create", **options)
        rows = await bot.store.tournaments.live_in_guild(self.guild.id)
        tid = int(rows[-1].id)

        async def posted() -> bool:
            row = await bot.store.tournaments.get(tid)
            return row is not None and row.message_id is not None

        for _ in range(100):
            if await posted():
                break
            await asyncio.sleep(0.05)
        await self.fake.slash(self.boss, self.channel, "tournament open")
        await self.fake.wait_for(lambda: self.message().buttons, 10,
                                 description="the Join button")
        return tid

    def thread(self, thread_id: int | None) -> FakeChannel:
        """A match's thread."""
        return next(t for t in self.guild.threads if t.id == thread_id)


async def test_a_burst_of_join_clicks_is_answered_in_time(real_discord, tmp_path):
    """Twelve people click Join 0.1 s apart: each is answered in time, by the click's own
    update of the tournament message, and the message ends showing all twelve."""
    event = Event(real_discord, 12)
    bot = make_bot(tmp_path / "burst.sqlite3")
    async with real_discord.running(bot):
        tid = await event.create(bot, game="flank", options="board=4")
        clicks = []
        for player in event.players:
            clicks.append(await real_discord.click(player, event.message(), label="Join",
                                                   wait=False))
            await asyncio.sleep(0.1)
        for click in clicks:
            await click.acknowledged(timeout=ACK_SECONDS + 1)
            assert click.type == 7  # the clicked message, updated, is the answer
        assert len(await bot.store.tournaments.entrants(tid)) == 12
        await real_discord.wait_for(lambda: "Entrants (12)" in event.message().content, 15,
                                    description="the message to show every entrant")
        await bot.tournaments.settle()
        await real_discord.answers_delivered()
        assert "Entrants (12)" in event.message().content
        edits = [r for r in real_discord.requests
                 if r.method == "PATCH" and f"/messages/{event.message().id}" in r.path]
        assert len(edits) < len(event.players), "one edit per click: not coalesced"


async def _end_a_round_by(event: Event, bot: CroupierBot, tid: int,
                          *commands: str) -> None:
    """In the current round, every game but the last few ends by a /forfeit; then the
    organiser takes a player out of each of those by one of ``commands``, the last of
    which ends the round."""
    fake = event.fake
    row = await bot.store.tournaments.get(tid)
    playing = [p for p in await bot.store.tournaments.pairings(tid, row.round) if p.in_play]
    assert len(playing) > len(commands), "a round with enough games under way"
    ended, taken = playing[:-len(commands)], playing[-len(commands):]
    await asyncio.gather(*(fake.slash(event.users[max(pairing.seats)],
                                      event.thread(pairing.thread_id), "forfeit")
                           for pairing in ended))
    await bot.tournaments.settle()
    for command, pairing in zip(commands, taken, strict=True):
        target = event.users[max(pairing.seats)]
        result = await fake.slash(event.boss, event.channel, f"tournament {command}",
                                  user=target)
        await result.final(timeout=30)
        await bot.tournaments.settle()
    after = await bot.store.tournaments.get(tid)
    assert after.round > row.round or after.status == "finished", (commands, after)


async def test_a_drop_a_removal_and_a_disqualification_end_rounds(real_discord, tmp_path):
    """Two rounds of Swiss for eight. The first ends by a drop from its last game, the
    second by a removal and then a disqualification: forfeiting the game, pairing and
    announcing the next round (its pictures, its threads) or the final standings all
    come after the organiser's command was answered."""
    event = Event(real_discord, 8)
    bot = make_bot(tmp_path / "drops.sqlite3")
    async with real_discord.running(bot):
        tid = await event.create(bot, game="flank", format="swiss", rounds=2,
                                 seeding="random", options="board=4")
        # Entered by the service: the Join buttons have a test of their own.
        organiser = Member(event.boss.id, "Boss", manages_server=True,
                           guild_id=event.guild.id)
        for player in event.players:
            await bot.tournaments.add(organiser, tid, player.id, player.name)
        await (await real_discord.slash(event.boss, event.channel, "tournament start")).final(
            timeout=30)
        await bot.tournaments.settle()
        await _end_a_round_by(event, bot, tid, "drop")
        await _end_a_round_by(event, bot, tid, "remove", "disqualify")
        assert (await bot.store.tournaments.get(tid)).status == "finished"
        await real_discord.answers_delivered()


GAMES = {"flank": {"board": "4"}, "eclipse": {"seats": 2}, "nails": {"seats": 2},
         "duel": {"seats": 2}}
"""Each game, for two people, with its shortest options."""


def _menu_offering(messages: list[FakeMessage], value: str) -> tuple[FakeMessage, str] | None:
    """The newest message with a menu that takes ``value`` alone."""
    for message in reversed(messages):
        for menu in select_ids(message):
            component = message.find_component(menu)
            if value in select_values(message, menu) and component.raw.get("min_values", 1) <= 1:
                return message, menu
    return None


async def _play_a_little(fake: FakeDiscord, bot: CroupierBot, game: str,
                         channel: FakeChannel, host: FakeUser, guest: FakeUser) -> None:
    """Open, join by the button, start; a few decisions by menu (the table's or a DM's)
    or /choose; /hand and My hand (where the table has it); then the guest forfeits and
    the game ends."""
    await fake.slash(host, channel, f"play {game}", **GAMES[game])
    lobby = await fake.wait_for_message(channel, contains="lobby", timeout=15)
    await fake.click(guest, lobby, label="Join")
    await fake.slash(host, channel, "start")
    await bot.service.settle()
    match = bot.service.match_in(channel.id)
    people = {seat.seat: user for seat in match.seats for user in (host, guest)
              if seat.user_id == user.id}
    for _ in range(3):
        await bot.service.settle()
        assert match.state is not None
        pending = [d for d in match.state.pending() if d.seat in people]
        if match.finished or not pending:
            break
        decision = pending[0]
        user = people[decision.seat]
        value = decision.options[0] if decision.options else NOTHING
        found = _menu_offering([table_message(channel), *fake.dm_messages(user)], value)
        if found is not None:
            await fake.select(user, found[0], found[1], [value])
        else:
            await fake.slash(user, channel, "choose", choice=value)
    await bot.service.settle()
    hand = await fake.slash(host, channel, "hand")
    await hand.final(timeout=10)
    table = table_message(channel)
    if any(button.label == "My hand" for button in table.buttons):
        mine = await fake.click(guest, table, label="My hand")
        await mine.final(timeout=10)
    await fake.slash(guest, channel, "forfeit")
    await fake.wait_for_message(channel, contains="is over", timeout=30)


async def test_a_game_of_each_kind(real_discord, tmp_path):
    """Flank, Eclipse, Hammer & Nails and Arcane Duel side by side, each through the
    client: the lobby, its Join button, the start, moves by menu or /choose, /hand, My
    hand and a forfeit that ends it."""
    guild = real_discord.add_guild("Casino")
    bot = make_bot(tmp_path / "games.sqlite3")
    async with real_discord.running(bot):
        await asyncio.gather(*(
            _play_a_little(real_discord, bot, game, guild.add_text_channel(game),
                           guild.add_user(f"{game}-host"), guild.add_user(f"{game}-guest"))
            for game in GAMES))
        await bot.service.settle()
        await real_discord.answers_delivered()


SLOW_PICTURE = 3.0
"""Seconds a picture takes to draw in the collections' test: a busy host's worker threads
(every table's and every pack's pictures queue there) may take that long, and none of it
may come before an acknowledgement."""


@pytest.fixture
def slow_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every picture drawn off the event loop takes :data:`SLOW_PICTURE` seconds."""
    draw = Drawing.file

    def slowly(self: Drawing) -> Any:
        time.sleep(SLOW_PICTURE)
        return draw(self)

    monkeypatch.setattr(Drawing, "file", slowly)


async def test_collections_a_starter_a_pack_and_a_trade(real_discord, tmp_path,
                                                       slow_pictures):
    """/starter, /pack open and /deck show, each with a picture that is slow to draw:
    their words come at once and the picture after. /collection and its page button;
    a whole trade: the offer (pinging, its picture after), Accept and both Confirms."""
    guild = real_discord.add_guild("Arcana")
    channel = guild.add_text_channel("cards")
    ada, bo = guild.add_user("Ada"), guild.add_user("Bo")
    clock = FakeClock()
    bot = make_bot(tmp_path / "cards.sqlite3", clock=clock)
    fake = real_discord
    async with fake.running(bot):
        answers = list(await asyncio.gather(
            fake.slash(ada, channel, "starter", deck="ember-and-grove"),
            fake.slash(bo, channel, "starter", deck="tide-and-night")))
        assert all("Starter claimed" in answer.text for answer in answers)
        page = await fake.slash(ada, channel, "collection")
        await fake.click(ada, page.message, label="Next ▶")
        pack, shown, offered = await asyncio.gather(
            fake.slash(ada, channel, "pack open", public=True),
            fake.slash(ada, channel, "deck show", name="ember-and-grove"),
            fake.slash(ada, channel, "trade offer", user=bo, give="Kindlewhip"))
        answers += [pack, shown, offered]
        offer = offered.message
        assert offer is not None and bo.id in offer.pinged and not pack.ephemeral
        await fake.click(bo, offer, label="Accept")
        clock.advance(5)
        await fake.click(ada, offer, label="Confirm")
        await fake.click(bo, offer, label="Confirm")
        assert "Done: the cards changed hands" in offer.text
        for answer in answers:
            await fake.wait_for(lambda answer=answer: answer.attachments, SLOW_PICTURE + 5,
                                description=f"the picture of {answer!r}")
        assert offer.buttons == [] and "Done" in offer.text  # the picture undid nothing
        await real_discord.answers_delivered()
