"""Flank's computer player: legal, deterministic for a seed, varied across seeds,
and much better than a player choosing uniformly at random from either seat.

The full figures (200 games per seat) are in docs/rules/flank.md; the test here
plays fewer games, enough that a bot winning less than about 90% would show.
"""

from __future__ import annotations

import random
import time

import pytest

from rules.core import thinking_rng
from rules.flank import GAME as FLANK
from rules.flank import FlankState, choose, parse_cell
from rules.flank.bot import Side, evaluate

BOARDS: list[dict[str, int | str]] = [{"board": 8, "stoppers": 0}] * 8 + [{"board": 6}] * 8
GAMES_PER_SEAT = 40
"""Games against a random player per seat: a bot winning 90% would lose about 4; one
winning 80% would reach the 35 wins asked for about one time in six."""


def think(state: FlankState, seat: int) -> str:
    """The bot's choice with the RNG the platform would give it."""
    return choose(state, seat, thinking_rng(state.seed, state.step, seat))


def play(options: dict[str, int | str], bot_seat: int, seed: int) -> tuple[bool, float]:
    """One game of the bot against a uniformly random player: (bot won, slowest move)."""
    state = FlankState.new(options, 2, seed)
    rng = random.Random(f"random:{seed}")
    slowest = 0.0
    while not state.over:
        (decision,) = state.pending()
        if decision.seat == bot_seat:
            before = state.notation()
            started = time.perf_counter()
            choice = think(state, bot_seat)
            slowest = max(slowest, time.perf_counter() - started)
            assert state.notation() == before, "thinking must not change the game"
            assert choice in decision.options
        else:
            choice = rng.choice(decision.options)
        state.apply(decision.seat, choice)
    outcome = state.outcome()
    assert outcome is not None
    return (outcome.winners == (bot_seat,)), slowest


def self_play(options: dict[str, int | str], seed: int) -> tuple[str, ...]:
    """The choices of one computer-against-computer game."""
    state = FlankState.new(options, 2, seed)
    log = []
    while not state.over:
        (decision,) = state.pending()
        choice = think(state, decision.seat)
        state.apply(decision.seat, choice)
        log.append(choice)
    return tuple(log)


@pytest.mark.slow
@pytest.mark.parametrize("bot_seat", [0, 1])
def test_the_bot_beats_a_random_player_from_either_seat(bot_seat: int) -> None:
    # The default game; the first player is drawn from each seed, so the bot plays
    # black in some games and white in the others.
    results = [play({}, bot_seat, seed) for seed in range(GAMES_PER_SEAT)]
    wins = sum(won for won, _ in results)
    assert wins >= 35, f"seat {bot_seat}: {wins} of {GAMES_PER_SEAT}"
    assert max(slow for _, slow in results) < 1.0  # a sanity ceiling, not a benchmark


def test_the_bot_beats_a_random_player_on_boards() -> None:
    wins = sum(play(options, game % 2, game)[0] for game, options in enumerate(BOARDS))
    assert wins >= 0.75 * len(BOARDS), f"the bot won only {wins} of {len(BOARDS)}"


def test_two_seeds_give_two_computer_games() -> None:
    games = {self_play({}, seed) for seed in range(6)}
    assert len(games) == 6
    # Not only the first move differs (any of the four is as good as the others).
    assert len({game[2:12] for game in games}) >= 5


def test_ties_are_broken_by_the_rng_it_is_given() -> None:
    # The four opening placements are mirror images: the bot's RNG picks among them.
    state = FlankState({"stoppers": 0}, first=0)
    picks = {choose(state, 0, random.Random(n)) for n in range(12)}
    assert picks == {"E3", "F4", "C5", "D6"}


def test_the_bot_never_picks_a_stopper_the_rules_refuse() -> None:
    # C1 is black's only placement; a stopper on it would leave white without a move.
    state = FlankState.from_notation("rows=XO../...O")
    assert [choose(state, 0, random.Random(n)) for n in range(4)] == ["C1"] * 4
    ring = FlankState.from_notation("rows=XO../...O stopper_zone=ring")
    assert choose(ring, 0, random.Random(0)) in ("C1", "C1*")


def test_the_bot_is_the_registered_computer_player() -> None:
    assert FLANK.bot is choose


@pytest.mark.parametrize("options", [{}, {"board": 8}, {"board": 4, "stoppers": 1},
                                     {"stopper_zone": "ring"}, {"stopper_zone": "orthogonal"}])
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
    state = FlankState(first=0)
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
