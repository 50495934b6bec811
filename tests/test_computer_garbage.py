"""A computer decision leaves no cyclic garbage: what it built is freed as soon as it
returns. The bot runs with a full collection only every so often (``tune_gc``), and a
worker process that thinks all day would otherwise hold each search's tables until then
(Flank's ``hard`` once kept a bound method on its search: 3 GB in a benchmark's worker)."""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator

import pytest

from rules.core import LEVELS
from rules.registry import shipped_games
from rules.thinking import counting_clock

TICK = 0.02
"""Seconds the counting clock moves a reading: a search by the clock ends quickly."""


@pytest.fixture
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", sorted(shipped_games()))
def test_a_decision_leaves_no_cyclic_garbage(name: str, level: str, no_collector: None) -> None:
    info = shipped_games()[name]
    state = info.new({}, 2, 7)
    rng = random.Random(3)
    for _ in range(6):  # a little way in: past the openings' forced steps
        for decision in state.pending():
            state.apply(decision.seat, decision.forced or rng.choice(decision.options))
    assert state.outcome() is None
    player = info.computer(level)
    with counting_clock(TICK):
        for decision in state.pending():
            player(state.copy(), decision.seat, random.Random(1))
    assert gc.collect() == 0
