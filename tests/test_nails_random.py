"""2,000 seeded random games of Hammer & Nails per deck (workshop and space; 1,000
each for 2 and for 4 players): every game ends with a winner, and every tile is in
exactly one place — draw pile, discard pile, a hand or the build stack — after
every step. The games are shared out over the machine's processors."""

from __future__ import annotations

import os
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from rules.nails import GAME as NAILS
from rules.nails import NailsState

GAMES_PER_TABLE = 1000


def play_random(deck: str, seats: int, seed: int) -> NailsState:
    """One game of random legal choices, checking tile conservation at each step."""
    state = NAILS.new({"deck": deck}, seats, seed)
    assert isinstance(state, NailsState)
    rng = random.Random(seed)
    every_tile = sorted(state.deck_def.numbers)
    steps = 0
    while not state.over:
        decision = rng.choice(state.pending())
        state.apply(decision.seat, rng.choice(decision.options))
        steps += 1
        assert state.census() == every_tile, (
            f"{deck}, {seats} players, seed {seed}: a tile is lost or doubled\n"
            f"{state.notation()}")
        assert steps < 2000, f"seed {seed}: the game does not end"
    return state


def play_batch(deck: str, seats: int, seeds: range) -> list[tuple[int, tuple[int, ...], str]]:
    """Play ``seeds``; report each game's seed, places and reason."""
    report = []
    for seed in seeds:
        outcome = play_random(deck, seats, seed).outcome()
        assert outcome is not None
        report.append((seed, outcome.places, outcome.reason))
    return report


@pytest.fixture(scope="module")
def pool():
    with ProcessPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as executor:
        yield executor


@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("deck", ["workshop", "space"])
def test_random_games_end_with_a_winner_and_keep_every_tile(deck: str, seats: int,
                                                             pool) -> None:
    chunks = [range(start, start + 100) for start in range(0, GAMES_PER_TABLE, 100)]
    games = [game for batch in pool.map(play_batch, [deck] * len(chunks),
                                        [seats] * len(chunks), chunks) for game in batch]
    assert len(games) == GAMES_PER_TABLE
    for seed, places, reason in games:
        assert 1 in places, f"seed {seed}: no winner ({reason})"
        if seats == 4:                            # two teams: teammates share a place
            assert places[0] == places[2] and places[1] == places[3]
    shared = sum(places.count(1) > (2 if seats == 4 else 1) for _, places, _ in games)
    assert shared <= GAMES_PER_TABLE // 100, f"{shared} games ended still tied"


@pytest.mark.parametrize("deck", ["workshop", "space", "workshop4"])
def test_what_the_stack_remembers_matches_a_fresh_look(deck: str) -> None:
    """After every step of random games (tiles laid, removed by the mechanic and
    in tie-breaks), the incrementally kept frontier, the top tiles and the nails
    showing are what a fresh look at the stack finds, and the options in
    notation are the placements'."""
    seats = 4 if deck == "workshop4" else 2
    options = {"deck": "workshop", "teams": False} if deck == "workshop4" else {"deck": deck}
    removals = 0
    for seed in range(30):
        state = NAILS.new(options, seats, seed)
        assert isinstance(state, NailsState)
        rng = random.Random(seed)
        while not state.over:
            decision = rng.choice(state.pending())
            state.apply(decision.seat, rng.choice(decision.options))
            removals += decision.kind in ("remove", "tiebreak")
            kept = state.stack.frontier()
            fresh = state.stack.copy()
            fresh.forget()
            assert kept == fresh.frontier(), f"{deck} seed {seed}, step {state.step}"
            assert state.stack.top_tiles() == fresh.top_tiles()
            assert [state.stack.visible_nails(c) for c in state.deck_def.colours] == [
                fresh.visible_nails(c) for c in state.deck_def.colours]
            for number in state.hands[state.turn]:
                tile = state.tiles[number]
                assert state.stack.notations(tile) == [
                    p.notation for p in fresh.placements(tile)]
                assert state.stack.can_place(tile) == bool(state.stack.notations(tile))
    assert removals > 0  # the removal path was exercised
