"""Seeded random games of Eclipse at 2, 3, 4 and 6 players: each ends with one
player left or at the hand cap (the only two ends, docs/rules/eclipse.md), its
places rank every seat once, and every card is in exactly one place — deck, a
hand, a subset, the safe set, in play, or out of the game — after every step.

Without an early end, random games of four or more players mostly run to the
cap of 400 hands, so the bigger tables play fewer games, each covering more
hands. The big batch is marked slow; a small one runs first.

The games are independent and the rules are pure, so they are shared out over
the machine's processors."""

from __future__ import annotations

import os
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from bot.i18n import say
from rules.eclipse import GAME as ECLIPSE
from rules.eclipse import EclipseState
from rules.eclipse.state import LAST_STANDING
from rules.phrases import Words

TABLES = (2, 3, 4, 6)
GAMES = {2: 500, 3: 400, 4: 150, 6: 120}
"""Games per table in the slow batch: about 150,000 hands in all (the 2,000 games
of four tables with the early end played about 100,000), in about the same time."""
QUICK_GAMES = 12
CHUNK = 25


def play_random(seats: int, seed: int) -> EclipseState:
    """One game of random legal choices, checking card conservation at each step."""
    state = ECLIPSE.new({}, seats, seed)
    assert isinstance(state, EclipseState)
    rng = random.Random(seed)
    every_card = list(range(len(state.cards)))
    while not state.over:
        decision = rng.choice(state.pending())
        state.apply(decision.seat, rng.choice(decision.options))
        census = state.census()
        assert sorted(census) == every_card and max(census.values()) == 1, (
            f"{seats} seats, seed {seed}: a card is lost or doubled\n{state.notation()}")
    return state


def play_batch(seats: int, seeds: range) -> list[tuple[int, tuple[int, ...], bool, Words]]:
    """Play ``seeds`` and report each game: (seed, places, ended by the cap, why)."""
    report = []
    for seed in seeds:
        state = play_random(seats, seed)
        outcome = state.outcome()
        assert outcome is not None
        live = [s for s in range(seats) if not state.out[s]]
        if len(live) == 1:
            assert outcome.winners == (live[0],), f"seed {seed}: the wrong winner"
            assert outcome.reason == LAST_STANDING
        else:
            assert state.hands_played == state.options.hand_cap, (
                f"seed {seed}: stopped early\n{state.notation()}")
        # The last one out ranks best among those out; the first one out is last.
        out_places = [outcome.places[s] for s in state.eliminated]
        assert out_places == list(range(seats, len(live), -1)), f"seed {seed}: {out_places}"
        report.append((seed, outcome.places, len(live) > 1, outcome.reason))
    return report


def play_table(seats: int, seeds: range, pool: ProcessPoolExecutor | None
               ) -> list[tuple[int, tuple[int, ...], bool, Words]]:
    """Play ``seeds`` at a table of ``seats`` (on ``pool`` if given) and check the ends."""
    chunks = [seeds[i:i + CHUNK] for i in range(0, len(seeds), CHUNK)]
    mapped = pool.map(play_batch, [seats] * len(chunks), chunks) if pool else map(
        play_batch, [seats] * len(chunks), chunks)
    games_played = [game for batch in mapped for game in batch]
    assert [seed for seed, *_ in games_played] == list(seeds)
    for seed, places, capped, reason in games_played:
        assert sorted(places) == list(range(1, seats + 1)), f"seed {seed}: places {places}"
        assert say(reason, "en").startswith("400 hands played") is capped, f"seed {seed}: {reason}"
    return games_played


@pytest.fixture(scope="module")
def pool():
    with ProcessPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as executor:
        yield executor


@pytest.mark.parametrize("seats", TABLES)
def test_a_few_random_games_end_properly_and_conserve_cards(seats: int) -> None:
    play_table(seats, range(10_000, 10_000 + QUICK_GAMES), None)


@pytest.mark.slow
@pytest.mark.parametrize("seats", TABLES)
def test_random_games_end_properly_and_conserve_cards(seats: int, pool) -> None:
    games = play_table(seats, range(GAMES[seats]), pool)
    # Random play is aimless: at big tables it rarely eliminates everyone before the
    # cap, but two or three random players do knock each other out.
    if seats <= 3:
        assert sum(not capped for *_, capped, _ in games) >= GAMES[seats] // 2
