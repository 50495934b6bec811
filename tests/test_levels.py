"""Computer levels in the match service and storage, on both engines: the level asked
for is the level each computer seat keeps, in the store and after a restart, and the
level it plays at; a person's seat the computer chooses for (a deadline, a kick) gets
the ``normal`` computer; a level nobody offers is refused and changes nothing. The game
is tests/levelgame.py's, whose levels pick recognisably (easy 1, normal 2, hard 3)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.i18n import say
from bot.matches.live import Player
from bot.matches.service import MatchService, Timing
from bot.matches.thinker import Thinker
from bot.tournaments.model import MatchPlace, Member
from bot.tournaments.service import TournamentService
from rules.core import GameInfo, GameState
from rules.errors import BadOptions
from storage import Store
from storage.db import Database, shipped_migrations
from tests.levelgame import NAME, levels_picked, registered
from tests.recording import RecordingTransport


@contextmanager
def refused(words: str) -> Iterator[None]:
    """The block raises :class:`BadOptions` whose English holds ``words``; its Portuguese
    is made too."""
    with pytest.raises(BadOptions) as raised:
        yield
    assert words in say(raised.value.text, "en")
    assert say(raised.value.text, "pt_BR")

ADA, BO = Player(1, "Ada"), Player(2, "Bo")
CHANNEL = 40

pytestmark = pytest.mark.engines  # the tests that take a `store` or `target` run on both


@pytest.fixture(autouse=True)
def picks() -> Iterator[GameInfo]:
    yield from registered()


Opener = Callable[[Path | str], Awaitable[Store]]


@pytest.fixture
async def opened() -> AsyncIterator[Opener]:
    """Opens stores, and closes at the end whatever a failing test left open (an open
    store's writer process would outlive the test)."""
    stores: list[Store] = []

    async def open_store(path: Path | str) -> Store:
        stores.append(await Store.open(path))
        return stores[-1]

    yield open_store
    for store in stores:
        with suppress(Exception):
            await store.close()


def service_on(store: Store, clock: FakeClock | None = None,
               thinker: Thinker | None = None) -> MatchService:
    return MatchService(store, RecordingTransport(), clock=clock or FakeClock(),
                        timing=Timing(turn_seconds=120, warn_seconds=30), thinker=thinker)


async def picked(store: Store, match_id: int, seat: int) -> set[str]:
    """The levels whose picks the log holds for ``seat``."""
    return levels_picked([(c.seat, c.choice) for c in await store.matches.choices(match_id)],
                         seat)


async def test_computer_seats_play_at_the_level_asked_and_keep_it_after_a_restart(
        target, opened):
    path = target
    store = await opened(path)
    service = service_on(store)
    match = await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game=NAME, seats=3,
                                     vs_bot=True, computer_level="hard")
    await service.settle()
    assert [(s.is_bot, s.level) for s in match.seats] == [
        (False, "normal"), (True, "hard"), (True, "hard")]
    assert [s.level for s in await store.matches.seats(match.id)] == ["normal", "hard", "hard"]
    assert await picked(store, match.id, 1) == await picked(store, match.id, 2) == {"hard"}
    await service.wind_down()
    await store.close()

    store = await opened(path)
    again = service_on(store)
    (restored,) = await again.restore()
    assert [s.level for s in restored.seats] == ["normal", "hard", "hard"]
    await again.submit(ADA.user_id, restored.id, "1")
    await again.settle()
    assert await picked(store, match.id, 1) == await picked(store, match.id, 2) == {"hard"}
    assert len(await store.matches.choices(match.id)) == 5
    assert restored.state.decision_for(0) is not None  # Ada's last pick
    await again.wind_down()


async def test_start_fills_seats_at_the_lobbys_level_kept_over_a_restart_or_at_its_own(
        target, opened):
    path = target
    store = await opened(path)
    service = service_on(store)
    await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game=NAME, seats=2,
                             computer_level="easy")
    await service.open_lobby(BO, guild_id=1, channel_id=CHANNEL + 1, game=NAME, seats=2,
                             computer_level="easy")
    await service.settle()
    await store.close()

    store = await opened(path)
    again = service_on(store)
    await again.restore()
    easy = await again.start(ADA, CHANNEL, fill_with_bots=True)
    own = await again.start(BO, CHANNEL + 1, fill_with_bots=True, computer_level="hard")
    await again.settle()
    assert easy.seats[1].level == "easy" and await picked(store, easy.id, 1) == {"easy"}
    assert own.seats[1].level == "hard" and await picked(store, own.id, 1) == {"hard"}
    await again.wind_down()


async def test_a_person_the_computer_chooses_for_gets_the_normal_computer(store):
    clock = FakeClock()
    service = service_on(store, clock)
    await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game=NAME, seats=3,
                             computer_level="hard")
    await service.join(BO, CHANNEL)
    match = await service.start(ADA, CHANNEL, fill_with_bots=True)
    await service.settle()
    assert await picked(store, match.id, 2) == {"hard"}
    # Bo (seat 1) lets the deadline pass: the computer chooses for him, at normal.
    clock.advance(121)
    await service.tick()
    await service.settle()
    assert await picked(store, match.id, 1) == {"normal"}
    await service.submit(ADA.user_id, match.id, "3")
    await service.settle()
    # Kicked, Bo's seat is the computer's: still the normal one, beside the hard one.
    await service.kick(ADA, CHANNEL, BO.user_id)
    await service.settle()
    assert await picked(store, match.id, 1) == {"normal"}
    assert await picked(store, match.id, 2) == {"hard"}
    await service.wind_down()


async def test_a_level_nobody_offers_is_refused_and_changes_nothing(store):
    service = service_on(store)
    for forged in ("expert", "HARD", "", "normal "):
        with refused("the computer levels are easy, normal, hard"):
            await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game=NAME,
                                     vs_bot=True, computer_level=forged)
    assert service.live_matches() == [] and await store.matches.unfinished() == []
    lobby = await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game=NAME)
    with refused("not 'expert'"):
        await service.start(ADA, CHANNEL, fill_with_bots=True, computer_level="expert")
    assert lobby.row.status == "lobby" and lobby.seats == (await store.matches.get(lobby.id)).seats
    with refused("not 'expert'"):
        await service.open_seated([ADA, Player(-1, "Computer 1")], guild_id=1,
                                  channel_id=CHANNEL + 1, game=NAME,
                                  computers={-1: "expert"})
    assert [m.id for m in service.live_matches()] == [lobby.id]
    await service.wind_down()


async def test_seats_arranged_elsewhere_play_each_at_its_own_level(store):
    service = service_on(store)
    match = await service.open_seated(
        [ADA, Player(-1, "Computer 1"), Player(-2, "Computer 2")], guild_id=1,
        channel_id=CHANNEL, game=NAME, computers={-1: "hard", -2: "easy"})
    await service.settle()
    assert [s.level for s in match.seats] == ["normal", "hard", "easy"]
    assert await picked(store, match.id, 1) == {"hard"}
    assert await picked(store, match.id, 2) == {"easy"}
    await service.wind_down()


class Recording(Thinker):
    """A thinker that notes what it is asked, and whether it was closed."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[tuple[str, str, int]] = []
        self.closed = False

    async def choose(self, info: GameInfo, level: str, state: GameState, seat: int,
                     rng: random.Random) -> str:
        self.asked.append((info.name, level, seat))
        return await super().choose(info, level, state, seat, rng)

    def close(self) -> None:
        self.closed = True
        super().close()


async def test_the_service_asks_its_one_thinker_and_closes_it_when_it_stops(store):
    thinker = Recording()
    service = service_on(store, thinker=thinker)
    await service.open_lobby(ADA, guild_id=1, channel_id=CHANNEL, game=NAME, seats=2,
                             vs_bot=True, computer_level="easy")
    await service.settle()
    assert thinker.asked == [(NAME, "easy", 1)] and not thinker.closed
    await service.wind_down()
    assert thinker.closed
    assert isinstance(service_on(store).thinker, Thinker)


async def test_an_older_file_keeps_its_computer_seats_and_entrants_at_normal(tmp_path,
                                                                              opened):
    path = tmp_path / "old.sqlite3"
    before = [m for m in shipped_migrations() if m.version < 15]
    db = await Database.open(path, before)
    await db.execute(
        "INSERT INTO matches (id, game, seed, channel_id, host_id, max_seats, status,"
        " created_at) VALUES (1, 'picks', 5, 9, 1, 2, 'lobby', 'then')")
    await db.execute("INSERT INTO match_seats (match_id, seat, user_id, name, is_bot)"
                     " VALUES (1, 0, 1, 'Ada', 0), (1, 1, NULL, 'Croupier Bot', 1)")
    await db.execute(
        "INSERT INTO tournaments (id, guild_id, channel_id, game, format, name, status,"
        " organiser_id, seed, created_at) VALUES (1, 1, 9, 'picks', 'swiss', 'T', 'open', 1,"
        " 3, 'then')")
    await db.execute("INSERT INTO tournament_entrants (tournament_id, user_id, name,"
                     " checked_in, joined_at) VALUES (1, -1, 'Computer 1', 1, 'then')")
    await db.close()

    store = await opened(path)
    assert [(s.is_bot, s.level) for s in await store.matches.seats(1)] == [
        (False, "normal"), (True, "normal")]
    assert (await store.matches.get(1)).computer_level == "normal"
    assert [e.level for e in await store.tournaments.entrants(1)] == ["normal"]


async def places(place: MatchPlace) -> int:
    """The Discord layer's starter: every pairing its own thread."""
    return 9000 + place.round * 100 + place.table


async def test_tournament_computers_enter_at_a_level_and_their_games_play_at_it(
        target, opened):
    organiser = Member(9, "Org", manages_server=True, guild_id=1)
    path = target
    store = await opened(path)
    matches = service_on(store)
    cups = TournamentService(store, matches, FakeClock(), places)
    cup = await cups.create(organiser, channel_id=CHANNEL, game=NAME, options={"rounds": 1},
                            settings={"seeding": "random"})
    await cups.open(organiser, cup.id)
    await cups.join(Member(ADA.user_id, ADA.name, guild_id=1), cup.id)
    for forged in ("expert", "Hard"):
        with refused(f"not '{forged}'"):
            await cups.add_computers(organiser, cup.id, 1, forged)
    assert [e.user_id for e in await store.tournaments.entrants(cup.id)] == [ADA.user_id]
    added = await cups.add_computers(organiser, cup.id, 1, "hard")
    assert [(e.name, e.level) for e in added] == [("Computer 1", "hard")]
    await cups.settle()
    await matches.wind_down()
    await store.close()

    store = await opened(path)  # the level is kept over a restart
    matches = service_on(store)
    cups = TournamentService(store, matches, FakeClock(), places)
    await matches.restore()
    await cups.restore()
    assert {e.user_id: e.level for e in await store.tournaments.entrants(cup.id)} == {
        ADA.user_id: "normal", -1: "hard"}
    view = await cups.start(organiser, cup.id)
    await matches.settle()
    (pairing,) = view.pairings
    match = matches.get(pairing.match_id)
    computer = next(s for s in match.seats if s.is_bot)
    assert computer.level == "hard"
    if match.state.decision_for(computer.seat) is None:  # Ada sits last: she opens
        await matches.submit(ADA.user_id, match.id, "1")
        await matches.settle()
    assert await picked(store, match.id, computer.seat) == {"hard"}
    await cups.settle()
    await matches.wind_down()
