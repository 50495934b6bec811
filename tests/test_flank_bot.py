"""Flank's computer player: legal, deterministic for a seed, fast, and much
better than a player choosing uniformly at random."""

from __future__ import annotations

import random
import time

import pytest

from rules.flank import GAME as FLANK
from rules.flank import FlankState, choose, parse_cell
from rules.flank.bot import Side, evaluate

MATCHES: list[dict[str, int]] = [{}] * 20 + [{"board": 8, "stoppers": 0}] * 8 + [{"board": 6}] * 12


def play(options: dict[str, int], bot_seat: int, seed: int) -> tuple[bool, float]:
    """One game of the bot against a uniformly random player: (bot won, slowest move)."""
    state = FlankState.new(options, 2, seed)
    rng = random.Random(seed)
    bot_rng = random.Random(seed + 10_000)
    slowest = 0.0
    while not state.over:
        (decision,) = state.pending()
        if decision.seat == bot_seat:
            before = state.notation()
            started = time.perf_counter()
            choice = choose(state, bot_seat, bot_rng)
            slowest = max(slowest, time.perf_counter() - started)
            assert state.notation() == before, "thinking must not change the game"
            assert choice in decision.options
        else:
            choice = rng.choice(decision.options)
        state.apply(decision.seat, choice)
    outcome = state.outcome()
    assert outcome is not None
    return (outcome.winners == (bot_seat,)), slowest


def test_the_bot_beats_a_random_player() -> None:
    wins = 0
    slowest = 0.0
    for game, options in enumerate(MATCHES):
        won, slow = play(options, bot_seat=game % 2, seed=game)
        wins += won
        slowest = max(slowest, slow)
    assert wins >= 0.75 * len(MATCHES), f"the bot won only {wins} of {len(MATCHES)}"
    assert slowest < 1.0  # a sanity ceiling, not a benchmark


def test_the_bot_is_the_registered_computer_player() -> None:
    assert FLANK.bot is choose


@pytest.mark.parametrize("options", [{}, {"board": 8}, {"board": 4, "stoppers": 1}])
def test_the_bot_always_answers_with_a_legal_option(options: dict[str, int]) -> None:
    for seed in range(6):
        state = FlankState.new(options, 2, seed)
        rng = random.Random(seed)
        while not state.over:
            (decision,) = state.pending()
            choice = choose(state, decision.seat, rng)
            assert choice in decision.options
            state.apply(decision.seat, choice)


def test_the_bot_passes_when_it_must() -> None:
    state = FlankState.from_notation("board=4 rows=OX../..../..../....")
    assert choose(state, 0, random.Random(0)) == "pass"


def test_the_bot_is_deterministic_for_a_seed() -> None:
    state = FlankState()
    state.apply(0, "F4")
    picks = {choose(state, 1, random.Random(7)) for _ in range(3)}
    assert len(picks) == 1


def test_the_evaluation_prizes_corners_and_shuns_cells_next_to_empty_corners() -> None:
    def value(extra: str) -> float:
        # The same 8×8 position with one more black card on ``extra``.
        state = FlankState.from_notation("board=8 stoppers=0 at=D4 rows=XO/OX")
        x, y = parse_cell(extra)
        state.discs[0] |= 1 << state.grid.index(x, y)
        me = Side(state.discs[0], 20, 0)
        them = Side(state.discs[1], 20, 0)
        return evaluate(state.grid, me, them, 0, 60)

    assert value("A1") > value("A4") > value("B2")
    assert value("H8") > value("G7")


def test_the_bot_takes_the_winning_last_card() -> None:
    # Black lays its last card: G4 flips two and wins 4–3, D6 or F6 flip one and lose.
    state = FlankState.from_notation("board=0 stoppers=0 at=C3 rows=..../.XOO/.OOO left=1,0")
    assert state.pending()[0].options == ("G4", "D6", "F6")
    assert choose(state, 0, random.Random(0)) == "G4"
