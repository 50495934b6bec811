"""The tournament service (bot/tournaments/service.py) through the real match service on
both engines (SQLite, and PostgreSQL from tests/pgstore.py) and no Discord: whole
tournaments whose games are ordinary matches opened in places a fake starter makes,
decided by forfeits, draws and deadlines; restarts between (and inside) steps;
organisers checked on every organiser action; drops, corrections with their audit rows,
no-shows, cancel. Offline, no timing assertions."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import tests.simgame  # noqa: F401  (registers "secret", a game of two quick to decide)
from bot.clock import FakeClock
from bot.errors import said
from bot.i18n import say
from bot.matches.live import Player
from bot.matches.service import MatchService, Timing
from bot.tournaments.model import (
    MatchPlace,
    Member,
    Notice,
    NotOrganiser,
    NoTournament,
    TournamentError,
)
from bot.tournaments.service import TournamentService
from storage import Store
from storage.tournaments import PairingRow

pytestmark = pytest.mark.engines  # the tests that take a `target` run on both engines

G = 1
ORG = Member(9, "Org", manages_server=True, guild_id=G)
ROLE = 77
HELPER = Member(8, "Helper", guild_id=G, role_ids=frozenset({ROLE}))
ELSEWHERE = Member(9, "Org", manages_server=True, guild_id=G + 1)
CHANNEL = 300
TURN = 120


def member(user: int) -> Member:
    return Member(user, f"P{user}", guild_id=G)


@dataclass
class Places:
    """The Discord layer's starter: a new thread id for each pairing it is asked for."""

    next_id: itertools.count = field(default_factory=lambda: itertools.count(5000))
    asked: list[MatchPlace] = field(default_factory=list)

    async def __call__(self, place: MatchPlace) -> int:
        self.asked.append(place)
        return next(self.next_id)


@dataclass
class Board:
    """The Discord layer's announcer: keeps what was posted; ``fail`` refuses posts."""

    notices: list[Notice] = field(default_factory=list)
    fail: bool = False

    async def __call__(self, notice: Notice) -> None:
        if self.fail:
            raise RuntimeError("Discord is down")
        self.notices.append(notice)

    def kinds(self) -> list[tuple[str, int]]:
        return [(n.kind, n.round) for n in self.notices]


class Bot:
    """One run of the bot on a database (a SQLite path or a PostgreSQL URL): store,
    match service and tournament service; ``restart`` stops it and starts another on
    the same database, as after a crash (what Discord keeps, the places and the posts,
    stays)."""

    def __init__(self, path: Path | str) -> None:
        self.path = path
        self.places = Places()
        self.board = Board()
        self.clock = FakeClock()

    async def start(self) -> Bot:
        self.store = await Store.open(self.path)
        self.matches = MatchService(self.store, clock=self.clock,
                                    timing=Timing(turn_seconds=TURN, warn_seconds=30))
        self.service = TournamentService(self.store, self.matches, self.clock, self.places,
                                          announce=self.board)
        return self

    async def stop(self) -> None:
        await self.service.settle()
        await self.matches.wind_down()
        await self.store.close()

    async def restart(self) -> None:
        await self.stop()
        await self.start()
        await self.matches.restore()
        await self.service.restore()
        await self.service.settle()

    async def current(self, tid: int) -> list[PairingRow]:
        t = await self.store.tournaments.get(tid)
        return await self.store.tournaments.pairings(tid, t.round)


@pytest.fixture
async def bot(target):
    running = await Bot(target).start()
    yield running
    await running.stop()


async def tournament(bot: Bot, players: int, *, game: str = "secret",
                     options: dict | None = None, **settings) -> int:
    """Created, opened and joined by players 1…``players``."""
    settings.setdefault("seeding", "random")
    created = await bot.service.create(
        ORG, channel_id=CHANNEL, game=game, format=settings.pop("format", None),
        options={"rounds": 3} if options is None else options, settings=settings)
    await bot.service.open(ORG, created.id)
    for user in range(1, players + 1):
        await bot.service.join(member(user), created.id)
    return created.id


Loser = Callable[[PairingRow, tuple[int, ...]], int | None]


def higher_id_loses(pairing: PairingRow, seats: tuple[int, ...]) -> int | None:
    return max(seats)


async def play_step(bot: Bot, tid: int, loser: Loser = higher_id_loses) -> bool:
    """Decide one game being played (its loser forfeits); ``False`` if none is."""
    for pairing in await bot.current(tid):
        if pairing.in_play:
            match = bot.matches.get(pairing.match_id)
            users = tuple(s.user_id for s in match.seats if s.state == "playing")
            who = loser(pairing, users)
            await bot.matches.forfeit(Player(who, "?"), match.row.channel_id)
            await bot.service.settle()
            return True
    return False


async def play_out(bot: Bot, tid: int, loser: Loser = higher_id_loses, *,
                   between: Callable | None = None) -> None:
    """Play every game until the tournament ends (or waits for the organiser)."""
    while await play_step(bot, tid, loser):
        if between is not None:
            await between()


def opponents(pairings: list[PairingRow]) -> list[frozenset[int]]:
    return [frozenset(p.seats) for p in pairings if not p.is_bye]


# -- a whole Swiss --------------------------------------------------------------------------
async def test_a_six_player_swiss_plays_to_its_final_standings(bot):
    tid = await tournament(bot, 6)
    view = await bot.service.start(ORG, tid)
    assert view.round == 1 and len(view.pairings) == 3
    assert all(p.in_play for p in view.pairings)
    assert [n.kind for n in bot.board.notices] == ["round"]
    assert sorted(bot.board.notices[0].mentions) == [1, 2, 3, 4, 5, 6]
    assert {place.title for place in bot.places.asked} == {
        f"R1 · {' vs '.join(view.seat_names(p))}" for p in view.pairings}
    await play_out(bot, tid)
    t = await bot.service.get(ORG, tid)
    assert (t.status, t.round) == ("finished", 3)
    pairings = await bot.store.tournaments.pairings(tid)
    met = opponents(pairings)
    assert len(met) == len(set(met)) == 9  # three rounds of three, no rematch
    standings = await bot.service.standings(ORG, tid)
    ranks = {line.standing.entrant: line.standing for line in standings.lines}
    assert standings.final and standings.lines[0].standing.record == "3-0-0"
    assert ranks[1].record == "3-0-0"  # the lowest id never loses
    assert {e.user_id: e.final_rank for e in await bot.store.tournaments.entrants(tid)} == {
        user: line.rank for user, line in ranks.items()}
    assert [n.kind for n in bot.board.notices] == ["round", "round", "round", "finished"]
    assert bot.board.notices[-1].standings.final
    # Every game is an ordinary match in history, rated as any.
    history = await bot.store.stats.player_results(G, 1, "secret")
    assert len(history) == 3 and all(r.won and r.rated for r in history)
    games = await bot.service.games(ORG, tid)
    assert {r.match_id for r in history} <= {g.match_id for g in games}
    assert len(games) == 9 and all(g.outcome == "counted" for g in games)
    ((entered, entry),) = await bot.service.history(member(1), 1)
    assert (entered.id, entry.final_rank) == (tid, ranks[1].rank)


# -- restarts ---------------------------------------------------------------------------------
class Crash(BaseException):
    """The bot dies here: nothing after it runs, nothing catches it."""


@pytest.fixture
def fixed_seeds(monkeypatch):
    """Tournament and match seeds drawn from one seeded generator, so that two runs
    of the same tournament deal and pair alike."""
    import random

    source = random.Random(1234)
    monkeypatch.setattr(random, "SystemRandom", lambda: source)
    return source


async def record_of(bot: Bot, tid: int) -> tuple:
    """Everything a tournament decided: its pairings, results and final standings."""
    pairings = [(p.round, p.table, p.stage, p.seats, p.places, p.games, p.drawn_games,
                 p.games_linked, p.decided_by)
                for p in await bot.store.tournaments.pairings(tid)]
    standings = [(line.standing.rank, line.standing.entrant, line.standing.points)
                 for line in (await bot.service.standings(ORG, tid)).lines]
    t = await bot.service.get(ORG, tid)
    return t.status, t.round, pairings, standings


async def test_a_restart_between_every_two_steps_continues_exactly(fresh_target, fixed_seeds):
    calm = await Bot(await fresh_target()).start()
    try:
        tid = await tournament(calm, 5, best_of=3)
        await calm.service.start(ORG, tid)
        await play_out(calm, tid)
        expected = await record_of(calm, tid)
    finally:
        await calm.stop()
    assert expected[0] == "finished"

    fixed_seeds.seed(1234)
    bot = await Bot(await fresh_target()).start()
    try:
        tid = await tournament(bot, 5, best_of=3)
        await bot.service.start(ORG, tid)
        steps = 0
        while True:
            steps += 1
            if steps % 2:  # the bot dies just after a result is stored, before going on
                bot.matches.result_listeners.clear()
            if not await play_step(bot, tid):
                break
            await bot.restart()
        assert await record_of(bot, tid) == expected
        assert steps > 10
        # Each round posted once, and the final standings once, across the restarts.
        assert [n.kind for n in bot.board.notices] == ["round"] * expected[1] + ["finished"]
    finally:
        await bot.stop()


async def test_a_restart_inside_a_step_continues_exactly(bot, monkeypatch):
    tid = await tournament(bot, 6)
    # 1. The bot dies after opening table 1's game and linking it, before it starts.
    original = bot.matches.start

    async def dies(*args, **kwargs):
        raise Crash()

    bot.matches.start = dies
    with pytest.raises(Crash):
        await bot.service.start(ORG, tid)
    bot.matches.start = original
    one = await bot.current(tid)
    assert one[0].in_play and bot.matches.get(one[0].match_id).row.status == "lobby"
    assert not any(p.in_play for p in one[1:]) and bot.board.notices[-1].kind == "round"
    await bot.restart()
    after = await bot.current(tid)
    assert all(p.in_play and p.games_linked == 1 for p in after)
    assert after[0].match_id == one[0].match_id and after[0].thread_id == one[0].thread_id
    assert bot.matches.get(after[0].match_id).row.status == "active"
    # 2. The bot dies between opening a game and linking it: the lobby left in the
    # thread is closed and a game opened in its place.
    while (await bot.store.tournaments.get(tid)).round < 2:
        await play_step(bot, tid)
    await play_step(bot, tid)
    await play_step(bot, tid)
    real_link = bot.store.tournaments.link_game

    async def link_dies(*args, **kwargs):
        raise Crash()

    monkeypatch.setattr(bot.store.tournaments, "link_game", link_dies)
    await play_step(bot, tid)  # round 2 ends, round 3 is paired, and its first game dies
    monkeypatch.setattr(bot.store.tournaments, "link_game", real_link)
    three = await bot.current(tid)
    orphan = bot.matches.match_in(three[0].thread_id)
    assert three[0].round == 3 and not three[0].in_play and three[0].games_linked == 0
    await bot.restart()
    three = await bot.current(tid)
    assert all(p.in_play and p.games_linked == 1 for p in three)
    assert (await bot.store.matches.get(orphan.id)).status == "cancelled"
    # 3. Posting the pairings fails: they are posted after the restart, once.
    bot.board.fail = True
    await play_out(bot, tid)
    assert (await bot.service.get(ORG, tid)).status == "finished"
    bot.board.fail = False
    posted = len(bot.board.notices)
    await bot.restart()
    assert [n.kind for n in bot.board.notices[posted:]] == ["finished"]
    await bot.restart()
    assert [n.kind for n in bot.board.notices[posted:]] == ["finished"]


async def test_the_next_round_waits_for_the_organiser_without_auto_next(bot):
    tid = await tournament(bot, 4, auto_next=False)
    await bot.service.start(ORG, tid)
    with pytest.raises(TournamentError, match="without a result"):
        await bot.service.next_round(ORG, tid)
    await play_out(bot, tid)
    assert (await bot.service.get(ORG, tid)).round == 1
    assert bot.board.kinds()[-1] == ("round_done", 1)
    await bot.restart()  # waiting survives a restart, and is not said again
    assert (await bot.service.get(ORG, tid)).round == 1
    view = await bot.service.next_round(ORG, tid)
    assert view.round == 2 and all(p.in_play for p in view.pairings)
    await play_out(bot, tid)
    await bot.service.next_round(ORG, tid)
    await play_out(bot, tid)  # the last round: finished at its last result
    assert (await bot.service.get(ORG, tid)).status == "finished"
    assert bot.board.kinds()[-1] == ("finished", 3)
    assert [kind for kind, _ in bot.board.kinds()].count("round_done") == 2


# -- best of three ------------------------------------------------------------------------------
async def test_best_of_three_alternates_seats_and_ends_at_two_wins(bot):
    tid = await tournament(bot, 2, best_of=3)
    await bot.service.start(ORG, tid)
    seen = []
    for loser in (1, 2, 1):
        (pairing,) = await bot.current(tid)
        match = bot.matches.get(pairing.match_id)
        seen.append(tuple(s.user_id for s in match.seats))
        assert match.row.channel_id == pairing.thread_id  # every game in the one thread
        await bot.matches.forfeit(Player(loser, "?"), match.row.channel_id)
        await bot.service.settle()
    assert seen[1] == tuple(reversed(seen[0])) and seen[2] == seen[0]
    (pairing,) = (await bot.store.tournaments.pairings(tid))[:1]
    assert (pairing.games_linked, pairing.status) == (3, "done")
    assert pairing.places[pairing.seats.index(2)] == 1
    assert sum(pairing.games) == 3


async def test_a_drawn_match(bot):
    tid = await tournament(bot, 2, options={"rounds": 1})  # one card each: always a draw
    await bot.service.start(ORG, tid)
    await bot.service.settle()
    (pairing,) = await bot.store.tournaments.pairings(tid, 1)
    assert (pairing.places, pairing.drawn_games) == ((1, 1), 1)


# -- who may do what ---------------------------------------------------------------------------
async def test_non_organisers_are_refused_every_organiser_action(bot):
    tid = await tournament(bot, 4)
    nobody = member(1)
    actions = {
        "create": lambda who: bot.service.create(who, channel_id=CHANNEL, game="secret"),
        "open": lambda who: bot.service.open(who, tid),
        "open_checkin": lambda who: bot.service.open_checkin(who, tid),
        "close_checkin": lambda who: bot.service.close_checkin(who, tid),
        "add": lambda who: bot.service.add(who, tid, 50, "Fifty"),
        "remove": lambda who: bot.service.remove(who, tid, 2),
        "start": lambda who: bot.service.start(who, tid),
        "next_round": lambda who: bot.service.next_round(who, tid),
        "replay": lambda who: bot.service.replay(who, tid, 1, 1),
        "report": lambda who: bot.service.report(who, tid, 1, winner=2),
        "drop": lambda who: bot.service.drop(who, tid, 2),
        "disqualify": lambda who: bot.service.disqualify(who, tid, 2),
        "cancel": lambda who: bot.service.cancel(who, tid),
    }
    before = await bot.store.tournaments.entrants(tid)
    for action in actions.values():
        for who in (nobody, HELPER):  # the role is not set yet: a role is not enough
            with pytest.raises(NotOrganiser):
                await action(who)
    assert await bot.store.tournaments.entrants(tid) == before
    # Another server's organiser does not see this server's tournament at all.
    for name in ("open", "start", "cancel", "report"):
        with pytest.raises(NoTournament):
            await actions[name](ELSEWHERE)
    with pytest.raises(NoTournament):
        await bot.service.join(Member(5, "P5", guild_id=G + 1), tid)
    # With the organiser role set, its holders organise.
    await bot.store.settings.update(G, organiser_role_id=ROLE)
    await bot.service.add(HELPER, tid, 50, "Fifty")
    await bot.service.start(HELPER, tid)
    assert (await bot.service.get(HELPER, tid)).status == "running"


async def test_registration_and_check_in(bot):
    created = await bot.service.create(ORG, channel_id=CHANNEL, game="secret",
                                       settings={"max_players": 3, "seeding": "random"})
    assert created.format == "swiss" and created.status == "created"
    with pytest.raises(TournamentError, match="cannot take entrants") as refused:
        await bot.service.join(member(1), created.id)
    # The store's refusal is words in every language: the status and the action too.
    assert said(refused.value, "pt_BR") == (
        f"O torneio #{created.id} está com as inscrições ainda fechadas; não dá para aceitar "
        "inscritos agora.")
    await bot.service.open(ORG, created.id)
    for user in (1, 2, 3):
        await bot.service.join(member(user), created.id)
    with pytest.raises(TournamentError, match="full"):
        await bot.service.join(member(4), created.id)
    with pytest.raises(TournamentError, match="Already"):
        await bot.service.join(member(1), created.id)
    await bot.service.leave(member(3), created.id)
    await bot.service.open_checkin(ORG, created.id)
    await bot.service.checkin(member(1), created.id)
    await bot.service.join(member(4), created.id)  # joining during check-in checks in
    view = await bot.service.start(ORG, created.id)  # Bo did not check in
    assert sorted(u for p in view.pairings for u in p.seats) == [1, 4]
    assert [live.id for live in await bot.service.live(ORG, CHANNEL)] == [created.id]


async def test_settings_and_options_are_checked_when_created(bot):
    for settings, words in (({"best_of": 2}, "best-of"), ({"top_cut": 6}, "top cut"),
                            ({"colour": "red"}, "Unknown"), ({"no_show_limit": 0}, "no-show")):
        with pytest.raises(TournamentError, match=words):
            await bot.service.create(ORG, channel_id=CHANNEL, game="secret",
                                     settings=settings)
    with pytest.raises(TournamentError, match="top cut follows Swiss"):
        await bot.service.create(ORG, channel_id=CHANNEL, game="secret", format="single",
                                 settings={"top_cut": 4})
    with pytest.raises(Exception, match="rounds"):
        await bot.service.create(ORG, channel_id=CHANNEL, game="secret",
                                 options={"rounds": 99})
    with pytest.raises(TournamentError, match="pods"):
        await bot.service.create(ORG, channel_id=CHANNEL, game="secret", format="pods")


async def test_seeding_by_rating(bot):
    tid = await tournament(bot, 4, seeding="rating")
    for user, ordinal in ((3, 20.0), (2, 10.0)):
        await bot.store.db.execute(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, ordinal, games,"
            " updated_at) VALUES (?, 'secret', ?, 25, 1, ?, 5, 'now')", (G, user, ordinal))
    await bot.service.start(ORG, tid)
    seeds = {e.user_id: e.seed for e in await bot.service.entrants(ORG, tid)}
    assert (seeds[3], seeds[2]) == (1, 2) and {seeds[1], seeds[4]} == {3, 4}


async def test_an_unrated_tournament_moves_no_rating(bot):
    tid = await tournament(bot, 2, rated=False)
    await bot.service.start(ORG, tid)
    await play_out(bot, tid)
    results = await bot.store.stats.player_results(G, 1, "secret")
    assert len(results) == 3 and all(r.won and not r.rated for r in results)
    assert await bot.store.stats.rating(G, "secret", 1) is None


# -- drops, corrections, no-shows, cancel --------------------------------------------------------
async def test_drops(bot):
    tid = await tournament(bot, 4, best_of=3, auto_next=False)
    await bot.service.start(ORG, tid)
    (one, two) = await bot.current(tid)
    player = one.seats[0]
    with pytest.raises(TournamentError, match="Finish"):
        await bot.service.drop(member(player), tid)  # their match is being played
    with pytest.raises(NotOrganiser):
        await bot.service.drop(member(player), tid, two.seats[0])
    # The organiser drops someone mid-match: their seat forfeits, the match is lost.
    dropped = two.seats[0]
    entrant = await bot.service.drop(ORG, tid, dropped, why="had to leave")
    assert entrant.dropped_after == 1
    await bot.service.settle()
    two = await bot.store.tournaments.pairing(tid, 1, 2)
    assert two.done and two.places[two.seats.index(dropped)] == 2
    assert two.decided_by == "drop" and two.games_linked == 1
    assert (await bot.store.matches.get(two.match_id)).status == "finished"
    # Once their match has its result, a player drops themselves (between rounds).
    await play_out(bot, tid)
    await bot.service.leave(member(player), tid)
    assert (await bot.store.tournaments.entrant(tid, player)).dropped_after == 1
    with pytest.raises(TournamentError, match="Already dropped"):
        await bot.service.drop(member(player), tid)
    view = await bot.service.next_round(ORG, tid)
    (pairing,) = view.pairings
    assert set(pairing.seats).isdisjoint({player, dropped})
    await play_out(bot, tid)
    await bot.service.next_round(ORG, tid)
    await play_out(bot, tid)
    assert (await bot.service.get(ORG, tid)).status == "finished"
    for pairing in await bot.store.tournaments.pairings(tid):
        if pairing.round > 1:
            assert set(pairing.seats).isdisjoint({player, dropped})
    standings = {line.standing.entrant: line.standing
                 for line in (await bot.service.standings(ORG, tid)).lines}
    assert standings[player].dropped and standings[dropped].dropped
    audit = [(a.action, a.user_id, a.by_user, a.why)
             for a in await bot.store.tournaments.audit(tid)]
    assert ("drop", dropped, ORG.user_id, "had to leave") in audit
    assert ("drop", player, player, "") in audit


async def test_a_correction_keeps_an_audit_row_and_standings_recompute(bot):
    tid = await tournament(bot, 4)
    await bot.service.start(ORG, tid)
    await play_out(bot, tid)  # three rounds, the lower id always winning
    before = await bot.service.standings(ORG, tid)
    assert before.lines[0].standing.entrant == 1
    t = await bot.service.get(ORG, tid)
    assert t.status == "finished"
    with pytest.raises(TournamentError, match="not under way"):
        await bot.service.report(ORG, tid, 1, round_no=1, winner=2)

    tid = await tournament(bot, 4)
    await bot.service.start(ORG, tid)
    first = await bot.current(tid)
    # Table 1 is being played: the organiser decides it; the game is closed.
    table = first[0]
    winner = max(table.seats)
    done = await bot.service.report(ORG, tid, table.table, winner=winner, why="a dispute")
    assert done.done and done.places[done.seats.index(winner)] == 1
    assert done.decided_by == "organiser"
    assert (await bot.store.matches.get(table.match_id)).status == "cancelled"
    await play_step(bot, tid)  # table 2: round 2 is paired
    assert (await bot.service.get(ORG, tid)).round == 2
    # An earlier round's result corrected: a draw with its games score.
    fixed = await bot.service.report(ORG, tid, table.table, round_no=1, games=(1, 1), drawn=1,
                                     why="the result was a draw")
    assert (fixed.places, fixed.games, fixed.drawn_games) == ((1, 1), (1, 1), 1)
    row = (await bot.store.tournaments.audit(tid))[-1]
    assert (row.action, row.by_user, row.round, row.table, row.why) == (
        "result", ORG.user_id, 1, table.table, "the result was a draw")
    assert row.old["places"] == list(done.places) and row.new["places"] == [1, 1]
    points = {line.standing.entrant: line.standing.points
              for line in (await bot.service.standings(ORG, tid)).lines}
    assert points[winner] == 1 and points[min(table.seats)] == 1
    with pytest.raises(TournamentError, match="more games"):
        await bot.service.report(ORG, tid, table.table, round_no=1, winner=table.seats[0],
                                 games=(0, 1))
    with pytest.raises(TournamentError, match="one of the table"):
        await bot.service.report(ORG, tid, 1, winner=99)


async def test_an_organisers_places_at_odds_with_the_games_are_refused(bot):
    """Places and games won that disagree would make every standing take one side
    (the formats refuse such a result): the organiser is told, nothing changes."""
    tid = await tournament(bot, 4, best_of=3)
    await bot.service.start(ORG, tid)
    table = (await bot.current(tid))[0]
    for places, games in (((1, 2), (0, 2)), ((1, 2), (1, 1)), ((1, 1), (2, 0))):
        with pytest.raises(TournamentError, match="disagree"):
            await bot.service.report(ORG, tid, table.table, places=places, games=games)
    assert await bot.store.tournaments.pairing(tid, 1, table.table) == table
    assert [a.action for a in await bot.store.tournaments.audit(tid)
            if a.action == "result"] == []
    done = await bot.service.report(ORG, tid, table.table, places=(2, 1), games=(1, 2))
    assert (done.places, done.games) == ((2, 1), (1, 2))


async def test_a_pod_winner_with_games_at_odds_with_the_places_is_refused(bot):
    """Every way of reporting goes through the formats' own check: a pod's winner
    with games 2-1-0 would place the other two level although one won more games,
    a result every standing would then fail to read."""
    tid = await tournament(bot, 6, game="eclipse", options={}, format="pods", pod_size=3)
    await bot.service.start(ORG, tid)
    pod = next(p for p in await bot.current(tid) if len(p.seats) == 3)
    with pytest.raises(TournamentError, match="disagree"):
        await bot.service.report(ORG, tid, pod.table, winner=pod.seats[0], games=(2, 1, 0))
    assert (await bot.store.tournaments.pairing(tid, 1, pod.table)).places is None
    await bot.service.standings(ORG, tid)
    done = await bot.service.report(ORG, tid, pod.table, winner=pod.seats[0], games=(2, 0, 0))
    assert done.places == (1, 2, 2)


async def absent_in(bot: Bot, pairing: PairingRow, absent: int) -> None:
    """``absent`` never chooses: the other seat plays, each deadline passes, and the
    third strike forfeits the absent seat."""
    match = bot.matches.get(pairing.match_id)
    present = next(s for s in match.seats if s.user_id != absent)
    while not match.finished:
        decision = match.state.decision_for(present.seat)
        if decision is not None and not match.state.has_chosen(present.seat):
            await bot.matches.submit(present.user_id, match.id, decision.options[0])
        bot.clock.advance(TURN + 1)
        await bot.matches.tick()
        await bot.matches.settle()
    await bot.service.settle()


async def test_no_shows_lose_their_match_and_drop_at_the_limit(bot):
    tid = await tournament(bot, 4, best_of=3, options={"rounds": 5})
    await bot.service.start(ORG, tid)
    (one, _) = await bot.current(tid)
    absent = one.seats[0]
    await absent_in(bot, one, absent)
    one = await bot.store.tournaments.pairing(tid, 1, 1)
    assert (one.done, one.decided_by, one.games_linked) == (True, "absence", 1)
    assert one.places[one.seats.index(absent)] == 2  # the whole match, not one game
    assert (await bot.store.tournaments.entrant(tid, absent)).no_shows == 1
    # In round 2 they are absent again: that is the limit.
    while (await bot.service.get(ORG, tid)).status == "running":
        theirs = [p for p in await bot.current(tid) if p.in_play and absent in p.seats]
        if theirs:
            await absent_in(bot, theirs[0], absent)
        elif not await play_step(bot, tid):
            break
    entrant = await bot.store.tournaments.entrant(tid, absent)
    assert (entrant.no_shows, entrant.dropped_after) == (2, 2)
    later = [p for p in await bot.store.tournaments.pairings(tid) if p.round > 2]
    assert later and all(absent not in p.seats for p in later)
    audit = [(a.action, a.by_user) for a in await bot.store.tournaments.audit(tid)
             if a.user_id == absent]
    assert audit == [("no_show", 0), ("no_show", 0), ("drop", 0)]


async def test_a_cancelled_game_waits_for_the_organiser(bot):
    tid = await tournament(bot, 4)
    await bot.service.start(ORG, tid)
    (one, _) = await bot.current(tid)
    # A moderator cancels table 1's game in its thread: nothing is counted.
    await bot.matches.cancel(Player(99, "Mod", is_moderator=True), one.thread_id)
    await bot.service.settle()
    one = await bot.store.tournaments.pairing(tid, 1, 1)
    assert one.waiting and not one.done
    await bot.restart()  # a restart does not replay it behind the organiser's back
    assert (await bot.store.tournaments.pairing(tid, 1, 1)).games_linked == 1
    await play_step(bot, tid)
    assert (await bot.service.get(ORG, tid)).round == 1
    with pytest.raises(TournamentError, match="current round"):
        await bot.service.replay(ORG, tid, 2, 1)
    again = await bot.service.replay(ORG, tid, 1, 1)
    assert again.in_play and again.games_linked == 2 and again.thread_id == one.thread_id
    with pytest.raises(TournamentError, match="already"):
        await bot.service.replay(ORG, tid, 1, 1)
    await play_out(bot, tid)
    assert (await bot.service.get(ORG, tid)).status == "finished"


async def test_cancel_keeps_what_was_played(bot):
    tid = await tournament(bot, 4)
    await bot.service.start(ORG, tid)
    await play_step(bot, tid)
    playing = [p for p in await bot.current(tid) if p.in_play]
    assert len(playing) == 1
    cancelled = await bot.service.cancel(ORG, tid, why="the server is closing")
    assert cancelled.status == "cancelled"
    await bot.service.settle()
    assert (await bot.store.matches.get(playing[0].match_id)).status == "cancelled"
    assert len(await bot.store.stats.player_results(G, 1, "secret")
               + await bot.store.stats.player_results(G, 2, "secret")
               + await bot.store.stats.player_results(G, 3, "secret")
               + await bot.store.stats.player_results(G, 4, "secret")) == 2
    assert bot.board.kinds()[-1] == ("cancelled", 1)
    for action in (bot.service.start(ORG, tid), bot.service.next_round(ORG, tid),
                   bot.service.cancel(ORG, tid), bot.service.join(member(7), tid)):
        with pytest.raises(TournamentError):
            await action
    await bot.restart()
    assert bot.board.kinds().count(("cancelled", 1)) == 1
    (audit,) = [a for a in await bot.store.tournaments.audit(tid) if a.action == "cancel"]
    assert (audit.by_user, audit.why) == (ORG.user_id, "the server is closing")


# -- brackets -----------------------------------------------------------------------------
async def test_a_four_player_single_elimination(bot):
    tid = await tournament(bot, 4, format="single", best_of=3)
    view = await bot.service.start(ORG, tid)
    assert len(view.pairings) == 2 and all(p.label for p in view.pairings)
    await play_out(bot, tid)
    t = await bot.service.get(ORG, tid)
    assert (t.status, t.round) == ("finished", 2)
    (final,) = await bot.store.tournaments.pairings(tid, 2)
    assert final.label and final.games_linked == 2
    standings = await bot.service.standings(ORG, tid)
    finalist = next(u for u in final.seats if u != 1)
    assert [line.standing.entrant for line in standings.lines[:2]] == [1, finalist]
    assert (await bot.service.bracket(ORG, tid)) is not None
    assert bot.board.kinds() == [("round", 1), ("round", 2), ("finished", 2)]


async def test_double_elimination_plays_to_a_champion(bot):
    tid = await tournament(bot, 4, format="double")
    await bot.service.start(ORG, tid)
    await play_out(bot, tid)
    assert (await bot.service.get(ORG, tid)).status == "finished"
    assert (await bot.service.standings(ORG, tid)).lines[0].standing.entrant == 1


async def test_swiss_with_a_top_cut_survives_restarts_in_the_cut(bot):
    tid = await tournament(bot, 8, top_cut=4)

    def loser(pairing: PairingRow, users: tuple[int, ...]) -> int:
        # Swiss: the higher id loses; the cut: the lower id (so the cut changes the order).
        return min(users) if pairing.stage == "cut" else max(users)

    await bot.service.start(ORG, tid)
    while (await bot.service.get(ORG, tid)).cut_after is None:
        assert await play_step(bot, tid, loser)
    t = await bot.service.get(ORG, tid)
    assert t.cut_after == 3 and t.round == 4
    swiss = [line.standing.entrant for line in (await bot.service.standings(ORG, tid)).lines]
    cut_seeds = {e.user_id: e.cut_seed for e in await bot.service.entrants(ORG, tid)
                 if e.cut_seed is not None}
    assert sorted(cut_seeds, key=cut_seeds.get) == swiss[:4]
    semis = await bot.current(tid)
    by_seed = {seed: user for user, seed in cut_seeds.items()}
    assert [set(p.seats) for p in semis] == [{by_seed[1], by_seed[4]}, {by_seed[2], by_seed[3]}]
    assert all(p.stage == "cut" for p in semis)
    while True:  # every step of the cut with a restart after it, the bot dying mid-step
        bot.matches.result_listeners.clear()
        if not await play_step(bot, tid, loser):
            break
        await bot.restart()
    t = await bot.service.get(ORG, tid)
    assert (t.status, t.round) == ("finished", 5)
    final = [line.standing.entrant for line in (await bot.service.standings(ORG, tid)).lines]
    assert final[0] == max(swiss[:4]) and set(final[:4]) == set(swiss[:4])
    assert final[4:] == swiss[4:]
    ranks = {e.user_id: e.final_rank for e in await bot.service.entrants(ORG, tid)}
    assert ranks[final[0]] == 1 and ranks[final[4]] == 5


# -- pods ---------------------------------------------------------------------------------
async def test_a_pods_event_of_a_game_of_three_or_more(bot):
    tid = await tournament(bot, 7, game="eclipse", options={}, format="pods", pod_size=3,
                           rounds=2, pod_points=[4, 2, 1])
    view = await bot.service.start(ORG, tid)
    sizes = sorted(len(p.seats) for p in view.pairings)
    assert sum(sizes) == 7 and all(2 <= size <= 3 for size in sizes)
    assert all(p.label for p in view.pairings)
    for pairing in view.pairings:
        if not pairing.is_bye:
            match = bot.matches.get(pairing.match_id)
            assert len(match.seats) == len(pairing.seats) and match.row.game == "eclipse"
    # In each pod the highest id forfeits, then the next; a restart after every step.
    await play_out(bot, tid, between=bot.restart)
    t = await bot.service.get(ORG, tid)
    assert (t.status, t.round) == ("finished", 2)
    pods = [p for p in await bot.store.tournaments.pairings(tid) if not p.is_bye]
    assert all(p.done and p.games_linked == 1 for p in pods)
    for pod in pods:  # the last one standing first, the first to leave last
        assert pod.places[pod.seats.index(min(pod.seats))] == 1
        assert pod.places[pod.seats.index(max(pod.seats))] == len(pod.seats)
    standings = await bot.service.standings(ORG, tid)
    assert standings.final and standings.lines[0].standing.points == 8
    assert [n.kind for n in bot.board.notices] == ["round", "round", "finished"]


async def test_a_round_robin_meets_everyone_once(bot):
    tid = await tournament(bot, 5, format="round_robin")
    await bot.service.start(ORG, tid)
    await play_out(bot, tid)
    t = await bot.service.get(ORG, tid)
    assert (t.status, t.round) == ("finished", 5)
    met = opponents(await bot.store.tournaments.pairings(tid))
    assert len(met) == len(set(met)) == 10  # every pair of five, once
    first = (await bot.service.standings(ORG, tid)).lines[0].standing
    assert (first.entrant, first.record) == (1, "5-0-0")  # four wins and a bye


# -- computer players, the tournament's deadline, closes told, dealt seats --------------
async def test_computer_players_enter_and_play_their_own_games(bot):
    tid = await tournament(bot, 2)
    with pytest.raises(NotOrganiser):
        await bot.service.add_computers(member(1), tid, 2)
    with pytest.raises(TournamentError, match="1 to"):
        await bot.service.add_computers(ORG, tid, 0)
    added = await bot.service.add_computers(ORG, tid, 3)
    assert [(e.user_id, e.name, e.checked_in) for e in added] == [
        (-1, "Computer 1", True), (-2, "Computer 2", True), (-3, "Computer 3", True)]
    more = await bot.service.add_computers(ORG, tid, 1)
    assert [e.user_id for e in more] == [-4]
    with pytest.raises(TournamentError, match="at most 512 players; 6 are in"):
        await bot.service.add_computers(ORG, tid, 507)
    assert len(await bot.store.tournaments.entrants(tid)) == 6
    # Check-in closing removes people who did not check in, never a computer.
    await bot.service.open_checkin(ORG, tid)
    await bot.service.checkin(member(1), tid)
    assert await bot.service.close_checkin(ORG, tid) == [2]
    view = await bot.service.start(ORG, tid)
    assert sorted(u for p in view.pairings for u in p.seats) == [-4, -3, -2, -1, 1]
    with pytest.raises(TournamentError):
        await bot.service.add_computers(ORG, tid, 1)  # too late once it runs
    # Pings name only people; every game's computer seats are the computer's.
    assert bot.board.notices[0].mentions == (1,)
    for pairing in view.pairings:
        if pairing.in_play:
            match = bot.matches.get(pairing.match_id)
            assert {s.user_id for s in match.seats if s.is_bot} == {
                u for u in pairing.seats if u < 0}
            assert match.row.host_id == 0  # the bot hosts a tournament game
    # The person plays (here: forfeits); the computers' games end by themselves.
    for _ in range(20):  # three rounds: a few steps each
        if (await bot.service.get(ORG, tid)).status != "running":
            break
        await bot.service.settle()
        mine = [p for p in await bot.current(tid) if 1 in p.seats and p.in_play]
        if mine:
            await bot.matches.forfeit(Player(1, "P1"), mine[0].thread_id)
            await bot.service.settle()
    t = await bot.service.get(ORG, tid)
    assert t.status == "finished"
    games = await bot.service.games(ORG, tid)
    assert games and all(g.outcome == "counted" for g in games)
    ranks = {e.user_id: e.final_rank for e in await bot.store.tournaments.entrants(tid)}
    assert sorted(ranks) == [-4, -3, -2, -1, 1] and None not in ranks.values()
    # Nothing was rated: a game with a computer seat never is.
    assert await bot.store.stats.rating(G, "secret", 1) is None


async def test_a_tournament_of_computers_alone_plays_to_the_end_and_survives_restarts(bot):
    tid = await tournament(bot, 0)
    await bot.service.add_computers(ORG, tid, 5)
    await bot.service.start(ORG, tid)
    await bot.service.settle()
    await bot.restart()
    t = await bot.service.get(ORG, tid)
    assert t.status == "finished" and t.round == 3
    assert [n.kind for n in bot.board.notices][-1] == "finished"
    assert all(not n.mentions for n in bot.board.notices)


async def test_a_player_cannot_cancel_a_tournament_game_a_moderator_can_and_is_told(bot):
    from bot.errors import NotAllowed

    tid = await tournament(bot, 2)
    await bot.service.start(ORG, tid)
    (table,) = await bot.current(tid)
    with pytest.raises(NotAllowed, match="host or a moderator"):
        await bot.matches.cancel(Player(1, "P1"), table.thread_id)
    assert (await bot.store.tournaments.pairing(tid, 1, 1)).in_play
    await bot.matches.cancel(Player(99, "Mod", is_moderator=True), table.thread_id)
    await bot.service.settle()
    closed = [n for n in bot.board.notices if n.kind == "game_closed"]
    assert len(closed) == 1 and closed[0].mentions == (ORG.user_id,)
    english = say(closed[0].text, "en")
    assert "table 1" in english and "/tournament replay table:1" in english
    assert "mesa 1" in say(closed[0].text, "pt_BR")
    # The bot's own closes are not news: a reported result closing a game in play.
    await bot.service.replay(ORG, tid, 1, 1)
    await bot.service.report(ORG, tid, 1, winner=1)
    await bot.service.settle()
    assert len([n for n in bot.board.notices if n.kind == "game_closed"]) == 1


async def test_the_tournament_s_seconds_per_decision_rule_its_games(bot):
    with pytest.raises(TournamentError, match="seconds per decision"):
        await tournament(bot, 2, turn_seconds=5)
    tid = await tournament(bot, 2, turn_seconds=600)
    await bot.service.start(ORG, tid)
    (table,) = await bot.current(tid)
    match = bot.matches.get(table.match_id)
    assert match.turn_seconds == 600
    assert match.row.deadline_at == pytest.approx(bot.clock.now() + 600)
    await bot.restart()
    assert bot.matches.get(table.match_id).turn_seconds == 600
    # An ordinary match keeps the server's deadline.
    other = await bot.matches.open_seated([Player(1, "P1"), Player(2, "P2")], guild_id=G,
                                          channel_id=CHANNEL + 1, game="secret")
    assert other.turn_seconds is None and other.row.deadline_at == pytest.approx(
        bot.clock.now() + TURN)
