"""A store for the web companion's tests, filled through the real services.

One server (:data:`GUILD`) with its web turned on, and in it: a Swiss with a top cut
played to its end, a double elimination played to its end through a bracket reset, a
Swiss still running in its second round, one finished match of each of the four games
(people whose moves are the easy computer's, so every step has a narration), an Arcane
Duel collection with packs opened, and a player who hid their history. The people's
names are hostile (:data:`HOSTILE_NAMES`): markup, template syntax, Markdown, the
longest name a seat keeps, emoji, quotes and an ampersand; so is the running Swiss's.
A second server (:data:`DARK_GUILD`) has a match and a tournament too, and had its web
on once (its slug is kept) but turned it off: nothing of it may show.

Everything runs on a fake clock with computer players deciding, so the whole store
is made in a few seconds; :func:`filled_copy` makes it once per process (each xdist
worker its own) and hands each caller a copy of the file:

    data = filled_copy(tmp_path)          # in a sync fixture: it runs its own loop
    store = await Store.open(data.path)
"""

from __future__ import annotations

import asyncio
import atexit
import itertools
import random
import shutil
import tempfile
import threading
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from bot.clock import FakeClock
from bot.duel.collections import CollectionService
from bot.errors import NoMatchHere
from bot.games import match_hooks
from bot.i18n.tournaments import label_words
from bot.matches.live import Player
from bot.matches.service import MatchService
from bot.settings.service import Manager, ServerConfig
from bot.stats.service import StatsService
from bot.tournaments.model import MatchPlace, Member
from bot.tournaments.service import TournamentService
from rules.duel.card_ids import card_id
from rules.phrases import Phrase
from rules.registry import get_game
from storage import Store
from storage.tournaments import PairingRow

GUILD = 4242
"""The server whose web is on."""
DARK_GUILD = 4343
"""A server whose web stays off: its matches exist but no page may show them."""
CHANNEL = 900
ORGANISER = Member(7, "Organiser", manages_server=True, guild_id=GUILD)
MANAGER = Manager(7, "Organiser", manages_server=True)

SCRIPT = "<script>alert(1)</script>"
TEMPLATE = "{{7*7}}"
MARKDOWN = "**bold**"
LONGEST = "Abcdefghij Klmnopqrst Uvwxyz 012"
"""32 characters: the longest name a seat keeps (Discord's own limit)."""
EMOJI = "🃏 Joker 🎲"
QUOTES = "\"Ada\" & 'Bob' <b>"
RUNNING_NAME = "<i>Live</i> {{7*7}} & co"
"""The running Swiss's name, as hostile as its players'."""
HOSTILE_NAMES = (SCRIPT, TEMPLATE, MARKDOWN, LONGEST, EMOJI, QUOTES)
"""Names exactly as typed: each must show as this text on every page that names them."""
PEOPLE: dict[int, str] = {
    101: SCRIPT, 102: TEMPLATE, 103: MARKDOWN, 104: LONGEST,
    105: EMOJI, 106: QUOTES, 107: "Lin", 108: "Grace",
}
"""The server's people, by user id."""
COLLECTOR = 107
"""Who claimed a starter and opened packs."""
HIDDEN = 108
"""Who hid their history from the web."""
GAMES = ("eclipse", "flank", "nails", "duel")
RUNNING_STEPS = 4
"""Games of the running Swiss decided: round 1's three and one of round 2."""
TOURNAMENT_GAME = "flank"
PACKS = 3


@dataclass(frozen=True)
class WebData:
    """What the tests need to find their way into the filled store."""

    path: Path
    """The SQLite file (a copy of its own for each caller of :func:`filled_copy`)."""
    guild_id: int
    slug: str
    """The server's web slug."""
    swiss_id: int
    """A finished Swiss of 8 with a top 4 cut."""
    double_id: int
    """A finished double elimination of 4, its grand final reset."""
    running_id: int
    """A Swiss of 6 in its second round, one of whose three games is decided."""
    matches: dict[str, int]
    """A finished match of each game, by game name (people only: rated)."""
    tournament_match_id: int
    """A finished game of the Swiss."""
    dark_match_id: int
    """A finished match on :data:`DARK_GUILD`, whose web is off."""
    dark_tournament_id: int
    """A tournament on :data:`DARK_GUILD`."""
    dark_slug: str
    """The slug :data:`DARK_GUILD` had while its web was on (it shows nothing now)."""
    people: dict[int, str] = field(default_factory=lambda: dict(PEOPLE))
    """User id to name."""
    collector_id: int = COLLECTOR
    hidden_id: int = HIDDEN
    card: str = ""
    """The id (in addresses) of an Arcane Duel card the collector owns."""
    champions: dict[int, int] = field(default_factory=dict)
    """Each finished tournament's champion (user id)."""
    standings: dict[int, list[int]] = field(default_factory=dict)
    """Each finished tournament's final order (user ids, first to last)."""

    def name(self, user_id: int) -> str:
        """The name someone plays under."""
        return self.people[user_id]


# -- the bot's services on the store --------------------------------------------------------
class Services:
    """The match, tournament and collection services on one store, as the bot wires
    them, without Discord: tournament games open in fresh thread ids."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.clock = FakeClock()
        self.threads = itertools.count(50_000)
        self.matches = MatchService(store, clock=self.clock,
                                    hooks=match_hooks(store, self.clock))
        self.tournaments = TournamentService(store, self.matches, self.clock, self._place)
        self.collections = CollectionService(store, self.clock,
                                             rng_factory=lambda: random.Random(5))
        self.rng = random.Random(32)

    async def _place(self, _place: MatchPlace) -> int:
        return next(self.threads)

    async def stop(self) -> None:
        """Everything under way finished, nothing left running."""
        await self.tournaments.settle()
        await self.matches.wind_down()

    # -- matches played by people (the easy computer's moves) and computers
    async def play(self, game: str, users: list[int], *, guild_id: int = GUILD,
                   options: dict[str, Any] | None = None, seed: int = 1) -> int:
        """A match of ``game`` between ``users`` played to its end; its id."""
        channel = next(self.threads)
        players = [Player(user, PEOPLE.get(user, f"Player {user}")) for user in users]
        match = await self.matches.open_seated(players, guild_id=guild_id, channel_id=channel,
                                               game=game, options=options, seed=seed)
        info = get_game(game)
        easy = info.levels.get("easy", info.bot)
        for _ in range(5_000):
            await self.matches.settle()
            try:
                live = self.matches.get(match.id)
            except NoMatchHere:  # over, shown and forgotten
                break
            if not live.playing:
                break
            pending = live.humans_pending()
            if not pending:
                continue  # the computer's move, made by the next settle
            state = live.state
            choice = easy(state.copy(), pending[0].seat, self.rng)
            await self.matches.submit(pending[0].user_id, match.id, choice)
        else:
            raise RuntimeError(f"{game} match {match.id} did not end")
        await self.matches.settle()
        row = await self.store.matches.get(match.id)
        if row is None or row.status != "finished":
            raise RuntimeError(f"{game} match {match.id} ended {row and row.status}")
        return match.id

    # -- tournaments, their games decided by forfeits
    async def tournament(self, name: str, users: list[int], **settings: Any) -> int:
        """Created, opened, joined by ``users`` and started; its id."""
        settings.setdefault("seeding", "random")
        made = await self.tournaments.create(
            ORGANISER, channel_id=CHANNEL, game=TOURNAMENT_GAME,
            format=settings.pop("format", None), settings=settings, name=name)
        await self.tournaments.open(ORGANISER, made.id)
        for user in users:
            await self.tournaments.join(Member(user, PEOPLE[user], guild_id=GUILD), made.id)
        await self.tournaments.start(ORGANISER, made.id)
        return made.id

    async def step(self, tid: int, loser: Callable[[PairingRow, tuple[int, ...]], int]
                   ) -> bool:
        """One game being played decided (``loser`` forfeits); ``False`` if none is."""
        tournament = await self.store.tournaments.get(tid)
        for pairing in await self.store.tournaments.pairings(tid, tournament.round):
            if pairing.in_play:
                match = self.matches.get(pairing.match_id)
                users = tuple(s.user_id for s in match.seats if s.state == "playing")
                await self.matches.forfeit(Player(loser(pairing, users), "?"),
                                           match.row.channel_id)
                await self.tournaments.settle()
                return True
        return False

    async def final_order(self, tid: int) -> list[int]:
        """A tournament's standings, first to last."""
        standings = await self.tournaments.standings(ORGANISER, tid)
        return [line.standing.entrant for line in standings.lines]


async def advance(path: Path, tournament_id: int) -> None:
    """One more game of a running tournament of the store at ``path`` decided, as a bot
    process beside the web's would: its matches and tournaments restored, a forfeit."""
    store = await Store.open(path)
    services = Services(store)
    try:
        await services.matches.restore()
        await services.tournaments.restore()
        await services.tournaments.settle()
        if not await services.step(tournament_id, _higher_id_loses):
            raise RuntimeError(f"tournament {tournament_id} has no game in play")
    finally:
        await services.stop()
        await store.close()


def _higher_id_loses(_pairing: PairingRow, users: tuple[int, ...]) -> int:
    return max(users)


def _cut_upsets(pairing: PairingRow, users: tuple[int, ...]) -> int:
    """Swiss: the higher id loses; the cut: the lower (so the cut changes the order)."""
    return min(users) if pairing.stage == "cut" else max(users)


def _grand_final_reset(pairing: PairingRow, users: tuple[int, ...]) -> int:
    """The unbeaten player loses the grand final (so it is reset), then wins the reset."""
    grand_final = label_words(pairing.label) == Phrase("tournaments.label.grand_final")
    return min(users) if grand_final else max(users)


# -- the whole store ------------------------------------------------------------------------
@contextmanager
def _seeded(seed: int = 1234) -> Iterator[None]:
    """The seeds the services draw for tournaments and matches, from one seeded
    generator for the ``with`` block (as tests/test_tournament_service.py's
    ``fixed_seeds``): the same pairings and deals every time the store is filled."""
    source = random.Random(seed)
    drawn = random.SystemRandom
    random.SystemRandom = lambda: source  # type: ignore[assignment,misc]
    try:
        yield
    finally:
        random.SystemRandom = drawn  # type: ignore[misc]


async def fill(path: Path) -> WebData:
    """A new store at ``path`` filled as the module's docstring says (the same store
    every time, its slugs and times aside)."""
    with _seeded():
        return await _fill(path)


async def _fill(path: Path) -> WebData:
    store = await Store.open(path)
    services = Services(store)
    try:
        config = ServerConfig(store)
        slug = (await config.set_web(MANAGER, GUILD, True)).slug
        dark_slug = (await config.set_web(MANAGER, DARK_GUILD, True)).slug
        await config.set_web(MANAGER, DARK_GUILD, False)
        await StatsService(store).hide_history(HIDDEN, True)
        swiss = await services.tournament("Spring Swiss", list(range(101, 109)), top_cut=4)
        while await services.step(swiss, _cut_upsets):
            pass
        double = await services.tournament("Double trouble", [101, 102, 103, 104],
                                           format="double")
        while await services.step(double, _grand_final_reset):
            pass
        running = await services.tournament(RUNNING_NAME, [101, 102, 103, 104, 105, 106])
        for _ in range(RUNNING_STEPS):
            await services.step(running, _higher_id_loses)
        matches = {
            "flank": await services.play("flank", [101, 102], options={"board": "6"}),
            "nails": await services.play("nails", [103, 104, 105, 106]),
            "eclipse": await services.play("eclipse", [106, 101, 107]),
            "duel": await services.play("duel", [108, 101]),
        }
        dark = await services.play("flank", [107, 108], guild_id=DARK_GUILD,
                                   options={"board": "6"})
        dark_tournament = (await services.tournaments.create(
            replace(ORGANISER, guild_id=DARK_GUILD), channel_id=CHANNEL + 1,
            game=TOURNAMENT_GAME, name="Elsewhere cup")).id
        await services.collections.claim_starter(GUILD, COLLECTOR, "ember-and-grove")
        for _ in range(PACKS):
            await services.collections.give_pack(GUILD, ORGANISER.user_id, COLLECTOR)
        page = await services.collections.collection(GUILD, COLLECTOR, COLLECTOR)
        card = card_id(page.rows[0].card)
        games = await services.tournaments.games(ORGANISER, swiss)
        data = WebData(
            path=path, guild_id=GUILD, slug=slug, swiss_id=swiss, double_id=double,
            running_id=running, matches=matches, tournament_match_id=games[0].match_id,
            dark_match_id=dark, dark_tournament_id=dark_tournament, dark_slug=dark_slug,
            card=card)
        for tid in (swiss, double):
            order = await services.final_order(tid)
            data.standings[tid] = order
            data.champions[tid] = order[0]
        return data
    finally:
        await services.stop()
        await store.close()


T = TypeVar("T")

_MADE: dict[str, WebData] = {}
_LOCK = threading.Lock()


def run_apart(work: Coroutine[Any, Any, T]) -> T:
    """``work`` run to its end on an event loop of its own, in a thread of its own (so a
    sync fixture may ask, whether or not a loop runs in its thread); its result."""
    done: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(asyncio.run(work))
        except BaseException as exc:  # raised again in the asking thread
            failed.append(exc)

    worker = threading.Thread(target=run, name="apart")
    worker.start()
    worker.join()
    if failed:
        raise failed[0]
    return done[0]


def filled_copy(folder: Path) -> WebData:
    """A copy of the filled store in ``folder`` (filled once per process: each xdist
    worker fills its own)."""
    with _LOCK:
        if "made" not in _MADE:
            home = Path(tempfile.mkdtemp(prefix="croupier-webstore-"))
            atexit.register(shutil.rmtree, home, ignore_errors=True)
            _MADE["made"] = run_apart(fill(home / "web.sqlite"))
    source = _MADE["made"]
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / source.path.name
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{source.path}{suffix}").exists():
            shutil.copyfile(f"{source.path}{suffix}", f"{target}{suffix}")
    return replace(source, path=target)
