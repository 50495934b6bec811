"""The benchmarks' own machinery: which figures gate ``make bench``, and the
service benchmark's same-run ratios (the rules core alone replaying exactly the
choices the service committed)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bench import service as bench_service
from bench.figures import Figure, missed, run_alone
from bot.matches.live import LiveMatch
from bot.matches.service import MatchService
from bot.matches.transport import NullTransport
from storage import Store


def test_only_gating_figures_fail_the_run() -> None:
    ratio = Figure("service", "service ÷ raw SQLite", 0.9, "ratio", ">=", 1.0)
    speed = Figure("service", "saturated choices/s", 900.0, "choices/s", ">=", 2_500,
                   gates=False)
    context = Figure("service", "raw SQLite", 5_000.0, "commits/s")
    assert missed([ratio, speed, context]) == [ratio]
    assert missed([speed, context]) == []
    assert run_alone(lambda: [speed, context]) == 0
    assert run_alone(lambda: [ratio]) == 1


def test_the_service_benchmark_measures_its_ratios_in_the_same_run(tmp_path: Path) -> None:
    got = asyncio.run(bench_service.load(tmp_path, 12, 2, 1, 0.3, (0.5,), replay=True,
                                         saturated_seconds=0.3))
    assert all(w.rules_seconds and w.rules_seconds > 0 for w in got.saturated)
    assert all(0 < w.rules_share < 1 for w in got.saturated)
    assert got.shares and got.shares[0][1].offered == pytest.approx(0.5 * got.saturated_rate)

    ratios = {f.name: f for f in bench_service._ratio_figures(got, raw=1_000.0)}
    raw = ratios["service ÷ raw SQLite (1,000 matches, saturated)"]
    assert raw.value == pytest.approx(got.saturated_rate / 1_000.0)
    assert (raw.compare, raw.target, raw.gates) == (">=", 1.0, True)
    rules = ratios["service ÷ rules core alone (same choices)"]
    assert (rules.compare, rules.target, rules.gates) == (">=", 0.6, True)
    share = ratios["paced within p99 25 ms, share of saturated"]
    assert (share.compare, share.target, share.gates) == (">=", 0.5, True)

    # The spec's absolute speeds are reported beside their targets, not gating.
    absolute = [f for f in bench_service._load_figures("1,000 matches", got) if f.target]
    assert absolute and not any(f.gates for f in absolute)


def test_the_replay_plays_the_services_choices_or_fails(tmp_path: Path) -> None:
    async def window() -> tuple[bench_service.Replay, list[LiveMatch]]:
        store = await Store.open(tmp_path / "replay.sqlite3")
        try:
            service = MatchService(store, NullTransport())
            users = bench_service.Users()
            built = await bench_service.new_matches(service, users, range(6))
            slots = [bench_service.Slot(n, m, random.Random(n))
                     for n, m in enumerate(built)]
            replay = bench_service.Replay()
            for slot in slots:
                replay.watch(slot.match)
            tally = bench_service.Tally()
            await asyncio.gather(*(bench_service.saturate(service, users, slot, "t", float("inf"),
                                                          tally, limit=5, replay=replay)
                                   for slot in slots))
            await service.settle()
            return replay, [slot.match for slot in slots]
        finally:
            await store.close()

    replay, matches = asyncio.run(window())
    assert len(replay.choices) == 30
    assert replay.seconds(matches) > 0  # ends where the service did

    # One choice left out: the rules core alone ends elsewhere, and says so.
    replay.choices = replay.choices[:-1]
    with pytest.raises(RuntimeError, match="did not end where the service did"):
        replay.seconds(matches)


def test_the_rules_benchmark_plays_every_game_in_both_modes() -> None:
    import importlib
    import random

    from bench.rules import GAMES_PER_RUN, random_choices
    from rules.registry import GAME_PACKAGES

    shipped = [importlib.import_module(package).GAME for package in GAME_PACKAGES]
    for info in shipped:  # (tests add games of their own to the registry)
        name = info.name
        assert {(name, "computer"), (name, "random")} <= set(GAMES_PER_RUN), name
        state = info.new({}, info.default_seats, 3)
        rng = random.Random(3)
        for _ in range(200):  # random choices of every shape are ones the rules accept
            if state.over:
                break
            for seat, choice in random_choices(info, state, 3, rng):
                state.apply(seat, choice)
