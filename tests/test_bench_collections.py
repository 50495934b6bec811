"""The collections benchmark at a tiny size: every phase runs, is counted and has its
books checked, and the checks find what is wrong when something is."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from bench import collections as bench_collections
from bench.figures import missed
from bot.duel.collections import CollectionService
from storage import Store

TINY_RUNS = {"rare": 1, "uncommon": 2, "common": 3}
"""Runs that run out within a few packs, so the run checks meet exhausted runs."""


def test_the_collections_benchmark_measures_and_checks_every_phase(tmp_path: Path) -> None:
    got = asyncio.run(bench_collections.measure_in(
        tmp_path / "tiny.sqlite3", packs=24, openers=8, run_sizes=TINY_RUNS, trades=60,
        trade_concurrency=12, antes=40, ante_concurrency=10, people=8))

    packs, trades, antes = got.packs, got.trades, got.antes
    assert packs.done == 24 and packs.problems == []
    assert packs.tally["runs ran out"] > 0 and 0 < packs.tally["limited"] < 24 * 15
    # Twelve flows at a time among eight people naming the same few cards: some go
    # through and some are refused, and the books still balance.
    assert trades.done > 0 and sum(trades.refused.values()) > 0
    assert trades.done + sum(trades.refused.values()) == 60
    assert trades.problems == [] and len(trades.latencies) == trades.done
    assert antes.done > 0 and antes.done + sum(antes.refused.values()) == 40
    assert antes.problems == []

    figures = bench_collections.figures(got)
    by_name = {f.name: f for f in figures}
    assert len(by_name) == len(figures) == 9
    assert all(f.group == "collections" and f.unit and f.note for f in figures)
    # The issue sets no target: speeds are reported only; the books' problems gate.
    gating = [f for f in figures if f.target is not None]
    assert {f.name for f in gating} == {"packs: problems in the books",
                                        "trades: problems in the books",
                                        "ante: problems in the books"}
    assert all((f.compare, f.target, f.gates, f.value) == ("<=", 0, True, 0.0)
               for f in gating)
    assert by_name["trades completed"].value > 0 and by_name["pack openings"].value > 0
    assert not missed(figures)


def test_the_checks_find_a_broken_book(tmp_path: Path) -> None:
    guild = bench_collections.TRADE_GUILD

    async def scenario() -> None:
        store = await Store.open(tmp_path / "checks.sqlite3")
        try:
            clock = bench_collections.SteppingClock()
            # Every pack the same (one seed): the third repeats the first's cards.
            service = CollectionService(store, clock, run_sizes=TINY_RUNS,
                                        rng_factory=lambda: random.Random(7))
            people = [1, 2]
            holdings = await bench_collections.claim_starters(service, guild, people)
            before = await bench_collections.copies_of(service, guild, people)
            check = bench_collections.check_books
            assert await check(service, guild, people, before, holdings) == []

            # An offer left open: its copy stays locked.
            card = bench_collections.hot_cards(holdings[1])[0]
            offered = await service.offer(guild, 1, 2, f"1 {card}", "")
            assert any("still locked" in p
                       for p in await check(service, guild, people, before, holdings))
            # The trade done behind the model's back: the holdings disagree.
            accepted = await service.accept(offered.id, 2)
            clock.reach(accepted.confirm_opens_at or clock.now())
            await service.confirm(offered.id, 1)
            await service.confirm(offered.id, 2)
            problems = await check(service, guild, people, before, holdings)
            assert any("holds other than the moves say" in p for p in problems)
            bench_collections.move(holdings, 1, 2, {card: 1})
            assert await check(service, guild, people, before, holdings) == []

            # Packs: the openings check counts every pulled copy against the store.
            opened = [await service.give_pack(bench_collections.PACK_GUILD, 1, 5)
                      for _ in range(3)]
            assert await bench_collections.check_packs(service, opened, 3) == []
            problems = await bench_collections.check_packs(service, opened[:2], 3)
            assert "2 packs opened of 3" in problems
            assert any("copies stored for" in p for p in problems)
        finally:
            await store.close()

    asyncio.run(scenario())
