"""Ratings, records, streaks, head-to-head and leaderboards, on real SQLite.

Ratings are checked against openskill's own ``rate`` on the same inputs; a
seeded history of 200 matches is checked against figures worked out here
independently of the queries."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest
from openskill.models import PlackettLuce

from bot.matches.live import Player
from bot.matches.ratings import RATER, is_rated
from bot.stats.service import StatsService
from storage import SeatResult, SeatRow, Store

pytestmark = pytest.mark.engines  # the tests that take a `store` run on both engines

GUILD = 77


async def finish(store: Store, game: str, places: dict[int | None, int], *,
                 guild: int | None = GUILD, bots: int = 0, channel: int = 1,
                 rater=RATER) -> int:
    """Record a finished match: ``places`` maps user ids to places."""
    seats = [SeatRow(i, user, f"P{user}") for i, user in enumerate(places)]
    seats += [SeatRow(len(seats) + b, None, f"Bot{b}", is_bot=True) for b in range(bots)]
    match_id = await store.matches.create_lobby(
        game=game, options={}, seed=1, guild_id=guild, channel_id=channel,
        host_id=seats[0].user_id or 0, max_seats=len(seats), seats=seats)
    await store.matches.start(match_id, seats, None)
    result = [SeatResult(s.seat, s.user_id, s.is_bot,
                         places[s.user_id] if not s.is_bot else len(seats), None) for s in seats]
    use = rater if is_rated(guild, result) else None
    await store.matches.record(match_id, [], deadline_at=None, result=("done", result),
                               rater=use)
    return match_id


def flat(pairs):
    return [x for pair in pairs for x in pair]


def expected(prior, places):
    model = PlackettLuce()
    teams = [[model.rating() if p is None else model.rating(mu=p[0], sigma=p[1])]
             for p in prior]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=places)]


async def test_a_two_player_win_and_a_draw_match_openskill(store):
    await finish(store, "flank", {1: 1, 2: 2})
    want = expected([None, None], [1, 2])
    for user, (mu, sigma) in zip((1, 2), want, strict=True):
        row = await store.stats.rating(GUILD, "flank", user)
        assert row is not None and (row.mu, row.sigma) == pytest.approx((mu, sigma))
        assert row.ordinal == pytest.approx(mu - 3 * sigma) and row.games == 1
    await finish(store, "flank", {1: 1, 2: 1})                       # a draw
    want = expected([want[0], want[1]], [1, 1])
    got = [await store.stats.rating(GUILD, "flank", u) for u in (1, 2)]
    assert flat([(g.mu, g.sigma) for g in got]) == pytest.approx(flat(want))


@pytest.mark.parametrize("places", [
    [1, 2, 3], [1, 1, 3], [2, 1, 3, 4], [1, 2, 2, 4, 5], [3, 1, 2, 6, 4, 5], [1, 1, 1, 4, 4, 6]])
async def test_three_to_six_player_orders_with_ties_match_openskill(store, places):
    users = list(range(10, 10 + len(places)))
    # A first match gives everyone a rating, so the second starts from real priors.
    await finish(store, "eclipse", dict(zip(users, [2, 1] + [3] * (len(users) - 2),
                                            strict=True)))
    prior = [await store.stats.rating(GUILD, "eclipse", u) for u in users]
    await finish(store, "eclipse", dict(zip(users, places, strict=True)))
    want = expected([(p.mu, p.sigma) for p in prior], places)
    got = [await store.stats.rating(GUILD, "eclipse", u) for u in users]
    assert flat([(g.mu, g.sigma) for g in got]) == pytest.approx(flat(want))
    changes = await store.stats.player_results(GUILD, users[0], "eclipse")
    assert changes[-1].change == pytest.approx(got[0].ordinal - prior[0].ordinal)


async def test_games_with_computer_players_away_from_a_server_or_cancelled_rate_nobody(store):
    await finish(store, "flank", {1: 1}, bots=1)
    await finish(store, "flank", {1: 1, 2: 2}, guild=None)
    match_id = await store.matches.create_lobby(
        game="flank", options={}, seed=1, guild_id=GUILD, channel_id=9, host_id=1,
        max_seats=2, seats=[SeatRow(0, 1, "P1"), SeatRow(1, 2, "P2")])
    await store.matches.set_status(match_id, "cancelled")
    assert await store.stats.rated_players(GUILD, "flank") == 0
    results = await store.stats.player_results(GUILD, 1, "flank")
    assert len(results) == 1 and results[0].vs_computer and not results[0].rated


class Broken:
    """A rater that fails between the result and the ratings (module-level: the
    writer process unpickles it)."""

    def initial(self):
        return RATER.initial()

    def rate(self, prior, places):
        raise RuntimeError("the rater fails between the result and the ratings")

    def ordinal(self, mu, sigma):
        return RATER.ordinal(mu, sigma)


async def test_the_rating_and_the_result_are_one_transaction(store):
    with pytest.raises(RuntimeError, match="between the result and the ratings"):
        await finish(store, "flank", {1: 1, 2: 2}, rater=Broken())
    row = await store.db.fetchone("SELECT COUNT(*) AS n FROM results")
    assert row["n"] == 0
    assert await store.stats.rated_players(GUILD, "flank") == 0
    status = await store.db.fetchone("SELECT status FROM matches")
    assert status["status"] == "active"


async def test_a_seeded_history_of_200_matches(store):
    rng = random.Random(2026)
    players = list(range(1, 9))
    log: list[tuple[str, dict[int, int]]] = []
    for n in range(200):
        game = rng.choice(["flank", "eclipse"])
        count = 2 if game == "flank" else rng.randint(2, 4)
        table = rng.sample(players, count)
        if game == "flank":
            places = [1, 1] if rng.random() < 0.15 else rng.sample([1, 2], 2)
        else:
            places = sorted(rng.choice([1, 2, 2, 3][:count]) for _ in table)
            places[0] = 1
            rng.shuffle(places)
        log.append((game, dict(zip(table, places, strict=True))))
        await finish(store, game, log[-1][1], channel=n + 100)

    service = StatsService(store)
    # Records and streaks, worked out here from the log itself.
    for user in (1, 5):
        for game in ("flank", "eclipse"):
            mine = [(places[user], places) for g, places in log if g == game and user in places]
            won = sum(1 for p, all_ in mine if p == 1 and set(all_.values()) != {1})
            drawn = sum(1 for _, all_ in mine if set(all_.values()) == {1})
            streak = best = 0
            for p, all_ in mine:
                streak = streak + 1 if p == 1 and set(all_.values()) != {1} else 0
                best = max(best, streak)
            [report] = await service.reports(GUILD, user, game)
            record = report.record
            assert (record.played, record.won, record.drawn, record.lost) == (
                len(mine), won, drawn, len(mine) - won - drawn)
            assert (record.streak, record.best_streak) == (streak, best)
            assert len(report.ordinals) == len(mine)

    # Head to head: who finished ahead whenever players 1 and 2 met.
    met = [(p[1], p[2]) for _, p in log if 1 in p and 2 in p]
    h2h = await service.head_to_head(GUILD, 1, 2)
    assert (h2h.matches, h2h.ahead, h2h.behind, h2h.level) == (
        len(met), sum(a < b for a, b in met), sum(a > b for a, b in met),
        sum(a == b for a, b in met))

    # The leaderboard: everyone by ordinal, best first, with ranks that agree.
    ratings = defaultdict(lambda: None)
    for game, places in log:
        users = list(places)
        if game != "eclipse":
            continue
        new = RATER.rate([ratings[u] for u in users], [places[u] for u in users])
        for u, r in zip(users, new, strict=True):
            ratings[u] = r
    board = await service.leaderboard(GUILD, "eclipse", page=1)
    ordinals = {u: RATER.ordinal(*r) for u, r in ratings.items()}
    assert [row.user_id for row in board.rows] == sorted(
        ordinals, key=lambda u: (-ordinals[u], u))
    assert [row.ordinal for row in board.rows] == pytest.approx(
        sorted(ordinals.values(), reverse=True))
    [report] = await service.reports(GUILD, board.rows[2].user_id, "eclipse")
    assert report.rank == 3 and report.rated_players == len(ordinals)

    history = await service.history(GUILD, 1, limit=5)
    assert len(history) == 5 and history[0].match_id > history[-1].match_id


async def test_a_moderator_resets_a_leaderboard(store):
    await finish(store, "flank", {1: 1, 2: 2})
    service = StatsService(store)
    with pytest.raises(Exception, match="moderator"):
        await service.reset(Player(1, "P1"), GUILD, "flank")
    assert await service.reset(Player(9, "Mod", is_moderator=True), GUILD, "flank") == 2
    assert (await service.leaderboard(GUILD, "flank")).total == 0
    assert await service.reports(GUILD, 1, "flank") == []


def test_the_stats_reply_draws_a_chart_after_five_rated_matches_and_pages_buttons():
    from bot.discord_side.stats_presenter import leaderboard_parts, stats_parts
    from bot.discord_side.stats_views import leaderboard_buttons
    from bot.stats.service import GameReport, LeaderboardPage, Record

    record = Record("flank", 6, 4, 2, 0, 1, 3, "2026-11-21", rated=6)
    few = GameReport(record, None, None, 0, (1.0, 2.0, 3.0, 4.0))
    many = GameReport(record, None, None, 0, (1.0, 2.0, 3.0, 4.0, 3.5))
    assert stats_parts("Ada", [few])["attachments"] == []
    [chart] = stats_parts("Ada", [many])["attachments"]
    assert chart.fp.read().startswith(b"\x89PNG")
    buttons = leaderboard_buttons("flank", 1, 3)
    assert [b.item.custom_id for b in buttons] == ["cr:lb:flank:2"]
    middle = leaderboard_buttons("flank", 2, 3)
    assert [b.item.label for b in middle] == ["◀ Back", "More ▶"]
    page = LeaderboardPage("flank", (), 1, 1, 0)
    assert leaderboard_parts(page)["view"] is None
