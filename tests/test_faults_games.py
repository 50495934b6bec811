"""Whole games of every game, people and computer players at one table, with Discord
misbehaving from the people's third choice: each of the issue's faults in turn, and
none for comparison.

The people play as a person would: the menu that offers their choice (in their newest
DM, or on the table) when one of the current step does, else ``/choose``. Each game
must end with the result its log replays to, the final table and one result post;
every acknowledged choice is in the log; nothing is logged as an ERROR (the
``discord_errors`` fixture); no one is said to have closed DMs unless Discord said so;
no hand shows to anyone but its owner (the games' secrecy watches). Each run's time
is recorded beside the fault-free one and printed at the end of the test session
(``tests/conftest.py``, "Whole games under faults")."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from bot.matches import delivery
from rules.core import replay
from rules.registry import get_game
from tests.e2e import deal_the_same, make_bot, select_ids, select_values, table_message
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, Fault
from tests.fakediscord.harness.results import InteractionResult
from tests.test_e2e_eclipse import SecrecyWatch
from tests.test_e2e_nails import Watch as NailsWatch

CHANNELS = r"/channels/"
ANSWERS = r"/(interactions|webhooks)/"
"""Interaction callbacks and their follow-ups."""
OUTAGE_SECONDS = 5.0
"""The issue's outage: connections refused for 5 s of Discord's time (the fake's
``time_scale``: a quarter of a second in tests), then RESUME refused."""
FROM, LASTING = 2, 3
"""The fault comes after the people's second acknowledged choice, and what lasts
until lifted lasts for three more."""
PICK = re.compile(r"cr:pick:(\d+):(\d+):")


@dataclass(frozen=True)
class Table:
    """How a game is set up here: its options, its people, its computer players."""

    options: dict[str, Any]
    people: int
    computers: int
    watch: Callable[..., Any] | None = None


TABLES = {
    "flank": Table({"board": "6"}, people=1, computers=1),
    "nails": Table({"objective": "fewest"}, people=2, computers=2, watch=NailsWatch),
    "eclipse": Table({"hand_cap": 12}, people=2, computers=1, watch=SecrecyWatch),
}


Start = Callable[[FakeDiscord, dict[int, FakeUser]], Awaitable[list[Fault]]]
"""Switches a fault on; returns the REST faults it added (each must be hit)."""


@dataclass(frozen=True)
class Trouble:
    """One fault of the issue's list: how it starts, and what the test then expects."""

    start: Start
    reconnects: bool = False
    closes_dms: bool = False


def rest(*faults: Callable[[], Fault]) -> Start:
    """Fresh REST faults (each counts its own hits), added in order: the first that
    matches a request takes it."""
    async def start(fake: FakeDiscord, _people: dict[int, FakeUser]) -> list[Fault]:
        return [fake.faults.add(make()) for make in faults]
    return start


def gateway(act: Callable[[FakeDiscord], Awaitable[None]]) -> Start:
    async def start(fake: FakeDiscord, _people: dict[int, FakeUser]) -> list[Fault]:
        await act(fake)
        return []
    return start


async def nothing(_fake: FakeDiscord, _people: dict[int, FakeUser]) -> list[Fault]:
    """The fault-free run, for comparison."""
    return []


async def late_delivery(fake: FakeDiscord, _people: dict[int, FakeUser]) -> list[Fault]:
    """Interactions reach the bot 2 s late: inside the 2.5 s it takes to answer one
    (``LATE_AFTER``); later ones are refused unanswered (tests/test_faults.py)."""
    fake.interaction_delay = 2.0
    return []


async def dms_closed(fake: FakeDiscord, people: dict[int, FakeUser]) -> list[Fault]:
    """The last person closes their DMs: Discord's 403 with code 50007 from now on."""
    fake.set_dms_closed(people[max(people)])
    return []


TROUBLES: dict[str, Trouble] = {
    "none": Trouble(nothing),
    "429": Trouble(rest(lambda: Fault("ratelimit", seconds=0.5, route=CHANNELS, times=3))),
    "500": Trouble(rest(lambda: Fault("status", status=500, route=CHANNELS, times=1))),
    "502": Trouble(rest(lambda: Fault("status", status=502, route=CHANNELS, times=1))),
    "503": Trouble(rest(lambda: Fault("status", status=503, route=CHANNELS, times=3))),
    "performed then 502": Trouble(rest(
        lambda: Fault("performed_then", status=502, route=ANSWERS, times=2),
        lambda: Fault("performed_then", status=502, method="PATCH", route=CHANNELS, times=1))),
    "403 50007 on DMs": Trouble(dms_closed, closes_dms=True),
    "close 4000": Trouble(gateway(lambda fake: fake.close_gateway(4000, "Unknown error")),
                          reconnects=True),
    "disconnect": Trouble(gateway(lambda fake: fake.drop_gateway()), reconnects=True),
    "op 7": Trouble(gateway(lambda fake: fake.request_reconnect()), reconnects=True),
    "outage, resume refused": Trouble(gateway(lambda fake: fake.gateway_outage(OUTAGE_SECONDS)),
                                      reconnects=True),
    "REST latency 1–3 s": Trouble(rest(
        lambda: Fault("latency", seconds=3.0, route=CHANNELS, times=1),
        lambda: Fault("latency", seconds=1.0, route=CHANNELS, times=2))),
    "delivery latency": Trouble(late_delivery),
}


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Showing again after Discord failed waits a moment, not seconds (tests/test_faults.py
    checks the showing again; here, only that the game goes on)."""
    monkeypatch.setattr(delivery, "SHOW_AGAIN_AFTER", (0.05, 0.1, 0.2), raising=False)


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal the same every run, so each fault meets the same game as the fault-free run."""
    deal_the_same(monkeypatch, 20261124)


def current_menu(message: Any, match_id: int, step: int, value: str) -> str | None:
    """The menu on ``message`` made for this step that offers ``value``."""
    for custom_id in select_ids(message):
        made_for = PICK.match(custom_id)
        if made_for and (int(made_for[1]), int(made_for[2])) == (match_id, step) \
                and value in select_values(message, custom_id):
            return custom_id
    return None


async def choose(fake: FakeDiscord, channel: FakeChannel, user: FakeUser, match_id: int,
                 step: int, value: str) -> InteractionResult:
    """``value`` chosen as a person would: from the current step's menu that offers it (in
    their newest DM with a menu, or on the table), else by ``/choose``."""
    places = [m for m in reversed(fake.dm_messages(user)) if m.components][:1]
    places.append(table_message(channel))
    for message in places:
        if (menu := current_menu(message, match_id, step, value)) is not None:
            return await fake.select(user, message, menu, [value], timeout=15)
    return await fake.slash(user, channel, "choose", choice=value, timeout=15)


async def back(fake: FakeDiscord, sessions: int, resumes: int) -> None:
    """Wait until the bot is connected again (a RESUME, or a new IDENTIFY). discord.py
    retries a refused connection after a random delay whose bound doubles with each
    failure (``discord.backoff.ExponentialBackoff``, on the fake's ``time_scale``), so
    after an outage its next try may come as long again as the outage lasted, or more:
    the wait allows a minute (it is not a speed check; the run's time is recorded)."""
    await fake.wait_for(lambda: fake.resume_count > resumes or fake.identify_count > sessions,
                        timeout=60)


def lift(fake: FakeDiscord) -> None:
    """Discord well again (closed DMs stay closed: that is the player's setting)."""
    fake.faults.clear()
    fake.interaction_delay = 0.0


@pytest.mark.slow
@pytest.mark.usefixtures("fixed_seed")
@pytest.mark.parametrize("fault", list(TROUBLES))
@pytest.mark.parametrize("game", list(TABLES))
async def test_a_whole_game_survives_discord_faults(game: str, fault: str, fake_discord,
                                                     tmp_path, record_property):
    fake, table, trouble = fake_discord, TABLES[game], TROUBLES[fault]
    started = time.perf_counter()
    channel = fake.add_guild("Casino").add_text_channel(game)
    people = {seat: fake.add_user(name) for seat, name in enumerate(("Ada", "Bo")[:table.people])}
    bot = make_bot(tmp_path / "faults.sqlite3")
    async with fake.running(bot, reconnect=True):
        seats = table.people + table.computers
        info = get_game(game)
        opened = await fake.slash(people[0], channel, f"play {game}", **table.options,
                                  **({"seats": seats} if info.min_seats < info.max_seats else {}))
        assert "opened" in opened.content, opened.content
        for user in list(people.values())[1:]:
            await fake.slash(user, channel, "join")
        await fake.slash(people[0], channel, "start", bots=True, computer_level="easy")
        await bot.service.settle()
        match = bot.service.match_in(channel.id)
        assert [s.is_bot for s in match.seats].count(True) == table.computers
        watch = table.watch(fake, channel, people) if table.watch else None
        rng = random.Random(11)
        acknowledged: list[str] = []
        tries, injected = 0, None
        while not match.finished:
            if len(acknowledged) == FROM and injected is None:
                sessions, resumes = fake.identify_count, fake.resume_count
                injected = await trouble.start(fake, people)
                if trouble.reconnects:
                    await back(fake, sessions, resumes)
            if len(acknowledged) == FROM + LASTING:
                lift(fake)
            state = match.state
            waiting = [seat for seat in people if state.decision_for(seat) is not None
                       and not state.has_chosen(seat)]
            if not waiting:
                await bot.service.settle()
                continue
            seat = waiting[0]
            value = match.info.bot(state.copy(), seat, rng)
            picked = await choose(fake, channel, people[seat], match.id, state.step, value)
            if picked.acked:
                acknowledged.append(str(picked.interaction.id))
            await bot.service.settle()
            if watch is not None:
                watch.check(match.state)
            tries += 1
            assert tries < 2_000, "the game does not end"
        await fake.wait_for_message(channel, contains="is over", timeout=30)
        await bot.service.settle()

        log = await bot.store.matches.choices(match.id)
        logged = {c.interaction_id for c in log}
        assert set(acknowledged) <= logged, "an acknowledged choice is missing from the log"
        row = match.row
        replayed = replay(match.info, row.options, len(row.seats), row.seed,
                          [(c.seat, c.choice) for c in log], [s.setup for s in row.seats])
        stored = await bot.store.matches.result(match.id)
        assert stored is not None and replayed.outcome() is not None
        assert [s.place for s in stored[1]] == list(replayed.outcome().places)
        assert f"step {replayed.step}" in table_message(channel).text
        assert len([m for m in channel.messages if "is over" in m.text]) == 1
        closed = [m for m in channel.messages if "can't send" in m.text]
        if trouble.closes_dms and match.info.has_secrets:
            assert len(closed) == 1 and people[max(people)].name in closed[0].text
        else:
            assert not closed
        assert not await bot.store.matches.results_to_show()
        assert all(f.hits for f in injected or ()), "a fault was never met"
    if fault == "outage, resume refused":
        assert fake.refused_connections >= 1 and fake.identify_count == 2
    record_property("fault_seconds", (game, fault, round(time.perf_counter() - started, 2)))
