"""The web benchmark at a tiny size: it fills a Swiss through the store's tournament
writes, serves its page from the real application and reports its figures with their
targets (the page as served and the median of the page worked out afresh gating)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bench import web as bench_web
from bench.figures import missed
from storage import Store


def test_the_web_benchmark_times_the_tournament_page_and_its_poll(tmp_path: Path) -> None:
    got = asyncio.run(bench_web.measure(tmp_path, players=12, rounds=3, requests=6, cold=2))
    assert (got.players, got.rounds) == (12, 3)
    assert len(got.page_ms) == len(got.version_ms) == 6 and len(got.cold_ms) == 2
    assert all(ms > 0 for ms in got.page_ms + got.cold_ms + got.version_ms + got.standings_ms)
    assert got.page_bytes > 5_000

    figures = bench_web.figures(got)
    assert [f.name for f in figures] == [
        "tournament page, 12-player Swiss, 3 rounds: median",
        "tournament page, 12-player Swiss, 3 rounds: p95",
        "tournament page worked out afresh, 12-player Swiss, 3 rounds: median",
        "tournament page worked out afresh, 12-player Swiss, 3 rounds: p95",
        "version poll: median",
        "the service's standings alone (read and ranked), 12-player Swiss, 3 rounds: median"]
    assert all(f.group == "web" for f in figures)
    assert [f.target for f in figures] == [bench_web.TARGET_MS] * 5 + [None]
    assert [f.gates for f in figures[:5]] == [True, True, True, False, True]
    assert not missed(figures)


def test_the_filled_swiss_has_its_rounds_played_and_the_next_paired(tmp_path: Path) -> None:
    async def filled() -> tuple[int, int, int]:
        store = await Store.open(tmp_path / "fill.sqlite3")
        try:
            tid = await bench_web.fill(store, 10, 2)
            tournament = await store.tournaments.get(tid)
            pairings = await store.tournaments.pairings(tid)
            assert tournament is not None
            return (tournament.round, sum(p.done for p in pairings if p.round <= 2),
                    sum(not p.done for p in pairings))
        finally:
            await store.close()

    round_no, done, waiting = asyncio.run(filled())
    assert (round_no, done, waiting) == (3, 10, 5)
