"""Leaderboard reads against 10,000 rated players on one server.

Builds a throwaway SQLite store, fills ``ratings`` (and ``players``, for names)
with 10,000 players of one game on one server plus as many noise rows on another
server and in another game, then times what ``/leaderboard`` and ``/rank`` run:
the first, a middle and the last page of :meth:`StatsRepository.leaderboard`,
:meth:`StatsRepository.rank` for a mid-table player and
:meth:`StatsRepository.rated_players`.

It also prints ``EXPLAIN QUERY PLAN`` for the leaderboard and rank queries and
fails (exit 1) unless both seek ``ratings_leaderboard``: no ``SCAN`` of a table,
and no temporary B-tree to sort the leaderboard (the index already holds it in
order). The SQL explained is the SQL the repository actually sent, captured while
calling it, so it cannot drift from ``storage/stats.py``.

Run it with ``python -m bench.leaderboard`` or, with every other benchmark,
``make bench``.
"""

from __future__ import annotations

import asyncio
import math
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from bench.figures import Figure, run_alone
from storage import Database, Store

GUILD = 1_000
GAME = "flank"
OTHER_GUILD = 2_000
OTHER_GAME = "nails"
PLAYERS = 10_000
PAGE = 10
REPEATS = 300
WARMUP = 20
SEED = 20_240_601
STAMP = "2024-06-01T12:00:00+00:00"

Query = tuple[str, tuple | dict]


@dataclass(frozen=True)
class Timing:
    """Wall-clock times of one call, in milliseconds."""

    label: str
    median_ms: float
    p95_ms: float


@dataclass(frozen=True)
class Seeded:
    """What was inserted for the measured server and game: ``(ordinal, user_id)``
    best first, in leaderboard order."""

    table: list[tuple[float, int]]
    noise_rows: int


def _rating_row(rng: random.Random, guild_id: int, game: str,
                user_id: int) -> tuple[int, str, int, float, float, float, int, str]:
    mu = rng.uniform(5.0, 45.0)
    sigma = rng.uniform(0.8, 25.0 / 3.0)
    return (guild_id, game, user_id, mu, sigma, mu - 3.0 * sigma, rng.randint(1, 300), STAMP)


def _insert(players: list[tuple], ratings: list[tuple], conn: sqlite3.Connection) -> None:
    conn.executemany(
        "INSERT INTO players (user_id, name, first_seen, last_seen) VALUES (?, ?, ?, ?)",
        players)
    conn.executemany(
        "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, ordinal, games,"
        " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", ratings)


async def seed(store: Store) -> Seeded:
    """Insert the measured players and the noise rows in one transaction."""
    rng = random.Random(SEED)
    measured = [_rating_row(rng, GUILD, GAME, uid) for uid in range(1, PLAYERS + 1)]
    # Noise the index must skip: the same game on another server (other people),
    # and the same people in another game on this server.
    noise = [_rating_row(rng, OTHER_GUILD, GAME, uid)
             for uid in range(PLAYERS + 1, 2 * PLAYERS + 1)]
    noise += [_rating_row(rng, GUILD, OTHER_GAME, uid) for uid in range(1, PLAYERS + 1)]
    players = [(uid, f"player{uid}", STAMP, STAMP) for uid in range(1, 2 * PLAYERS + 1)]
    await store.db.write(partial(_insert, players, measured + noise))
    table = sorted(((row[5], row[2]) for row in measured), key=lambda t: (-t[0], t[1]))
    return Seeded(table=table, noise_rows=len(noise))


@contextmanager
def recording(db: Database) -> Iterator[list[Query]]:
    """Record every ``(sql, params)`` read through ``db`` while the block runs."""
    seen: list[Query] = []
    fetchall, fetchone = db.fetchall, db.fetchone

    async def record_all(sql: str, params: tuple | dict = ()) -> list:
        seen.append((sql, params))
        return await fetchall(sql, params)

    async def record_one(sql: str, params: tuple | dict = ()) -> object:
        seen.append((sql, params))
        return await fetchone(sql, params)

    # Instance attributes shadow the methods; deleting them restores the originals.
    db.fetchall = record_all
    db.fetchone = record_one
    try:
        yield seen
    finally:
        del db.fetchall
        del db.fetchone


async def captured(db: Database, call: Callable[[], Awaitable[object]]) -> Query:
    """The one query ``call`` sends."""
    with recording(db) as seen:
        await call()
    if len(seen) != 1:
        raise RuntimeError(f"expected one query, saw {len(seen)}")
    return seen[0]


async def query_plan(db: Database, query: Query) -> list[str]:
    """``EXPLAIN QUERY PLAN`` of ``query``, one indented line per step."""
    sql, params = query
    rows = await db.fetchall("EXPLAIN QUERY PLAN " + sql, params)
    depth: dict[int, int] = {}
    lines = []
    for row in rows:
        depth[row["id"]] = depth.get(row["parent"], -1) + 1
        lines.append("  " * depth[row["id"]] + row["detail"])
    return lines


def plan_problems(plan: list[str], *, ordered: bool) -> list[str]:
    """Why ``plan`` does not read ``ratings_leaderboard`` as it should (empty: it does).

    ``ordered``: the query sorts by the index's order, so a temporary B-tree means
    the index was not used for the ``ORDER BY``.
    """
    steps = [line.strip() for line in plan]
    problems = []
    if not any(s.startswith("SEARCH") and "ratings_leaderboard" in s for s in steps):
        problems.append("no SEARCH using ratings_leaderboard")
    problems += [f"full scan: {s}" for s in steps if s.startswith("SCAN")]
    if ordered:
        problems += [f"sorts instead of reading in index order: {s}"
                     for s in steps if "TEMP B-TREE" in s]
    return problems


async def timed(label: str, call: Callable[[], Awaitable[object]],
                repeats: int = REPEATS) -> Timing:
    """Median and 95th percentile (nearest rank) of ``repeats`` awaited calls."""
    for _ in range(WARMUP):
        await call()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - start) * 1000.0)
    samples.sort()
    p95 = samples[math.ceil(0.95 * len(samples)) - 1]
    return Timing(label, statistics.median(samples), p95)


async def check_results(store: Store, seeded: Seeded, mid_user: int) -> list[str]:
    """Sanity checks, so the timings are of queries that return the right thing."""
    stats, table = store.stats, seeded.table
    problems = []
    for offset in (0, PLAYERS // 2, PLAYERS - PAGE):
        page = await stats.leaderboard(GUILD, GAME, offset=offset, limit=PAGE)
        want = [uid for _, uid in table[offset:offset + PAGE]]
        if [row.user_id for row in page] != want:
            problems.append(f"leaderboard page at offset {offset} is not the expected players")
    mid = await stats.rating(GUILD, GAME, mid_user)
    if mid is None:
        problems.append(f"no rating for player {mid_user}")
    else:
        want_rank = 1 + sum(1 for ordinal, _ in table if ordinal > mid.ordinal)
        got_rank = await stats.rank(GUILD, GAME, mid.ordinal)
        if got_rank != want_rank:
            problems.append(f"rank of player {mid_user} is {got_rank}, expected {want_rank}")
    if (count := await stats.rated_players(GUILD, GAME)) != PLAYERS:
        problems.append(f"rated_players is {count}, expected {PLAYERS}")
    return problems


def print_table(timings: list[Timing]) -> None:
    """The timings as a small aligned table."""
    width = max(len(t.label) for t in timings)
    print(f"{'query':<{width}}  {'median ms':>9}  {'p95 ms':>9}")
    print(f"{'-' * width}  {'-' * 9}  {'-' * 9}")
    for t in timings:
        print(f"{t.label:<{width}}  {t.median_ms:>9.3f}  {t.p95_ms:>9.3f}")


async def measure(path: Path) -> tuple[bool, list[Timing]]:
    """Seed a store at ``path``, check plans and results, print timings; returns
    whether every check passed, and the timings."""
    store = await Store.open(path)
    try:
        started = time.perf_counter()
        seeded = await seed(store)
        print(f"seeded {PLAYERS:,} rated players (guild {GUILD}, {GAME}) and "
              f"{seeded.noise_rows:,} noise rows in {time.perf_counter() - started:.2f} s")
        stats = store.stats
        mid_user = seeded.table[PLAYERS // 2][1]
        mid = await stats.rating(GUILD, GAME, mid_user)
        assert mid is not None
        mid_ordinal = mid.ordinal

        failed = False
        explained = [
            ("leaderboard(offset=5000)", True, lambda: stats.leaderboard(
                GUILD, GAME, offset=PLAYERS // 2, limit=PAGE)),
            ("rank(mid player)", False, lambda: stats.rank(GUILD, GAME, mid_ordinal)),
        ]
        for label, ordered, call in explained:
            plan = await query_plan(store.db, await captured(store.db, call))
            print(f"\nEXPLAIN QUERY PLAN {label}:")
            for line in plan:
                print(f"  {line}")
            problems = plan_problems(plan, ordered=ordered)
            for problem in problems:
                print(f"  FAIL: {problem}")
            if not problems:
                print("  ok: seeks ratings_leaderboard")
            failed = failed or bool(problems)

        problems = await check_results(store, seeded, mid_user)
        for problem in problems:
            print(f"FAIL: {problem}")
        failed = failed or bool(problems)

        print(f"\n{REPEATS} timed runs each after {WARMUP} warm-up runs:")
        timings = [
            await timed("leaderboard first page (offset 0)",
                        lambda: stats.leaderboard(GUILD, GAME, offset=0, limit=PAGE)),
            await timed(f"leaderboard middle page (offset {PLAYERS // 2:,})",
                        lambda: stats.leaderboard(GUILD, GAME, offset=PLAYERS // 2,
                                                  limit=PAGE)),
            await timed(f"leaderboard last page (offset {PLAYERS - PAGE:,})",
                        lambda: stats.leaderboard(GUILD, GAME, offset=PLAYERS - PAGE,
                                                  limit=PAGE)),
            await timed("rank (mid player)", lambda: stats.rank(GUILD, GAME, mid_ordinal)),
            await timed("rated_players", lambda: stats.rated_players(GUILD, GAME)),
        ]
        print_table(timings)
    finally:
        await store.close()
    if failed:
        print("\nFAILED: see the FAIL lines above")
    return not failed, timings


def run() -> list[Figure]:
    """The benchmark's figures: whether the index answers, and each query's median."""
    with tempfile.TemporaryDirectory(prefix="croupier-bench-") as tmp:
        ok, timings = asyncio.run(measure(Path(tmp) / "bench.sqlite3"))
    figures = [Figure("leaderboard", f"{PLAYERS:,} players: indexed plans and right answers",
                      1.0 if ok else 0.0, "yes=1", ">=", 1)]
    figures += [Figure("leaderboard", t.label, t.median_ms, "ms median") for t in timings]
    return figures


if __name__ == "__main__":
    raise SystemExit(run_alone(run))
